package sim

import "github.com/specbridge/specbridge/speculators"

// Recorded nodes (Task.Node). A replayed history knows the NodeManager each
// task's first attempt ran on, and what happened to that NodeManager: a
// crash inferred from the history (replay's crash.go) hangs the recorded
// node from that time on. Without placing the recorded originals on their
// recorded nodes, whether the replayed crash hangs any of the job's attempts
// is the round robin's draw: in live-bench's first round the stock failure
// job placed none of its maps on the NodeManager that stopped and replayed
// 34% short (62.7 s against 95.1 s).
//
// The choice: an original whose Task.Node names a node of the cluster goes
// to that node first, in a pass before the round robin, when the node is not
// hung and has a free container of the task's pool; otherwise it waits its
// turn and is placed as any original (a busy or hung recorded node does not
// hold it back: YARN relaxes locality too, and a replay on another cluster
// has none of the names). The pass takes a node's waiting originals in
// submit order, then task order, ahead of other jobs' work on that node: the
// recorded placement is what the history says the scheduler did there. Only
// originals: retries and copies are placed by the simulator (what they would
// be live is the policy's doing). Jobs whose policy chooses what runs in a
// slot (pull.go) or orders jobs (clone.go) are left to their policy.
//
// pinEntry is one original waiting for its recorded node.
type pinEntry struct {
	job  int32
	ty   speculators.TaskType
	task int32
}

// pinJob queues job j's originals on their recorded nodes at submit.
func (s *sim) pinJob(j *jobState) {
	if j.prio || j.chooser {
		return
	}
	for ty, specs := range [speculators.NumTaskTypes][]Task{j.spec.Maps, j.spec.Reduces} {
		for i := range specs {
			name := specs[i].Node
			if name == "" {
				continue
			}
			if s.nodeByName == nil {
				s.nodeByName = make(map[string]int32, len(s.cfg.Nodes))
				for k := range s.cfg.Nodes {
					s.nodeByName[s.cfg.Nodes[k].Name] = int32(k)
				}
			}
			ni, ok := s.nodeByName[name]
			if !ok {
				continue
			}
			if s.pins == nil {
				s.pins = make([][]pinEntry, len(s.nodes))
			}
			s.pins[ni] = append(s.pins[ni], pinEntry{job: j.index, ty: speculators.TaskType(ty), task: int32(i)})
			s.pinWaiting++
		}
	}
}

// placePinned places waiting originals on their recorded nodes that have a
// free container (see pinEntry). It reports whether it placed any.
func (s *sim) placePinned() (bool, error) {
	placed := false
	for ni := s.nextFree(0, len(s.nodes)); ni >= 0 && s.pinWaiting > 0; ni = s.nextFree(ni+1, len(s.nodes)) {
		if len(s.pins[ni]) == 0 || s.nodes[ni].hung {
			continue
		}
		ok, err := s.placePinnedOn(int32(ni))
		if err != nil {
			return placed, err
		}
		placed = placed || ok
	}
	return placed, nil
}

// placePinnedOn fills node ni's free containers with the originals recorded
// there, dropping entries already launched (elsewhere, or dropped).
func (s *sim) placePinnedOn(ni int32) (bool, error) {
	n := &s.nodes[ni]
	q := s.pins[ni]
	placed := false
	keep := q[:0]
	for k, e := range q {
		j := &s.jobs[e.job]
		if j.finished || j.tasks[e.ty][e.task].launched { // a finished job's tasks may be let go (recycle)
			s.pinWaiting--
			continue
		}
		if n.hung || n.free[n.pool(e.ty)] == 0 || !j.ranked ||
			e.ty == speculators.Reduce && j.mapFraction() < j.slowstart(s.cfg.ReduceSlowstart) {
			keep = append(keep, e)
			continue
		}
		s.pinWaiting--
		if err := s.place(e.job, ni, pick{ty: e.ty, task: e.task, source: chosenOriginal}); err != nil {
			s.pins[ni] = append(keep, q[k+1:]...)
			return placed, err
		}
		placed = true
	}
	s.pins[ni] = keep
	return placed, nil
}
