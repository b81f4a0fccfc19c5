package sim

import (
	"math"

	"github.com/specbridge/specbridge/speculators"
)

// launch starts an attempt of task (ji, ty, ti) on node ni and reports it.
// Original attempts have the task's own work; later ones follow the job's
// CopyModel.
func (s *sim) launch(ji int32, ty speculators.TaskType, ti int32, ni int32, speculative, clone bool) error {
	j := &s.jobs[ji]
	t := &j.tasks[ty][ti]
	n := &s.nodes[ni]
	ai := s.newAttempt()
	work := t.work
	if t.nextN > 0 && (j.spec.CopyWork == Resample || j.spec.CopyWork == ResampleOthers) {
		tasks := j.tasks[ty] // work is the task's base time (Task.Slowdown)
		k := int(ti)         // ResampleOthers of a task alone: its own
		switch {
		case j.spec.CopyWork == Resample:
			k = j.rng.IntN(len(tasks))
		case len(tasks) > 1: // the other tasks: skip the task's own index
			if k = j.rng.IntN(len(tasks) - 1); k >= int(ti) {
				k++
			}
		}
		work = tasks[k].work
	}
	if t.nextN > 0 && j.spec.CopyWork == Fresh && j.spec.FreshWork[ty] != nil {
		// A draw is kept in [1, MaxWork] (NaN counts as 1): a heavy-tailed
		// law's rare huge draw is truncated, not a run of centuries.
		work = j.spec.FreshWork[ty].SampleWork(j.rng)
		if !(work >= 1) {
			work = 1
		}
		work = min(work, float64(MaxWork))
	}
	extra := j.spec.CopyExtra
	if clone {
		extra = j.spec.CloneExtra
	}
	if speculative && extra > 0 && !s.hasScript(j, ty, ti, t.nextN) {
		work += float64(extra)
	}
	work, scriptedFail := s.scripted(j, ty, ti, t.nextN, work, n)
	work, offset := resumeWork(t, work, speculative)
	a := s.attempts.at(ai)
	// A reused slot keeps its generations, so that the timers of the
	// attempt that had it stay stale.
	*a = attempt{job: ji, task: ti, node: ni, n: t.nextN, ty: ty,
		state: speculators.StateRunning, speculative: speculative, start: s.now, lastT: s.now, lastReport: s.now,
		work: work, offset: offset, nextInTask: none, nodePos: int32(len(n.running)), reducePos: none,
		finGen: a.finGen + 1, hbGen: a.hbGen + 1, fetchGen: a.fetchGen + 1,
		inputBytes: t.inputBytes, copyEnd: t.copyEnd, sortEnd: t.sortEnd}
	a.scriptedFail, a.clone = scriptedFail, clone
	a.startup = !speculative && (s.scriptedStartup(j, ty, ti, a.n) > 0 ||
		s.scriptedShare(j, ty, ti, a.n, func(sa *ScriptedAttempt) speculators.Time { return sa.Silent }) > 0)
	a.curve = s.progressCurve(j)
	t.nextN++
	s.lastProgress = s.now
	if t.first == none {
		t.first = ai
	} else {
		s.attempts.at(t.last).nextInTask = ai
	}
	t.last = ai
	t.running++
	s.takeSlot(ni, ty)
	n.running = append(n.running, ai)
	j.running++
	if ty == speculators.Map {
		j.runningMaps++
	}
	if ty == speculators.Reduce {
		a.reducePos = int32(len(j.runningReduces))
		j.runningReduces = append(j.runningReduces, ai)
	}
	s.reindex(j)
	j.result.Attempts++
	if speculative {
		j.result.SpeculativeLaunched++
		s.specRunning++
	}
	if j.result.Start == none {
		j.result.Start = s.now
	}
	s.setEvent(speculators.Event{Kind: speculators.AttemptStarted, Time: s.now,
		Attempt: speculators.AttemptID{Task: speculators.TaskID{Type: ty, Index: ti}, N: a.n},
		Node:    n.id, NodeHint: ni + 1, Speculative: speculative})
	if err := s.observe(j); err != nil {
		return err
	}
	if !j.inert {
		a.view = j.engine.Job.Attempt(s.ev.Attempt)
	}
	if ty == speculators.Reduce && j.fault.unreachable > 0 {
		s.needLost(ai)
	}
	s.startHeartbeats(ai)
	s.scheduleFinish(ai)
	return nil
}

// advance brings the attempt's work done up to now at its node's current
// speed. A reduce's copy phase cannot get ahead of the job's maps: while maps
// are outstanding its work is capped at copyEnd x (fraction of maps done),
// so its reported copy fraction is min(own copy work, maps completed). Work
// already copied is kept if a map's output is later lost.
func (s *sim) advance(a *attempt) {
	n := &s.nodes[a.node]
	dt := s.now - a.lastT
	a.lastT = s.now
	if dt <= 0 || n.hung {
		return
	}
	d := a.done + float64(dt)/n.multFor(a.ty)
	if a.ty == speculators.Reduce {
		j := &s.jobs[a.job]
		if (a.missing > 0 || !j.allMapsSatisfied()) && s.copying(a) {
			// Lost outputs it still needs (faults.go) are not there to copy.
			limit := a.work * a.copyEnd * (j.mapFraction() - float64(a.missing)/float64(len(j.tasks[speculators.Map])))
			if d > limit {
				d = max(a.done, limit)
			}
		}
	}
	if d > a.work {
		d = a.work
	}
	a.done = d
}

// copying reports whether a reduce attempt is still in its copy phase (a
// reduce without work counts as copying until the maps are done, so it too
// cannot finish before them).
func (s *sim) copying(a *attempt) bool {
	return a.work == 0 || a.done < a.work*a.copyEnd
}

// scheduleFinish (re)times the attempt's completion from its work left and
// its node's speed, superseding any earlier timer. A hung node, or a reduce
// still copying while maps are outstanding, gets no timer until that changes.
func (s *sim) scheduleFinish(ai int32) {
	a := s.attempts.at(ai)
	a.finGen++
	n := &s.nodes[a.node]
	if n.hung {
		return
	}
	if a.ty == speculators.Reduce && (a.missing > 0 || !s.jobs[a.job].allMapsSatisfied()) && s.copying(a) {
		return
	}
	left := (a.work - a.done) * n.multFor(a.ty)
	// Round up to whole ms, forgiving float noise (3 x 10000 ms is 30000).
	dt := speculators.Time(math.Ceil(left - 1e-6))
	if dt < 0 {
		dt = 0
	}
	s.queue.push(s.now+dt, evFinish, ai, a.finGen)
}

// report sends the attempt's status: progress, phase and simple counters
// (input bytes read in proportion to progress through the input-reading
// phase, CPU ms as nominal work done).
func (s *sim) report(ai int32) error {
	a := s.attempts.at(ai)
	if (a.speculative || a.startup) && s.startingUp(a) {
		return nil // no report before its start-up is done (progress.go)
	}
	s.statusEvent(ai)
	j := &s.jobs[a.job]
	s.settle(j)
	if j.inert {
		return s.observed(j, nil)
	}
	return s.observed(j, j.engine.ObserveStatus(a.view, &s.ev))
}

// statusEvent brings the attempt up to now and fills s.ev with its status.
func (s *sim) statusEvent(ai int32) {
	a := s.attempts.at(ai)
	s.advance(a)
	a.lastReport = s.now
	f := 1.0
	if a.work > 0 {
		f = s.reported(a, s.startedFraction(a))
	}
	f = a.offset + (1-a.offset)*f
	progress, phase, read := f, speculators.PhaseMap, f
	if a.ty == speculators.Reduce {
		phase, progress, read = reducePhase(f, a.copyEnd, a.sortEnd)
	}
	id := speculators.AttemptID{Task: speculators.TaskID{Type: a.ty, Index: a.task}, N: a.n}
	in, cpu := int64(read*float64(a.inputBytes)), int64(a.done)
	if !s.evStatus {
		s.ev = speculators.Event{Kind: speculators.AttemptStatus}
		s.evStatus = true
	}
	// The rest of s.ev is as the first status report left it (evStatus).
	ev := &s.ev
	ev.Time, ev.Attempt, ev.Progress, ev.Phase = s.now, id, progress, phase
	ev.Counters.InputBytes, ev.Counters.CPUMillis = in, cpu
}

// reducePhase maps the fraction f of a reduce's work done to its phase, its
// progress score (speculators.ReduceProgress: a third per phase) and the
// fraction of its shuffle input copied.
func reducePhase(f, copyEnd, sortEnd float64) (speculators.Phase, float64, float64) {
	switch {
	case f < copyEnd:
		c := f / copyEnd
		return speculators.PhaseShuffle, speculators.ReduceProgress(speculators.PhaseShuffle, c), c
	case f < sortEnd:
		return speculators.PhaseSort, speculators.ReduceProgress(speculators.PhaseSort, (f-copyEnd)/(sortEnd-copyEnd)), 1
	case sortEnd >= 1:
		return speculators.PhaseReduce, speculators.ReduceProgress(speculators.PhaseReduce, 1), 1
	default:
		return speculators.PhaseReduce, speculators.ReduceProgress(speculators.PhaseReduce, (f-sortEnd)/(1-sortEnd)), 1
	}
}

// end takes a running attempt off its node and job and accounts its time.
func (s *sim) end(ai int32, state speculators.AttemptState) {
	a := s.attempts.at(ai)
	a.state = state
	a.end = s.now
	s.lastProgress = s.now
	a.finGen++
	a.hbGen++
	j := &s.jobs[a.job]
	t := &j.tasks[a.ty][a.task]
	n := &s.nodes[a.node]
	t.running--
	j.running--
	if a.ty == speculators.Map {
		j.runningMaps--
	}
	if a.speculative {
		s.specRunning--
	}
	s.giveSlot(a.node, a.ty)
	last := n.running[len(n.running)-1]
	n.running[a.nodePos] = last
	s.attempts.at(last).nodePos = a.nodePos
	n.running = n.running[:len(n.running)-1]
	if a.ty == speculators.Reduce {
		last := j.runningReduces[len(j.runningReduces)-1]
		j.runningReduces[a.reducePos] = last
		s.attempts.at(last).reducePos = a.reducePos
		j.runningReduces = j.runningReduces[:len(j.runningReduces)-1]
	}
	s.reindex(j)
	ran := a.end - a.start
	j.result.ContainerMs += ran
	if state != speculators.StateSucceeded {
		j.result.WastedContainerMs += ran
		if n.hung {
			s.endedOnHungNode(j)
		}
	}
	s.dropNeeds(ai)
	s.needSchedule = true
}

// setEvent makes ev the event the next Observe sees, and no longer a status
// report statusEvent may fill by its changing fields alone (sim.evStatus).
func (s *sim) setEvent(ev speculators.Event) {
	s.ev = ev
	s.evStatus = false
}

// sendEnd reports an attempt's end to its job's engine.
func (s *sim) sendEnd(ai int32, kind speculators.EventKind) error {
	a := s.attempts.at(ai)
	s.setEvent(speculators.Event{Kind: kind, Time: s.now,
		Attempt: speculators.AttemptID{Task: speculators.TaskID{Type: a.ty, Index: a.task}, N: a.n}})
	return s.observe(&s.jobs[a.job])
}

// succeed completes an attempt: the first attempt of a task to finish wins
// and the task's other running attempts are killed.
func (s *sim) succeed(ai int32) error {
	a := s.attempts.at(ai)
	a.done = a.work
	ji, ty, ti := a.job, a.ty, a.task
	j := &s.jobs[ji]
	t := &j.tasks[ty][ti]
	s.end(ai, speculators.StateSucceeded)
	if err := s.sendEnd(ai, speculators.AttemptSucceeded); err != nil {
		return err
	}
	if s.attempts.at(ai).speculative {
		j.result.SpeculativeWon++
	}
	if err := s.killRunning(ji, ty, ti); err != nil {
		return err
	}
	s.clearPending(j, ty, ti)
	if ty == speculators.Map {
		s.mapsChanging(j)
	}
	t.winner = ai
	if ty == speculators.Map {
		s.mapOutputStored(j, ti)
	}
	if j.result.TaskFinish[ty] != nil {
		j.result.TaskFinish[ty][ti] = s.now
	}
	if !t.dropped {
		j.unfinished--
		if ty == speculators.Map {
			j.satisfiedMaps++
		}
	}
	if ty == speculators.Map {
		s.mapsChanged(j, true)
	}
	if j.forget {
		s.forgetDone(j, t)
	}
	if j.unfinished == 0 {
		s.finishJob(ji)
	}
	return nil
}

// killRunning kills every running attempt of a task.
func (s *sim) killRunning(ji int32, ty speculators.TaskType, ti int32) error {
	for ai := s.jobs[ji].tasks[ty][ti].first; ai != none; ai = s.attempts.at(ai).nextInTask {
		if s.attempts.at(ai).state != speculators.StateRunning {
			continue
		}
		s.end(ai, speculators.StateKilled)
		s.jobs[ji].result.KilledAttempts++
		if err := s.sendEnd(ai, speculators.AttemptKilled); err != nil {
			return err
		}
	}
	return nil
}

// abort ends a running attempt as failed (a timeout) or killed (a Kill
// decision, reduce preemption), reports it, and runs its task again if it is
// left with nothing running or waiting.
func (s *sim) abort(ai int32, state speculators.AttemptState) error {
	a := s.attempts.at(ai)
	ji, ty, ti := a.job, a.ty, a.task
	s.end(ai, state)
	kind := speculators.AttemptKilled
	if state == speculators.StateFailed {
		kind = speculators.AttemptFailed
		s.jobs[ji].result.FailedAttempts++
		s.jobs[ji].tasks[ty][ti].failures++
	} else {
		s.jobs[ji].result.KilledAttempts++
	}
	if err := s.sendEnd(ai, kind); err != nil {
		return err
	}
	s.rescheduleIfIdle(ji, ty, ti)
	return nil
}

// rescheduleIfIdle queues a new attempt of a task that is not done, not
// dropped and has no attempt running or waiting for a container, as
// Hadoop's TaskImpl does after a failed or killed attempt.
func (s *sim) rescheduleIfIdle(ji int32, ty speculators.TaskType, ti int32) {
	j := &s.jobs[ji]
	t := &j.tasks[ty][ti]
	if t.done() || t.dropped || t.running > 0 || t.pendingCopies > 0 || t.inRetry || !t.launched {
		return
	}
	s.pushRetry(j, ty, ti)
}

// mapsChanging brings the job's running reduces up to now before the number
// of maps done changes, since that number caps their copy phase.
func (s *sim) mapsChanging(j *jobState) {
	for _, ai := range j.runningReduces {
		if a := s.attempts.at(ai); s.copying(a) {
			s.advance(a)
		}
	}
}

// mapsChanged re-times the job's copying reduces after the number of maps
// done changed, and lets reduces past slow start be scheduled.
//
// While maps are outstanding a copying reduce has no finish timer:
// scheduleFinish gives it none, and a fall of the maps done (rose false: a
// map's output lost) re-times every copying reduce here, ending a timer
// given while every map was done. So after a rise that leaves maps
// outstanding, re-timing would only bump generations, and the pass is
// skipped: a day's job of 400,000 maps and hundreds of running reduces
// otherwise paid for it at each of its maps.
func (s *sim) mapsChanged(j *jobState, rose bool) {
	for _, ai := range j.runningReduces {
		if rose && !j.allMapsSatisfied() {
			break
		}
		// Reduces past their copy phase keep their timers; those still
		// copying get one only once every map is done.
		if s.copying(s.attempts.at(ai)) {
			s.scheduleFinish(ai)
		}
	}
	if j.origPending[speculators.Reduce] > 0 {
		s.needSchedule = true
	}
	s.reindex(j)
}
