package sim

import (
	"fmt"
	"math"

	"github.com/specbridge/specbridge/speculators"
)

// The failure model (FARMS §2, the DESIGN's fault model), beyond hung nodes:
//
//   - Crash (Episode.Crash, or a Trigger): the node is hung (its attempts
//     stall and stop reporting) and every completed map output stored on
//     it is lost. Map outputs live on the node of the attempt that
//     completed the map; jobs without reduces write to HDFS and lose
//     nothing. The AM does not know: the map stays done until a reduce's
//     fetch failures, a policy's Rerun or NM expiry say otherwise.
//   - Which reduces need a lost output: a reduce copies map outputs in the
//     order the maps completed, and has copied as many as its copy
//     fraction of the job's maps (the fluid model of advance). A running
//     reduce needs each lost output it has not copied; a reduce launched
//     while outputs are lost needs all of them. While it needs any, its
//     copy phase stops short of them and cannot end.
//   - Fetch failures: a reduce that needs lost outputs reports them in
//     AttemptStatus.FetchFailedMaps FaultConfig.ShuffleReadTimeout after it
//     started needing them, and again every ShuffleReadTimeout (it keeps
//     trying; Hadoop's growing per-host back-off is not modelled). A reduce
//     on a hung node reports nothing. Choice, and a known gap: a node back
//     from a short crash fails fetches at the same pace here, while
//     Hadoop's fetcher reports a refused connection or a failed read at
//     once and retries after a back-off of seconds, so outputs lost in a
//     reboot are re-run later than on a cluster (docs/reproductions.md). The AM counts reports per map and
//     fails the map's completed attempt (AttemptFailed on a succeeded
//     attempt: its output is lost) once the count reaches
//     MaxFetchFailureNotifications and count / (reduce tasks with an
//     attempt in shuffle) reaches MaxFetchFailuresFraction, as
//     JobImpl.TaskAttemptFetchFailureTransition does (Hadoop 2.6-3.x,
//     hadoop-mapreduce-client-app .../job/impl/JobImpl.java). Reduces do
//     not abort themselves after too many failures (Hadoop's
//     ShuffleSchedulerImpl may); not modelled.
//   - NM expiry: a node hung for FaultConfig.NodeExpiry is LOST: the AM
//     kills its running attempts (RMContainerAllocator on an unusable
//     node) and, in jobs whose reduces are not all done, kills the
//     completed attempts of maps whose output is there, so the maps run
//     again (JobImpl.actOnUnusableNode). A LOST node that comes back
//     rejoins as a new NodeManager.
//   - A crashed node whose crash ends comes back restarted: attempts still
//     running there are killed (their containers are gone) and its lost
//     outputs stay lost.
//   - Container cleanup (FaultConfig.ContainerCleanupDelay).

// nodeFault is a node's failure state and the analyzer's view of it.
type nodeFault struct {
	crashed bool // in a crash: its stored outputs are gone
	lost    bool // declared LOST by NM expiry, until it comes back
	hungGen uint32
	// failures lists when the node crashed or was declared LOST, for
	// counting wrong speculations.
	failures []speculators.Time
	// restarts counts the node's NodeManager restarts (a crash that ended,
	// a LOST node that came back): the fault analyzer's probes see each as
	// a new NM start time.
	restarts int
}

// jobFault is a job's failure state.
type jobFault struct {
	outputs     int32 // next outputPos
	unreachable int   // done maps whose output is lost, unknown to the AM
	// notes counts fetch-failure reports per map since its output was
	// last declared lost (JobImpl.fetchFailuresMapping).
	notes        map[int32]int
	cleanupUntil speculators.Time
	finishWait   bool
	view         int // the analyzer view (detector) the job's policy asked for
}

// faultRun is the run-wide failure state.
type faultRun struct {
	readTimeout, expiry, cleanup speculators.Time
	// needs lists, per reduce attempt with missing > 0, the maps whose
	// lost outputs it needs.
	needs    map[int32][]int32
	triggers []triggerState
	an       *faultAnalyzer
	victims  []int32
}

type triggerState struct {
	spec  *Trigger
	job   int32
	fired bool
}

// initFaults prepares the failure model after the nodes and jobs are set
// up: node episodes are copied where crashes or triggers may change them.
func (s *sim) initFaults(jobs []Job) error {
	fc := &s.cfg.Faults
	s.faults.readTimeout, s.faults.expiry, s.faults.cleanup = durMs(fc.ShuffleReadTimeout), durMs(fc.NodeExpiry), durMs(fc.ContainerCleanupDelay)
	for i := range s.nodes {
		n := &s.nodes[i]
		copied := false
		for k, e := range n.episodes {
			if e.Crash {
				if !copied {
					n.episodes, copied = append([]Episode(nil), n.episodes...), true
				}
				n.episodes[k].Factor = crashFactor
			}
		}
		if len(s.cfg.Triggers) > 0 && !copied {
			n.episodes = append([]Episode(nil), n.episodes...)
		}
		s.setSpeed(int32(i), false)
		if n.hung {
			s.hungChanged(int32(i))
		}
	}
	byID := make(map[string]int32, len(jobs))
	for i := range jobs {
		byID[jobs[i].ID] = int32(i)
	}
	for k := range s.cfg.Triggers {
		t := &s.cfg.Triggers[k]
		ji, ok := byID[t.Job]
		if !ok {
			return fmt.Errorf("sim: trigger %d names unknown job %q", k, t.Job)
		}
		s.faults.triggers = append(s.faults.triggers, triggerState{spec: t, job: ji})
	}
	if fc.Analyzer.Gather > 0 && s.canSilence() {
		an, err := newFaultAnalyzer(&fc.Analyzer, s.heartbeat, jobs)
		if err != nil {
			return err
		}
		s.faults.an = an
	}
	return nil
}

// handleFault dispatches the failure model's timers.
func (s *sim) handleFault(e event) (bool, error) {
	switch e.kind() {
	case evFetch:
		return s.fetchTimeout(e.ref, e.gen)
	case evExpiry:
		n := &s.nodes[e.ref]
		if !n.hung || n.fault.hungGen != e.gen || n.fault.lost {
			return false, nil
		}
		return true, s.nodeLost(e.ref)
	case evCleanup:
		j := &s.jobs[e.ref]
		j.fault.finishWait = false
		if j.submitted && !j.finished && j.unfinished == 0 {
			s.finishJob(e.ref)
		}
		return true, nil
	}
	return false, fmt.Errorf("sim: unknown event kind %d", e.kind())
}

// crashEdges starts or ends node ni's crash when a crash episode begins or
// ends now. It runs before the node's speed changes, so a restarted node's
// stale attempts are gone before its reporting would resume.
func (s *sim) crashEdges(ni int32) error {
	n := &s.nodes[ni]
	crashed := false
	for _, e := range n.episodes {
		if e.Crash && e.Start <= s.now && (e.End == 0 || s.now < e.End) {
			crashed = true
		}
	}
	switch {
	case crashed && !n.fault.crashed:
		n.fault.crashed = true
		n.fault.failures = append(n.fault.failures, s.now)
		s.loseOutputs(ni)
	case !crashed && n.fault.crashed:
		n.fault.crashed = false
		n.fault.restarts++
		// The NodeManager restarted: its containers are gone. YARN reports
		// them completed (ABORTED), which the AM treats as killed.
		if err := s.killAllOn(ni); err != nil {
			return err
		}
	}
	return nil
}

// hungChanged runs after node ni went hung or came back.
func (s *sim) hungChanged(ni int32) {
	n := &s.nodes[ni]
	if n.hung {
		n.fault.hungGen++
		if s.faults.expiry > 0 {
			s.queue.push(s.now+s.faults.expiry, evExpiry, ni, n.fault.hungGen)
		}
		return
	}
	if n.fault.lost {
		n.fault.restarts++ // it rejoins as a new NodeManager
	}
	n.fault.lost = false
}

// killAllOn kills every attempt running on node ni; their tasks run again.
func (s *sim) killAllOn(ni int32) error {
	s.faults.victims = append(s.faults.victims[:0], s.nodes[ni].running...)
	for _, ai := range s.faults.victims {
		if s.attempts.at(ai).state == speculators.StateRunning {
			if err := s.abort(ai, speculators.StateKilled); err != nil {
				return err
			}
		}
	}
	return nil
}

// nodeLost declares node ni LOST (NM expiry) and does what YARN and the AM
// do then.
func (s *sim) nodeLost(ni int32) error {
	n := &s.nodes[ni]
	n.fault.lost = true
	n.fault.failures = append(n.fault.failures, s.now)
	if err := s.killAllOn(ni); err != nil {
		return err
	}
	for _, ji := range s.active {
		j := &s.jobs[ji]
		if !j.submitted || j.finished || allReducesDone(j) {
			continue
		}
		maps := j.tasks[speculators.Map]
		for ti := range maps {
			t := &maps[ti]
			if t.done() && !t.dropped && s.attempts.at(t.winner).node == ni {
				if _, err := s.discardOutput(t.winner, speculators.AttemptKilled); err != nil {
					return err
				}
				j.result.ExpiryReruns++
			}
		}
	}
	return nil
}

// allReducesDone reports whether a job has no reduce or every reduce is
// done or dropped (JobImpl.allReducersComplete).
func allReducesDone(j *jobState) bool {
	for i := range j.tasks[speculators.Reduce] {
		t := &j.tasks[speculators.Reduce][i]
		if !t.done() && !t.dropped {
			return false
		}
	}
	return true
}

// loseOutputs marks the outputs stored on crashed node ni lost and works
// out which running reduces need them.
func (s *sim) loseOutputs(ni int32) {
	for _, ji := range s.active {
		j := &s.jobs[ji]
		maps := j.tasks[speculators.Map]
		if len(j.tasks[speculators.Reduce]) == 0 {
			continue // map-only: outputs went to HDFS
		}
		first := true
		for ti := range maps {
			t := &maps[ti]
			if !t.done() || t.lost || t.dropped || s.attempts.at(t.winner).node != ni {
				continue
			}
			if first {
				s.mapsChanging(j) // copy progress up to now, before needs are read
				first = false
			}
			t.lost = true
			j.fault.unreachable++
			rank := 0 // outputs completed before this one
			for k := range maps {
				if maps[k].done() && maps[k].outputPos < t.outputPos {
					rank++
				}
			}
			for _, ai := range j.runningReduces {
				a := s.attempts.at(ai)
				if s.copying(a) && rank >= s.copiedOutputs(a) {
					s.addNeed(ai, int32(ti))
				}
			}
		}
		if !first {
			s.mapsChanged(j, false)
		}
	}
}

// copiedOutputs is how many map outputs a reduce has copied: its copy
// fraction of the job's maps.
func (s *sim) copiedOutputs(a *attempt) int {
	j := &s.jobs[a.job]
	end := a.work * a.copyEnd
	if end <= 0 {
		return 0
	}
	return int(math.Floor(a.done/end*float64(len(j.tasks[speculators.Map])) + 1e-9))
}

// needLost makes a newly launched reduce need every lost output of its job.
func (s *sim) needLost(ai int32) {
	j := &s.jobs[s.attempts.at(ai).job]
	maps := j.tasks[speculators.Map]
	for ti := range maps {
		if maps[ti].lost {
			s.addNeed(ai, int32(ti))
		}
	}
}

// addNeed records that reduce attempt ai needs map m's lost output and
// starts its fetch-failure clock if it needed none.
func (s *sim) addNeed(ai, m int32) {
	if s.faults.needs == nil {
		s.faults.needs = map[int32][]int32{}
	}
	s.faults.needs[ai] = append(s.faults.needs[ai], m)
	a := s.attempts.at(ai)
	a.missing++
	if a.missing == 1 {
		a.fetchGen++
		s.queue.push(s.now+s.faults.readTimeout, evFetch, ai, a.fetchGen)
	}
}

// outputGone clears a lost map output once the AM has declared it lost:
// the map is no longer done, so reduces wait for it the ordinary way.
func (s *sim) outputGone(j *jobState, m int32) {
	t := &j.tasks[speculators.Map][m]
	if !t.lost {
		return
	}
	t.lost = false
	j.fault.unreachable--
	for _, ai := range j.runningReduces {
		a := s.attempts.at(ai)
		if a.missing == 0 {
			continue
		}
		need := s.faults.needs[ai]
		for k, x := range need {
			if x == m {
				need = append(need[:k], need[k+1:]...)
				a.missing--
				break
			}
		}
		if a.missing == 0 {
			delete(s.faults.needs, ai)
		} else {
			s.faults.needs[ai] = need
		}
	}
}

// dropNeeds forgets a reduce attempt's needs when it ends.
func (s *sim) dropNeeds(ai int32) {
	if s.attempts.at(ai).missing > 0 {
		s.attempts.at(ai).missing = 0
		delete(s.faults.needs, ai)
	}
}

// fetchTimeout is a reduce's fetch of lost outputs timing out: it reports
// them and the AM counts the reports.
func (s *sim) fetchTimeout(ai int32, gen uint32) (bool, error) {
	a := s.attempts.at(ai)
	if a.state != speculators.StateRunning || a.fetchGen != gen || a.missing == 0 {
		return false, nil
	}
	a.fetchGen++
	s.queue.push(s.now+s.faults.readTimeout, evFetch, ai, a.fetchGen)
	if s.nodes[a.node].hung {
		return true, nil // a silent reduce neither fetches nor reports
	}
	ji := a.job
	j := &s.jobs[ji]
	need := append([]int32(nil), s.faults.needs[ai]...)
	failed := make([]speculators.TaskID, len(need))
	for k, m := range need {
		failed[k] = speculators.TaskID{Type: speculators.Map, Index: m}
	}
	s.statusEvent(ai)
	s.evStatus = false // s.ev is no longer a plain status report
	s.ev.FetchFailedMaps = failed
	if err := s.observe(j); err != nil {
		return true, err
	}
	j.result.FetchFailures += len(need)
	shuffling := s.shufflingReduces(j)
	for _, m := range need {
		if j.fault.notes == nil {
			j.fault.notes = map[int32]int{}
		}
		j.fault.notes[m]++
		notes := j.fault.notes[m]
		rate := 1.0
		if shuffling > 0 {
			rate = float64(notes) / float64(shuffling)
		}
		t := &j.tasks[speculators.Map][m]
		if notes >= s.cfg.Faults.MaxFetchFailureNotifications && rate >= s.cfg.Faults.MaxFetchFailuresFraction && t.done() {
			delete(j.fault.notes, m)
			if _, err := s.discardOutput(t.winner, speculators.AttemptFailed); err != nil {
				return true, err
			}
			j.result.FetchFailureReruns++
		}
	}
	return true, nil
}

// shufflingReduces counts the job's reduce tasks with a running attempt in
// its shuffle (copy) phase.
func (s *sim) shufflingReduces(j *jobState) int {
	count := 0
	reduces := j.tasks[speculators.Reduce]
	for ti := range reduces {
		for ai := reduces[ti].first; ai != none; ai = s.attempts.at(ai).nextInTask {
			if a := s.attempts.at(ai); a.state == speculators.StateRunning && s.copying(a) {
				count++
				break
			}
		}
	}
	return count
}

// discardOutput declares the output of a map's completed attempt ai lost,
// as the AM does after a Rerun decision (kind AttemptKilled), too many
// fetch failures (AttemptFailed) or NM expiry (AttemptKilled): the engine
// sees kind for the succeeded attempt, the map is no longer done, its
// container time counts as wasted, and it runs again (first in its job's
// queue). Reduces still copying wait for it again. It reports false when ai
// is not the winner of a live map.
func (s *sim) discardOutput(ai int32, kind speculators.EventKind) (bool, error) {
	a := s.attempts.at(ai)
	ji, ty, ti := a.job, a.ty, a.task
	j := &s.jobs[ji]
	t := &j.tasks[ty][ti]
	if ty != speculators.Map || a.state != speculators.StateSucceeded || t.winner != ai || t.dropped {
		return false, nil
	}
	a.state = speculators.StateKilled
	if kind == speculators.AttemptFailed {
		a.state = speculators.StateFailed
	}
	j.result.WastedContainerMs += a.end - a.start
	if err := s.sendEnd(ai, kind); err != nil {
		return true, err
	}
	s.mapsChanging(j)
	s.outputGone(j, ti)
	t.winner = none
	if j.result.TaskFinish[ty] != nil {
		j.result.TaskFinish[ty][ti] = none
	}
	j.satisfiedMaps--
	j.unfinished++
	s.mapsChanged(j, false)
	s.pushRetry(j, ty, ti)
	return true, nil
}

// mapOutputStored gives a map that just completed its place in the job's
// output order (the order reduces copy outputs in).
func (s *sim) mapOutputStored(j *jobState, ti int32) {
	j.tasks[speculators.Map][ti].outputPos = j.fault.outputs
	j.fault.outputs++
}

// endedOnHungNode starts the AM's container cleanup clock when it ends an
// attempt on an unreachable node.
func (s *sim) endedOnHungNode(j *jobState) {
	if s.faults.cleanup > 0 {
		j.fault.cleanupUntil = max(j.fault.cleanupUntil, s.now+s.faults.cleanup)
	}
}

// deferFinish holds a job whose last task is done until its container
// cleanups have given up; it reports whether it did.
func (s *sim) deferFinish(ji int32) bool {
	j := &s.jobs[ji]
	if j.fault.cleanupUntil <= s.now {
		return false
	}
	if !j.fault.finishWait {
		j.fault.finishWait = true
		s.queue.push(j.fault.cleanupUntil, evCleanup, ji, 0)
	}
	return true
}

// canSilence reports whether any node can go silent in this run: an
// episode that hangs or crashes it, or a trigger. Without one every running
// attempt reports every heartbeat, no node is ever silent longer than the
// analyzer's gap (the heartbeat interval), and the analyzer could announce
// nothing, so the run skips it (feeding it every report would double the
// cost of a large fault-free replay for no output).
func (s *sim) canSilence() bool {
	if len(s.cfg.Triggers) > 0 {
		return true
	}
	for i := range s.cfg.Nodes {
		for _, e := range s.cfg.Nodes[i].Episodes {
			if e.Crash || math.IsInf(e.Factor, 1) {
				return true
			}
		}
	}
	return false
}
