package xulau

import (
	"math"

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

// MeanMemo keeps a job's mean task time, LawOf(job, alpha).Mean(), once it
// is known a priori (JobInfo.TaskMillis, fixed when the job's engine is
// made), for one alpha: the job order asks each waiting job's priority at
// every scheduling pass, and the law's construction was a tenth of sda's
// replay of xulau/ese-overload (issue 31). A mean from completions changes
// with them and is not kept.
type MeanMemo struct{ v float64 }

// Of is LawOf(job, alpha).Mean(); alpha must be the same at every call.
func (m *MeanMemo) Of(job *speculators.Job, alpha float64) float64 {
	if m.v > 0 {
		return m.v
	}
	v := LawOf(job, alpha).Mean()
	if job.Info.TaskMillis > 0 {
		m.v = v
	}
	return v
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

// Copies tracks, per task, whether a policy has asked for copies of it
// (the copies still to start are the engine's ledger, Job.PendingCopies):
// each task is copied at most once (SDA §V: "the duplication of a particular task is made only once";
// ESE's D(l) holds tasks with one copy only; a clone is asked for once).
type Copies struct {
	asked speculators.PerTask[bool]
	// Launched counts the job's tasks whose first attempt has started.
	Launched int
}

func (c *Copies) size(job *speculators.Job) {
	c.asked.Fit(job)
}

// Asked reports whether copies of the task were asked for.
func (c *Copies) Asked(job *speculators.Job, id speculators.TaskID) bool {
	c.size(job)
	return c.asked[id.Type][id.Index]
}

// Ask records a request of n copies of t and appends the decision to out,
// its reason formatted only if it is shown (speculators.Why). It writes the
// decision in place: a Decide over ten thousand stragglers is bound by
// moving decisions about.
func (c *Copies) Ask(out []speculators.Decision, job *speculators.Job, t *speculators.Task, n int, why *speculators.Why) []speculators.Decision {
	id := t.ID
	if int(id.Index) >= len(c.asked[id.Type]) {
		c.size(job)
	}
	c.asked[id.Type][id.Index] = true
	out = append(out, speculators.Decision{})
	d := &out[len(out)-1]
	d.Kind, d.Task, d.Copies, d.Why = speculators.Speculate, id, n, *why
	return out
}

// Mark records that the task has its copies already (started with them at
// launch), so that nothing more is asked for it.
func (c *Copies) Mark(job *speculators.Job, id speculators.TaskID) {
	c.size(job)
	c.asked[id.Type][id.Index] = true
}

// Observe counts the tasks whose first attempt has started.
func (c *Copies) Observe(job *speculators.Job, ev *speculators.Event) {
	if ev.Kind != speculators.AttemptStarted {
		return
	}
	if t := job.LifecycleTask(ev); t != nil && len(t.Attempts) == 1 {
		c.Launched++
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
	var why speculators.Why
	for ty := range job.Tasks {
		if job.RunningTasks[ty] == 0 {
			continue
		}
		for _, t := range job.Tasks[ty] {
			if t.Done() || t.Dropped || t.RunningAttempts != 1 || len(t.Attempts) != 1 || c.asked[ty][t.ID.Index] {
				continue
			}
			if why.Format == "" {
				why = speculators.Because(policy + ": clone at launch, %d copies of a task of a %d-task job").I(copies).I(TaskCount(job))
			}
			out = c.Ask(out, job, t, copies-1, &why)
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
	case job.PendingCopies > 0:
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
// idle, and it is the only job waiting. With Slots unknown (0: the hello
// had none; the shim sends specbridge.cluster.slots) the job has room for
// maxCopies attempts of each of its tasks, so that P2's budget does not
// bind and the job's own utility and resource decide.
//
// With JobInfo.Capacity known (serve --rm reads the ResourceManager), the
// view is the cluster's instead: Slots is the RM's total containers,
// Idle its free containers plus the job's own running attempts, and
// SpeculativeRunning every served job's copies (JobInfo.Copies), as the
// simulator counts them; without the capacity a job knows no other job's
// load, and its own copies stand alone. Choice:
// the simulator asks a Cloner when the job's first task is placed, with
// Idle counting every free slot the job could fill (N(l) of Xu and Lau
// §IV); live the policy decides once its originals run, and the slots they
// hold were free at that launch, so they are counted back in.
func LiveView(job *speculators.Job, maxCopies int) speculators.ClusterView {
	running, spec := 0, 0
	for ty := range job.Tasks {
		running += job.RunningAttempts[ty]
		spec += job.SpeculativeRunning[ty]
	}
	slots := job.Info.Slots
	idle := slots - running
	if job.Info.Capacity != nil {
		if total, free, ok := job.Info.Capacity(); ok {
			slots, idle = total, free+running
			if job.Info.Copies != nil {
				spec = max(spec, job.Info.Copies())
			}
		}
	}
	if slots <= 0 {
		idle = TaskCount(job)*maxCopies + 1
	}
	return speculators.ClusterView{Idle: idle, Slots: slots, SpeculativeRunning: spec,
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

// TimeLeft is t_rem, the seconds an attempt has left at now: the
// extrapolation at its latest status report (progress over the time the
// report took to reach it, from the start of its current phase once the
// phase has moved, as speculators.Attempt.PhaseTimeLeft) less the time
// since that report. It is +Inf before any progress.
//
// Choice: Xu and Lau's model (§V-A eqs. (18)-(20)) knows t_rem = (1 - s)
// t_1 exactly at the detection point. The engine's rate estimators
// (Attempt.ProgressRate, used by LATE, Hadoop and Mantri) divide the
// progress of the latest report by the time elapsed until now, so between
// reports (3 s apart, decisions every 1 s) they overstate t_rem by up to
// the ratio of the two times: 1.67 just before the second report of an
// attempt. With that estimate SDA's sigma* = 1.707 acts like a sigma near
// 1.0 and copies about twice as many tasks as eq. (28) intends. Taken at
// the report and aged by the time since, the estimate is exact for linear
// progress, which is the paper's model. An attempt past the end its own
// reports predicted (stalled, or its reports lag) falls back to the
// elapsed-time rate, which keeps growing while it makes no progress.
func TimeLeft(a *speculators.Attempt, now speculators.Time) float64 {
	if a.Progress >= 1 {
		return 0
	}
	if a.Progress <= 0 || a.LastReport <= a.Start {
		return math.Inf(1)
	}
	rate := a.Progress / (float64(a.LastReport-a.Start) / 1000)
	if dp, dt := a.Progress-a.PhaseStartProgress, a.LastReport-a.PhaseStart; a.Phase != speculators.PhaseMap && dp > 0 && dt > 0 {
		rate = dp / (float64(dt) / 1000)
	}
	left := (1-a.Progress)/rate - float64(now-a.LastReport)/1000
	if left <= 0 {
		return a.PhaseTimeLeft(now)
	}
	return left
}
