package sim

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/all/alltest"
	"github.com/specbridge/specbridge/speculators/grass"
)

// puller is a test-only pull-based policy (speculators.SlotChooser): it
// runs map 3 first, copies map 1 while it runs alone, and otherwise names
// map 0, which is refused once map 0 has been placed.
type puller struct {
	script
	offers []speculators.NodeID
	at     []speculators.Time
}

func (p *puller) OfferSlots(*speculators.Job) {}

func (p *puller) WantsSlot(*speculators.Job, speculators.Time) bool { return true }

func (p *puller) ChooseForSlot(job *speculators.Job, node speculators.NodeID, now speculators.Time) (speculators.TaskID, bool, bool) {
	p.offers, p.at = append(p.offers, node), append(p.at, now)
	m := func(i int32) speculators.TaskID { return speculators.TaskID{Type: speculators.Map, Index: i} }
	if len(job.Task(m(3)).Attempts) == 0 {
		return m(3), false, true
	}
	if job.Task(m(1)).RunningAttempts == 1 {
		return m(1), true, true
	}
	return m(0), false, true
}

// runPuller runs jobs with every job's engine on policy p.
func runPuller(t *testing.T, cfg Config, jobs []Job, p *puller) *Result {
	t.Helper()
	res, err := Run(cfg, jobs, func(info speculators.JobInfo) (*speculators.Engine, error) {
		return speculators.NewEngine(info, "puller", p, speculators.Params{})
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A pull-based policy chooses what runs in each offered slot: an original
// out of the default order, a copy while originals still wait (on a node
// where the task does not run), and a choice the simulator cannot honour
// (a task already placed) falls back to the default order.
func TestSlotChooserPicksOriginalsAndCopies(t *testing.T) {
	p := &puller{}
	jobs := []Job{{ID: "j", Maps: works(10000, 100000, 10000, 10000)}}
	res := runPuller(t, cfgFor(nodes(1, 1)), jobs, p)
	start := map[speculators.AttemptID]speculators.Time{}
	node := map[speculators.AttemptID]speculators.NodeID{}
	spec := map[speculators.AttemptID]bool{}
	for _, ev := range p.seen {
		if ev.Kind == speculators.AttemptStarted {
			start[ev.Attempt], node[ev.Attempt], spec[ev.Attempt] = ev.Time, ev.Node, ev.Speculative
		}
	}
	a := func(i, n int32) speculators.AttemptID {
		return speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: i}, N: n}
	}
	expectTime(t, "m3 start (chosen first)", start[a(3, 0)], 0)
	expectTime(t, "m0 start", start[a(0, 0)], 0)
	expectTime(t, "m1 start (default order after a refused choice)", start[a(1, 0)], 10000)
	expectTime(t, "m1 copy start (while m2 waits)", start[a(1, 1)], 10000)
	expectTime(t, "m2 start", start[a(2, 0)], 110000)
	if !spec[a(1, 1)] || spec[a(3, 0)] || node[a(1, 1)] == node[a(1, 0)] {
		t.Errorf("copy of m1: speculative %v on %s beside the original on %s; m3 speculative %v",
			spec[a(1, 1)], node[a(1, 1)], node[a(1, 0)], spec[a(3, 0)])
	}
	expectInt(t, "speculative launched", res.Jobs[0].SpeculativeLaunched, 1)
	expectTime(t, "finish", res.Jobs[0].Finish, 120000)
	if len(p.offers) < 4 {
		t.Errorf("%d slot offers, want at least 4", len(p.offers))
	}
}

// A job whose speculation of maps is off (mapreduce.map.speculative=false)
// gets no copy from a pull-based policy's choice, as the AM refuses one
// live: the puller's copy of m1 is refused and m1 runs alone.
func TestSlotChooserCopyRefusedWithSpeculationOff(t *testing.T) {
	p := &puller{}
	job := Job{ID: "j", Maps: works(10000, 100000, 10000, 10000)}
	job.NoSpeculate[speculators.Map] = true
	res := runPuller(t, cfgFor(nodes(1, 1)), []Job{job}, p)
	expectInt(t, "speculative launched", res.Jobs[0].SpeculativeLaunched, 0)
}

// reducePuller is a test-only pull-based policy that prefers reduce 0 to
// every map: its original while it has no attempt, else a copy of it.
type reducePuller struct{ script }

func (p *reducePuller) OfferSlots(*speculators.Job) {}

func (p *reducePuller) WantsSlot(*speculators.Job, speculators.Time) bool { return true }

func (p *reducePuller) ChooseForSlot(job *speculators.Job, _ speculators.NodeID, _ speculators.Time) (speculators.TaskID, bool, bool) {
	r0 := speculators.TaskID{Type: speculators.Reduce, Index: 0}
	return r0, len(job.Task(r0).Attempts) > 0, true
}

// A job whose maps starve (a map waiting, none running, its reduce running)
// gets no reduce from its policy's choice, as Hadoop's AM asks for no reduce
// container then: on two one-container nodes with reduces allowed at once,
// reducePuller's r0 takes the first node and its copy would take the second,
// be preempted for the map at once and be chosen again, with no end. The map
// must get the second node at once, nothing be preempted, and a copy of r0
// may start only once the map is done.
func TestStarvingJobGetsNoReduceFromItsPolicy(t *testing.T) {
	p := &reducePuller{}
	zero := 0.0
	job := Job{ID: "j", Maps: works(10000), Reduces: works(10000), ReduceSlowstart: &zero}
	res, err := Run(cfgFor(nodes(1, 1)), []Job{job}, func(info speculators.JobInfo) (*speculators.Engine, error) {
		return speculators.NewEngine(info, "reducePuller", p, speculators.Params{})
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range p.seen {
		if ev.Kind == speculators.AttemptStarted && ev.Attempt.Task.Type == speculators.Map {
			expectTime(t, "m0 start", ev.Time, 0)
		}
		if ev.Kind == speculators.AttemptStarted && ev.Speculative && ev.Time < 10000 {
			t.Errorf("%s started at %d, while the map still ran", ev.Attempt, ev.Time)
		}
	}
	expectInt(t, "preempted reduces", res.Jobs[0].PreemptedReduces, 0)
	if res.Unfinished != 0 {
		t.Errorf("%d jobs unfinished", res.Unfinished)
	}
}

// Under YARN placement (a history's replay, sim.Config.YARNPlacement) a
// pull-based policy runs in its push form, as the live bridge runs it: no
// slot is offered to it, the originals start in the job's order (m0 and
// m1 first, not the puller's m3), and no copy is pulled.
func TestYARNPlacementRunsPoliciesInPushForm(t *testing.T) {
	p := &puller{}
	cfg := cfgFor(nodes(1, 1))
	cfg.YARNPlacement = true
	res := runPuller(t, cfg, []Job{{ID: "j", Maps: works(10000, 100000, 10000, 10000)}}, p)
	if len(p.offers) != 0 {
		t.Errorf("%d slots offered to the policy under YARN placement, want none", len(p.offers))
	}
	for _, ev := range p.seen {
		if ev.Kind == speculators.AttemptStarted && ev.Time == 0 && ev.Attempt.Task.Index > 1 {
			t.Errorf("%s started first: the policy's choice, not the job's order", ev.Attempt)
		}
	}
	expectInt(t, "speculative launched", res.Jobs[0].SpeculativeLaunched, 0)
}

// Idle slots are offered again at the Decide ticks while the job runs: a
// policy may want a copy later with nothing else having changed. Here m2
// runs alone from 5 s to 35 s beside two idle slots, which are offered at
// every tick (1 s) in between.
func TestSlotChooserReofferedAtTicks(t *testing.T) {
	p := &puller{}
	jobs := []Job{{ID: "j", Maps: works(5000, 5000, 30000, 5000)}}
	res := runPuller(t, cfgFor(nodes(1, 1, 1)), jobs, p)
	times := map[speculators.Time]int{}
	for _, at := range p.at {
		if at > 5000 && at < 35000 {
			times[at]++
		}
	}
	if len(times) < 29 {
		t.Errorf("offers at %d instants between 5 s and 35 s, want one per tick (29)", len(times))
	}
	expectTime(t, "finish", res.Jobs[0].Finish, 35000)
	expectInt(t, "speculative launched", res.Jobs[0].SpeculativeLaunched, 0)
}

// storeSim is a simulation of jobs on cfg with every job's engine from
// reg's policy name (parameters over), seeded, the jobs teaching each
// other through one memory store (Config.Keep).
func storeSim(t *testing.T, reg *speculators.Registry, name string, over map[string]string, seed uint64, cfg Config, jobs []Job) *sim {
	t.Helper()
	store := grass.NewMemoryStore()
	cfg.Keep = func(l speculators.Learned) { _ = store.Keep(l) }
	s, err := newSim(cfg, jobs, func(info speculators.JobInfo) (*speculators.Engine, error) {
		return reg.NewEngineWith(info, name, over, seed, store)
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWantsKeptMatchesFresh replays random days under the pull-based
// policies, GRASS's with a prior the jobs teach each other (Config.Keep),
// and asks each policy's WantsSlot afresh at every use of an answer kept
// from earlier in the scheduling round (wants): a kept answer that a fresh
// one contradicts fails the run.
func TestWantsKeptMatchesFresh(t *testing.T) {
	reg := alltest.Registry(t)
	for _, name := range []string{"gs", "ras", "grass", "late", "mantri"} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				cfg, jobs := indexWorkload(seed)
				over := map[string]string(nil)
				if name == "grass" {
					over = map[string]string{grass.ParamXi: "0.5", grass.ParamCheckInterval: "0"}
				}
				s := storeSim(t, reg, name, over, seed, cfg, jobs)
				s.checkWants = true
				if err := s.loop(); err != nil {
					t.Fatal(err)
				}
				if r := s.finish(); r.Unfinished != 0 {
					t.Fatalf("%d jobs unfinished", r.Unfinished)
				}
				if name != "late" && s.wantsKept == 0 {
					t.Errorf("no answer kept within a round: the check checked nothing")
				}
			})
		}
	}
}

// TestLazyDropMatchesEager replays random days under pull-based and other
// policies twice, with placeOne dropping only the refusing jobs its scan
// visited and with it also dropping, at each offer that drops one, every
// listed job with nothing left to place (the clean-up it made before), and
// requires the same per-job results and number of events: a job left in
// the list until a scan reaches it must change nothing.
func TestLazyDropMatchesEager(t *testing.T) {
	reg := alltest.Registry(t)
	for _, name := range []string{"gs", "ras", "grass", "late", "mantri", "hadoop", "auto"} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				var results [2]*Result
				for k, eager := range []bool{false, true} {
					cfg, jobs := indexWorkload(seed)
					if name == "hadoop" {
						cfg.Scheduler = SchedulerFair
					}
					s := storeSim(t, reg, name, nil, seed, cfg, jobs)
					s.eagerDrop = eager
					if err := s.loop(); err != nil {
						t.Fatal(err)
					}
					results[k] = s.finish()
				}
				if !reflect.DeepEqual(results[0].Jobs, results[1].Jobs) || results[0].Events != results[1].Events {
					t.Errorf("results differ: %d events dropping the visited jobs, %d dropping every job with nothing left", results[0].Events, results[1].Events)
				}
			})
		}
	}
}

// idler is a test-only speculators.IdleDecider: its Decide (script's,
// which asks for nothing) is idle while no attempt of the job runs.
type idler struct{ script }

func (p *idler) DecideIdle(job *speculators.Job) bool {
	return job.RunningTasks[speculators.Map]+job.RunningTasks[speculators.Reduce] == 0
}

// TestIdleTickMatchesEngine replays random days, some jobs with a deadline
// or an error bound (enforced or not), under gs and ras (whose Decide is
// idle on exact jobs in pull mode or with nothing running), grass, hadoop
// and idler (idle while nothing runs) twice: with the tick passing over the
// jobs whose SkipDecide yes it noted (idle) and with it asking their
// engines at every tick, as before. Both must make the same Decides and
// give the same per-job results: a yes noted past the job's next event
// would leave out Decides the engine makes (idler's once a queued job
// starts), and one noted for a job whose bounds are enforced would leave
// a deadline passed while it waits unenforced.
func TestIdleTickMatchesEngine(t *testing.T) {
	reg := alltest.Registry(t)
	for _, name := range []string{"gs", "ras", "grass", "hadoop", "idler"} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				var results [2]*Result
				var decides [2]int
				for k, ask := range []bool{false, true} {
					cfg, jobs := indexWorkload(seed)
					for i := range jobs {
						switch i % 5 {
						case 1:
							jobs[i].Deadline = jobs[i].Submit + 60_000
						case 2:
							jobs[i].ErrorBound = 0.2
						case 3:
							jobs[i].Deadline = jobs[i].Submit + 30_000
							jobs[i].EnforceBounds = true
						case 4:
							jobs[i].EnforceBounds = true // and no bound
						}
					}
					s, err := newSim(cfg, jobs, func(info speculators.JobInfo) (*speculators.Engine, error) {
						if name == "idler" {
							return speculators.NewEngine(info, name, &idler{}, speculators.Params{})
						}
						return reg.NewEngine(info, name, nil, seed)
					})
					if err != nil {
						t.Fatal(err)
					}
					s.askIdle = ask
					if err := s.loop(); err != nil {
						t.Fatal(err)
					}
					results[k], decides[k] = s.finish(), s.decides
				}
				if decides[0] != decides[1] || !reflect.DeepEqual(results[0].Jobs, results[1].Jobs) || results[0].Events != results[1].Events {
					t.Errorf("passing over idle jobs: %d Decides, %d events; asking every engine: %d Decides, %d events (or the per-job results differ)",
						decides[0], results[0].Events, decides[1], results[1].Events)
				}
				if decides[0] == 0 {
					t.Errorf("no Decide made")
				}
			})
		}
	}
}

// TestOrderSweepMatchesFull replays random days under the policies that
// order jobs twice: with schedule stopping its sweep once the pass's job
// order is read to its end and left empty with no candidate (orderLive),
// and with it offering every free node while any job orders, as before.
// Both must give the same per-job results and number of events, and the
// full sweep must have made offers the other left out (else the check
// checked nothing).
func TestOrderSweepMatchesFull(t *testing.T) {
	reg := alltest.Registry(t)
	for _, name := range []string{"auto", "sca", "sda", "ese"} {
		for seed := uint64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				var results [2]*Result
				past := 0
				for k, all := range []bool{false, true} {
					cfg, jobs := indexWorkload(seed)
					if seed > 2 {
						cfg.Placement = PlacementPack
					}
					s := storeSim(t, reg, name, nil, seed, cfg, jobs)
					s.sweepAll = all
					if err := s.loop(); err != nil {
						t.Fatal(err)
					}
					results[k] = s.finish()
					if all {
						past = s.pastOrder
					}
				}
				if !reflect.DeepEqual(results[0].Jobs, results[1].Jobs) || results[0].Events != results[1].Events {
					t.Errorf("results differ: %d events stopping at an empty order, %d offering every free node", results[0].Events, results[1].Events)
				}
				if past == 0 {
					t.Errorf("the full sweep made no offer past an empty order: the check checked nothing")
				}
			})
		}
	}
}

// TestKeptPriorityMatchesFresh replays random days under the policies that
// order jobs (auto with its members' priorities, sca, sda, ese), some jobs
// with bounds, and asks each job's priority afresh at every pass where
// jobPriority would keep the last one (its engine's PriorityVersion has
// not moved): a kept priority that a fresh one contradicts fails the run.
func TestKeptPriorityMatchesFresh(t *testing.T) {
	reg := alltest.Registry(t)
	for _, name := range []string{"auto", "sca", "sda", "ese"} {
		for seed := uint64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				cfg, jobs := indexWorkload(seed)
				for i := range jobs {
					switch i % 6 {
					case 1:
						jobs[i].Deadline = jobs[i].Submit + 60_000
					case 2:
						jobs[i].ErrorBound = 0.2
					case 3:
						jobs[i].TaskMillis = 9_000
					}
				}
				s := storeSim(t, reg, name, nil, seed, cfg, jobs)
				s.checkPrio = true
				if err := s.loop(); err != nil {
					t.Fatal(err)
				}
				if r := s.finish(); r.Unfinished != 0 {
					t.Fatalf("%d jobs unfinished", r.Unfinished)
				}
				if s.prioKeptChecked == 0 {
					t.Errorf("no priority kept: the check checked nothing")
				}
			})
		}
	}
}

// TestKeptOrderMatchesFresh replays random days under the policies that
// order jobs three ways: with the job order kept sorted from pass to pass
// (takeKeptOrder), that order compared at every pass with a stable sort of
// the priorities asked afresh (checkOrder), and with every pass sorting
// afresh as before (freshOrder). The kept order must equal the sorted one
// at every pass, and the per-job results and number of events must match.
func TestKeptOrderMatchesFresh(t *testing.T) {
	reg := alltest.Registry(t)
	for _, name := range []string{"auto", "sca", "sda", "ese"} {
		for seed := uint64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				var results [2]*Result
				for k, fresh := range []bool{false, true} {
					cfg, jobs := indexWorkload(seed)
					for i := range jobs {
						if i%5 == 2 {
							jobs[i].ErrorBound = 0.2
						}
					}
					s := storeSim(t, reg, name, nil, seed, cfg, jobs)
					s.freshOrder, s.checkOrder = fresh, !fresh
					if err := s.loop(); err != nil {
						t.Fatal(err)
					}
					results[k] = s.finish()
					if !fresh && s.ordChecked == 0 {
						t.Errorf("no kept order checked")
					}
					if !fresh && s.ordTouchedPasses == 0 {
						t.Errorf("no pass read only the jobs whose priority stepped")
					}
				}
				if !reflect.DeepEqual(results[0].Jobs, results[1].Jobs) || results[0].Events != results[1].Events {
					t.Errorf("results differ: %d events with the order kept, %d sorting afresh", results[0].Events, results[1].Events)
				}
			})
		}
	}
}
