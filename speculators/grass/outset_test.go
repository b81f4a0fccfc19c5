package grass

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// censor passes over the running tasks of its kept out set (outSet,
// outsKept, keepOut) without a look at their entries. Random jobs (those
// of TestQuietMatchesGamma: copies started when Γ asks, attempts that fail,
// recover or are killed, the prior moving) are asked every 100 ms; at each
// ask censor runs with the set as kept and again with the set emptied (a
// pass that looks at every running task's entry, as before the set), and
// the sums, counts and every task's own part must be the same bit for bit.
// The test requires passes that left members of the set out.
func TestCensorOutSetMatchesFresh(t *testing.T) {
	skipped := 0
	for _, name := range []string{"gs", "ras"} {
		for seed := uint64(1); seed <= 60; seed++ {
			const maps = 12
			h, p, sizes, store, rng := randomGrassJob(t, name, seed, 37,
				speculators.JobInfo{ID: "job_outset", Maps: maps}, 0.25, ms(40))
			j := &spectest.RandomJob{H: h, Rand: rng, Floor: 0.6, Recover: seed%2 == 1,
				Work: func(task speculators.TaskID) float64 { return float64(sizes[task.Index]) }}
			if store != nil {
				j.Succeeded = func(speculators.Time) { store.Keep(h.Learned()) }
			}
			for i := range maps - 3 {
				j.Start(spectest.Map(i), 0, false)
			}
			next := maps - 3
			j.Run(ms(200), func(now speculators.Time) {
				if next < maps && now > 0 && now%5000 == 0 {
					j.Start(spectest.Map(next), now, false)
					next++
				}
			}, func(now speculators.Time) (speculators.TaskID, bool) {
				job, e := h.Job(), &p.est
				where := fmt.Sprintf("%s seed %d at %d ms", name, seed, now)
				p.est.sync(job)
				skipped += outSetMembers(e, job, now)
				kept := censorNow(e, job, now)
				set, gen, end := e.outSet, e.outSetGen, e.outEnd
				for ty := range set {
					set[ty] = slices.Clone(set[ty])
				}
				for ty := range e.outSetGen {
					e.outSetGen[ty] = 0 // emptied at the next censor
				}
				if fresh := censorNow(e, job, now); kept != fresh {
					t.Fatalf("%s: censor with the out set kept\n%+v\nafresh\n%+v", where, kept, fresh)
				}
				e.outSet, e.outSetGen, e.outEnd = set, gen, end
				got := h.Engine.WantsSlot(now)
				p.gamma.valid = false
				g := p.gammaAt(job, now)
				want := g.first >= 0 && g.set[g.first].running
				if got != want {
					t.Fatalf("%s: WantsSlot %v, Γ afresh %v", where, got, want)
				}
				if want {
					return g.set[g.first].task.ID, true
				}
				return speculators.TaskID{}, false
			})
		}
	}
	if skipped == 0 {
		t.Fatal("no censor left a member of the out set out: the test checks nothing")
	}
	t.Logf("%d running tasks left out of censor's passes by the out set", skipped)
}

// censorSums is what a censor leaves for t_new: the sums and counts per
// type, and each task's own part (as bits) in index order.
type censorSums struct {
	norm, dur   [speculators.NumTaskTypes]uint64
	normN, durN [speculators.NumTaskTypes]int
	own         string
}

// censorNow runs censor at now and returns what it left.
func censorNow(e *estimators, job *speculators.Job, now speculators.Time) censorSums {
	e.censor(job, now)
	var s censorSums
	own := ""
	for ty := range job.Tasks {
		s.norm[ty], s.dur[ty] = math.Float64bits(e.runNorm[ty]), math.Float64bits(e.runDur[ty])
		s.normN[ty], s.durN[ty] = e.runNormN[ty], e.runDurN[ty]
		for _, t := range job.Tasks[ty] {
			v, k := e.ownOf(t)
			own += fmt.Sprintf("%d:%x ", k, math.Float64bits(v))
		}
	}
	s.own = own
	return s
}

// outSetMembers is how many running tasks a censor at now leaves out as
// members of the kept out set.
func outSetMembers(e *estimators, job *speculators.Job, now speculators.Time) int {
	n := 0
	for ty := range job.Tasks {
		if ty >= len(e.outs) || e.outSetGen[ty] == 0 || e.outSetGen[ty] != e.outGen[ty] || now > e.outEnd[ty] {
			continue
		}
		for w, word := range job.Live[ty] {
			if w < len(e.outSet[ty]) {
				n += bits.OnesCount64(word & e.outSet[ty][w])
			}
		}
	}
	return n
}
