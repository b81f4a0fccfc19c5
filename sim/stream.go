package sim

import (
	"fmt"

	"github.com/specbridge/specbridge/speculators"
)

// Streaming (Job.Load): a streamed job's tasks exist in the run from its
// arrival to its end. The submits of every job are known up front (a small
// sorted array in the event queue, heap.go), the job's tasks are loaded when
// its submit fires, and when it finishes its task state, queues and
// attempts are let go — when the run is one that never reads an ended job's
// attempts again (recycle):
//
//   - no node can go silent (canSilence): no fault analyzer, no crash
//     taking finished maps' outputs with it (faults.go), no trigger; and so
//     no node failure can justify a speculative copy, so a finished job's
//     wrong speculations are all its copies and are counted at its end
//     (countWrongSpeculations counts them at the run's end otherwise);
//   - no running-containers series (RunningSamples, series.go), which reads
//     every attempt of the run at its end.
//
// Where the job's policy also asks for no Rerun (speculators.NoReruns), a
// task's attempt slots go as soon as the task is done (forgetDone), not at
// the job's end.
//
// Other runs load streamed jobs the same way and keep them to the end. The
// attempt slots of a released job are reused by later attempts; each
// reused slot keeps counting its generations (launch), so its earlier
// attempt's pending timers stay stale. Nothing depends on which slot an
// attempt gets: events are ordered by time and push order, node and reduce
// lists by position.

// load fills the run's own copy of a streamed job with its tasks.
func (s *sim) load(j *jobState) error {
	h := j.spec
	c := *h
	if err := h.Load(&c); err != nil {
		return fmt.Errorf("sim: load job %d (%s): %w", j.index, h.ID, err)
	}
	c.Load = nil
	if err := c.validate(); err != nil {
		return fmt.Errorf("sim: job %d (%s): %w", j.index, h.ID, err)
	}
	if len(c.Maps) != h.NumTasks[speculators.Map] || len(c.Reduces) != h.NumTasks[speculators.Reduce] {
		return fmt.Errorf("sim: job %d (%s): loaded %d maps and %d reduces, announced %d and %d",
			j.index, h.ID, len(c.Maps), len(c.Reduces), h.NumTasks[speculators.Map], h.NumTasks[speculators.Reduce])
	}
	for _, ts := range [][]Task{c.Maps, c.Reduces} {
		for i := range ts {
			if ts[i].Work > h.LongestWork {
				return fmt.Errorf("sim: job %d (%s): task work %d over the announced longest %d", j.index, h.ID, ts[i].Work, h.LongestWork)
			}
		}
	}
	j.header, j.spec, j.streamed = h, &c, true
	return nil
}

// newAttempt returns a slot for a new attempt: a released one or a new one.
func (s *sim) newAttempt() int32 {
	if n := len(s.freeAttempts); n > 0 {
		ai := s.freeAttempts[n-1]
		s.freeAttempts = s.freeAttempts[:n-1]
		return ai
	}
	return s.attempts.add()
}

// release lets a finished streamed job's tasks and attempts go, counting
// its wrong speculations first (see above). A job with an attempt still
// running (none should have one) keeps everything.
func (s *sim) release(j *jobState) {
	for ty := range j.tasks {
		for ti := range j.tasks[ty] {
			for ai := j.tasks[ty][ti].first; ai != none; ai = s.attempts.at(ai).nextInTask {
				if s.attempts.at(ai).state == speculators.StateRunning {
					return
				}
			}
		}
	}
	for ty := range j.tasks {
		for ti := range j.tasks[ty] {
			s.freeTaskAttempts(j, &j.tasks[ty][ti])
		}
	}
	j.tasks = [speculators.NumTaskTypes][]taskState{}
	j.retry = [speculators.NumTaskTypes][]int32{}
	j.order = [speculators.NumTaskTypes][]int32{}
	j.copies = [speculators.NumTaskTypes][]int32{}
	j.runningReduces = nil
	j.rng, j.noise = nil, nil
	j.spec = j.header
}

// forgotten is the winner of a done task whose attempt slots forgetDone let
// go: the task is done (taskState.done), and no slot of it is to be read.
const forgotten = -2

// forgetDone lets the attempt slots of task t of job j go the moment it is
// done, for later attempts to reuse, where j.forget says nothing reads
// them again: every attempt of a done task has ended, a decision that names
// one (Kill) finds no running attempt either way, its job's policy asks for
// no Rerun of its output, and no crash can take the output (recycle).
// Its copies are counted as wrong speculations now, as release would at
// the job's end. A day's largest job (425,803 maps on the FB-2010 day) so
// holds slots for its running attempts only, not for every attempt it has
// run, and the slots in use stay few and warm in the cache
// (docs/scale.md).
func (s *sim) forgetDone(j *jobState, t *taskState) {
	s.freeTaskAttempts(j, t)
	t.first, t.last, t.winner = none, none, forgotten
}

// freeTaskAttempts puts task t's attempt slots in the free list, counting
// its copies as wrong speculations (release, forgetDone).
func (s *sim) freeTaskAttempts(j *jobState, t *taskState) {
	for ai := t.first; ai != none; {
		a := s.attempts.at(ai)
		if a.speculative {
			j.result.WrongSpeculations++
		}
		next := a.nextInTask
		// view would keep the engine's record of the attempt, and so its
		// memory, alive until the slot is reused.
		a.job, a.view = none, nil
		s.freeAttempts = append(s.freeAttempts, ai)
		ai = next
	}
}

// slim lets a streamed job's own task list go once its task state is
// built, when nothing reads it later: no task has a script (scripted) and
// the job enforces no bounds (enforceBounds counts its maps); a Resample
// copy then draws its work from the task state, which holds the same
// values (launch). 64 bytes a task of a running job.
func (s *sim) slim(j *jobState) {
	if !j.streamed || j.spec.EnforceBounds {
		return
	}
	for _, ts := range [][]Task{j.spec.Maps, j.spec.Reduces} {
		for i := range ts {
			if ts[i].Script != nil {
				return
			}
		}
	}
	j.spec.Maps, j.spec.Reduces, j.slim = nil, nil, true
}
