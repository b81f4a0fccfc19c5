package bridge

import "github.com/specbridge/specbridge/speculators"

// JobOrder receives the priority each running job's policy gives it on
// free slots, for the policies that order jobs across the cluster
// (speculators.JobPrioritizer: sca, sda, ese, auto), so that the cluster
// can order jobs live as the simulator does in replay (serve
// --rm-job-order: yarnclient/rmorder sets YARN application priorities from
// them). Publish is called after every decide of such a job, from its
// session's goroutine; Forget once the job is over or its session ends.
// owner is the session: a later session of the same job replaces an
// earlier one, whose Forget must then be a no-op. Both must return at once
// (no I/O): they run inside a session's turn.
type JobOrder interface {
	Publish(app string, owner any, p speculators.Priority)
	Forget(app string, owner any)
}

// appID is the YARN application of the session's job ("application_" and
// the job id's key).
func (s *core) appID() string { return "application_" + string(s.key) }

// publishOrder gives the job order the job's priority at now, while the
// job's policy orders jobs and the job is not over; at its end it forgets
// the job.
func (s *core) publishOrder(now speculators.Time) {
	o := s.srv.cfg.JobOrder
	if o == nil || s.engine == nil || !s.engine.Prioritizes() || s.orderOver {
		return
	}
	if s.jobFinished() {
		s.forgetOrder()
		return
	}
	o.Publish(s.appID(), s, s.engine.JobPriority(now))
	s.orderPublished = true
}

// forgetOrder takes the job out of the job order for good (the job is
// over, or the session is ending).
func (s *core) forgetOrder() {
	s.orderOver = true
	if s.orderPublished {
		s.orderPublished = false
		s.srv.cfg.JobOrder.Forget(s.appID(), s)
	}
}
