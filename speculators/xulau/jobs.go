package xulau

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/specbridge/specbridge/speculators"
)

// LawOf is a job's task-time law: a Pareto of the job's a-priori mean task
// time (JobInfo.TaskMillis, else the mean of its completed tasks, else 1 ms)
// and tail index (JobInfo.TailIndex, else alpha). Only ratios of means
// between jobs matter to P2 and eq. (29), and the policies' thresholds need
// a mean in ms, so an unknown mean before any completion is harmless for a
// job alone and only delays straggler detection.
func LawOf(job *speculators.Job, alpha float64) Pareto {
	mean := job.Info.TaskMillis
	if !(mean > 0) {
		n, sum := 0, 0.0
		for ty := range job.Durations {
			n += job.Durations[ty].N
			sum += job.Durations[ty].Sum
		}
		mean = 1
		if n > 0 && sum > 0 {
			mean = sum / float64(n)
		}
	}
	if a := job.Info.TailIndex; a > 1 {
		alpha = a
	}
	law, err := ParetoWithMean(mean, alpha)
	if err != nil {
		return Pareto{Mu: mean / 2, Alpha: 2}
	}
	return law
}

// MeanKnown reports whether a job's mean task time is known: a priori, or
// from a completed task.
func MeanKnown(job *speculators.Job) bool {
	return job.Info.TaskMillis > 0 || job.Durations[speculators.Map].N+job.Durations[speculators.Reduce].N > 0
}

// TaskCount is the job's number of tasks.
func TaskCount(job *speculators.Job) int {
	return len(job.Tasks[speculators.Map]) + len(job.Tasks[speculators.Reduce])
}

// Copies tracks, per task, whether a policy has asked for copies of it and
// whether those copies are still to start: each task is copied at most
// once (SDA §V: "the duplication of a particular task is made only once";
// ESE's D(l) holds tasks with one copy only; a clone is asked for once).
type Copies struct {
	asked   [speculators.NumTaskTypes][]bool
	waiting [speculators.NumTaskTypes][]int32
	// Pending counts the copies asked for and not yet started.
	Pending int
	// Launched counts the job's tasks whose first attempt has started.
	Launched int
}

func (c *Copies) size(job *speculators.Job) {
	for ty := range job.Tasks {
		c.asked[ty] = speculators.Grow(c.asked[ty], len(job.Tasks[ty]))
		c.waiting[ty] = speculators.Grow(c.waiting[ty], len(job.Tasks[ty]))
	}
}

// Asked reports whether copies of the task were asked for.
func (c *Copies) Asked(job *speculators.Job, id speculators.TaskID) bool {
	c.size(job)
	return c.asked[id.Type][id.Index]
}

// Ask records a request of n copies of t and returns the decision.
func (c *Copies) Ask(job *speculators.Job, t *speculators.Task, n int, reason string) speculators.Decision {
	c.size(job)
	id := t.ID
	c.asked[id.Type][id.Index] = true
	c.waiting[id.Type][id.Index] += int32(n)
	c.Pending += n
	return speculators.Decision{Kind: speculators.Speculate, Task: id, Copies: n, Reason: reason}
}

// Mark records that the task has its copies already (started with them at
// launch), so that nothing more is asked for it.
func (c *Copies) Mark(job *speculators.Job, id speculators.TaskID) {
	c.size(job)
	c.asked[id.Type][id.Index] = true
}

// Observe counts a copy as started when a speculative attempt of the task
// starts, and forgets what is still waiting once the task is done or has
// nothing running (the AM drops those requests).
func (c *Copies) Observe(job *speculators.Job, ev *speculators.Event) {
	t := job.LifecycleTask(ev)
	if t == nil {
		return
	}
	c.size(job)
	if ev.Kind == speculators.AttemptStarted && len(t.Attempts) == 1 {
		c.Launched++
	}
	w := &c.waiting[t.ID.Type][t.ID.Index]
	if *w == 0 {
		return
	}
	switch {
	case ev.Kind == speculators.AttemptStarted && ev.Speculative:
		*w--
		c.Pending--
	case t.Done() || t.RunningAttempts == 0:
		c.Pending -= int(*w)
		*w = 0
	}
}

// CloneRequests is the live form of cloning at launch: for every task whose
// first attempt is RUNNING and that has not been cloned, ask for copies-1
// more attempts. A task that is not running (waiting, done, or between
// attempts) is never asked for: Hadoop speculates running tasks only.
func CloneRequests(job *speculators.Job, c *Copies, copies int, policy string, out []speculators.Decision) []speculators.Decision {
	if copies <= 1 {
		return out
	}
	c.size(job)
	for ty := range job.Tasks {
		for _, t := range job.Tasks[ty] {
			if t.Done() || t.Dropped || t.RunningAttempts != 1 || len(t.Attempts) != 1 || c.asked[ty][t.ID.Index] {
				continue
			}
			out = append(out, c.Ask(job, t, copies-1,
				fmt.Sprintf("%s: clone at launch, %d copies of a task of a %d-task job", policy, copies, TaskCount(job))))
		}
	}
	return out
}

// RemainingWork is the expected work left in a job: its tasks not done
// times the mean task time (the "remaining workload" SDA's and ESE's second
// level orders running jobs by).
func RemainingWork(job *speculators.Job, mean float64) float64 {
	left := 0
	for ty := range job.Tasks {
		left += len(job.Tasks[ty]) - job.Completed[ty]
	}
	return float64(left) * mean
}

// Priority is the three levels SDA and ESE give a job: one with a copy
// waiting, then started jobs by remaining workload, then new jobs by
// workload; mean is the job's mean task time.
func (c *Copies) Priority(job *speculators.Job, mean float64) speculators.Priority {
	switch {
	case c.Pending > 0:
		return speculators.Priority{Tier: TierCopies, Key: RemainingWork(job, mean)}
	case c.Launched > 0:
		return speculators.Priority{Tier: TierStarted, Key: RemainingWork(job, mean)}
	}
	return speculators.Priority{Tier: TierWaiting, Key: float64(TaskCount(job)) * mean}
}

// Unassigned counts the job's tasks that have never started (SCA's
// "remaining tasks" of a running job).
func (c *Copies) Unassigned(job *speculators.Job) int { return TaskCount(job) - c.Launched }

// Tiers of the priorities the policies give their jobs (speculators.Priority):
// a job with a straggler's copy waiting first (SDA and ESE, level 1), then
// jobs that have started (level 2), then jobs that have not (level 3).
const (
	TierCopies  = 0
	TierStarted = 1
	TierWaiting = 2
)

// LiveView is the cluster as a job sees it live, where it knows only its
// own attempts and JobInfo.Slots: the slots it does not use are taken as
// idle, and it is the only job waiting. With Slots unknown (0: the shim
// cannot see the cluster's capacity) the job is taken to have room for
// maxCopies attempts of each of its tasks, so that P2's budget does not
// bind and the job's own utility and resource decide.
func LiveView(job *speculators.Job, maxCopies int) speculators.ClusterView {
	running, spec := 0, 0
	for ty := range job.Tasks {
		running += job.RunningAttempts[ty]
		spec += job.SpeculativeRunning[ty]
	}
	idle := job.Info.Slots - running
	if job.Info.Slots <= 0 {
		idle = TaskCount(job)*maxCopies + 1
	}
	return speculators.ClusterView{Idle: idle, Slots: job.Info.Slots, SpeculativeRunning: spec,
		Waiting: []speculators.JobSize{{Tasks: TaskCount(job), TaskMillis: job.Info.TaskMillis, TailIndex: job.Info.TailIndex}}}
}

// LawOfSize is the law of a waiting job as the cluster knows it.
func LawOfSize(js speculators.JobSize, alpha float64) Pareto {
	mean := js.TaskMillis
	if !(mean > 0) {
		mean = 1
	}
	if js.TailIndex > 1 {
		alpha = js.TailIndex
	}
	law, err := ParetoWithMean(mean, alpha)
	if err != nil {
		return Pareto{Mu: mean / 2, Alpha: 2}
	}
	return law
}

// Straggler is a running task whose remaining time exceeds the threshold.
type Straggler struct {
	Task *speculators.Task
	// Left is the estimated remaining time t_rem in ms.
	Left float64
}

// Stragglers appends to buf the tasks with a single attempt, running and
// never copied, whose remaining time t_rem (extrapolated from the rate of
// the attempt's current phase, speculators.Attempt.PhaseTimeLeft) exceeds
// threshold ms, longest t_rem first (ESE's order of D(l); ties by type and
// index). An attempt that has not reported progress yet is not judged.
func Stragglers(job *speculators.Job, c *Copies, threshold float64, now speculators.Time, buf []Straggler) []Straggler {
	c.size(job)
	for ty := range job.Tasks {
		if job.RunningTasks[ty] == 0 {
			continue
		}
		for _, t := range job.Tasks[ty] {
			if t.RunningAttempts != 1 || len(t.Attempts) != 1 || t.Done() || t.Dropped || c.asked[ty][t.ID.Index] {
				continue
			}
			a := t.Attempts[0]
			if !a.Running() || a.Reports == 0 || a.Progress <= 0 {
				continue
			}
			if left := a.PhaseTimeLeft(now) * 1000; left > threshold {
				buf = append(buf, Straggler{Task: t, Left: left})
			}
		}
	}
	slices.SortStableFunc(buf, func(a, b Straggler) int { return cmp.Compare(b.Left, a.Left) })
	return buf
}
