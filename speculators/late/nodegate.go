package late

import "github.com/specbridge/specbridge/speculators"

// AllowSpeculativeOn is LATE's SlowNodeThreshold (§4): "don't launch
// speculative tasks on nodes that are below some threshold ... of total work
// performed (sum of progress scores for all succeeded and in-progress tasks
// on the node)", with the threshold a percentile (default the 25th) of the
// nodes' totals. A node is refused when its total is strictly below that
// percentile, so nodes that all did the same work are all allowed.
//
// What is measured. The paper's scheduler saw every task on every node of
// the cluster; an engine sees one job. The total here is over this job's
// attempts only: running attempts count their progress score, succeeded
// attempts count 1 (failed and killed attempts count nothing, as in the
// paper), and the percentile is over the nodes that ran at least one of this
// job's attempts. A node this job has never used has no evidence against it
// and is allowed; the cluster-wide view the paper had comes instead from the
// fault analyzer: a node it reports suspect or down is refused whatever its
// total.
//
// The totals are summed again only after an attempt event (Observe marks
// them stale), so a simulator may ask for every free container cheaply, and
// then only for the nodes whose attempts the events touched (nodeDirty),
// each over that node's attempts in the order a full pass over the job's
// tasks would add them (nodeAtt), so every total is the same float64 a full
// pass would give. A full pass is made when Observe cannot tell which nodes
// changed (fullStale).
func (p *policy) AllowSpeculativeOn(job *speculators.Job, node speculators.NodeID, _ speculators.Time) bool {
	i := job.NodeIndexOf(node)
	if i < 0 {
		return true
	}
	n := job.Nodes[i]
	if n.Health == speculators.NodeSuspect || n.Health == speculators.NodeDown {
		return false
	}
	if p.nodesStale || len(p.nodeTotals) != len(job.Nodes) {
		changed := true
		if p.fullStale {
			p.totalWork(job)
		} else {
			p.growNodes(job)
			changed = p.totalDirty()
		}
		if changed {
			p.nodeSample = p.nodeSample[:0]
			for k, seen := range p.nodeSeen {
				if seen {
					p.nodeSample = append(p.nodeSample, p.nodeTotals[k])
				}
			}
			// The percentile depends only on the sample's values, not
			// their order.
			p.nodeThreshold = speculators.Percentile(p.nodeSample, p.slowNodePct)
		}
		p.nodesStale = false
	}
	// i is also the node's index in the policy's tables (nodeIx), which
	// follow job.Nodes.
	return !p.nodeSeen[i] || p.nodeTotals[i] >= p.nodeThreshold
}

// noteAttempt records, from an attempt event Observe sees, which node's total
// it may change, and adds a started attempt to its node's list. Anything it
// cannot place (an attempt the job does not know, a node known by name only,
// a start that is not the task's latest attempt) asks for a full pass.
func (p *policy) noteAttempt(job *speculators.Job, ev *speculators.Event) {
	if p.fullStale {
		return
	}
	a := job.Attempt(ev.Attempt)
	if a == nil {
		p.fullStale = true
		return
	}
	i := a.NodeIndex()
	if i < 0 {
		if a.Node != "" {
			p.fullStale = true
		}
		return // no node: a full pass skips it too
	}
	if i >= len(p.nodeAtt) {
		p.growNodes(job)
	}
	if ev.Kind == speculators.AttemptStarted {
		t := job.Task(ev.Attempt.Task)
		if ev.Restated || t.Attempts[len(t.Attempts)-1] != a {
			p.fullStale = true
			return
		}
		// Insert after every attempt of a task at or before this one in
		// the full pass's order (type, then index; a task's attempts in
		// start order).
		list := p.nodeAtt[i]
		k := len(list)
		for k > 0 && taskAfter(list[k-1].ID.Task, t.ID) {
			k--
		}
		for j := k; j > 0 && list[j-1].ID.Task == t.ID; j-- {
			if list[j-1] == a {
				k = -1 // already listed
				break
			}
		}
		if k < 0 {
			p.fullStale = true
			return
		}
		list = append(list, nil)
		copy(list[k+1:], list[k:])
		list[k] = a
		p.nodeAtt[i] = list
	}
	if !p.nodeDirty[i] {
		p.nodeDirty[i] = true
		p.dirtyList = append(p.dirtyList, i)
	}
}

// growNodes extends the per-node tables to nodes the job met since they were
// last sized: such a node has no attempt but the ones Observe is yet to
// note, and its total is 0.
func (p *policy) growNodes(job *speculators.Job) {
	for k := len(p.nodeTotals); k < len(job.Nodes); k++ {
		p.nodeIx[job.Nodes[k].ID] = k
		p.nodeTotals = append(p.nodeTotals, 0)
		p.nodeSeen = append(p.nodeSeen, false)
		p.nodeDirty = append(p.nodeDirty, false)
		if k < len(p.nodeAtt) {
			p.nodeAtt[k] = p.nodeAtt[k][:0]
		} else {
			p.nodeAtt = append(p.nodeAtt, nil)
		}
	}
}

// taskAfter reports whether task a comes after task b in a pass over
// job.Tasks.
func taskAfter(a, b speculators.TaskID) bool {
	if a.Type != b.Type {
		return a.Type > b.Type
	}
	return a.Index > b.Index
}

// totalDirty sums again the totals of the nodes marked dirty and reports
// whether any total or seen flag changed.
func (p *policy) totalDirty() bool {
	changed := false
	for _, i := range p.dirtyList {
		p.nodeDirty[i] = false
		var total float64
		for _, a := range p.nodeAtt[i] {
			switch a.State {
			case speculators.StateRunning:
				total += a.Progress
			case speculators.StateSucceeded:
				total++
			}
		}
		seen := len(p.nodeAtt[i]) > 0
		if total != p.nodeTotals[i] || seen != p.nodeSeen[i] {
			changed = true
		}
		p.nodeTotals[i] = total
		p.nodeSeen[i] = seen
	}
	p.dirtyList = p.dirtyList[:0]
	return changed
}

// totalWork fills nodeTotals and nodeSeen, indexed like job.Nodes, with each
// node's total progress of this job's succeeded and running attempts, and
// nodeAtt with each node's attempts in the order they were added.
func (p *policy) totalWork(job *speculators.Job) {
	for k := len(p.nodeIx); k < len(job.Nodes); k++ {
		p.nodeIx[job.Nodes[k].ID] = k
	}
	if n := len(job.Nodes); cap(p.nodeTotals) < n {
		p.nodeTotals = make([]float64, n, 2*n)
		p.nodeSeen = make([]bool, n, 2*n)
	} else {
		p.nodeTotals = p.nodeTotals[:n]
		p.nodeSeen = p.nodeSeen[:n]
		clear(p.nodeTotals)
		clear(p.nodeSeen)
	}
	n := len(job.Nodes)
	p.nodeAtt = speculators.Grow(p.nodeAtt, n)[:n]
	for k := range p.nodeAtt {
		p.nodeAtt[k] = p.nodeAtt[k][:0]
	}
	p.nodeDirty = speculators.Grow(p.nodeDirty, n)[:n]
	clear(p.nodeDirty)
	p.dirtyList = p.dirtyList[:0]
	for ty := range job.Tasks {
		for _, t := range job.Tasks[ty] {
			for _, a := range t.Attempts {
				i := a.NodeIndex()
				if i < 0 {
					if a.Node == "" {
						continue
					}
					k, ok := p.nodeIx[a.Node]
					if !ok {
						continue
					}
					i = k
				}
				p.nodeSeen[i] = true
				p.nodeAtt[i] = append(p.nodeAtt[i], a)
				switch a.State {
				case speculators.StateRunning:
					p.nodeTotals[i] += a.Progress
				case speculators.StateSucceeded:
					p.nodeTotals[i]++
				}
			}
		}
	}
	p.fullStale = false
}
