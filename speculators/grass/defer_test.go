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
	defer func() { deferNever, testLeftOut, testSwitchCheck = false, nil, nil }()
	made := 0
	testLeftOut = func(n int) { made += n }
	for seed := uint64(1); seed <= 8; seed++ {
		type run struct {
			res     *sim.Result
			samples [3][]Sample
			checks  map[string][]string
		}
		play := func(never bool) run {
			deferNever = never
			r := run{checks: map[string][]string{}}
			testSwitchCheck = func(p *policy, l *learner, job *speculators.Job, samples []Sample, m switchMemo, hit bool) {
				r.checks[job.Info.ID] = append(r.checks[job.Info.ID], fmt.Sprintf("t=%d n=%d util=%x acc=%x w=%x hit=%v",
					l.lastCheck, len(samples), math.Float64bits(m.util), math.Float64bits(m.acc), math.Float64bits(m.w), hit))
			}
			cfg, jobs := deferWorkload(seed)
			store := NewMemoryStore()
			cfg.Keep = func(l speculators.Learned) {
				if err := store.Keep(l); err != nil {
					t.Fatal(err)
				}
			}
			cfg.RecordDecisions = true
			over := map[string]string{ParamXi: "0.3", ParamMinSamples: "1", ParamNeighbours: "2", ParamSmallMax: "10",
				ParamCheckInterval: []string{"1000", "0", "2500"}[seed%3]}
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
		before := made
		all, deferred := play(true), play(false)
		if made == before {
			t.Errorf("seed %d: no Decide deferred", seed)
		}
		for id, want := range all.checks {
			if got := deferred.checks[id]; !slices.Equal(got, want) {
				t.Fatalf("seed %d job %s: switch checks with Decides deferred differ from every Decide run:\n%v\n%v", seed, id, got, want)
			}
		}
		if len(deferred.checks) != len(all.checks) {
			t.Fatalf("seed %d: %d jobs checked with Decides deferred, %d with every Decide run", seed, len(deferred.checks), len(all.checks))
		}
		if !reflect.DeepEqual(all.res.Jobs, deferred.res.Jobs) || !reflect.DeepEqual(all.res.Decisions, deferred.res.Decisions) {
			t.Fatalf("seed %d: per-job results or decisions differ", seed)
		}
		if !reflect.DeepEqual(all.samples, deferred.samples) {
			t.Fatalf("seed %d: samples taught differ:\n%v\n%v", seed, deferred.samples, all.samples)
		}
		if len(all.samples[0])+len(all.samples[1]) < 5 {
			t.Errorf("seed %d: %d samples taught: too few to test the hand-over before a sample", seed, len(all.samples[0])+len(all.samples[1]))
		}
	}
	t.Logf("%d Decides made up", made)
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
