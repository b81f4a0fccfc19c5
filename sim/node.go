package sim

import (
	"math"
)

// setSpeed recomputes node ni's duration multiplier from its slowdown and
// the episodes active now. When apply is set and the speed changed, running
// attempts are brought up to now at the old speed and re-timed: a node going
// hung silences its attempts and starts their task-timeout clocks; a node
// coming back resumes their heartbeats with an immediate report.
func (s *sim) setSpeed(ni int32, apply bool) error {
	n := &s.nodes[ni]
	mult := n.slowdown
	for _, e := range n.episodes {
		if e.Start <= s.now && (e.End == 0 || s.now < e.End) {
			mult *= e.Factor
		}
	}
	if !apply {
		n.mult, n.hung = mult, math.IsInf(mult, 1)
		return nil
	}
	if err := s.crashEdges(ni); err != nil {
		return err
	}
	if mult == n.mult {
		return nil
	}
	s.lastProgress = s.now
	for _, ai := range n.running {
		s.advance(&s.attempts[ai])
	}
	wasHung := n.hung
	n.mult, n.hung = mult, math.IsInf(mult, 1)
	for _, ai := range n.running {
		a := &s.attempts[ai]
		s.scheduleFinish(ai)
		switch {
		case n.hung && !wasHung:
			a.silent = true
			a.hbGen++
			s.queue.push(a.lastReport+s.timeout, evTimeout, ai, 0)
		case !n.hung && wasHung:
			// Reporting resumes at once.
			a.silent = false
			a.hbGen++
			if err := s.report(ai); err != nil {
				return err
			}
			s.queue.pushOrdered(s.now+s.heartbeat, evHeartbeat, ai, a.hbGen)
		}
	}
	if wasHung != n.hung {
		s.hungChanged(ni)
	}
	if wasHung && !n.hung {
		s.needSchedule = true
	}
	return nil
}
