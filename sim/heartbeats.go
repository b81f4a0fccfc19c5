package sim

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
