package sim

import "github.com/specbridge/specbridge/speculators"

// preemptReduces frees containers for maps that a job's own reduces starve,
// as Hadoop's RMContainerAllocator.preemptReducesIfNeeded does: when a job
// has map attempts waiting for a container (originals, retries or copies:
// jobState.starving), none running, and reduces holding shared containers
// (a placement pass has just found no free slot for the maps), it kills as
// many of those reduces as maps wait, least progress first (ties: latest
// launched). The killed reduces report AttemptKilled, count as killed and
// wasted, and queue behind the maps.
// Without this, reduces waiting in their copy phase for a map that must run
// again (a Rerun, a timed-out attempt) can hold every container the map
// could use, and the job never ends. Dedicated reduce slots cannot run maps,
// so reduces there are never preempted. Hadoop's delays
// (mapreduce.job.reducer.preempt.delay.sec, 0 by default) are not modelled:
// preemption is immediate.
func (s *sim) preemptReduces() (bool, error) {
	freed := false
	// The jobs with maps waiting, none running and reduces running: the
	// index's starving set (index.go), in submit order. Preempting one
	// job's reduces changes no other job's membership.
	ix := &s.index
	for r := ix.starving.next(0); r >= 0; r = ix.starving.next(r + 1) {
		j := &s.jobs[ix.byRank[r]]
		waiting := j.needs(speculators.Map)
		for ; waiting > 0; waiting-- {
			victim := s.preemptionVictim(j)
			if victim == none {
				break
			}
			j.result.PreemptedReduces++
			if err := s.abort(victim, speculators.StateKilled); err != nil {
				return freed, err
			}
			freed = true
		}
	}
	return freed, nil
}

// preemptionVictim is the running reduce in a shared container with the
// least work done (latest launched on ties), or none.
func (s *sim) preemptionVictim(j *jobState) int32 {
	victim := int32(none)
	for _, ai := range j.runningReduces {
		a := s.attempts.at(ai)
		if s.nodes[a.node].pools != 1 {
			continue
		}
		s.advance(a)
		if victim == none {
			victim = ai
			continue
		}
		v := s.attempts.at(victim)
		f, vf := fractionDone(a), fractionDone(v)
		if f < vf || (f == vf && (a.start > v.start || (a.start == v.start && ai > victim))) {
			victim = ai
		}
	}
	return victim
}

func fractionDone(a *attempt) float64 {
	if a.work <= 0 {
		return 0
	}
	return a.done / a.work
}
