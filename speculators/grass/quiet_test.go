package grass

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// WantsSlot's quiet time (quiet.go) must never answer no where Γ computed
// afresh at the same instant would name a copy. Random jobs (Pareto task
// times, reports every 3 s, copies started when Γ asks for them, exact,
// error-bound and deadline-bound, with and without earlier jobs' prior, the
// prior growing while the job runs) are asked every 100 ms between their
// events; each answer is checked against Γ recomputed from nothing. The
// test also requires that the quiet answer was used, so that it checks
// something.
func TestQuietMatchesGamma(t *testing.T) {
	quietAnswers := 0
	for _, name := range []string{"gs", "ras"} {
		for seed := uint64(1); seed <= 12; seed++ {
			name, seed := name, seed
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				quietAnswers += quietRun(t, name, seed)
			})
		}
	}
	if quietAnswers == 0 {
		t.Fatal("no answer came from a quiet time: the test checks nothing")
	}
}

// quietRun plays one random job and returns how many answers came from a
// quiet time.
func quietRun(t *testing.T, name string, seed uint64) int {
	rng := rand.New(rand.NewPCG(seed, 31))
	const maps = 12
	sizes := make([]int64, maps)
	for i := range sizes {
		sizes[i] = 10 * unit
		if seed%3 == 0 {
			sizes[i] = int64(5+rng.IntN(10)) * unit // unequal inputs
		}
	}
	info := speculators.JobInfo{ID: "job_quiet", Maps: maps, MapInputBytes: sizes, Slots: maps}
	switch seed % 4 {
	case 1:
		info.ErrorBound = 0.25
	case 2:
		info.Deadline = ms(40)
	}
	var prior speculators.Prior
	var store *MemoryStore
	if seed%2 == 0 {
		store = NewMemoryStore()
		for range 5 {
			store.AddRuntime(speculators.Map, 8*unit+float64(rng.IntN(6*unit)), 10*unit)
		}
		prior = store
	}
	h := spectest.New(t, registry(t), spectest.Job{Policy: name, Info: info, Seed: seed, Prior: prior})
	p := h.Engine.Policy.(*policy)
	h.Engine.OfferSlots()

	type attempt struct {
		id         speculators.AttemptID
		start, end speculators.Time
		done       bool
	}
	var runs []*attempt
	taskDone := make([]bool, maps)
	start := func(i int, at speculators.Time, copy bool) {
		task := speculators.TaskID{Type: speculators.Map, Index: int32(i)}
		dur := float64(sizes[i]) * (0.6 + 0.4/math.Pow(1-rng.Float64(), 1/1.5))
		var id speculators.AttemptID
		if copy {
			id = h.StartCopy(task, speculators.NodeID(fmt.Sprintf("n%d", len(runs))), at)
		} else {
			id = h.Start(task, speculators.NodeID(fmt.Sprintf("n%d", len(runs))), at)
		}
		runs = append(runs, &attempt{id: id, start: at, end: at + speculators.Time(dur)})
	}
	// Most maps start at once; the rest join in later, one a few seconds.
	first := maps - 3
	for i := range first {
		start(i, 0, false)
	}
	next := first
	quiet := 0
	for now := speculators.Time(0); now <= ms(200); now += 100 {
		changed := false
		if now%3000 == 0 && now > 0 {
			for _, r := range runs {
				if !r.done && now < r.end {
					h.Status(r.id, now, float64(now-r.start)/float64(r.end-r.start))
					changed = true
				}
			}
		}
		for _, r := range runs {
			i := int(r.id.Task.Index)
			if r.done || now < r.end {
				continue
			}
			r.done = true
			if taskDone[i] {
				continue
			}
			taskDone[i] = true
			h.Succeed(r.id, now)
			for _, o := range runs {
				if o != r && !o.done && o.id.Task == r.id.Task {
					o.done = true
					h.Kill(o.id, now)
				}
			}
			changed = true
			if store != nil {
				store.Keep(h.Learned())
			}
		}
		if next < maps && now > 0 && now%5000 == 0 {
			start(next, now, false)
			next++
			changed = true
		}
		if now%1000 == 0 {
			h.Engine.Decide(now)
		}
		if store != nil && now%7000 == 0 {
			// Another job learns: the prior moves under this one.
			store.AddRuntime(speculators.Map, 4*unit+float64(rng.IntN(12*unit)), 10*unit)
		}
		_ = changed
		q := p.quiet
		fromQuiet := q.valid && q.ver == p.ver && q.gs == p.useGS && now >= q.from && now < q.until && p.priorHolds()
		got := h.Engine.WantsSlot(now)
		p.gamma.valid = false
		g := p.gammaAt(h.Job(), now)
		want := g.first >= 0 && g.set[g.first].running
		if got != want {
			t.Fatalf("%s seed %d at %d ms: WantsSlot %v, Γ afresh %v (quiet %v..%v, from the quiet time %v)", name, seed, now, got, want, q.from, q.until, fromQuiet)
		}
		if fromQuiet {
			quiet++
		}
		if want && now%2000 == 0 {
			// Start the copy Γ asks for now and then, as a scheduler would.
			c := g.set[g.first]
			start(int(c.task.ID.Index), now, true)
		}
	}
	return quiet
}
