// Package hadooplegacy is the policy "hadoop-legacy": the Hadoop 0.20
// speculation rule that LATE (Zaharia et al., OSDI 2008, §2.1) describes and
// compares against. A running task is a straggler when its progress score is
// at least progress-gap (0.2) below the average progress score of its
// category (maps or reduces) and it has run for at least min-runtime-ms
// (60 s). All stragglers are "equally slow"; each task gets at most one
// speculative copy.
//
// Choices where the paper leaves room, following Hadoop 0.20's code
// (JobInProgress, TaskInProgress.hasSpeculativeTask) where it is clear:
//
//   - The average is over every task of the category, as 0.20's
//     JobStatus.mapProgress/reduceProgress: a completed task counts 1, a
//     running task the progress of its most advanced running attempt, a task
//     not running 0.
//   - The gap test is avg - progress >= progress-gap, as 0.20's
//     SPECULATIVE_GAP comparison.
//   - "Has run" is measured from the start of the task's running attempt
//     (the paper's words; 0.20 measured from the task's creation).
//   - Only a task with exactly one running attempt, no successful one and
//     no copy asked for and not yet started qualifies: "at most one
//     speculative copy of each task is running at a time" (LATE §2.1;
//     0.20's activeTasks.size() <= MAX_TASK_EXECS). Once a copy has ended
//     (failed, or killed while the original runs on) the task may get
//     another, as in 0.20; an earlier version allowed one copy per task
//     over its life, stricter than 0.20.
//   - 0.20 broke ties between stragglers by data locality, which the engine
//     does not know; stragglers are taken in task index order, maps first.
//   - 0.20 offered a copy when a node asked for work. Here each Decide hands
//     out one copy per free container: job.Info.Slots minus running
//     attempts, containers the AM still waits for, and copies this policy
//     asked for that have not started. With Slots unknown (0) there is no
//     capacity limit, only the one-copy-per-task rule.
//
// Like every policy it must not start goroutines, do I/O, read the wall
// clock or depend on map iteration order.
package hadooplegacy

import (
	"fmt"

	"github.com/specbridge/specbridge/speculators"
)

// Name is the policy's registry name.
const Name = "hadoop-legacy"

// Policy registers the policy with Hadoop 0.20's constants.
var Policy = speculators.Declare(Name, "Hadoop 0.20 rule: progress 0.2 below the category average after 60 s (LATE §2.1)", func(b *speculators.Binder, p *policy) {
	b.Float(&p.gap, "progress-gap", 0.2, speculators.Fraction,
		"how far below its category's average progress score a task must be to straggle (LATE §2.1; Hadoop 0.20 TaskInProgress.SPECULATIVE_GAP)")
	b.Int64(&p.minRuntime, "min-runtime-ms", 60_000, speculators.NonNegative,
		"ms a task must have run before it may straggle (LATE §2.1 'at least one minute'; Hadoop 0.20 TaskInProgress.SPECULATIVE_LAG)")
})

type policy struct {
	gap        float64
	minRuntime speculators.Time
	// tasks holds per-task state, indexed like Job.Tasks.
	tasks [speculators.NumTaskTypes][]taskState
}

type taskState struct {
	// launched: this policy asked for the task's copy; attemptsAtLaunch is
	// how many attempts the task had then, so a copy not yet started can be
	// told from one that has.
	launched         bool
	attemptsAtLaunch int
}

// Decide speculates stragglers, maps then reduces, each in index order,
// while free capacity lasts.
func (s *policy) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	s.fit(job)
	var avg [speculators.NumTaskTypes]float64
	waiting := 0 // copies asked for and not started
	for ty := range job.Tasks {
		avg[ty], waiting = s.survey(job, speculators.TaskType(ty), waiting)
	}
	limited := job.Info.Slots > 0
	free := job.Info.Slots - waiting
	for ty := range job.Tasks {
		free -= job.RunningAttempts[ty] + job.ContainerNeeds[ty]
	}
	for ty := range job.Tasks {
		if limited && free <= 0 {
			break
		}
		threshold := avg[ty] - s.gap
		for i, t := range job.Tasks[ty] {
			a := s.straggler(t, &s.tasks[ty][i], avg[ty], now)
			if a == nil {
				continue
			}
			st := &s.tasks[ty][i]
			st.launched, st.attemptsAtLaunch = true, len(t.Attempts)
			out = append(out, speculators.Decision{Kind: speculators.Speculate, Task: t.ID, Copies: 1,
				Reason: fmt.Sprintf("progress %.3f is at least %g below the %s average %.3f (threshold %.3f) after %.1fs",
					a.Progress, s.gap, speculators.TaskType(ty), avg[ty], threshold, float64(now-a.Start)/1000)})
			if free--; limited && free <= 0 {
				break
			}
		}
	}
	return out
}

// fit sizes the per-task state to the job.
func (s *policy) fit(job *speculators.Job) {
	for ty := range s.tasks {
		if n := len(job.Tasks[ty]); len(s.tasks[ty]) != n {
			s.tasks[ty] = make([]taskState, n)
		}
	}
}

// survey returns the category's average progress score and adds to waiting
// the copies of the type asked for but not started.
func (s *policy) survey(job *speculators.Job, ty speculators.TaskType, waiting int) (float64, int) {
	tasks := job.Tasks[ty]
	if len(tasks) == 0 {
		return 0, waiting
	}
	sum := 0.0
	for i, t := range tasks {
		st := &s.tasks[ty][i]
		if st.launched && !t.Done() && len(t.Attempts) == st.attemptsAtLaunch {
			waiting++
		}
		sum += taskProgress(t)
	}
	return sum / float64(len(tasks)), waiting
}

// taskProgress is a task's progress score as 0.20's TaskInProgress kept it:
// 1 once complete, else the best running attempt's, 0 when none runs.
func taskProgress(t *speculators.Task) float64 {
	if t.Done() {
		return 1
	}
	best := 0.0
	if t.RunningAttempts == 0 {
		return best
	}
	for _, a := range t.Attempts {
		if a.Running() && a.Progress > best {
			best = a.Progress
		}
	}
	return best
}

// straggler returns the running attempt of t when t is a straggler that
// may get a copy, else nil.
func (s *policy) straggler(t *speculators.Task, st *taskState, avg float64, now speculators.Time) *speculators.Attempt {
	if st.launched && len(t.Attempts) == st.attemptsAtLaunch || t.Done() || t.RunningAttempts != 1 {
		return nil // a copy asked for has not started, or two attempts run
	}
	var running *speculators.Attempt
	for _, a := range t.Attempts {
		if a.Running() {
			running = a
		}
	}
	if running == nil || avg-running.Progress < s.gap || now-running.Start < s.minRuntime {
		return nil
	}
	return running
}
