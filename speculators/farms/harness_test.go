package farms

import (
	"fmt"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/late"
	"github.com/specbridge/specbridge/speculators/none"
)

// testRegistry holds the policies these tests build: late and none as
// bases, and farms and tws. It does not use package all, so the tests do not depend on
// policies other packages are building at the same time.
func testRegistry(t testing.TB) *speculators.Registry {
	t.Helper()
	r := speculators.NewRegistry()
	for _, p := range []speculators.Policy{none.Policy(), late.Policy(), Policy(), TWSPolicy()} {
		if err := r.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// harness drives a real Engine through Observe events with a clock the test
// controls: every event and Decide carries an explicit time.
type harness struct {
	t      testing.TB
	engine *speculators.Engine
	next   map[speculators.TaskID]int32
}

// newHarness builds an engine running policy name (farms, tws or late) for a
// job of the given shape.
func newHarness(t testing.TB, name string, info speculators.JobInfo, overrides map[string]string) *harness {
	t.Helper()
	if info.ID == "" {
		info.ID = "job_test_0001"
	}
	e, err := testRegistry(t).NewEngine(info, name, overrides, 1)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, engine: e, next: map[speculators.TaskID]int32{}}
}

func sec(s float64) speculators.Time { return speculators.Time(s * 1000) }

func mapTask(i int) speculators.TaskID {
	return speculators.TaskID{Type: speculators.Map, Index: int32(i)}
}

func reduceTask(i int) speculators.TaskID {
	return speculators.TaskID{Type: speculators.Reduce, Index: int32(i)}
}

func node(i int) speculators.NodeID { return speculators.NodeID(fmt.Sprintf("n%d", i)) }

func (h *harness) observe(ev speculators.Event) {
	h.t.Helper()
	if err := h.engine.Observe(&ev); err != nil {
		h.t.Fatal(err)
	}
}

// start launches the task's next attempt on node at time at.
func (h *harness) start(task speculators.TaskID, on speculators.NodeID, at speculators.Time) speculators.AttemptID {
	h.t.Helper()
	id := speculators.AttemptID{Task: task, N: h.next[task]}
	h.next[task]++
	h.observe(speculators.Event{Kind: speculators.AttemptStarted, Time: at, Attempt: id, Node: on, Speculative: id.N > 0})
	return id
}

func (h *harness) report(a speculators.AttemptID, at speculators.Time, progress float64) {
	h.t.Helper()
	h.observe(speculators.Event{Kind: speculators.AttemptStatus, Time: at, Attempt: a, Progress: progress})
}

// fetchFailed sends reduce attempt a's status report naming maps it could
// not fetch.
func (h *harness) fetchFailed(a speculators.AttemptID, at speculators.Time, maps ...speculators.TaskID) {
	h.t.Helper()
	h.observe(speculators.Event{Kind: speculators.AttemptStatus, Time: at, Attempt: a,
		Progress: 0.1, Phase: speculators.PhaseShuffle, FetchFailedMaps: maps})
}

func (h *harness) end(kind speculators.EventKind, a speculators.AttemptID, at speculators.Time) {
	h.t.Helper()
	h.observe(speculators.Event{Kind: kind, Time: at, Attempt: a})
}

func (h *harness) nodeEvent(kind speculators.EventKind, n speculators.NodeID, at speculators.Time) {
	h.t.Helper()
	h.observe(speculators.Event{Kind: kind, Time: at, Node: n})
}

// run starts the task on node at from and reports progress by at.
func (h *harness) run(task speculators.TaskID, on speculators.NodeID, from speculators.Time, progress float64, at speculators.Time) speculators.AttemptID {
	h.t.Helper()
	a := h.start(task, on, from)
	h.report(a, at, progress)
	return a
}

// complete starts the task on node at from and lets it succeed at to.
func (h *harness) complete(task speculators.TaskID, on speculators.NodeID, from, to speculators.Time) speculators.AttemptID {
	h.t.Helper()
	a := h.start(task, on, from)
	h.end(speculators.AttemptSucceeded, a, to)
	return a
}

// decide asks the engine for decisions at now and returns a copy.
func (h *harness) decide(now speculators.Time) []speculators.Decision {
	return slices.Clone(h.engine.Decide(now))
}

// only returns the decisions of one kind.
func only(ds []speculators.Decision, kind speculators.DecisionKind) []speculators.Decision {
	var out []speculators.Decision
	for _, d := range ds {
		if d.Kind == kind {
			out = append(out, d)
		}
	}
	return out
}

// speculated lists the tasks of Speculate decisions, in order.
func speculated(ds []speculators.Decision) []speculators.TaskID {
	var out []speculators.TaskID
	for _, d := range only(ds, speculators.Speculate) {
		out = append(out, d.Task)
	}
	return out
}

// attempts lists the attempts of decisions of kind, in order.
func attempts(ds []speculators.Decision, kind speculators.DecisionKind) []speculators.AttemptID {
	var out []speculators.AttemptID
	for _, d := range only(ds, kind) {
		out = append(out, d.Attempt)
	}
	return out
}

// want fails the test unless got equals want, printing the decisions.
func want[T comparable](t testing.TB, what string, got, want []T, ds []speculators.Decision) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s %v, want %v\ndecisions: %v", what, got, want, ds)
	}
}

// tasks returns the ids of maps lo..hi-1.
func maps(lo, hi int) []speculators.TaskID {
	var out []speculators.TaskID
	for i := lo; i < hi; i++ {
		out = append(out, mapTask(i))
	}
	return out
}
