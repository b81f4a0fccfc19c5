package sim

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	nonepolicy "github.com/specbridge/specbridge/speculators/none"
)

// Killing the only attempt at 5 s runs the map again from scratch: it ends
// at 15 s, and the first 5 s are wasted.
func TestKill(t *testing.T) {
	p := &script{steps: []step{attemptDecision(5000, speculators.Kill, speculators.Map, 0, 0)}}
	res := runScript(t, cfgFor(nodes(1)), []Job{{ID: "j", Maps: works(10000)}}, p)
	r := res.Jobs[0]
	expectTime(t, "finish", r.Finish, 15000)
	expectInt(t, "killed", r.KilledAttempts, 1)
	expectInt(t, "wasted", r.WastedContainerMs, 5000)
	expectInt(t, "attempts", r.Attempts, 2)
	expectOnceAt(t, p, speculators.AttemptKilled, m0, 5000)
}

// Killing an attempt that already ended changes nothing and is logged as
// not applied.
func TestKillEndedIgnored(t *testing.T) {
	p := &script{steps: []step{attemptDecision(12000, speculators.Kill, speculators.Map, 0, 0)}}
	res := runScript(t, cfgFor(nodes(1)), []Job{{ID: "j", Maps: works(10000, 10000)}}, p)
	expectInt(t, "killed", res.Jobs[0].KilledAttempts, 0)
	expectTime(t, "finish", res.Jobs[0].Finish, 20000)
	if len(res.Decisions) != 1 || res.Decisions[0].Applied {
		t.Errorf("decisions = %+v, want one not applied", res.Decisions)
	}
}

// Re-running map 0 at 11 s (its output lost) while the reduce is copying:
// the reduce has copied half its input (1 s of its 2 s copy), must wait for
// the map's new attempt (11-21 s), then needs its remaining 5 s.
func TestRerun(t *testing.T) {
	cfg := cfgFor(nodes(2))
	cfg.ReduceSlowstart = 1
	p := &script{steps: []step{attemptDecision(11000, speculators.Rerun, speculators.Map, 0, 0)}}
	res := runScript(t, cfg, []Job{{ID: "j", Maps: works(10000, 10000), Reduces: works(6000)}}, p)
	r := res.Jobs[0]
	expectInt(t, "reruns", r.RerunMaps, 1)
	expectTime(t, "map 0 finish", r.TaskFinish[speculators.Map][0], 21000)
	expectTime(t, "finish", r.Finish, 26000)
	expectInt(t, "wasted", r.WastedContainerMs, 10000)
	expectOnceAt(t, p, speculators.AttemptKilled, m0, 11000)
	if s := seenOf(p, speculators.AttemptSucceeded, speculators.AttemptID{Task: m0.Task, N: 1}); len(s) != 1 {
		t.Errorf("re-run success events = %+v", s)
	}
}

// With one container, a reduce waiting in its copy phase for a re-run map
// would hold the container the map needs: it is preempted (killed after 1 s
// of work), the map runs 11-21 s, and the reduce runs again 21-27 s.
func TestRerunPreemptsStarvingReduce(t *testing.T) {
	cfg := cfgFor(nodes(1))
	cfg.ReduceSlowstart = 1
	p := &script{steps: []step{attemptDecision(11000, speculators.Rerun, speculators.Map, 0, 0)}}
	res := runScript(t, cfg, []Job{{ID: "j", Maps: works(10000), Reduces: works(6000)}}, p)
	r := res.Jobs[0]
	expectTime(t, "finish", r.Finish, 27000)
	expectInt(t, "preempted", r.PreemptedReduces, 1)
	expectInt(t, "killed", r.KilledAttempts, 1)
	expectInt(t, "wasted", r.WastedContainerMs, 11000)
	expectOnceAt(t, p, speculators.AttemptKilled, r0, 11000)
}

// A map whose attempt ends while a copy of it is asked for runs again only
// as that copy (no retry is queued; Hadoop's spare attempt likewise). The
// copy is then the task's only way forward: the job's maps starve with
// none running, so no reduce of it takes the container the kill frees
// (rampedDown), and the policy's node gate, which says where a second
// attempt may run, does not hold the copy back. Before, the waiting reduce
// r1 took the container and the job stalled with its two reduces waiting
// for a map that never ran (a held-out replay of node hangs under auto).
func TestCopyStandingInForEndedMapIsPlaced(t *testing.T) {
	cfg := cfgFor(nodes(2))
	zero := 0.0
	p := &script{
		refuse: map[speculators.NodeID]bool{"n0": true},
		steps:  []step{speculate(5000, speculators.Map, 0), attemptDecision(6000, speculators.Kill, speculators.Map, 0, 0)},
	}
	res := runScript(t, cfg, []Job{{ID: "j", Maps: works(10000), Reduces: works(20000, 20000), ReduceSlowstart: &zero}}, p)
	r := res.Jobs[0]
	if res.Unfinished != 0 {
		t.Fatalf("%d jobs unfinished", res.Unfinished)
	}
	m1 := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: 0}, N: 1}
	expectOnceAt(t, p, speculators.AttemptStarted, m1, 6000)
	expectInt(t, "speculative launched", r.SpeculativeLaunched, 1)
	r1 := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Reduce, Index: 1}, N: 0}
	if got := seenOf(p, speculators.AttemptStarted, r1); len(got) != 1 || got[0].Time < 16000 {
		t.Errorf("r1 started %+v, want once, after the map's copy ends at 16 s", got)
	}
}

// Rerun of a reduce, or of a map attempt that is still running, is ignored.
func TestRerunIgnored(t *testing.T) {
	p := &script{steps: []step{
		attemptDecision(1000, speculators.Rerun, speculators.Map, 0, 0),
		attemptDecision(1000, speculators.Rerun, speculators.Reduce, 0, 0),
	}}
	res := runScript(t, cfgFor(nodes(2)), []Job{{ID: "j", Maps: works(10000), Reduces: works(1000)}}, p)
	expectInt(t, "reruns", res.Jobs[0].RerunMaps, 0)
	for _, d := range res.Decisions {
		if d.Applied {
			t.Errorf("decision %v applied", d.Decision)
		}
	}
}

// Dropping a running map kills it and the job stops waiting for it;
// dropping an unplaced map means it never runs.
func TestDrop(t *testing.T) {
	p := &script{steps: []step{dropStep(5000, speculators.Map, 0), dropStep(5000, speculators.Map, 2)}}
	res := runScript(t, cfgFor(nodes(1)), []Job{{ID: "j", Maps: works(10000, 10000, 10000)}}, p)
	r := res.Jobs[0]
	expectTime(t, "finish", r.Finish, 15000)
	expectInt(t, "dropped", r.DroppedTasks, 2)
	expectInt(t, "killed", r.KilledAttempts, 1)
	expectInt(t, "attempts", r.Attempts, 2)
	expectTime(t, "map 0", r.TaskFinish[speculators.Map][0], -1)
	expectTime(t, "map 2", r.TaskFinish[speculators.Map][2], -1)
}

// A dropped map counts as done for the reduces' copy phase.
func TestDropMapReleasesReduce(t *testing.T) {
	cfg := cfgFor(nodes(3))
	cfg.ReduceSlowstart = 0
	p := &script{steps: []step{dropStep(12000, speculators.Map, 1)}}
	res := runScript(t, cfg, []Job{{ID: "j", Maps: works(10000, 100000), Reduces: works(3000)}}, p)
	// The reduce copies half by 10.5 s, then the rest of its 3 s after the
	// drop at 12 s: 2.5 s more.
	expectTime(t, "finish", res.Jobs[0].Finish, 14500)
}

// workload builds n jobs with random task counts and heavy-tailed works.
func workload(seed uint64, n, minTasks, maxTasks int, gap speculators.Time, copies CopyModel) []Job {
	rng := rand.New(rand.NewPCG(seed, 7))
	jobs := make([]Job, n)
	for i := range jobs {
		tasks := minTasks + rng.IntN(maxTasks-minTasks+1)
		reduces := max(1, tasks/10)
		maps := max(1, tasks-reduces)
		j := Job{ID: "job" + itoa(i), Submit: speculators.Time(i) * gap, CopyWork: copies}
		j.Maps = make([]Task, maps)
		for k := range j.Maps {
			j.Maps[k] = Task{InputBytes: 128 << 20, Work: speculators.Time(5000 + rng.ExpFloat64()*15000)}
		}
		j.Reduces = make([]Task, reduces)
		for k := range j.Reduces {
			j.Reduces[k] = Task{InputBytes: 64 << 20, Work: speculators.Time(10000 + rng.ExpFloat64()*20000)}
		}
		jobs[i] = j
	}
	return jobs
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func clusterNodes(n, slots int) []Node {
	out := make([]Node, n)
	for i := range out {
		out[i] = Node{Name: "node" + itoa(i), Slots: slots}
		switch {
		case i%10 == 3:
			out[i].Slowdown = 3
		case i%17 == 5:
			out[i].Episodes = []Episode{{Start: 20000, End: 40000, Factor: posInf()}, {Start: 60000, End: 90000, Factor: 2}}
		}
	}
	return out
}

// straggler is a test-only policy that copies any task running alone for
// more than 20 s, once, and kills the copy if it is still running 15 s
// later: enough decisions to exercise every path under Resample.
type straggler struct {
	copied map[speculators.TaskID]speculators.Time
}

func (p *straggler) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	for ty := range job.Tasks {
		for _, task := range job.Tasks[ty] {
			at, copied := p.copied[task.ID]
			if !copied {
				if a := task.OnlyRunning(); a != nil && now-a.Start > 20000 {
					p.copied[task.ID] = now
					out = append(out, speculators.Decision{Kind: speculators.Speculate, Task: task.ID, Reason: "slow"})
				}
				continue
			}
			if now-at == 15000 {
				for _, a := range task.Attempts {
					if a.Speculative && a.Running() {
						out = append(out, speculators.Decision{Kind: speculators.Kill, Attempt: a.ID, Reason: "too slow"})
					}
				}
			}
		}
	}
	return out
}

func stragglerFactory(info speculators.JobInfo) (*speculators.Engine, error) {
	return speculators.NewEngine(info, "straggler", &straggler{copied: map[speculators.TaskID]speculators.Time{}}, speculators.Params{})
}

// Same inputs and seed give the same Result; another seed changes a
// Resample run.
func TestDeterminism(t *testing.T) {
	run := func(seed uint64, sched string) *Result {
		cfg := DefaultConfig(clusterNodes(12, 4))
		cfg.Seed, cfg.Scheduler, cfg.RecordDecisions = seed, sched, true
		res, err := Run(cfg, workload(3, 15, 5, 120, 7000, Resample), stragglerFactory)
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		return res
	}
	for _, sched := range []string{SchedulerFIFO, SchedulerFair} {
		a, b := run(1, sched), run(1, sched)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs with the same seed differ", sched)
		}
		launched := 0
		for _, j := range a.Jobs {
			launched += j.SpeculativeLaunched
			if j.Finish < 0 {
				t.Errorf("%s: job %s unfinished", sched, j.ID)
			}
		}
		if launched == 0 || len(a.Decisions) == 0 {
			t.Fatalf("%s: the workload made no copies; the test proves nothing", sched)
		}
		if c := run(2, sched); reflect.DeepEqual(a.Jobs, c.Jobs) {
			t.Errorf("%s: seeds 1 and 2 gave the same Resample run", sched)
		}
	}
}

// The none policy on the synthetic cluster finishes every job, with no
// copies, and container time covers at least the nominal work.
func TestNoneWorkload(t *testing.T) {
	jobs := workload(9, 20, 10, 200, 5000, SameWork)
	res, err := Run(DefaultConfig(clusterNodes(20, 4)), jobs, noneFactory)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	for i, j := range res.Jobs {
		var nominal int64
		for _, task := range jobs[i].Maps {
			nominal += task.Work
		}
		for _, task := range jobs[i].Reduces {
			nominal += task.Work
		}
		if j.Finish < 0 || j.SpeculativeLaunched != 0 || j.ContainerMs < nominal {
			t.Errorf("job %s: finish %d, copies %d, container ms %d < nominal %d", j.ID, j.Finish, j.SpeculativeLaunched, j.ContainerMs, nominal)
		}
	}
}

func noneFactory(info speculators.JobInfo) (*speculators.Engine, error) {
	p, ok := nonepolicy.Policy().New(speculators.Params{}, speculators.Env{})
	if ok != nil {
		return nil, ok
	}
	return speculators.NewEngine(info, nonepolicy.Name, p, speculators.Params{})
}
