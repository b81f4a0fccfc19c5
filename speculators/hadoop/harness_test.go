package hadoop

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// harness drives one engine running the hadoop policy through real events.
// Times are virtual milliseconds given explicitly with each call.
type harness struct {
	t testing.TB
	e *speculators.Engine
}

func newHarness(t testing.TB, maps, reduces int, overrides map[string]string) *harness {
	t.Helper()
	r := speculators.NewRegistry()
	if err := r.Add(Policy()); err != nil {
		t.Fatal(err)
	}
	e, err := r.NewEngine(speculators.JobInfo{ID: "job_test", Maps: maps, Reduces: reduces}, Name, overrides, 1)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, e: e}
}

func mapN(i int32) speculators.TaskID { return speculators.TaskID{Type: speculators.Map, Index: i} }
func reduceN(i int32) speculators.TaskID {
	return speculators.TaskID{Type: speculators.Reduce, Index: i}
}

func (h *harness) observe(ev speculators.Event) {
	h.t.Helper()
	if err := h.e.Observe(&ev); err != nil {
		h.t.Fatal(err)
	}
}

// start launches attempt n of task at the given time.
func (h *harness) start(task speculators.TaskID, n int32, at speculators.Time) {
	h.t.Helper()
	h.observe(speculators.Event{Kind: speculators.AttemptStarted, Time: at, Attempt: speculators.AttemptID{Task: task, N: n},
		Node: "node1", Speculative: n > 0})
}

// report sends a status report for attempt n of task.
func (h *harness) report(task speculators.TaskID, n int32, at speculators.Time, progress float64) {
	h.t.Helper()
	h.observe(speculators.Event{Kind: speculators.AttemptStatus, Time: at, Attempt: speculators.AttemptID{Task: task, N: n},
		Progress: progress})
}

// succeed ends attempt n of task successfully.
func (h *harness) succeed(task speculators.TaskID, n int32, at speculators.Time) {
	h.t.Helper()
	h.observe(speculators.Event{Kind: speculators.AttemptSucceeded, Time: at, Attempt: speculators.AttemptID{Task: task, N: n}})
}

// completed runs attempt 0 of each task from start to start+runtime.
func (h *harness) completed(start, runtime speculators.Time, tasks ...speculators.TaskID) {
	h.t.Helper()
	for _, task := range tasks {
		h.start(task, 0, start)
		h.succeed(task, 0, start+runtime)
	}
}

// running starts attempt 0 of task at start and reports progress at report.
func (h *harness) running(task speculators.TaskID, start, report speculators.Time, progress float64) {
	h.t.Helper()
	h.start(task, 0, start)
	h.report(task, 0, report, progress)
}

func (h *harness) needs(ty speculators.TaskType, count int) {
	h.t.Helper()
	h.observe(speculators.Event{Kind: speculators.ContainerNeeds, Time: h.e.Job.Now, TaskType: ty, Count: count})
}

// decide asks for decisions at now and returns the tasks to speculate.
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

// verdict is the speculation value of task at now as the next scan would
// see it, computed on a copy of the policy's state so nothing changes.
func (h *harness) verdict(task speculators.TaskID, now speculators.Time) int64 {
	p := h.e.Policy.(*policy)
	job := h.e.Job
	p.fit(job)
	st := p.tasks[task.Type][task.Index]
	sc := scan{now: now, gateOpen: thresholdKnown(job, task.Type), newRuntime: int64(job.Durations[task.Type].Mean())}
	v, _ := sc.speculationValue(job.Task(task), &st)
	return v
}

func tasks(ids ...speculators.TaskID) []speculators.TaskID { return ids }

func mapRange(from, to int32) []speculators.TaskID {
	var out []speculators.TaskID
	for i := from; i < to; i++ {
		out = append(out, mapN(i))
	}
	return out
}
