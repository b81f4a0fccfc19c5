package late

import (
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// harness drives a real Engine running LATE through Observe events with a
// clock the test controls: every event and Decide carries an explicit time.
type harness struct {
	t      testing.TB
	engine *speculators.Engine
	policy *policy
	next   map[speculators.TaskID]int32
}

// newHarness builds an engine for a job with the given shape, running LATE
// with overrides on top of the paper's defaults.
func newHarness(t testing.TB, info speculators.JobInfo, overrides map[string]string) *harness {
	t.Helper()
	r := speculators.NewRegistry()
	if err := r.Add(Policy()); err != nil {
		t.Fatal(err)
	}
	if info.ID == "" {
		info.ID = "job_test_0001"
	}
	e, err := r.NewEngine(info, Name, overrides, 1)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := e.Policy.(*policy)
	if !ok {
		t.Fatalf("policy is %T, want *policy", e.Policy)
	}
	return &harness{t: t, engine: e, policy: p, next: map[speculators.TaskID]int32{}}
}

func sec(s float64) speculators.Time { return speculators.Time(s * 1000) }

func mapTask(i int) speculators.TaskID {
	return speculators.TaskID{Type: speculators.Map, Index: int32(i)}
}

func reduceTask(i int) speculators.TaskID {
	return speculators.TaskID{Type: speculators.Reduce, Index: int32(i)}
}

func (h *harness) observe(ev speculators.Event) {
	h.t.Helper()
	if err := h.engine.Observe(&ev); err != nil {
		h.t.Fatal(err)
	}
}

// start launches the task's next attempt on node at time at.
func (h *harness) start(task speculators.TaskID, node speculators.NodeID, at speculators.Time) speculators.AttemptID {
	return h.launch(task, node, at, false)
}

// startCopy launches the task's next attempt as a speculative copy.
func (h *harness) startCopy(task speculators.TaskID, node speculators.NodeID, at speculators.Time) speculators.AttemptID {
	return h.launch(task, node, at, true)
}

func (h *harness) launch(task speculators.TaskID, node speculators.NodeID, at speculators.Time, spec bool) speculators.AttemptID {
	h.t.Helper()
	id := speculators.AttemptID{Task: task, N: h.next[task]}
	h.next[task]++
	h.observe(speculators.Event{Kind: speculators.AttemptStarted, Time: at, Attempt: id, Node: node, Speculative: spec})
	return id
}

// report sends a status update with the given progress score.
func (h *harness) report(a speculators.AttemptID, at speculators.Time, progress float64) {
	h.t.Helper()
	h.observe(speculators.Event{Kind: speculators.AttemptStatus, Time: at, Attempt: a, Progress: progress})
}

func (h *harness) succeed(a speculators.AttemptID, at speculators.Time) {
	h.t.Helper()
	h.observe(speculators.Event{Kind: speculators.AttemptSucceeded, Time: at, Attempt: a})
}

func (h *harness) kill(a speculators.AttemptID, at speculators.Time) {
	h.t.Helper()
	h.observe(speculators.Event{Kind: speculators.AttemptKilled, Time: at, Attempt: a})
}

func (h *harness) fail(a speculators.AttemptID, at speculators.Time) {
	h.t.Helper()
	h.observe(speculators.Event{Kind: speculators.AttemptFailed, Time: at, Attempt: a})
}

// run starts the task on node at from and reports the progress a constant
// rate (score per second) gives it by at.
func (h *harness) run(task speculators.TaskID, node speculators.NodeID, from speculators.Time, rate float64, at speculators.Time) speculators.AttemptID {
	h.t.Helper()
	a := h.start(task, node, from)
	h.report(a, at, rate*float64(at-from)/1000)
	return a
}

// complete starts the task on node at from and lets it succeed at to.
func (h *harness) complete(task speculators.TaskID, node speculators.NodeID, from, to speculators.Time) speculators.AttemptID {
	h.t.Helper()
	a := h.start(task, node, from)
	h.succeed(a, to)
	return a
}

// decide asks the engine for decisions at now and returns a copy.
func (h *harness) decide(now speculators.Time) []speculators.Decision {
	return slices.Clone(h.engine.Decide(now))
}

// speculatedTasks lists the tasks of Speculate decisions, in order, and
// fails the test on any other kind of decision.
func speculatedTasks(t testing.TB, ds []speculators.Decision) []speculators.TaskID {
	t.Helper()
	var out []speculators.TaskID
	for _, d := range ds {
		if d.Kind != speculators.Speculate || d.Copies != 1 {
			t.Fatalf("decision %v: want speculate x1", d)
		}
		out = append(out, d.Task)
	}
	return out
}

// wantSpeculated fails unless ds speculate exactly want, in order.
func wantSpeculated(t testing.TB, ds []speculators.Decision, want ...speculators.TaskID) {
	t.Helper()
	got := speculatedTasks(t, ds)
	if !slices.Equal(got, want) {
		t.Fatalf("speculated %v, want %v\ndecisions: %v", got, want, ds)
	}
}

func approx(a, b, tol float64) bool { return a-b <= tol && b-a <= tol }
