package hadooplegacy

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// harness drives one engine running the hadoop-legacy policy through real
// events; every call names its virtual time in ms.
type harness struct {
	t testing.TB
	e *speculators.Engine
}

func newHarness(t testing.TB, info speculators.JobInfo, overrides map[string]string) *harness {
	t.Helper()
	r := speculators.NewRegistry()
	if err := r.Add(Policy()); err != nil {
		t.Fatal(err)
	}
	info.ID = "job_legacy"
	e, err := r.NewEngine(info, Name, overrides, 1)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, e: e}
}

func task(ty speculators.TaskType, i int32) speculators.TaskID {
	return speculators.TaskID{Type: ty, Index: i}
}

func (h *harness) event(kind speculators.EventKind, id speculators.TaskID, n int32, at speculators.Time, progress float64) {
	h.t.Helper()
	ev := speculators.Event{Kind: kind, Time: at, Attempt: speculators.AttemptID{Task: id, N: n}, Node: "node1",
		Speculative: kind == speculators.AttemptStarted && n > 0, Progress: progress}
	if err := h.e.Observe(&ev); err != nil {
		h.t.Fatal(err)
	}
}

// run starts attempt 0 of id at start and reports progress at report.
func (h *harness) run(id speculators.TaskID, start, report speculators.Time, progress float64) {
	h.t.Helper()
	h.event(speculators.AttemptStarted, id, 0, start, 0)
	h.event(speculators.AttemptStatus, id, 0, report, progress)
}

// decide returns the tasks the policy speculates at now.
func (h *harness) decide(now speculators.Time) []speculators.TaskID {
	h.t.Helper()
	var out []speculators.TaskID
	for _, d := range h.e.Decide(now) {
		if d.Kind != speculators.Speculate || d.Copies != 1 || d.Reason == "" {
			h.t.Fatalf("unexpected decision %v", d)
		}
		out = append(out, d.Task)
	}
	return out
}
