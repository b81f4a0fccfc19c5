package bridge

import (
	"fmt"

	"github.com/specbridge/specbridge/speculators"
)

// Where a session's task-time model came from (welcome's task_model_source).
const (
	TaskModelJobProperty = "job-property"
	TaskModelPrior       = "prior"
	TaskModelNone        = "none"
)

// maxTailIndex bounds task_tail_index as the policies bound their
// tail-index parameter: beyond it the Pareto law is a point mass.
const maxTailIndex = 1e6

// taskModel is a job's a-priori task-time model: JobInfo.TaskMillis and
// JobInfo.TailIndex, which Xu and Lau's policies (sca, sda, ese) read as
// the job's mean task time E[x] and Pareto tail index before any of its
// tasks has finished.
type taskModel struct {
	meanMS, tailIndex float64
	source            string
}

// jobTaskModel validates the hello's task_mean_ms and task_tail_index and
// chooses the job's task-time model.
//
// Xu and Lau ("Optimization for Speculative Execution in Big Data
// Processing Clusters", §III) take a task's expected run time as known
// "according to prior trace data of the application it runs and the size
// of the input". The job's own properties say it best (the operator knows
// the application); without them the sidecar's own prior trace data is the
// cross-job prior (Config.Knowledge: completed tasks of earlier jobs, kept
// under --data-dir), asked for the job's tasks at their mean input size:
// the maps' (map_input_bytes), or the reduces' for a job without maps.
// Choice: that prior is keyed by task type and input size, not by
// application, so it is the paper's "size of the input" part only; it is
// used because a rough E[x] from the first hello is better than none until
// the job's first task completes (what the policies fall back on), and an
// operator who knows better sets the property. A tail index has no such
// estimate: it is the job's property or the policy's tail-index parameter.
// The prior is asked only under Config.TaskMeanFromPrior (serve
// --task-mean-from-prior; prior nil otherwise), which a replay matches with
// its own --task-mean-from-prior: a policy sees the same inputs live as in
// replay, and a replay without the flag hands a job without a law no mean.
//
// The source names where the mean came from: job-property, prior, or none
// when no mean is known. The tail index, if any, is always the job's, so a
// job that sets only task_tail_index, with no prior to give a mean, is
// job-property with a mean of 0 (the policies then learn E[x] from the
// job's completed tasks). A bad value is an error naming the field, for a
// bad-job refusal.
func jobTaskModel(h *Hello, prior speculators.Prior) (taskModel, error) {
	m := taskModel{meanMS: h.TaskMeanMS, tailIndex: h.TaskTailIndex, source: TaskModelNone}
	if !(m.meanMS >= 0 && m.meanMS <= MaxTime) {
		return m, fmt.Errorf("task_mean_ms %g: want the expected run time of one task in ms, > 0 and at most %d (0 or absent: unknown)", m.meanMS, int64(MaxTime))
	}
	if m.tailIndex != 0 && !(m.tailIndex > 1 && m.tailIndex <= maxTailIndex) {
		return m, fmt.Errorf("task_tail_index %g: want the Pareto tail index of task times, > 1 (a finite mean) and at most %g (0 or absent: unknown)", m.tailIndex, float64(maxTailIndex))
	}
	if m.meanMS == 0 {
		info := speculators.JobInfo{Maps: h.Maps, Reduces: h.Reduces, MapInputBytes: h.MapInputBytes, ReduceInputBytes: h.ReduceInputBytes}
		if ms, ok := speculators.PriorTaskMean(prior, info); ok {
			m.meanMS, m.source = ms, TaskModelPrior
			return m, nil
		}
	}
	if m.meanMS > 0 || m.tailIndex > 0 {
		m.source = TaskModelJobProperty
	}
	return m, nil
}
