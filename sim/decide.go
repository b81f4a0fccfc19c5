package sim

import (
	"math"

	"github.com/specbridge/specbridge/speculators"
)

// tick asks every running job's engine for decisions and applies them.
func (s *sim) tick() error {
	s.tickPending = false
	s.tickScratch = append(s.tickScratch[:0], s.active...)
	applied := false
	for _, ji := range s.tickScratch {
		j := &s.jobs[ji]
		if j.idle == idleDeferred {
			j.passed++ // a Decide left out, handed over at the next call (settle)
			continue
		}
		if j.idle == idleKept && !s.askIdle {
			// SkipDecide's yes, kept by the engine until the job's next
			// event, and nothing to enforce: on xulau/ese under gs, a queue
			// of thousands of jobs, reading each one's spec and engine at
			// every tick was 5% of the replay (issue 31). The engine's
			// Job.Now then stays at the job's last event or engine call:
			// no policy reads it, and the calls that hand a policy the
			// clock move it or pass the time.
			continue
		}
		if err := s.enforceBounds(ji); err != nil {
			return err
		}
		if j.finished {
			continue
		}
		if s.cfg.Trace == nil && j.engine.SkipDecide(s.now) {
			j.idle = idleNone
			if !enforces(j.spec) {
				j.idle = idleKept
			}
			continue // a Decide that would return nothing (traced: every one)
		}
		ds := j.engine.Decide(s.now)
		s.decides++
		if s.cfg.Trace != nil {
			s.cfg.Trace.Decided(j.spec.ID, s.now, ds)
		}
		s.keepLearned(j)
		if len(ds) == 0 && s.cfg.Trace == nil && !enforces(j.spec) && s.deferDecides(ji) {
			continue
		}
		for _, d := range ds {
			ok, err := s.apply(ji, d)
			if err != nil {
				return err
			}
			applied = applied || ok
			if s.cfg.RecordDecisions {
				s.result.Decisions = append(s.result.Decisions, TimedDecision{Time: s.now, Job: j.spec.ID, Decision: d, Applied: ok})
			}
			if j.finished {
				break
			}
		}
	}
	if len(s.active) == 0 {
		return nil
	}
	if copiesWaiting(s) || (s.freeSlots > 0 && s.pullWaiting()) {
		// A policy's node gate, or a pull-based policy's choice, may
		// change with time alone.
		s.needSchedule = true
	}
	if applied {
		s.lastProgress = s.now
	}
	if s.queue.len() == 0 && !applied {
		if s.stallSince == none {
			s.stallSince = s.now
		} else if s.now-s.stallSince >= s.timeout {
			s.stalled = true
			return nil
		}
	} else {
		s.stallSince = none
	}
	if s.now-s.lastProgress > s.stallLimit {
		s.stalled = true
		return nil
	}
	s.tickPending = true
	s.queue.push(s.now+s.decide, evDecide, 0, 0)
	return nil
}

// deferDecides marks job ji's Decides deferred from the next tick on
// (speculators.Engine.DeferDecides): the tick passes over the job as over
// an idle one, counting the ticks, until settle hands them to the engine.
// On xulau/ese under grass, 3.57 million of the 4.0 million Decides were of
// jobs waiting in the queue, whose learner adds the job's share in use at
// each and checks whether to switch: a visit of each waiting job at every
// tick (issue 31).
//
// It asks the job's engine and reports whether it deferred them.
func (s *sim) deferDecides(ji int32) bool {
	j := &s.jobs[ji]
	ok, b := j.engine.DeferDecides()
	if !ok {
		return false
	}
	if b < 0 || b >= deferNoBucket {
		b = deferNoBucket
	}
	j.idle, j.passed, j.deferBucket = idleDeferred, 0, int8(b)
	j.deferIdx = int32(len(s.deferred[b]))
	s.deferred[b] = append(s.deferred[b], ji)
	return true
}

// deferNoBucket is the list in sim.deferred of the deferred jobs whose
// Decides read no bucket's samples; the lists before it are the buckets'.
const deferNoBucket = 3

// settle hands job j's engine the Decides its ticks left out since it
// deferred them (Engine.DecidesLeftOut), before any other call to the
// engine: the policy makes them up at their ticks' times, in order. The
// ticks are every s.decide while the job is active (a tick schedules the
// next one step on).
func (s *sim) settle(j *jobState) {
	if j.idle == idleDeferred {
		s.handOver(j)
	}
}

// handOver is settle's work, kept out of line so that settle's check, at
// every event of every job, is inlined.
func (s *sim) handOver(j *jobState) {
	j.idle = idleNone
	list := s.deferred[j.deferBucket]
	last := list[len(list)-1]
	list[j.deferIdx] = last
	s.jobs[last].deferIdx = j.deferIdx
	s.deferred[j.deferBucket] = list[:len(list)-1]
	j.engine.DecidesLeftOut(int(j.passed), s.decide)
	j.passed = 0
}

// settleBucket settles every job whose deferred Decides read the prior's
// samples of bucket b, as a sample of b is about to join the prior and
// each left-out Decide must read the samples as they were at its tick
// (speculators.DecideDeferrer), and defers each again from its last tick,
// made up or run, if its engine says so (on xulau/ese under grass, the
// prior gains a sample about every fourth tick).
func (s *sim) settleBucket(b int) {
	if b < 0 || b >= deferNoBucket || len(s.deferred[b]) == 0 {
		return
	}
	s.settling = append(s.settling[:0], s.deferred[b]...)
	for _, ji := range s.settling {
		s.settle(&s.jobs[ji])
		s.deferDecides(ji)
	}
}

// settleAll settles every job whose Decides are deferred, whatever bucket
// they read, as the first run time of 0 ms is about to join the prior: a
// job waiting for its first map reads whether the prior gives its map a
// length above 0, which a median of positive run times always does and
// one with a 0 ms run time may not (speculators.DecideDeferrer). The jobs
// are not deferred again here: whether they may be depends on the run time
// not kept yet, and each one's next tick asks.
func (s *sim) settleAll() {
	for b := range s.deferred {
		s.settling = append(s.settling[:0], s.deferred[b]...)
		for _, ji := range s.settling {
			s.settle(&s.jobs[ji])
		}
	}
}

// zeroRuntime reports whether rs holds a run time of 0 ms.
func zeroRuntime(rs []speculators.RuntimeRecord) bool {
	for _, r := range rs {
		if r.Ms == 0 {
			return true
		}
	}
	return false
}

// copiesWaiting reports whether some job has copies asked for and not
// placed (index.go).
func copiesWaiting(s *sim) bool {
	return s.index.copyJobs > 0
}

// apply carries out one decision of job ji's engine and reports whether it
// changed anything. Decisions that name an unknown task or attempt, or one
// whose state no longer allows them, are ignored (Applied false in the log),
// as the live AM refuses them.
func (s *sim) apply(ji int32, d speculators.Decision) (bool, error) {
	j := &s.jobs[ji]
	switch d.Kind {
	case speculators.Speculate:
		ty, ti, ok := s.taskOf(j, d.Task)
		if !ok {
			return false, nil
		}
		ok = s.speculate(j, ty, ti, d.Copies)
		if ok && d.Resume && s.cfg.Resume {
			s.resumeFrom(j, ty, ti, d)
		}
		return ok, nil
	case speculators.Kill:
		ai, ok := s.attemptOf(j, d.Attempt)
		if !ok || s.attempts.at(ai).state != speculators.StateRunning {
			return false, nil
		}
		// Hadoop reschedules a task left with nothing running after TA_KILL.
		return true, s.abort(ai, speculators.StateKilled)
	case speculators.Rerun:
		ai, ok := s.attemptOf(j, d.Attempt)
		if !ok {
			return false, nil
		}
		return s.rerun(ai)
	case speculators.Drop:
		ty, ti, ok := s.taskOf(j, d.Task)
		if !ok {
			return false, nil
		}
		return s.drop(ji, ty, ti)
	}
	return false, nil
}

func (s *sim) taskOf(j *jobState, id speculators.TaskID) (speculators.TaskType, int32, bool) {
	if int(id.Type) >= speculators.NumTaskTypes || id.Index < 0 || int(id.Index) >= len(j.tasks[id.Type]) {
		return 0, 0, false
	}
	return id.Type, id.Index, true
}

func (s *sim) attemptOf(j *jobState, id speculators.AttemptID) (int32, bool) {
	ty, ti, ok := s.taskOf(j, id.Task)
	if !ok {
		return 0, false
	}
	for ai := j.tasks[ty][ti].first; ai != none; ai = s.attempts.at(ai).nextInTask {
		if s.attempts.at(ai).n == id.N {
			return ai, true
		}
	}
	return 0, false
}

// speculate queues copies (0 read as 1) of a task that is neither done nor
// dropped. The simulator does as told, but for the shim's attempt reserve
// (copyRoom): a policy that asks again before its earlier copies are placed
// gets more copies, up to that.
func (s *sim) speculate(j *jobState, ty speculators.TaskType, ti int32, copies int) bool {
	t := &j.tasks[ty][ti]
	if t.done() || t.dropped || j.spec.NoSpeculate[ty] {
		return false
	}
	if copies < 1 {
		copies = 1
	}
	if room := copyRoom(j, t, ty); room < copies {
		if room <= 0 {
			return false
		}
		copies = room
	}
	t.pendingCopies += int32(copies)
	j.copyCount[ty] += copies
	if !t.inCopyQueue {
		t.inCopyQueue = true
		j.copies[ty] = append(j.copies[ty], ti)
	}
	s.touch(j)
	s.needSchedule = true
	return true
}

// rerun declares the output of a map's succeeded attempt lost: the engine
// sees AttemptKilled for that attempt, the map is no longer done, its
// container time counts as wasted, and it runs again (first in its job's
// queue). Reduces still copying wait for it again.
func (s *sim) rerun(ai int32) (bool, error) {
	ok, err := s.discardOutput(ai, speculators.AttemptKilled)
	if ok {
		s.jobs[s.attempts.at(ai).job].result.RerunMaps++
	}
	return ok, err
}

// drop tells the job it does not need a task: its running attempts are
// killed, nothing more of it is placed, and a map dropped counts as done for
// the reduces' copy phase. A done task that is dropped keeps its result.
func (s *sim) drop(ji int32, ty speculators.TaskType, ti int32) (bool, error) {
	j := &s.jobs[ji]
	t := &j.tasks[ty][ti]
	if t.dropped {
		return false, nil
	}
	t.dropped = true
	j.result.DroppedTasks++
	if err := s.killRunning(ji, ty, ti); err != nil {
		return true, err
	}
	s.clearPending(j, ty, ti)
	if t.done() {
		return true, nil
	}
	if ty == speculators.Map {
		s.mapsChanging(j)
		j.satisfiedMaps++
		j.unfinished--
		s.mapsChanged(j, true)
	} else {
		j.unfinished--
	}
	if j.unfinished == 0 {
		s.finishJob(ji)
	}
	return true, nil
}

// copyRoom is how many more attempts of task t the job may start at once
// (copies not yet placed count as started), as the shim allows live
// (DecisionApplier): a task keeps one attempt of its max attempts in
// reserve, so that failed attempts plus those running can never reach the
// limit by copies alone. Hadoop counts a failed copy against the task like
// any failed attempt, so without the reserve one cause that fails every
// attempt at once (a node failure, or JVMs slower to start than the task
// timeout, live-bench's sca run) fails the job. The reserve bounds copies
// beyond the one Hadoop's own speculator would start: a task with one
// attempt unfinished and no copy asked may always get one copy, whatever
// its max attempts, so that no policy speculates less than stock Hadoop
// (Hadoop's TestSpeculativeExecution runs with 2 max attempts). Unlimited
// (MaxInt32) when the job has no max attempts.
func copyRoom(j *jobState, t *taskState, ty speculators.TaskType) int {
	limit := j.spec.MaxAttempts
	if ty == speculators.Reduce && j.spec.ReduceMaxAttempts > 0 {
		limit = j.spec.ReduceMaxAttempts
	}
	if limit <= 0 {
		return math.MaxInt32
	}
	room := limit - 1 - int(t.failures+t.running+t.pendingCopies)
	if t.running+t.pendingCopies == 1 {
		room = max(room, 1) // Hadoop's one copy
	}
	return room
}
