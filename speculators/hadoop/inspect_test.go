package hadoop

import (
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// decided asks for decisions at now and returns the tasks to speculate,
// failing the test on anything but one-copy speculations with a reason.
func decided(h *spectest.Harness, now speculators.Time) []speculators.TaskID {
	h.T.Helper()
	return spectest.Speculated(h.T, h.Decide(now))
}

// verdict is the speculation value of task at now as the next scan would
// see it, computed on a copy of the policy's state so nothing changes.
func verdict(h *spectest.Harness, task speculators.TaskID, now speculators.Time) int64 {
	p := h.Policy().(*policy)
	job := h.Job()
	p.fit(job)
	st := p.tasks[task.Type][task.Index]
	sc := scan{now: now, gateOpen: thresholdKnown(job, task.Type), newRuntime: int64(job.Durations[task.Type].Mean())}
	v, _ := sc.speculationValue(job.Task(task), &st)
	return v
}
