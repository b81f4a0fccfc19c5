package grass

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// censor passes over the running tasks of its kept out set (outSet,
// outsKept, keepOut) without a look at their entries. Random jobs (those
// of TestQuietMatchesGamma: late originals, copies started when Γ asks and
// the slower attempts killed when one succeeds, attempts that run slow and
// catch up for odd seeds, a prior that completions feed for even ones)
// are asked every 100 ms; at each
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

// expired answers from the earliest kept times (quietTime.early,
// noteEarly, expiredEarly) where they tell. The random jobs of
// TestQuietMatchesGamma are played (their WantsSlot answers checked
// against Γ afresh as there), and every such answer must be the pass over
// every running task's: the same least kept time and the same tasks to
// visit, in the same order, with early's room as in a replay and for two
// times only. The test requires answers from early that visited tasks.
func TestEarlyTimesMatchScan(t *testing.T) {
	defer func() { testEarly = nil }()
	answers, visited := 0, 0
	testEarly = func(p *policy, job *speculators.Job, now, until speculators.Time, visit []speculators.TaskID) {
		answers++
		if len(visit) > 0 {
			visited++
		}
		want, wantUntil := p.scanExpired(job, now, nil, false)
		if until != wantUntil || !slices.Equal(visit, want) {
			t.Fatalf("%s at %d ms: expired from the earliest kept times: until %d, visit %v; from every task: %d, %v",
				job.Info.ID, now, until, visit, wantUntil, want)
		}
	}
	defer func(n int) { maxEarly = n }(maxEarly)
	for _, most := range []int{maxEarly, 2} {
		// Also with room for two times only, so that early fills and
		// earlyMax moves.
		maxEarly = most
		for _, name := range []string{"gs", "ras"} {
			for seed := uint64(1); seed <= 120; seed++ {
				quietRun(t, name, seed, seed%3 == 0, seed%2 == 1)
			}
		}
	}
	if visited == 0 {
		t.Fatalf("%d answers from the earliest kept times, none visited a task: the test checks too little", answers)
	}
	t.Logf("%d answers from the earliest kept times, %d of them visiting tasks", answers, visited)
}

// The earliest kept times against the pass over every running task, under
// random changes of the kind the quiet time makes: kept times set on a
// coarse grid (ties with earlyMax and with now), ended by events, tasks
// that stop and start running, every time forgotten at once, the maps
// left out once the bound is reached, and visited tasks of which some get
// a new time and some keep their passed one (quietSkip). Every answer of
// expired must be the pass's.
func TestEarlyTimesRandom(t *testing.T) {
	defer func(n int) { maxEarly = n }(maxEarly)
	answers := 0
	for seed := uint64(1); seed <= 40; seed++ {
		maxEarly = []int{8, 2, 1}[seed%3]
		rng := rand.New(rand.NewPCG(seed, 41))
		job, err := speculators.NewJob(speculators.JobInfo{ID: "job_early", Maps: 40, Reduces: 8, Slots: 48})
		if err != nil {
			t.Fatal(err)
		}
		p := &policy{}
		q := &p.quiet
		for ty := range job.Tasks {
			job.Live[ty] = speculators.NewTaskSet(len(job.Tasks[ty]))
			q.tasks[ty] = make([]quietTask, len(job.Tasks[ty]))
		}
		task := func() (speculators.TaskID, *quietTask) {
			ty := speculators.Map
			if rng.IntN(5) == 0 {
				ty = speculators.Reduce
			}
			i := rng.IntN(len(job.Tasks[ty]))
			return job.Tasks[ty][i].ID, &q.tasks[ty][i]
		}
		now := speculators.Time(0)
		for range 4000 {
			now += speculators.Time(rng.IntN(4) * 10)
			id, k := task()
			switch r := rng.IntN(100); {
			case r < 40:
				if inSet(job.Live[id.Type], int(id.Index)) {
					q.setKept(k, id, now+speculators.Time(rng.IntN(12)*10), 1)
				}
			case r < 50:
				k.thr = 0 // an event of the task
			case r < 60:
				job.Live[id.Type].Set(int(id.Index), !inSet(job.Live[id.Type], int(id.Index)))
				k.thr = 0
			case r == 60:
				clear(q.tasks[speculators.Map])
				clear(q.tasks[speculators.Reduce])
				q.earlyOK = false
			case r == 61 && rng.IntN(20) == 0:
				p.ended = true
			default:
				want, wantUntil := p.scanExpired(job, now, nil, false)
				early := q.earlyOK && now < q.earlyMax
				q.visit = q.visit[:0]
				until := p.expired(job, now)
				if until != wantUntil || !slices.Equal(q.visit, want) {
					t.Fatalf("seed %d at %d ms (early %v): expired until %d, visit %v; the pass: %d, %v", seed, now, early, until, q.visit, wantUntil, want)
				}
				if early {
					answers++
				}
				for _, v := range q.visit {
					if rng.IntN(3) > 0 {
						q.setKept(&q.tasks[v.Type][v.Index], v, now+speculators.Time(1+rng.IntN(12)*10), 1)
					}
				}
			}
		}
	}
	if answers == 0 {
		t.Fatal("no answer from the earliest kept times: the test checks nothing")
	}
	t.Logf("%d answers with the earliest kept times in force", answers)
}
