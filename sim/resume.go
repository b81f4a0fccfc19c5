package sim

import "github.com/specbridge/specbridge/speculators"

// Speculative-Resume (SRQuant/LASER paper, §III): a Speculate decision with
// Resume set launches copies that start at the byte offset b that attempt
// From had reached when the decision was applied, so the work already done
// is not done again. The offset is read at the decision, not at launch: the
// policy kills the straggler in the same breath, and b is what it had
// processed by then (the paper's "killed after processing b bytes").
//
// A resumed attempt's work is the fraction 1 - b of what a fresh attempt of
// the task would have under the job's CopyModel (the task's own work, or a
// fresh draw with Resample: the paper's independent Pareto attempts, §III),
// and it reports progress b + (1-b) x its own fraction done, so its
// progress score and input bytes continue from the offset. Its container
// time counts from its own start. Live, Hadoop cannot start an attempt at
// an offset (see speculators.Decision.Resume): only with Config.Resume on
// does the simulator resume; off, a Resume decision's copies start from
// zero, as live.

// resumeFrom records that the copies just asked for of task (ty, ti)
// resume where attempt d.From is now. An unknown attempt, or one that is
// not of this task, leaves the copies starting from zero.
func (s *sim) resumeFrom(j *jobState, ty speculators.TaskType, ti int32, d speculators.Decision) {
	if d.From.Task != d.Task {
		return
	}
	ai, ok := s.attemptOf(j, d.From)
	if !ok {
		return
	}
	a := s.attempts.at(ai)
	if a.state == speculators.StateRunning {
		s.advance(a)
	}
	frac := 1.0
	if a.work > 0 {
		frac = a.done / a.work
	}
	frac = a.offset + (1-a.offset)*frac
	if frac >= 1 {
		return
	}
	t := &j.tasks[ty][ti]
	c := int32(max(d.Copies, 1))
	t.resumeFrac = frac
	t.resumeCopies = min(t.resumeCopies+c, t.pendingCopies)
}

// resumeWork returns a new attempt's work and offset: a speculative copy
// asked for with Resume does the rest of the task from its offset.
func resumeWork(t *taskState, work float64, speculative bool) (float64, float64) {
	if !speculative || t.resumeCopies == 0 {
		return work, 0
	}
	t.resumeCopies--
	return work * (1 - t.resumeFrac), t.resumeFrac
}
