package grass

import (
	"fmt"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// With reduce-copies-after-maps on (auto's rule v47), a reduce in its copy
// phase that has copied as much as the maps done is no candidate for a
// copy. WantsSlot answers from kept state between events (the quiet time,
// Γ kept at an instant or in part), so each of its answers must be Γ
// computed afresh's: random jobs whose reduces start with the maps (slow
// start 0) and report their copy phase at the maps' pace, then their
// reduce phase, are asked every 100 ms, and a copy is started where Γ
// afresh wants one, as a scheduler would. The test fails if no reduce was
// ever held back, or no answer came from a quiet time.
func TestReduceHoldMatchesGamma(t *testing.T) {
	held, quiet := 0, 0
	for _, name := range []string{"gs", "ras", "grass"} {
		for seed := uint64(1); seed <= 16; seed++ {
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				h, q := holdRun(t, name, seed)
				held += h
				quiet += q
			})
		}
	}
	if held == 0 || quiet == 0 {
		t.Fatalf("%d asks with a reduce held back, %d answers from a quiet time: the test checks too little", held, quiet)
	}
	t.Logf("%d asks with a reduce held back, %d answers from a quiet time", held, quiet)
}

// holdRun plays one random job and returns at how many asks a running
// reduce was held back and how many answers came from a quiet time.
func holdRun(t *testing.T, name string, seed uint64) (int, int) {
	const maps, reduces = 16, 3
	h, p, sizes, store, rng := randomGrassJob(t, name, seed, 53,
		speculators.JobInfo{ID: "job_hold", Maps: maps, Reduces: reduces}, 0.2, ms(60))
	p.redAfterMaps = true
	if store != nil {
		// Earlier jobs' reduces were short (small queries beside this
		// job, as in the row that led to the rule), so a reduce that waits
		// on the maps reads as slow against t_new: GRASS would copy it.
		for range 5 {
			store.AddRuntime(speculators.Reduce, 2*unit+float64(rng.IntN(2*unit)), 0)
		}
	}
	rr := &randomRuns{h: h, rng: rng, sizes: sizes}
	launch := rr.launch
	done := map[speculators.TaskID]bool{}
	mapsDone := func() int {
		n := 0
		for task := range done {
			if task.Type == speculators.Map {
				n++
			}
		}
		return n
	}
	for i := range maps * 3 / 4 {
		launch(speculators.TaskID{Type: speculators.Map, Index: int32(i)}, 0, false)
	}
	for i := range reduces {
		launch(speculators.TaskID{Type: speculators.Reduce, Index: int32(i)}, 0, false)
	}
	next := maps * 3 / 4
	held, quiet := 0, 0
	for now := speculators.Time(0); now <= ms(150); now += 100 {
		// Reports every 3 s from each attempt's start: a reduce copies the
		// maps' outputs as they end (its copy phase, a third of its score,
		// at the maps' pace, or its own where that is slower), then runs
		// its reduce phase once every map is done.
		for _, r := range rr.runs {
			if r.over || now <= r.start || now >= r.end || (now-r.start)%3000 != 0 {
				continue
			}
			frac := float64(now-r.start) / float64(r.end-r.start)
			if r.id.Task.Type == speculators.Map {
				h.Status(r.id, now, frac)
				continue
			}
			if m := mapsDone(); m < maps {
				own := min(1, 3*frac)
				h.Observe(speculators.Event{Kind: speculators.AttemptStatus, Time: now, Attempt: r.id,
					Progress: min(own, float64(m)/maps) / 3, Phase: speculators.PhaseShuffle})
				continue
			}
			h.Observe(speculators.Event{Kind: speculators.AttemptStatus, Time: now, Attempt: r.id,
				Progress: 1.0/3 + 2.0/3*frac, Phase: speculators.PhaseReduce})
		}
		// Ends: a map's end is due at its time; a reduce's only once every
		// map is done (it waited on them).
		for _, r := range rr.runs {
			if r.over || now < r.end || (r.id.Task.Type == speculators.Reduce && mapsDone() < maps) {
				continue
			}
			r.over = true
			task := r.id.Task
			if done[task] {
				continue
			}
			done[task] = true
			h.Succeed(r.id, now)
			for _, o := range rr.runs {
				if o != r && !o.over && o.id.Task == task {
					o.over = true
					h.Kill(o.id, now)
				}
			}
			if store != nil {
				store.Keep(h.Learned())
			}
		}
		if next < maps && now > 0 && now%4000 == 0 {
			launch(speculators.TaskID{Type: speculators.Map, Index: int32(next)}, now, false)
			next++
		}
		if now%1000 == 0 {
			h.Engine.Decide(now)
		}
		job := h.Job()
		for _, task := range job.Tasks[speculators.Reduce] {
			if task.RunningAttempts > 0 && p.waitsOnMaps(task) {
				held++
				break
			}
		}
		q := p.quiet
		fromQuiet := q.valid && q.ver == p.ver && q.gs == p.useGS && now >= q.from && now < q.until && p.priorHolds()
		got := h.Engine.WantsSlot(now)
		want, first := gammaAfresh(p, job, now, cloneGamma(&p.gamma), nil)
		if got != want {
			t.Fatalf("%s seed %d at %d ms: WantsSlot %v, Γ afresh %v (from the quiet time %v)", name, seed, now, got, want, fromQuiet)
		}
		if want && first.Type == speculators.Reduce && WaitsOnMaps(job, job.Tasks[speculators.Reduce][first.Index]) {
			t.Fatalf("%s seed %d at %d ms: Γ's first member %v waits on the maps", name, seed, now, first)
		}
		if fromQuiet {
			quiet++
		}
		if want && now%2000 == 0 {
			launch(first, now, true)
		}
	}
	return held, quiet
}
