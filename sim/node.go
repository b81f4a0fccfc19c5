package sim

import (
	"math"

	"github.com/specbridge/specbridge/speculators"
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
		n.setMult(mult)
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
		s.advance(s.attempts.at(ai))
	}
	wasHung := n.hung
	n.setMult(mult)
	for _, ai := range n.running {
		a := s.attempts.at(ai)
		s.scheduleFinish(ai)
		switch {
		case n.hung && !wasHung:
			s.lastHeartbeat(a)
			a.silent = true
			a.hbGen++
			s.queue.push(a.lastReport+s.timeout, evTimeout, ai, 0)
		case !n.hung && wasHung:
			// Reporting resumes at once.
			a.silent = false
			a.hbGen++
			if err := s.resumeReports(ai); err != nil {
				return err
			}
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

// setMult sets the node's duration multipliers from mult (see mapMult).
func (n *nodeState) setMult(mult float64) {
	n.mult, n.mapMult, n.hung = mult, mult, math.IsInf(mult, 1)
	if n.reducesOnly && !n.hung {
		n.mapMult = mult / n.slowdown
	}
}

// multFor is the duration multiplier of an attempt of type ty on the node.
func (n *nodeState) multFor(ty speculators.TaskType) float64 {
	if ty == speculators.Map {
		return n.mapMult
	}
	return n.mult
}
