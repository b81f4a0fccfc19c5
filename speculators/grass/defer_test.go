package grass

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
)

// TestDeferredDecidesChangeNothing replays random loaded days under grass
// through the simulator, the jobs teaching each other through a shared
// store, twice: with the Decides of jobs waiting in the queue deferred and
// made up at the job's next call (DeferDecides, DecidesLeftOut; the
// simulator hands them over before every other engine call and before it
// keeps a sample of the bucket they read) and with every Decide run
// (deferNever). Per job, the switch checks must meet the same inputs at
// the same times (the samples seen, the utilisation, accuracy and work
// left, bit for bit, and the memo's answer), and the per-job results, the
// decisions and the samples taught must be the same. Some Decides must
// have been made up, some with samples kept while they were deferred.
func TestDeferredDecidesChangeNothing(t *testing.T) {
	defer func() { testLeftOut = nil }()
	made := 0
	testLeftOut = func(n int) { made += n }
	for seed := uint64(1); seed <= 8; seed++ {
		over := map[string]string{ParamXi: "0.3", ParamMinSamples: "1", ParamNeighbours: "2", ParamSmallMax: "10",
			ParamCheckInterval: []string{"1000", "0", "2500"}[seed%3]}
		before := made
		all, deferred := playDeferred(t, seed, over, deferWorkload, true), playDeferred(t, seed, over, deferWorkload, false)
		if made == before {
			t.Errorf("seed %d: no Decide deferred", seed)
		}
		sameDeferred(t, fmt.Sprintf("seed %d", seed), all, deferred)
		if len(all.samples[0])+len(all.samples[1]) < 5 {
			t.Errorf("seed %d: %d samples taught: too few to test the hand-over before a sample", seed, len(all.samples[0])+len(all.samples[1]))
		}
	}
	t.Logf("%d Decides made up", made)
}

// TestDeferredDecidesSettledAtZeroRuntime: a job waiting in the queue
// defers its Decides while the prior gives its map a length above 0
// (DeferDecides), and another job's maps of 0 ms then take the prior's
// median to 0 before the waiting job's next event. The Decides left out
// before that must read the length as it was at their ticks: the
// simulator hands every deferred job its ticks over, whatever bucket it
// reads, before it keeps the first run time of 0 ms.
func TestDeferredDecidesSettledAtZeroRuntime(t *testing.T) {
	defer func() { testLeftOut = nil }()
	made := 0
	testLeftOut = func(n int) { made += n }
	over := map[string]string{ParamXi: "0", ParamMinSamples: "1", ParamCheckInterval: "1000"}
	all, deferred := playDeferred(t, 1, over, zeroWorkload, true), playDeferred(t, 1, over, zeroWorkload, false)
	if made == 0 {
		t.Fatal("no Decide deferred")
	}
	sameDeferred(t, "zero run times", all, deferred)
	if n := len(all.checks["job_3"]); n < 3 {
		t.Errorf("the waiting job checked %d times, want some checks before the 0 ms run times", n)
	}
}

// deferWorkload is a loaded day for TestDeferredDecidesChangeNothing: 12
// slots, 70 jobs arriving every 0-3 s with 1-30 maps of 2-40 s (so that a
// queue forms and jobs wait in it), some with an error bound (never
// deferred) and some with reduces.
func deferWorkload(seed uint64) (sim.Config, []sim.Job) {
	rng := rand.New(rand.NewPCG(seed, 31))
	nodes := make([]sim.Node, 6)
	for i := range nodes {
		nodes[i] = sim.Node{Name: fmt.Sprintf("n%d", i), Slots: 2}
		if i == 2 {
			nodes[i].Slowdown = 3
		}
	}
	cfg := sim.DefaultConfig(nodes)
	cfg.Seed = seed
	cfg.DecideInterval = time.Second
	jobs := make([]sim.Job, 70)
	at := speculators.Time(0)
	for i := range jobs {
		at += speculators.Time(rng.IntN(3000))
		maps := make([]sim.Task, 1+rng.IntN(30))
		for k := range maps {
			maps[k] = sim.Task{Work: speculators.Time(2000 + rng.IntN(38000)), InputBytes: 1 << 20}
		}
		jobs[i] = sim.Job{ID: fmt.Sprintf("job_%02d", i), Submit: at, Maps: maps, CopyWork: sim.Resample}
		if i%7 == 3 {
			jobs[i].ErrorBound = 0.2
		}
		if i%5 == 1 {
			jobs[i].Reduces = []sim.Task{{Work: 5000, InputBytes: 1 << 20}}
		}
	}
	return cfg, jobs
}

// zeroWorkload is TestDeferredDecidesSettledAtZeroRuntime's day on one
// slot: job_0's map (2 s) teaches the prior a length; job_1 (5 s) holds
// the slot while job_2 (five maps of 0 ms) and job_3 wait; job_2's maps
// then take the prior's median to 0 while job_3 still waits.
func zeroWorkload(seed uint64) (sim.Config, []sim.Job) {
	cfg := sim.DefaultConfig([]sim.Node{{Name: "n0", Slots: 1}})
	cfg.Seed = seed
	cfg.DecideInterval = time.Second
	task := func(work speculators.Time) sim.Task { return sim.Task{Work: work, InputBytes: 1 << 20} }
	jobs := []sim.Job{
		{ID: "job_0", Submit: 0, Maps: []sim.Task{task(2000)}},
		{ID: "job_1", Submit: 500, Maps: []sim.Task{task(5000)}},
		{ID: "job_2", Submit: 1000, Maps: []sim.Task{task(0), task(0), task(0), task(0), task(0)}},
		{ID: "job_3", Submit: 1500, Maps: []sim.Task{task(3000), task(3000)}},
	}
	return cfg, jobs
}

// deferRun is one replay of playDeferred: the simulator's result, the
// samples taught and every job's switch checks.
type deferRun struct {
	res     *sim.Result
	samples [3][]Sample
	checks  map[string][]string
}

// playDeferred replays day(seed) under grass with the parameters over,
// the jobs teaching each other through a shared store, with the Decides of
// waiting jobs deferred or (never) every Decide run.
func playDeferred(t *testing.T, seed uint64, over map[string]string, day func(uint64) (sim.Config, []sim.Job), never bool) deferRun {
	t.Helper()
	defer func() { deferNever, testSwitchCheck = false, nil }()
	deferNever = never
	r := deferRun{checks: map[string][]string{}}
	testSwitchCheck = func(p *policy, l *learner, job *speculators.Job, samples []Sample, m switchMemo, hit bool) {
		r.checks[job.Info.ID] = append(r.checks[job.Info.ID], fmt.Sprintf("t=%d n=%d util=%x acc=%x w=%x hit=%v",
			l.lastCheck, len(samples), math.Float64bits(m.util), math.Float64bits(m.acc), math.Float64bits(m.w), hit))
	}
	cfg, jobs := day(seed)
	store := NewMemoryStore()
	cfg.Keep = func(l speculators.Learned) {
		if err := store.Keep(l); err != nil {
			t.Fatal(err)
		}
	}
	cfg.RecordDecisions = true
	reg := registry(t)
	built := uint64(0)
	res, err := sim.Run(cfg, jobs, func(info speculators.JobInfo) (*speculators.Engine, error) {
		built++ // each job its own draws (perturbed or not)
		return reg.NewEngineWith(info, NameGRASS, over, seed*1000+built, store)
	})
	if err != nil {
		t.Fatal(err)
	}
	r.res = res
	for b := range r.samples {
		r.samples[b] = store.Samples(b)
	}
	return r
}

// sameDeferred fails the test unless the replay with Decides deferred met
// the one with every Decide run: the same switch checks per job, per-job
// results, decisions and samples taught.
func sameDeferred(t *testing.T, what string, all, deferred deferRun) {
	t.Helper()
	for id, want := range all.checks {
		if got := deferred.checks[id]; !slices.Equal(got, want) {
			t.Fatalf("%s job %s: switch checks with Decides deferred differ from every Decide run:\n%v\n%v", what, id, got, want)
		}
	}
	if len(deferred.checks) != len(all.checks) {
		t.Fatalf("%s: %d jobs checked with Decides deferred, %d with every Decide run", what, len(deferred.checks), len(all.checks))
	}
	if !reflect.DeepEqual(all.res.Jobs, deferred.res.Jobs) || !reflect.DeepEqual(all.res.Decisions, deferred.res.Decisions) {
		t.Fatalf("%s: per-job results or decisions differ", what)
	}
	if !reflect.DeepEqual(all.samples, deferred.samples) {
		t.Fatalf("%s: samples taught differ:\n%v\n%v", what, deferred.samples, all.samples)
	}
}
