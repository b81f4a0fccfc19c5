package speculators_test

// The engine folds events into its job: these tests feed a real Engine raw
// events through spectest (valid ones and ones it must refuse) and check the
// state it keeps.

import (
	"errors"
	"math"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/none"
	"github.com/specbridge/specbridge/speculators/spectest"
)

func mapAttempt(i, n int32) speculators.AttemptID {
	return speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: i}, N: n}
}

// observe feeds evs in order, failing the test on the first refused.
func observe(h *spectest.Harness, evs ...speculators.Event) {
	h.T.Helper()
	for _, ev := range evs {
		h.Observe(ev)
	}
}

func TestJobFoldsAttemptLifecycle(t *testing.T) {
	h := spectest.For(t, none.Policy(), speculators.JobInfo{ID: "j", Maps: 2, Reduces: 1, MapInputBytes: []int64{100, 200}}, nil)
	j := h.Job()
	observe(h,
		speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: mapAttempt(0, 0), Node: "a"},
		speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: mapAttempt(1, 0), Node: "b"},
		speculators.Event{Kind: speculators.AttemptStatus, Time: 3000, Attempt: mapAttempt(0, 0), Progress: 0.5},
		speculators.Event{Kind: speculators.AttemptStarted, Time: 4000, Attempt: mapAttempt(0, 1), Node: "b", Speculative: true},
	)
	if j.RunningTasks[speculators.Map] != 2 || j.RunningAttempts[speculators.Map] != 3 || j.SpeculativeRunning[speculators.Map] != 1 {
		t.Fatalf("running tasks %d attempts %d speculative %d, want 2 3 1", j.RunningTasks[speculators.Map], j.RunningAttempts[speculators.Map], j.SpeculativeRunning[speculators.Map])
	}
	if j.Node("b").RunningAttempts != 2 {
		t.Fatalf("node b runs %d attempts, want 2", j.Node("b").RunningAttempts)
	}
	observe(h,
		speculators.Event{Kind: speculators.AttemptSucceeded, Time: 6000, Attempt: mapAttempt(0, 0)},
		speculators.Event{Kind: speculators.AttemptKilled, Time: 6000, Attempt: mapAttempt(0, 1)},
	)
	task := j.Task(speculators.TaskID{Type: speculators.Map, Index: 0})
	if !task.Done() || task.Succeeded.ID.N != 0 || task.Finish != 6000 || j.Completed[speculators.Map] != 1 {
		t.Fatalf("task 0 done=%v finish %d completed %d", task.Done(), task.Finish, j.Completed[speculators.Map])
	}
	if j.SpeculativeRunning[speculators.Map] != 0 || j.RunningTasks[speculators.Map] != 1 || j.RunningAttempts[speculators.Map] != 1 {
		t.Fatalf("after kill: spec %d tasks %d attempts %d", j.SpeculativeRunning[speculators.Map], j.RunningTasks[speculators.Map], j.RunningAttempts[speculators.Map])
	}
	if j.Durations[speculators.Map].N != 1 || j.Durations[speculators.Map].Mean() != 6000 || j.NormalizedRuntimes[speculators.Map][0] != 60 {
		t.Fatalf("durations %+v normalized %v", j.Durations[speculators.Map], j.NormalizedRuntimes[speculators.Map])
	}
	// t_new for the 200-byte map scales with its input: 60 ms/byte x 200.
	if tn, ok := j.NewAttemptRuntime(j.Task(speculators.TaskID{Type: speculators.Map, Index: 1})); !ok || tn != 12000 {
		t.Fatalf("t_new = %v, %v; want 12000", tn, ok)
	}
	// The map's output is lost: a kill of its succeeded attempt re-opens it.
	observe(h, speculators.Event{Kind: speculators.AttemptKilled, Time: 9000, Attempt: mapAttempt(0, 0)})
	if task.Done() || task.OutputLost != 1 || j.Completed[speculators.Map] != 0 {
		t.Fatalf("after output loss: done=%v lost %d completed %d", task.Done(), task.OutputLost, j.Completed[speculators.Map])
	}
	if j.Finished() {
		t.Fatal("job finished with tasks outstanding")
	}
}

func TestObserveRejectsBadEventsWithoutChangingState(t *testing.T) {
	h := spectest.For(t, none.Policy(), speculators.JobInfo{ID: "j", Maps: 1}, nil)
	observe(h, speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: mapAttempt(0, 0), Node: "a"})
	bad := []struct {
		ev   speculators.Event
		want error
	}{
		{speculators.Event{Kind: speculators.AttemptStarted, Attempt: mapAttempt(5, 0)}, speculators.ErrUnknownTask},
		{speculators.Event{Kind: speculators.AttemptStarted, Attempt: mapAttempt(0, 0)}, speculators.ErrDuplicate},
		{speculators.Event{Kind: speculators.AttemptStatus, Attempt: mapAttempt(0, 3), Progress: 0.1}, speculators.ErrUnknownAttempt},
		{speculators.Event{Kind: speculators.AttemptStatus, Attempt: mapAttempt(0, 0), Progress: 1.5}, speculators.ErrBadEvent},
		{speculators.Event{Kind: speculators.AttemptStatus, Attempt: mapAttempt(0, 0), Progress: math.NaN()}, speculators.ErrBadEvent},
		{speculators.Event{Kind: speculators.AttemptStatus, Attempt: mapAttempt(0, 0), FetchFailedMaps: []speculators.TaskID{{Type: speculators.Reduce, Index: 0}}}, speculators.ErrUnknownTask},
		{speculators.Event{Kind: speculators.ContainerNeeds, TaskType: 7}, speculators.ErrBadEvent},
		{speculators.Event{Kind: speculators.NodeFailed}, speculators.ErrBadEvent},
		{speculators.Event{Kind: speculators.JobBounds, ErrorBound: 1.5}, speculators.ErrBadEvent},
		{speculators.Event{Kind: 200}, speculators.ErrBadEvent},
	}
	for _, b := range bad {
		if err := h.TryObserve(b.ev); !errors.Is(err, b.want) {
			t.Errorf("%s: err %v, want %v", b.ev.Kind, err, b.want)
		}
	}
	a := h.Job().Attempt(mapAttempt(0, 0))
	if a.Progress != 0 || h.Job().RunningAttempts[speculators.Map] != 1 || len(h.Job().Task(speculators.TaskID{Type: speculators.Map, Index: 0}).Attempts) != 1 {
		t.Fatalf("a refused event changed the state: progress %g running %d", a.Progress, h.Job().RunningAttempts[speculators.Map])
	}
}

// PhaseTimeLeft extrapolates a reduce from its current phase's rate: copy and
// sort done by 20 s (score 2/3), then the score moves 1/30 in the next 30 s,
// so (1 - 0.7) / (1/30 per 30 s) = 270 s are left, where elapsed x (1-p)/p
// says 21.4 s. A map's is TimeLeft.
func TestPhaseTimeLeft(t *testing.T) {
	h := spectest.For(t, none.Policy(), speculators.JobInfo{ID: "j", Maps: 1, Reduces: 1}, nil)
	r := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Reduce, Index: 0}}
	m := mapAttempt(0, 0)
	observe(h,
		speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: r},
		speculators.Event{Kind: speculators.AttemptStatus, Time: 10000, Attempt: r, Phase: speculators.PhaseShuffle, Progress: 0.3},
		speculators.Event{Kind: speculators.AttemptStatus, Time: 20000, Attempt: r, Phase: speculators.PhaseReduce, Progress: 2.0 / 3},
		speculators.Event{Kind: speculators.AttemptStatus, Time: 50000, Attempt: r, Phase: speculators.PhaseReduce, Progress: 0.7},
		speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: m},
		speculators.Event{Kind: speculators.AttemptStatus, Time: 50000, Attempt: m, Progress: 0.5},
	)
	a := h.Job().Attempt(r)
	if a.PhaseStart != 20000 || a.PhaseStartProgress != 2.0/3 {
		t.Fatalf("phase start %d at %g, want 20000 at 2/3", a.PhaseStart, a.PhaseStartProgress)
	}
	if got := a.PhaseTimeLeft(50000); math.Abs(got-270) > 1e-6 {
		t.Errorf("reduce PhaseTimeLeft %g s, want 270", got)
	}
	ma := h.Job().Attempt(m)
	if got, want := ma.PhaseTimeLeft(50000), ma.TimeLeft(50000); got != want || want != 50 {
		t.Errorf("map PhaseTimeLeft %g, TimeLeft %g, want both 50", got, want)
	}
}
