package mantri

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// WantsSlot's quiet time must never answer no where the duplicate
// candidates ranked afresh at the same instant hold a copyable task. Random
// jobs (Pareto task times, maps and reduces, reports every 3 s, copies
// started when asked for) are asked every 100 ms; the test also requires
// that the quiet answer was used.
func TestQuietMatchesCandidates(t *testing.T) {
	quiet := 0
	for seed := uint64(1); seed <= 16; seed++ {
		rng := rand.New(rand.NewPCG(seed, 5))
		const maps, reduces = 12, 2
		sizes := make([]int64, maps)
		for i := range sizes {
			sizes[i] = int64(5+rng.IntN(10)) << 20
		}
		h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_quiet", Maps: maps, Reduces: reduces, MapInputBytes: sizes, Slots: 20}, nil)
		p := h.Engine.Policy.(*policy)
		h.Engine.OfferSlots()
		type attempt struct {
			id         speculators.AttemptID
			start, end speculators.Time
			done       bool
			// brk: from this fraction of its time on, a third of the
			// attempts report a tenth of the progress rate (a straggler
			// seen only later), so a report can bring a task's quiet time
			// forward.
			brk float64
		}
		var runs []*attempt
		done := map[speculators.TaskID]bool{}
		start := func(task speculators.TaskID, at speculators.Time, copy bool) {
			dur := 8000 / math.Pow(1-rng.Float64(), 1/1.5)
			node := speculators.NodeID(fmt.Sprintf("n%d", len(runs)))
			var id speculators.AttemptID
			if copy {
				id = h.StartCopy(task, node, at)
			} else {
				id = h.Start(task, node, at)
			}
			brk := 2.0
			if rng.IntN(3) == 0 {
				brk = 0.2 + 0.5*rng.Float64()
			}
			runs = append(runs, &attempt{id: id, start: at, end: at + speculators.Time(dur), brk: brk})
		}
		for i := range maps {
			start(spectest.Map(i), 0, false)
		}
		for i := range reduces {
			start(speculators.TaskID{Type: speculators.Reduce, Index: int32(i)}, 0, false)
		}
		for now := speculators.Time(0); now <= 120000; now += 100 {
			{
				for _, r := range runs {
					// Each attempt reports every 3 s from its own start.
					if !r.done && now < r.end && now > r.start && (now-r.start)%3000 == 0 {
						prog := float64(now-r.start) / float64(r.end-r.start)
						if prog > r.brk {
							prog = r.brk + (prog-r.brk)/10
						}
						if r.id.Task.Type == speculators.Reduce {
							h.Observe(speculators.Event{Kind: speculators.AttemptStatus, Time: now, Attempt: r.id, Progress: prog, Phase: speculators.PhaseReduce})
						} else {
							h.Status(r.id, now, prog)
						}
					}
				}
			}
			for _, r := range runs {
				if r.done || now < r.end {
					continue
				}
				r.done = true
				if done[r.id.Task] {
					continue
				}
				done[r.id.Task] = true
				h.Succeed(r.id, now)
				for _, o := range runs {
					if o != r && !o.done && o.id.Task == r.id.Task {
						o.done = true
						h.Kill(o.id, now)
					}
				}
			}
			if now%1000 == 0 {
				h.Engine.Decide(now)
			}
			fromQuiet := p.quietValid && p.quietVer == p.ver && now >= p.quietFrom && now < p.quietUntil
			got := h.Engine.WantsSlot(now)
			p.dupValid = false
			want := false
			var pick cand
			for _, c := range p.dupsAt(h.Job(), now) {
				if p.copyable(c) {
					want, pick = true, c
					break
				}
			}
			if got != want {
				t.Fatalf("seed %d at %d ms: WantsSlot %v, candidates afresh %v (quiet %d..%d, from it %v)", seed, now, got, want, p.quietFrom, p.quietUntil, fromQuiet)
			}
			if fromQuiet {
				quiet++
			}
			if want && now%2000 == 0 {
				start(pick.task.ID, now, true)
			}
		}
	}
	if quiet == 0 {
		t.Fatal("no answer came from a quiet time: the test checks nothing")
	}
}
