package sim

import "github.com/specbridge/specbridge/speculators"

// Recorded attempts (Task.Script) and job failure (Job.MaxAttempts). Replay
// re-executes a history's attempts as they were recorded: a task whose first
// attempts failed fails them again after their recorded run time, and a job
// that FAILED because a task used up its attempts fails again, with its
// other attempts killed, as Hadoop's JobImpl does; a job that was KILLED is
// killed at the same time after its submit if it is still running then.

// scripted returns the work and fate of attempt n of task (ty, ti) placed on
// node: the script's entry when there is one, its recorded time over the
// node's static slowdown (ScriptedAttempt), else work (Work or the
// CopyModel's).
func (s *sim) scripted(j *jobState, ty speculators.TaskType, ti, n int32, work float64, node *nodeState) (float64, bool) {
	if !s.hasScript(j, ty, ti, n) {
		return work, false
	}
	script := j.spec.Maps[ti].Script
	if ty == speculators.Reduce {
		script = j.spec.Reduces[ti].Script
	}
	static := node.slowdown
	if ty == speculators.Map && node.reducesOnly {
		static = 1
	}
	return float64(max(script[n].Work, 1)) / static, script[n].Fail
}

// hasScript reports whether attempt n of the task replays a recorded one.
func (s *sim) hasScript(j *jobState, ty speculators.TaskType, ti, n int32) bool {
	if j.slim {
		return false // no task has a script (slim)
	}
	specs := j.spec.Maps
	if ty == speculators.Reduce {
		specs = j.spec.Reduces
	}
	return int(n) < len(specs[ti].Script)
}

// failScripted ends an attempt whose script says it fails, runs the task
// again, and fails the job when the task has used up its attempts.
func (s *sim) failScripted(ai int32) error {
	a := s.attempts.at(ai)
	ji, ty, ti := a.job, a.ty, a.task
	if err := s.abort(ai, speculators.StateFailed); err != nil {
		return err
	}
	j := &s.jobs[ji]
	limit := j.spec.MaxAttempts
	if ty == speculators.Reduce && j.spec.ReduceMaxAttempts > 0 {
		limit = j.spec.ReduceMaxAttempts
	}
	if j.finished || limit <= 0 || int(j.tasks[ty][ti].failures) < limit {
		return nil
	}
	j.result.FailedTask = speculators.TaskID{Type: ty, Index: ti}.String()
	return s.endJob(ji)
}

// killJob kills a job still running at its KillAt.
func (s *sim) killJob(ji int32) error {
	j := &s.jobs[ji]
	if !j.submitted || j.finished {
		return nil
	}
	j.result.Killed = true
	return s.endJob(ji)
}

// endJob kills every running attempt of the job and finishes it now.
func (s *sim) endJob(ji int32) error {
	j := &s.jobs[ji]
	for ty := range j.tasks {
		for i := range j.tasks[ty] {
			if err := s.killRunning(ji, speculators.TaskType(ty), int32(i)); err != nil {
				return err
			}
		}
	}
	s.finishJob(ji)
	return nil
}
