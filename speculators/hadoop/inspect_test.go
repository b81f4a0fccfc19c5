package hadoop

import (
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

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
