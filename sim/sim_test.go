package sim

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/speculators"
)

var (
	m0 = speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: 0}}
	r0 = speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Reduce, Index: 0}}
)

// Four 10 s maps on two containers take two waves (0-10 s, 10-20 s); the
// reduce gets a container only when the maps free one, at 20 s, and runs its
// 6 s.
func TestSingleJobNoSpeculation(t *testing.T) {
	jobs := []Job{{ID: "j", Maps: works(10000, 10000, 10000, 10000), Reduces: works(6000)}}
	res := runScript(t, cfgFor(nodes(1, 1)), jobs)
	r := res.Jobs[0]
	expectTime(t, "finish", r.Finish, 26000)
	expectTime(t, "makespan", res.Makespan, 26000)
	want := []speculators.Time{10000, 10000, 20000, 20000}
	for i, w := range want {
		expectTime(t, "map finish", r.TaskFinish[speculators.Map][i], w)
	}
	expectTime(t, "reduce finish", r.TaskFinish[speculators.Reduce][0], 26000)
	expectInt(t, "container ms", r.ContainerMs, 46000)
	expectInt(t, "wasted ms", r.WastedContainerMs, 0)
	expectInt(t, "attempts", r.Attempts, 5)
	if res.Events == 0 {
		t.Error("no events counted")
	}
}

// A reduce placed at once (slow start 0) copies only as maps finish: with
// maps of 10 s and 30 s and a 3 s reduce (1 s copy), it copies half its
// input by 10.5 s, waits for the second map, and needs 2.5 s more after 30 s.
func TestReduceWaitsForMaps(t *testing.T) {
	cfg := cfgFor(nodes(3))
	cfg.ReduceSlowstart = 0
	p := &script{}
	res := runScript(t, cfg, []Job{{ID: "j", Maps: works(10000, 30000), Reduces: works(3000)}}, p)
	expectTime(t, "reduce finish", res.Jobs[0].TaskFinish[speculators.Reduce][0], 32500)
	for _, ev := range seenOf(p, speculators.AttemptStatus, r0) {
		if ev.Phase != speculators.PhaseShuffle && ev.Time < 30000 {
			t.Errorf("reduce left shuffle at %d ms, before the last map finished", ev.Time)
		}
		if ev.Time >= 11000 && ev.Time < 30000 && ev.Progress != 0.5/3 {
			t.Errorf("reduce progress at %d ms = %g, want %g (half the maps copied)", ev.Time, ev.Progress, 0.5/3)
		}
	}
}

// A reduce without work still cannot finish before the maps.
func TestEmptyReduceWaitsForMaps(t *testing.T) {
	cfg := cfgFor(nodes(2))
	cfg.ReduceSlowstart = 0
	res := runScript(t, cfg, []Job{{ID: "j", Maps: works(10000), Reduces: works(0)}})
	expectTime(t, "reduce finish", res.Jobs[0].TaskFinish[speculators.Reduce][0], 10000)
}

// With dedicated Hadoop-1 slots the reduce runs in its own slot while the
// two maps share the single map slot.
func TestDedicatedSlots(t *testing.T) {
	cfg := cfgFor([]Node{{Name: "tt", MapSlots: 1, ReduceSlots: 1}})
	cfg.ReduceSlowstart = 0
	res := runScript(t, cfg, []Job{{ID: "j", Maps: works(10000, 10000), Reduces: works(3000)}})
	r := res.Jobs[0]
	expectTime(t, "second map", r.TaskFinish[speculators.Map][1], 20000)
	expectTime(t, "reduce", r.TaskFinish[speculators.Reduce][0], 22500)
}

// A three-times slower node makes its map straggle (30 s); a copy
// speculated at 12 s runs on the fast node, finishes at 22 s and wins; the
// original is killed and its 22 s are wasted.
func TestSpeculativeCopyWinsOnFastNode(t *testing.T) {
	ns := []Node{{Name: "slow", Slots: 1, Slowdown: 3}, {Name: "fast", Slots: 1}}
	p := &script{steps: []step{speculate(12000, speculators.Map, 0)}}
	res := runScript(t, cfgFor(ns), []Job{{ID: "j", Maps: works(10000, 10000)}}, p)
	r := res.Jobs[0]
	expectTime(t, "finish", r.Finish, 22000)
	expectInt(t, "launched", r.SpeculativeLaunched, 1)
	expectInt(t, "won", r.SpeculativeWon, 1)
	expectInt(t, "killed", r.KilledAttempts, 1)
	expectInt(t, "wasted", r.WastedContainerMs, 22000)
	expectInt(t, "container ms", r.ContainerMs, 42000)
	copyID := speculators.AttemptID{Task: m0.Task, N: 1}
	started := seenOf(p, speculators.AttemptStarted, copyID)
	if len(started) != 1 || !started[0].Speculative || started[0].Node != "fast" || started[0].Time != 12000 {
		t.Errorf("copy start events = %+v, want one speculative start on fast at 12000", started)
	}
	expectOnceAt(t, p, speculators.AttemptKilled, m0, 22000)
	if len(res.Decisions) != 1 || !res.Decisions[0].Applied || res.Decisions[0].Time != 12000 {
		t.Errorf("decisions = %+v", res.Decisions)
	}
}

// A copy is never placed where the policy's node gate refuses it: the
// original runs to its end. Placed as YARN places copies (YARNPlacement),
// the gate is not asked: the copy runs on fast and wins.
func TestCopyRespectsNodeGate(t *testing.T) {
	ns := []Node{{Name: "slow", Slots: 1, Slowdown: 3}, {Name: "fast", Slots: 1}}
	p := &script{steps: []step{speculate(12000, speculators.Map, 0)}, refuse: map[speculators.NodeID]bool{"fast": true}}
	res := runScript(t, cfgFor(ns), []Job{{ID: "j", Maps: works(10000, 10000)}}, p)
	r := res.Jobs[0]
	expectTime(t, "finish", r.Finish, 30000)
	expectInt(t, "launched", r.SpeculativeLaunched, 0)

	cfg := cfgFor(ns)
	cfg.YARNPlacement = true
	p = &script{steps: []step{speculate(12000, speculators.Map, 0)}, refuse: map[speculators.NodeID]bool{"fast": true}}
	r = runScript(t, cfg, []Job{{ID: "j", Maps: works(10000, 10000)}}, p).Jobs[0]
	expectInt(t, "launched under YARN placement", r.SpeculativeLaunched, 1)
	expectTime(t, "finish under YARN placement", r.Finish, 22000)
}

// A copy never shares a node with a running attempt of its task, unless
// placed as YARN places copies (YARNPlacement): then it runs beside its
// original, at the node's speed, and the original wins.
func TestCopyNotOnSameNode(t *testing.T) {
	ns := []Node{{Name: "only", Slots: 2, Slowdown: 2}}
	p := &script{steps: []step{speculate(1000, speculators.Map, 0)}}
	res := runScript(t, cfgFor(ns), []Job{{ID: "j", Maps: works(10000)}}, p)
	expectInt(t, "launched", res.Jobs[0].SpeculativeLaunched, 0)
	expectTime(t, "finish", res.Jobs[0].Finish, 20000)

	cfg := cfgFor(ns)
	cfg.YARNPlacement = true
	p = &script{steps: []step{speculate(1000, speculators.Map, 0)}}
	r := runScript(t, cfg, []Job{{ID: "j", Maps: works(10000)}}, p).Jobs[0]
	expectInt(t, "launched under YARN placement", r.SpeculativeLaunched, 1)
	expectInt(t, "won under YARN placement", r.SpeculativeWon, 0)
	expectTime(t, "finish under YARN placement", r.Finish, 20000)
}

// FIFO gives the freed slots to the first job; fair splits them.
func TestFIFOAndFair(t *testing.T) {
	jobs := func() []Job {
		return []Job{{ID: "a", Maps: works(10000, 10000, 10000, 10000)}, {ID: "b", Submit: 1000, Maps: works(10000)}}
	}
	fifo := runScript(t, cfgFor(nodes(2)), jobs())
	expectTime(t, "fifo a", fifo.Jobs[0].Finish, 20000)
	expectTime(t, "fifo b", fifo.Jobs[1].Finish, 30000)
	cfg := cfgFor(nodes(2))
	cfg.Scheduler = SchedulerFair
	fair := runScript(t, cfg, jobs())
	expectTime(t, "fair a", fair.Jobs[0].Finish, 30000)
	expectTime(t, "fair b", fair.Jobs[1].Finish, 20000)

	// Fair ties (both jobs at zero running containers when the one slot
	// frees at 10 s) go to the earlier job.
	cfg = cfgFor(nodes(1))
	cfg.Scheduler = SchedulerFair
	tie := runScript(t, cfg, []Job{{ID: "a", Maps: works(10000, 10000)}, {ID: "b", Submit: 1000, Maps: works(10000)}})
	expectTime(t, "tie a", tie.Jobs[0].Finish, 20000)
	expectTime(t, "tie b", tie.Jobs[1].Finish, 30000)
}

// A node hung from 5 s for good: its attempt reports last at 3 s, fails at
// 3 s + task timeout, and runs again on the healthy node.
func TestTaskTimeoutOnHungNode(t *testing.T) {
	inf := speculators.Time(0)
	ns := []Node{{Name: "hung", Slots: 1, Episodes: []Episode{{Start: 5000, End: inf, Factor: posInf()}}}, {Name: "ok", Slots: 1}}
	p := &script{}
	res := runScript(t, cfgFor(ns), []Job{{ID: "j", Maps: works(10000, 10000)}}, p)
	r := res.Jobs[0]
	expectInt(t, "failed", r.FailedAttempts, 1)
	expectTime(t, "finish", r.Finish, 613000)
	expectInt(t, "wasted", r.WastedContainerMs, 603000)
	expectOnceAt(t, p, speculators.AttemptFailed, m0, 603000)
	for _, ev := range seenOf(p, speculators.AttemptStatus, m0) {
		if ev.Time > 5000 {
			t.Errorf("hung attempt reported at %d ms", ev.Time)
		}
	}
	retry := seenOf(p, speculators.AttemptStarted, speculators.AttemptID{Task: m0.Task, N: 1})
	if len(retry) != 1 || retry[0].Node != "ok" || retry[0].Speculative {
		t.Errorf("retry start = %+v, want a non-speculative attempt on ok", retry)
	}
}

// A node that pauses for 15 s resumes its attempt where it stopped, and a
// contention episode doubling durations halves the work rate.
func TestEpisodes(t *testing.T) {
	ns := []Node{
		{Name: "pause", Slots: 1, Episodes: []Episode{{Start: 5000, End: 20000, Factor: posInf()}}},
		{Name: "busy", Slots: 1, Episodes: []Episode{{Start: 0, End: 10000, Factor: 2}}},
	}
	p := &script{}
	res := runScript(t, cfgFor(ns), []Job{{ID: "j", Maps: works(10000, 10000)}}, p)
	r := res.Jobs[0]
	expectInt(t, "failed", r.FailedAttempts, 0)
	expectTime(t, "paused map", r.TaskFinish[speculators.Map][0], 25000)
	expectTime(t, "contended map", r.TaskFinish[speculators.Map][1], 15000)
	var after bool
	for _, ev := range seenOf(p, speculators.AttemptStatus, m0) {
		if ev.Time > 5000 && ev.Time < 20000 {
			t.Errorf("paused attempt reported at %d ms", ev.Time)
		}
		after = after || ev.Time >= 20000
	}
	if !after {
		t.Error("paused attempt never reported after resuming")
	}
}

// The engine sees its container needs as levels.
func TestContainerNeeds(t *testing.T) {
	p := &script{}
	runScript(t, cfgFor(nodes(1)), []Job{{ID: "j", Maps: works(5000, 5000, 5000), Reduces: works(1000)}}, p)
	if got, want := p.needsAt[1000], [2]int{2, 1}; got != want {
		t.Errorf("needs at 1 s = %v, want %v", got, want)
	}
	if got, want := p.needsAt[6000], [2]int{1, 1}; got != want {
		t.Errorf("needs at 6 s = %v, want %v", got, want)
	}
}

func TestValidation(t *testing.T) {
	factory := func(speculators.JobInfo) (*speculators.Engine, error) { return nil, errors.New("unused") }
	bad := []struct {
		name string
		cfg  Config
		jobs []Job
	}{
		{"no nodes", DefaultConfig(nil), nil},
		{"no heartbeat", Config{Nodes: nodes(1), DecideInterval: time.Second, TaskTimeout: time.Minute}, nil},
		{"bad scheduler", func() Config { c := DefaultConfig(nodes(1)); c.Scheduler = "lifo"; return c }(), nil},
		{"mixed slots", DefaultConfig([]Node{{Name: "x", Slots: 1, MapSlots: 1}}), nil},
		{"zero factor", DefaultConfig([]Node{{Name: "x", Slots: 1, Episodes: []Episode{{Start: 1, End: 2}}}}), nil},
		{"negative work", DefaultConfig(nodes(1)), []Job{{ID: "j", Maps: works(-1)}}},
		{"bad phases", DefaultConfig(nodes(1)), []Job{{ID: "j", Reduces: []Task{{Work: 1, Phases: [3]float64{0, 0.5, 0.5}}}}}},
	}
	for _, c := range bad {
		if _, err := Run(c.cfg, c.jobs, factory); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	if _, err := Run(DefaultConfig(nodes(1)), []Job{{ID: "j", Maps: works(1)}}, factory); err == nil {
		t.Error("factory error not returned")
	}
}

// Inputs past the simulator's limits are errors naming what is wrong, not
// runs that never end, overflow or exhaust memory.
func TestValidationLimits(t *testing.T) {
	factory := func(speculators.JobInfo) (*speculators.Engine, error) { return nil, errors.New("unused") }
	one := DefaultConfig(nodes(1))
	streamed := Job{ID: "s", NumTasks: [speculators.NumTaskTypes]int{1, 0}, LongestWork: MaxWork + 1,
		Load: func(*Job) error { return nil }}
	bad := []struct {
		name string
		cfg  Config
		jobs []Job
		want string
	}{
		{"work over a month", one, []Job{{ID: "j", Maps: works(MaxWork + 1)}}, "map 0: work"},
		{"streamed work over a month", one, []Job{streamed}, "over the limit"},
		{"submit in the far future", one, []Job{{ID: "j", Submit: MaxTime + 1, Maps: works(1)}}, "submit time"},
		{"streamed submit in the far future", one, []Job{{ID: "s", Submit: MaxTime + 1, Load: streamed.Load}}, "submit time"},
		{"deadline in the far future", one, []Job{{ID: "j", Deadline: MaxTime + 1, Maps: works(1)}}, "deadline"},
		{"huge slowdown", DefaultConfig([]Node{{Name: "x", Slots: 1, Slowdown: 1e12}}), nil, "slowdown"},
		{"NaN slowdown", DefaultConfig([]Node{{Name: "x", Slots: 1, Slowdown: math.NaN()}}), nil, "slowdown"},
		{"huge episode factor", DefaultConfig([]Node{{Name: "x", Slots: 1, Episodes: []Episode{{Start: 1, End: 2, Factor: 1e9}}}}), nil, "factor"},
		{"huge node", DefaultConfig([]Node{{Name: "x", Slots: MaxSlots + 1}}), nil, "slots"},
		{"huge cluster", DefaultConfig([]Node{{Name: "x", Slots: MaxSlots}, {Name: "y", Slots: 1}}), nil, "slots"},
	}
	for _, c := range bad {
		_, err := Run(c.cfg, c.jobs, factory)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// With every node hung for good and no horizon, the run reports a stall;
// with a horizon it stops there and reports the job unfinished.
func TestStallAndHorizon(t *testing.T) {
	ns := []Node{{Name: "h", Slots: 1, Episodes: []Episode{{Start: 1000, Factor: posInf()}}}}
	jobs := []Job{{ID: "j", Maps: works(10000)}}
	factory := func(info speculators.JobInfo) (*speculators.Engine, error) {
		return speculators.NewEngine(info, "script", &script{}, speculators.Params{})
	}
	res, err := Run(DefaultConfig(ns), jobs, factory)
	if !errors.Is(err, ErrStalled) || res == nil || res.Unfinished != 1 {
		t.Fatalf("Run = %v, %v; want a partial result and ErrStalled", res, err)
	}
	cfg := DefaultConfig(ns)
	cfg.Horizon = 100000
	res, err = Run(cfg, jobs, factory)
	if err != nil || res.Unfinished != 1 || res.Jobs[0].Finish != -1 || res.End != 100000 {
		t.Fatalf("Run with horizon = %+v, %v", res, err)
	}
}

// A node whose slowdown applies to reduces only (LATE §5.4's sleep job)
// runs its map at nominal speed and its reduce three times slower, an
// episode still slowing both.
func TestSlowdownReducesOnly(t *testing.T) {
	cfg := cfgFor([]Node{{Name: "tt", MapSlots: 1, ReduceSlots: 1, Slowdown: 3, SlowdownReducesOnly: true,
		Episodes: []Episode{{Start: 0, End: 5000, Factor: 2}}}})
	res := runScript(t, cfg, []Job{{ID: "j", Maps: works(10000), Reduces: works(3000)}})
	r := res.Jobs[0]
	// The map does 2.5 s of work in the 5 s episode, then 7.5 s more.
	expectTime(t, "map", r.TaskFinish[speculators.Map][0], 12500)
	expectTime(t, "reduce", r.TaskFinish[speculators.Reduce][0], 12500+9000)
}

// A scripted map fails its four attempts (3 s each) and fails the job,
// whose other map, running on the second node, is killed; the reduce never
// starts. A scripted later attempt that succeeds ends a task as recorded.
func TestScriptedFailuresFailTheJob(t *testing.T) {
	fail := []ScriptedAttempt{{Work: 3000, Fail: true}, {Work: 3000, Fail: true}, {Work: 3000, Fail: true}, {Work: 3000, Fail: true}}
	jobs := []Job{{ID: "j", MaxAttempts: 4,
		Maps:    []Task{{Work: 3000, Script: fail}, {Work: 60000}},
		Reduces: works(1000)}}
	res := runScript(t, cfgFor(nodes(1, 1)), jobs)
	r := res.Jobs[0]
	if !r.Failed() || r.FailedTask != "m_000000" {
		t.Fatalf("job failed %v (task %q), want failed by m_000000", r.Failed(), r.FailedTask)
	}
	expectTime(t, "job end", r.Finish, 12000)
	expectInt(t, "failed attempts", r.FailedAttempts, 4)
	expectInt(t, "killed attempts", r.KilledAttempts, 1)

	retry := []Job{{ID: "k", MaxAttempts: 4, Maps: []Task{{Work: 3000, Script: []ScriptedAttempt{{Work: 2000, Fail: true}, {Work: 5000}}}}}}
	rr := runScript(t, cfgFor(nodes(1)), retry).Jobs[0]
	if rr.Failed() {
		t.Fatal("job with a successful second attempt failed")
	}
	expectTime(t, "retried map", rr.Finish, 7000)
}

// A job still running at its KillAt is killed then; one done before is not.
func TestKillAt(t *testing.T) {
	res := runScript(t, cfgFor(nodes(2)), []Job{
		{ID: "k", KillAt: 5000, Maps: works(20000, 3000)},
		{ID: "d", KillAt: 50000, Maps: works(4000)},
	})
	k, d := res.Jobs[0], res.Jobs[1]
	if !k.Killed || d.Killed {
		t.Fatalf("killed: k %v, d %v; want k only", k.Killed, d.Killed)
	}
	expectTime(t, "killed job end", k.Finish, 5000)
	expectInt(t, "killed attempts", k.KilledAttempts, 1)
}

// TestAttemptsRunAtTheSpeedOfTheirNode: a task measured on a node twice as
// slow as nominal (Task.Slowdown 2, 20 s) has a base time of 10 s. Its
// recorded attempt (Script) takes its recorded 20 s on any node; an attempt
// past the record takes the base time times its own node's slowdown: 30 s
// unscripted on a node 3 times slower, and a Resample copy on a nominal node
// 10 s, so that it beats the recorded original on the slow node.
func TestAttemptsRunAtTheSpeedOfTheirNode(t *testing.T) {
	succeeded := func(p *script) []speculators.Time {
		var at []speculators.Time
		for _, ev := range p.seen {
			if ev.Kind == speculators.AttemptSucceeded {
				at = append(at, ev.Time)
			}
		}
		return at
	}
	slow := nodes(1)
	slow[0].Slowdown = 3
	for _, tc := range []struct {
		name   string
		script []ScriptedAttempt
		want   speculators.Time
	}{{"recorded", []ScriptedAttempt{{Work: 20_000}}, 20_000}, {"not recorded", nil, 30_000}} {
		p := &script{}
		runScript(t, cfgFor(slow), []Job{{ID: "a", Maps: []Task{{Work: 20_000, Slowdown: 2, Script: tc.script}}}}, p)
		if got := succeeded(p); len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s attempt on a node 3x slower: succeeded at %v, want [%d]", tc.name, got, tc.want)
		}
	}
	two := nodes(1, 1)
	two[0].Slowdown = 3
	p := &script{steps: []step{speculate(1000, speculators.Map, 0)}}
	runScript(t, cfgFor(two), []Job{{ID: "a", CopyWork: Resample, Maps: []Task{{Work: 20_000, Slowdown: 2, Script: []ScriptedAttempt{{Work: 20_000}}}}}}, p)
	var copyNode speculators.NodeID
	for _, ev := range p.seen {
		if ev.Kind == speculators.AttemptStarted && ev.Speculative {
			copyNode = ev.Node
		}
	}
	if got := succeeded(p); copyNode != "n1" || len(got) != 1 || got[0] != 11_000 {
		t.Errorf("a copy at 1 s on nominal node %q: a task succeeded at %v, want the copy on n1 at [11000] (its 10 s base time)", copyNode, got)
	}
}

// TestCopyStartupDelaysACopysProgress: a copy of a job with a CopyStartup
// sends no report for that long (its container's allocation and JVM
// start-up live), then reports the rest of its work; when it finishes does
// not move, and the original reports as it does without one.
func TestCopyStartupDelaysACopysProgress(t *testing.T) {
	type report struct {
		at       speculators.Time
		progress float64
	}
	run := func(startup speculators.Time) (orig, cp []report, copyStart, copyDone speculators.Time) {
		p := &script{steps: []step{speculate(1000, speculators.Map, 0)}}
		runScript(t, cfgFor(nodes(1, 1)), []Job{{ID: "a", CopyWork: Resample, CopyStartup: startup,
			Maps: []Task{{Work: 20_000, Script: []ScriptedAttempt{{Work: 40_000}}}}}}, p)
		for _, ev := range p.seen {
			switch {
			case ev.Kind == speculators.AttemptStarted && ev.Attempt.N == 1:
				copyStart = ev.Time
			case ev.Kind == speculators.AttemptSucceeded && ev.Attempt.N == 1:
				copyDone = ev.Time
			case ev.Kind == speculators.AttemptStatus && ev.Attempt.N == 0:
				orig = append(orig, report{ev.Time, ev.Progress})
			case ev.Kind == speculators.AttemptStatus && ev.Attempt.N == 1:
				cp = append(cp, report{ev.Time, ev.Progress})
			}
		}
		return orig, cp, copyStart, copyDone
	}
	orig0, cp0, start0, done0 := run(0)
	orig, cp, start, done := run(8000)
	if start0 == 0 || done0 != start0+20_000 || start != start0 || done != done0 {
		t.Fatalf("the copy started at %d and succeeded at %d (without a start-up: %d, %d); want the same, 20 s apart", start, done, start0, done0)
	}
	if !slices.Equal(orig, orig0) {
		t.Errorf("the original reported %v, without a copy start-up %v: want the same", orig, orig0)
	}
	live := 0
	for _, r := range cp {
		want := max(float64(r.at-start-8000), 0) / 12_000
		if math.Abs(r.progress-want) > 1e-9 {
			t.Errorf("the copy reported %.4f at %d ms after its start, want %.4f (nothing for 8 s, then 12 s of progress)", r.progress, r.at-start, want)
		}
		if r.at-start < 8000 {
			t.Errorf("the copy reported %.4f at %d ms after its start, in its 8 s start-up: want no report then", r.progress, r.at-start)
		} else if r.progress > 0 {
			live++
		}
	}
	if live == 0 || len(cp) >= len(cp0) {
		t.Errorf("the copy's reports %v (without a start-up %d): want fewer, all after its start-up", cp, len(cp0))
	}
	for _, r := range cp0 {
		if want := float64(r.at-start0) / 20_000; math.Abs(r.progress-want) > 1e-9 {
			t.Errorf("without a start-up the copy reported %.4f at %d ms, want %.4f", r.progress, r.at-start0, want)
		}
	}
}

// TestScriptedStartupSilencesAnOriginal: an original replaying a recorded
// attempt with a Startup sends no report for that share of its work, then
// reports the rest of its work as the whole; a retry past the record, and
// its finish, are as without one.
func TestScriptedStartupSilencesAnOriginal(t *testing.T) {
	type report struct {
		at       speculators.Time
		progress float64
	}
	run := func(startup speculators.Time) (reports []report, done speculators.Time) {
		p := &script{}
		runScript(t, cfgFor(nodes(1, 1)), []Job{{ID: "a",
			Maps: []Task{{Work: 20_000, Script: []ScriptedAttempt{{Work: 20_000, Startup: startup}}}}}}, p)
		for _, ev := range p.seen {
			switch {
			case ev.Kind == speculators.AttemptStatus:
				reports = append(reports, report{ev.Time, ev.Progress})
			case ev.Kind == speculators.AttemptSucceeded:
				done = ev.Time
			}
		}
		return reports, done
	}
	r0, done0 := run(0)
	r, done := run(5000)
	if done != done0 || done0 == 0 {
		t.Fatalf("the map succeeded at %d, without a start-up at %d: want the same", done, done0)
	}
	if len(r) == 0 || len(r) >= len(r0) {
		t.Fatalf("reports %v, without a start-up %v: want fewer, none in the start-up", r, r0)
	}
	for _, x := range r {
		if x.at < 5000 {
			t.Errorf("a report at %d ms, in the 5 s start-up", x.at)
		}
		if want := float64(x.at-5000) / 15_000; math.Abs(x.progress-want) > 1e-9 {
			t.Errorf("progress %.4f at %d ms, want %.4f (15 s of progress after 5 s)", x.progress, x.at, want)
		}
	}
}

// TestScriptedSilenceLastsToTheFirstReport: an original whose recorded
// first report came after its start-up (ScriptedAttempt.Silent) sends no
// report until then, and then reports the progress its start-up gives (a
// jump, as live: the task had worked for seconds before it reported).
func TestScriptedSilenceLastsToTheFirstReport(t *testing.T) {
	p := &script{}
	runScript(t, cfgFor(nodes(1, 1)), []Job{{ID: "a",
		Maps: []Task{{Work: 20_000, Script: []ScriptedAttempt{{Work: 20_000, Startup: 5000, Silent: 11_000}}}}}}, p)
	first := -1.0
	for _, ev := range p.seen {
		if ev.Kind != speculators.AttemptStatus {
			continue
		}
		if ev.Time < 11_000 {
			t.Errorf("a report at %d ms, before the first recorded one at 11 s", ev.Time)
		}
		if want := float64(ev.Time-5000) / 15_000; math.Abs(ev.Progress-want) > 1e-9 {
			t.Errorf("progress %.4f at %d ms, want %.4f (15 s of progress after 5 s of start-up)", ev.Progress, ev.Time, want)
		}
		if first < 0 {
			first = ev.Progress
		}
	}
	if first < 0.39 {
		t.Errorf("first report %.3f, want the 6 s of progress made by then (0.4 at least)", first)
	}
}

// TestCopyExtraLengthensCopiesPastTheRecord: a job's CopyExtra is added to
// the work of a copy past its task's Script (a draw), not to a recorded one.
func TestCopyExtraLengthensCopiesPastTheRecord(t *testing.T) {
	copyDone := func(recorded []ScriptedAttempt) speculators.Time {
		p := &script{steps: []step{speculate(1000, speculators.Map, 0)}}
		runScript(t, cfgFor(nodes(1, 1)), []Job{{ID: "a", CopyWork: Resample, CopyExtra: 5000,
			Maps: []Task{{Work: 20_000, Script: recorded}}}}, p)
		for _, ev := range p.seen {
			if ev.Kind == speculators.AttemptSucceeded && ev.Attempt.N == 1 {
				return ev.Time
			}
		}
		return -1
	}
	if got := copyDone([]ScriptedAttempt{{Work: 40_000}}); got != 26_000 {
		t.Errorf("a drawn copy launched at 1 s succeeded at %d, want 26000 (its 20 s draw and 5 s of copy cost)", got)
	}
	if got := copyDone([]ScriptedAttempt{{Work: 40_000}, {Work: 10_000}}); got != 11_000 {
		t.Errorf("a recorded copy launched at 1 s succeeded at %d, want 11000 (its recorded 10 s)", got)
	}
}

// Placed as YARN places copies (YARNPlacement), a copy's node is drawn at
// random among the nodes with room, seeded: over seeds a copy lands on
// every such node, its original's among them, and the same seed gives the
// same node; placed as the papers' systems placed them, it lands on the
// same node for every seed.
func TestYARNPlacementSpreadsCopiesOverTheNodes(t *testing.T) {
	ns := nodes(2, 2, 2, 2)
	copyNode := func(yarn bool, seed uint64) speculators.NodeID {
		cfg := cfgFor(ns)
		cfg.YARNPlacement, cfg.Seed = yarn, seed
		p := &script{steps: []step{speculate(1000, speculators.Map, 0)}}
		runScript(t, cfg, []Job{{ID: "j", Maps: works(10000)}}, p)
		started := seenOf(p, speculators.AttemptStarted, speculators.AttemptID{Task: m0.Task, N: 1})
		if len(started) != 1 {
			t.Fatalf("yarn %v, seed %d: copy starts %+v, want one", yarn, seed, started)
		}
		return started[0].Node
	}
	seen := map[speculators.NodeID]int{}
	spread := map[speculators.NodeID]bool{}
	for seed := uint64(1); seed <= 40; seed++ {
		n := copyNode(true, seed)
		seen[n]++
		if again := copyNode(true, seed); again != n {
			t.Errorf("seed %d: the copy ran on %s, then on %s", seed, n, again)
		}
		spread[copyNode(false, seed)] = true
	}
	if len(seen) != len(ns) {
		t.Errorf("under YARN placement the copy ran on %v over 40 seeds, want all %d nodes", seen, len(ns))
	}
	if len(spread) != 1 {
		t.Errorf("without YARN placement the copy ran on %v over 40 seeds, want one node", spread)
	}
}
