package sim

import "github.com/specbridge/specbridge/speculators"

// beforeTick runs at every Decide tick, before the engines decide: faults
// whose job reached their map-progress point start, and the fault-analyzer
// gathers node liveness when due.
func (s *sim) beforeTick() error {
	for k := range s.faults.triggers {
		if err := s.fireTrigger(&s.faults.triggers[k]); err != nil {
			return err
		}
	}
	if an := s.faults.an; an != nil && s.now >= an.next {
		an.next = s.now + an.gather
		return s.gather()
	}
	return nil
}

// fireTrigger starts a trigger's fault if its job has reached the point.
func (s *sim) fireTrigger(st *triggerState) error {
	if st.fired {
		return nil
	}
	j := &s.jobs[st.job]
	if !j.submitted || j.finished {
		return nil
	}
	progress, launched, point := 0.0, false, st.spec.MapProgress
	if st.spec.Reduces {
		progress, launched = s.reduceProgress(j)
		point = st.spec.ReduceProgress
	} else {
		progress, launched = s.mapProgress(j)
	}
	if !launched || progress < point {
		return nil
	}
	ni := int32(nodeIndex(s.cfg.Nodes, st.spec.Node))
	switch {
	case st.spec.Node == "" && st.spec.Reduces:
		ni = s.busiestReduceNode(j)
	case st.spec.Node == "":
		ni = s.busiestNode(j)
	}
	if ni < 0 {
		return nil
	}
	st.fired = true
	ep := st.spec.Episode
	ep.Start = s.now
	if ep.End > 0 {
		ep.End += s.now
		s.queue.push(ep.End, evSpeed, ni, 0)
	}
	if ep.Crash {
		ep.Factor = crashFactor
	}
	n := &s.nodes[ni]
	n.episodes = append(n.episodes, ep)
	return s.setSpeed(ni, true)
}

// mapProgress is a job's map progress as Hadoop reports it: the mean over
// its maps of the best running attempt's progress, done or dropped maps
// counting 1. launched says whether any map attempt has started.
func (s *sim) mapProgress(j *jobState) (float64, bool) {
	maps := j.tasks[speculators.Map]
	if len(maps) == 0 {
		return 1, true
	}
	sum, launched := s.progressSum(maps, func(_ *taskState, a *attempt) float64 { return fractionDone(a) })
	return sum / float64(len(maps)), launched
}

// reduceProgress is a job's reduce progress as Hadoop reports it: the mean
// over its reduces of the best running attempt's progress score, done or
// dropped reduces counting 1. launched says whether any reduce attempt has
// started; a job without reduces has none.
func (s *sim) reduceProgress(j *jobState) (float64, bool) {
	reds := j.tasks[speculators.Reduce]
	sum, launched := s.progressSum(reds, func(t *taskState, a *attempt) float64 {
		_, score, _ := reducePhase(fractionDone(a), a.copyEnd, a.sortEnd)
		return score
	})
	if len(reds) == 0 {
		return 0, false
	}
	return sum / float64(len(reds)), launched
}

// progressSum sums over tasks the best score of a running attempt (brought
// up to date first), done or dropped tasks counting 1; launched says whether
// any of them has had an attempt.
func (s *sim) progressSum(tasks []taskState, score func(*taskState, *attempt) float64) (sum float64, launched bool) {
	for ti := range tasks {
		t := &tasks[ti]
		launched = launched || t.first != none
		if t.done() || t.dropped {
			sum++
			continue
		}
		best := 0.0
		for ai := t.first; ai != none; ai = s.attempts.at(ai).nextInTask {
			a := s.attempts.at(ai)
			if a.state != speculators.StateRunning {
				continue
			}
			s.advance(a)
			best = max(best, score(t, a))
		}
		sum += best
	}
	return sum, launched
}

// busiestReduceNode is the node running most of the job's reduce attempts,
// the first on ties, or -1 if none runs.
func (s *sim) busiestReduceNode(j *jobState) int32 {
	count := make([]int, len(s.nodes))
	for _, ai := range j.runningReduces {
		count[s.attempts.at(ai).node]++
	}
	best := int32(-1)
	for ni, c := range count {
		if c > 0 && (best < 0 || c > count[best]) {
			best = int32(ni)
		}
	}
	return best
}

// busiestNode is the node holding most of the job's maps (running attempts
// and stored outputs), the first on ties, or -1 if it holds none.
func (s *sim) busiestNode(j *jobState) int32 {
	count := make([]int, len(s.nodes))
	maps := j.tasks[speculators.Map]
	for ti := range maps {
		t := &maps[ti]
		if t.done() {
			count[s.attempts.at(t.winner).node]++
			continue
		}
		for ai := t.first; ai != none; ai = s.attempts.at(ai).nextInTask {
			if a := s.attempts.at(ai); a.state == speculators.StateRunning {
				count[a.node]++
			}
		}
	}
	best := int32(-1)
	for ni, c := range count {
		if c > 0 && (best < 0 || c > count[best]) {
			best = int32(ni)
		}
	}
	return best
}

// countWrongSpeculations sets each job's WrongSpeculations. A speculative
// copy is justified when an earlier attempt of its task ran on a node that
// crashed or was declared LOST while that attempt was running (between its
// start and its end, or the end of the run for one still running); every
// other copy is a wrong speculation: FARMS §4.1's "speculative tasks that
// should not be launched, i.e., the original task attempts are not on a
// failed node". A node that was only paused or slow has not failed, so
// copies of stragglers and of tasks on a paused node count as wrong.
func (s *sim) countWrongSpeculations() {
	for i := range s.attempts.len() {
		c := s.attempts.at(i)
		if !c.speculative || c.job == none { // none: released, counted then (stream.go)
			continue
		}
		j := &s.jobs[c.job]
		justified := false
		for ai := j.tasks[c.ty][c.task].first; ai != none && ai != int32(i) && !justified; ai = s.attempts.at(ai).nextInTask {
			o := s.attempts.at(ai)
			end := o.end
			if o.state == speculators.StateRunning {
				end = s.now
			}
			for _, f := range s.nodes[o.node].fault.failures {
				if f >= o.start && f <= end {
					justified = true
					break
				}
			}
		}
		if !justified {
			j.result.WrongSpeculations++
		}
	}
}
