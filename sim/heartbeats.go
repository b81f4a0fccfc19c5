package sim

import "unsafe"

// Heartbeats: every running attempt that is not silent reports its status
// every Config.Heartbeat from its start (or from the moment its node came
// back), as a task's umbilical does to its AM. A blind job (jobState.blind:
// its policy reads no reports and no fault analyzer listens) sends none:
// those events would change nothing, and in a day of a large cluster they
// are most of the work. Its attempts still keep the time of their last
// heartbeat, computed from the schedule when it is needed (lastHeartbeat),
// so that a hung node's task timeout runs from the same moment either way.

// startHeartbeats schedules the first heartbeat of a running attempt.
func (s *sim) startHeartbeats(ai int32) {
	a := s.attempts.at(ai)
	if s.jobs[a.job].blind {
		return
	}
	s.queue.pushOrdered(s.now+s.heartbeat, evHeartbeat, ai, a.hbGen)
}

// resumeReports is the report an attempt sends at once when its node
// resumes, and the start of its heartbeats again.
func (s *sim) resumeReports(ai int32) error {
	a := s.attempts.at(ai)
	if s.jobs[a.job].blind {
		a.lastReport = s.now // its work is already advanced (setSpeed)
		return nil
	}
	if err := s.report(ai); err != nil {
		return err
	}
	s.queue.pushOrdered(s.now+s.heartbeat, evHeartbeat, ai, a.hbGen)
	return nil
}

// lastHeartbeat brings a blind attempt's lastReport up to its latest
// scheduled heartbeat at or before now; a reporting attempt's is already.
func (s *sim) lastHeartbeat(a *attempt) {
	if s.jobs[a.job].blind && !a.silent && s.now > a.lastReport {
		a.lastReport += (s.now - a.lastReport) / s.heartbeat * s.heartbeat
	}
}

// Heartbeats come due in the order of the FIFO lane (timers.pushOrdered),
// each for an attempt whose records (the simulator's slot, the engine's
// attempt, its node) were last touched a heartbeat interval ago: with tens
// of thousands of attempts running, each report waited for main memory
// several times (the FB-2010 day: most of a report's cost, docs/scale.md).
// The lane says which attempts report next, so the memory of the report
// prefetchFar ahead is asked for now, and that of the engine's attempt of
// the one prefetchNear ahead, whose slot has arrived by then. A prefetch
// changes no state: it only warms the cache.
const (
	prefetchFar  = 12
	prefetchNear = 6
)

// prefetchReports warms the cache for the heartbeats due after the one
// being handled.
func (s *sim) prefetchReports() {
	q := &s.queue
	if i := q.head + prefetchFar; i < len(q.lane) {
		prefetch3(uintptr(unsafe.Pointer(s.attempts.at(q.lane[i].ref))))
	}
	if i := q.head + prefetchNear; i < len(q.lane) {
		a := s.attempts.at(q.lane[i].ref)
		if a.view != nil {
			prefetch3(uintptr(unsafe.Pointer(a.view)))
		}
		if a.node >= 0 && int(a.node) < len(s.nodes) {
			prefetch3(uintptr(unsafe.Pointer(&s.nodes[a.node])))
		}
	}
}
