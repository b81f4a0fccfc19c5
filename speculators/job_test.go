package speculators

import (
	"errors"
	"math"
	"testing"
)

func mapAttempt(i, n int32) AttemptID { return AttemptID{Task: TaskID{Map, i}, N: n} }

func observe(t *testing.T, e *Engine, evs ...Event) {
	t.Helper()
	for i := range evs {
		if err := e.Observe(&evs[i]); err != nil {
			t.Fatalf("event %d (%s): %v", i, evs[i].Kind, err)
		}
	}
}

type noPolicy struct{}

func (noPolicy) Decide(_ *Job, _ Time, out []Decision) []Decision { return out }

func newEngine(t *testing.T, info JobInfo) *Engine {
	t.Helper()
	e, err := NewEngine(info, "test", noPolicy{}, Params{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestJobFoldsAttemptLifecycle(t *testing.T) {
	e := newEngine(t, JobInfo{ID: "j", Maps: 2, Reduces: 1, MapInputBytes: []int64{100, 200}})
	j := e.Job
	observe(t, e,
		Event{Kind: AttemptStarted, Time: 0, Attempt: mapAttempt(0, 0), Node: "a"},
		Event{Kind: AttemptStarted, Time: 0, Attempt: mapAttempt(1, 0), Node: "b"},
		Event{Kind: AttemptStatus, Time: 3000, Attempt: mapAttempt(0, 0), Progress: 0.5},
		Event{Kind: AttemptStarted, Time: 4000, Attempt: mapAttempt(0, 1), Node: "b", Speculative: true},
	)
	if j.RunningTasks[Map] != 2 || j.RunningAttempts[Map] != 3 || j.SpeculativeRunning[Map] != 1 {
		t.Fatalf("running tasks %d attempts %d speculative %d, want 2 3 1", j.RunningTasks[Map], j.RunningAttempts[Map], j.SpeculativeRunning[Map])
	}
	if j.Node("b").RunningAttempts != 2 {
		t.Fatalf("node b runs %d attempts, want 2", j.Node("b").RunningAttempts)
	}
	observe(t, e,
		Event{Kind: AttemptSucceeded, Time: 6000, Attempt: mapAttempt(0, 0)},
		Event{Kind: AttemptKilled, Time: 6000, Attempt: mapAttempt(0, 1)},
	)
	task := j.Task(TaskID{Map, 0})
	if !task.Done() || task.Succeeded.ID.N != 0 || task.Finish != 6000 || j.Completed[Map] != 1 {
		t.Fatalf("task 0 done=%v finish %d completed %d", task.Done(), task.Finish, j.Completed[Map])
	}
	if j.SpeculativeRunning[Map] != 0 || j.RunningTasks[Map] != 1 || j.RunningAttempts[Map] != 1 {
		t.Fatalf("after kill: spec %d tasks %d attempts %d", j.SpeculativeRunning[Map], j.RunningTasks[Map], j.RunningAttempts[Map])
	}
	if j.Durations[Map].N != 1 || j.Durations[Map].Mean() != 6000 || j.NormalizedRuntimes[Map][0] != 60 {
		t.Fatalf("durations %+v normalized %v", j.Durations[Map], j.NormalizedRuntimes[Map])
	}
	// t_new for the 200-byte map scales with its input: 60 ms/byte x 200.
	if tn, ok := j.NewAttemptRuntime(j.Task(TaskID{Map, 1})); !ok || tn != 12000 {
		t.Fatalf("t_new = %v, %v; want 12000", tn, ok)
	}
	// The map's output is lost: a kill of its succeeded attempt re-opens it.
	observe(t, e, Event{Kind: AttemptKilled, Time: 9000, Attempt: mapAttempt(0, 0)})
	if task.Done() || task.OutputLost != 1 || j.Completed[Map] != 0 {
		t.Fatalf("after output loss: done=%v lost %d completed %d", task.Done(), task.OutputLost, j.Completed[Map])
	}
	if j.Finished() {
		t.Fatal("job finished with tasks outstanding")
	}
}

func TestObserveRejectsBadEventsWithoutChangingState(t *testing.T) {
	e := newEngine(t, JobInfo{ID: "j", Maps: 1})
	observe(t, e, Event{Kind: AttemptStarted, Time: 0, Attempt: mapAttempt(0, 0), Node: "a"})
	bad := []struct {
		ev   Event
		want error
	}{
		{Event{Kind: AttemptStarted, Attempt: mapAttempt(5, 0)}, ErrUnknownTask},
		{Event{Kind: AttemptStarted, Attempt: mapAttempt(0, 0)}, ErrDuplicate},
		{Event{Kind: AttemptStatus, Attempt: mapAttempt(0, 3), Progress: 0.1}, ErrUnknownAttempt},
		{Event{Kind: AttemptStatus, Attempt: mapAttempt(0, 0), Progress: 1.5}, ErrBadEvent},
		{Event{Kind: AttemptStatus, Attempt: mapAttempt(0, 0), Progress: math.NaN()}, ErrBadEvent},
		{Event{Kind: AttemptStatus, Attempt: mapAttempt(0, 0), FetchFailedMaps: []TaskID{{Reduce, 0}}}, ErrUnknownTask},
		{Event{Kind: ContainerNeeds, TaskType: 7}, ErrBadEvent},
		{Event{Kind: NodeFailed}, ErrBadEvent},
		{Event{Kind: JobBounds, ErrorBound: 1.5}, ErrBadEvent},
		{Event{Kind: 200}, ErrBadEvent},
	}
	for _, b := range bad {
		if err := e.Observe(&b.ev); !errors.Is(err, b.want) {
			t.Errorf("%s: err %v, want %v", b.ev.Kind, err, b.want)
		}
	}
	a := e.Job.Attempt(mapAttempt(0, 0))
	if a.Progress != 0 || e.Job.RunningAttempts[Map] != 1 || len(e.Job.Task(TaskID{Map, 0}).Attempts) != 1 {
		t.Fatalf("a refused event changed the state: progress %g running %d", a.Progress, e.Job.RunningAttempts[Map])
	}
}

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

// PhaseTimeLeft extrapolates a reduce from its current phase's rate: copy and
// sort done by 20 s (score 2/3), then the score moves 1/30 in the next 30 s,
// so (1 - 0.7) / (1/30 per 30 s) = 270 s are left, where elapsed x (1-p)/p
// says 21.4 s. A map's is TimeLeft.
func TestPhaseTimeLeft(t *testing.T) {
	e := newEngine(t, JobInfo{ID: "j", Maps: 1, Reduces: 1})
	r := AttemptID{Task: TaskID{Reduce, 0}}
	m := mapAttempt(0, 0)
	observe(t, e,
		Event{Kind: AttemptStarted, Time: 0, Attempt: r},
		Event{Kind: AttemptStatus, Time: 10000, Attempt: r, Phase: PhaseShuffle, Progress: 0.3},
		Event{Kind: AttemptStatus, Time: 20000, Attempt: r, Phase: PhaseReduce, Progress: 2.0 / 3},
		Event{Kind: AttemptStatus, Time: 50000, Attempt: r, Phase: PhaseReduce, Progress: 0.7},
		Event{Kind: AttemptStarted, Time: 0, Attempt: m},
		Event{Kind: AttemptStatus, Time: 50000, Attempt: m, Progress: 0.5},
	)
	a := e.Job.Attempt(r)
	if a.PhaseStart != 20000 || a.PhaseStartProgress != 2.0/3 {
		t.Fatalf("phase start %d at %g, want 20000 at 2/3", a.PhaseStart, a.PhaseStartProgress)
	}
	if got := a.PhaseTimeLeft(50000); math.Abs(got-270) > 1e-6 {
		t.Errorf("reduce PhaseTimeLeft %g s, want 270", got)
	}
	ma := e.Job.Attempt(m)
	if got, want := ma.PhaseTimeLeft(50000), ma.TimeLeft(50000); got != want || want != 50 {
		t.Errorf("map PhaseTimeLeft %g, TimeLeft %g, want both 50", got, want)
	}
}
