package speculators

import (
	"math"
	"testing"
)

type noPolicy struct{}

func (noPolicy) Decide(_ *Job, _ Time, out []Decision) []Decision { return out }

func TestReduceProgressThirds(t *testing.T) {
	// LATE §2.1: halfway through copy scores 1/6, halfway through reduce 5/6.
	if p := ReduceProgress(PhaseShuffle, 0.5); math.Abs(p-1.0/6) > 1e-12 {
		t.Fatalf("half copy = %g", p)
	}
	if p := ReduceProgress(PhaseReduce, 0.5); math.Abs(p-5.0/6) > 1e-12 {
		t.Fatalf("half reduce = %g", p)
	}
}

func TestEstimators(t *testing.T) {
	a := &Attempt{Start: 0, Progress: 0.6, LastReport: 20000, Reports: 1}
	// LATE §4.2's T1: 60% after 20 s is 3%/s, 13.3 s left.
	if pr := a.ProgressRate(20000); math.Abs(pr-0.03) > 1e-12 {
		t.Fatalf("rate %g", pr)
	}
	if tl := a.TimeLeft(20000); math.Abs(tl-40.0/3) > 1e-9 {
		t.Fatalf("time left %g", tl)
	}
	if est := a.LegacyEstimatedRuntime(); est != 33333 {
		t.Fatalf("legacy estimate %d, want 33333", est)
	}
	if (&Attempt{Start: 5}).LegacyEstimatedRuntime() != -1 {
		t.Fatal("an attempt without reports must have no legacy estimate")
	}
	var s RunningStats
	for _, x := range []float64{2, 4, 4, 4, 5, 5, 7, 9} {
		s.Add(x)
	}
	if s.Mean() != 5 || s.Std() != 2 || s.Outlier(1) != 7 {
		t.Fatalf("mean %g std %g", s.Mean(), s.Std())
	}
	if p := Percentile([]float64{4, 1, 3, 2}, 25); p != 1.75 {
		t.Fatalf("25th percentile %g, want 1.75", p)
	}
}

func TestRegistryParams(t *testing.T) {
	r := NewRegistry()
	p := Policy{Name: "p", New: func(Params, Env) (Speculator, error) { return noPolicy{}, nil },
		Params: []ParamSpec{{Name: "cap", Kind: Float, Default: 0.1}, {Name: "wait", Kind: Int, Default: int64(5), HadoopKey: "mapreduce.x.wait"}}}
	if err := r.Add(p); err != nil {
		t.Fatal(err)
	}
	if err := r.Add(p); err == nil {
		t.Fatal("duplicate name accepted")
	}
	if err := r.Add(Policy{Name: "q", New: p.New, Params: []ParamSpec{{Name: "x", Kind: Int, Default: 0.5}}}); err == nil {
		t.Fatal("default of the wrong kind accepted")
	}
	params, err := r.Params("p", map[string]string{"cap": "0.2", "mapreduce.x.wait": "9"})
	if err != nil || params.Float("cap") != 0.2 || params.Int("wait") != 9 {
		t.Fatalf("params %v err %v", params.Values(), err)
	}
	for _, bad := range []map[string]string{{"nope": "1"}, {"cap": "fast"}, {"wait": "1.5"}} {
		if _, err := r.Params("p", bad); err == nil {
			t.Errorf("override %v accepted", bad)
		}
	}
	if _, err := r.Params("missing", nil); err == nil {
		t.Fatal("unknown policy accepted")
	}
}

// An attempt's NodeIndex is its node's index in Job.Nodes (first seen
// first), -1 without a node; Task.Attempt finds attempts by number whether
// or not they are at their number's index.
func TestAttemptNodeIndex(t *testing.T) {
	e, err := NewEngine(JobInfo{ID: "j", Maps: 2}, "none", noPolicy{}, Params{})
	if err != nil {
		t.Fatal(err)
	}
	start := func(task, n int32, node NodeID) {
		t.Helper()
		ev := Event{Kind: AttemptStarted, Time: 1, Attempt: AttemptID{Task: TaskID{Type: Map, Index: task}, N: n}, Node: node}
		if err := e.Observe(&ev); err != nil {
			t.Fatal(err)
		}
	}
	start(0, 0, "b")
	start(1, 0, "a")
	start(0, 2, "a")
	start(1, 1, "")
	m0, m1 := e.Job.Tasks[Map][0], e.Job.Tasks[Map][1]
	for _, c := range []struct {
		task *Task
		n    int32
		want int
	}{{m0, 0, 0}, {m1, 0, 1}, {m0, 2, 1}, {m1, 1, -1}} {
		a := c.task.Attempt(c.n)
		if a == nil || a.ID.N != c.n {
			t.Fatalf("%s attempt %d not found", c.task.ID, c.n)
		}
		if got := a.NodeIndex(); got != c.want || (got >= 0 && e.Job.Nodes[got].ID != a.Node) {
			t.Errorf("%s attempt %d on %q: NodeIndex %d, want %d", c.task.ID, c.n, a.Node, got, c.want)
		}
	}
	if m0.Attempt(1) != nil {
		t.Error("attempt 1 of map 0 never started but was found")
	}
}

// An attempt whose end is reported before its start (a clock stepped back,
// a corrupt event) ends at its start: no negative run time reaches the
// job's completed-time statistics, and the attempt does not stay running.
func TestEndBeforeStartCountsAsZeroRuntime(t *testing.T) {
	j, err := NewJob(JobInfo{ID: "j", Maps: 2})
	if err != nil {
		t.Fatal(err)
	}
	m0, m1 := AttemptID{Task: TaskID{Type: Map, Index: 0}}, AttemptID{Task: TaskID{Type: Map, Index: 1}}
	for _, ev := range []Event{
		{Kind: AttemptStarted, Time: 10000, Attempt: m0},
		{Kind: AttemptStarted, Time: 10000, Attempt: m1},
		{Kind: AttemptSucceeded, Time: 4000, Attempt: m0},
		{Kind: AttemptFailed, Time: 2000, Attempt: m1},
	} {
		if err := j.apply(&ev); err != nil {
			t.Fatal(err)
		}
	}
	a0, a1 := j.Task(m0.Task).Attempt(0), j.Task(m1.Task).Attempt(0)
	if a0.Running() || a1.Running() || a0.Finish != 10000 || a1.Finish != 10000 || j.Task(m0.Task).Finish != 10000 {
		t.Fatalf("attempts end at %d and %d (running %v, %v); want both at their start, 10000", a0.Finish, a1.Finish, a0.Running(), a1.Running())
	}
	if d := j.CompletedRuntimes[Map]; len(d) != 1 || d[0] != 0 || j.Durations[Map].Mean() != 0 {
		t.Fatalf("completed run times %v, mean %g; want one of 0", d, j.Durations[Map].Mean())
	}
}
