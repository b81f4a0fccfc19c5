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
// them stale), so a simulator may ask for every free container cheaply.
func (p *policy) AllowSpeculativeOn(job *speculators.Job, node speculators.NodeID, _ speculators.Time) bool {
	n := job.Node(node)
	if n == nil {
		return true
	}
	if n.Health == speculators.NodeSuspect || n.Health == speculators.NodeDown {
		return false
	}
	if p.nodesStale || len(p.nodeTotals) != len(job.Nodes) {
		p.totalWork(job)
		p.nodeSample = p.nodeSample[:0]
		for k, seen := range p.nodeSeen {
			if seen {
				p.nodeSample = append(p.nodeSample, p.nodeTotals[k])
			}
		}
		p.nodeThreshold = percentile(p.nodeSample, p.slowNodePct)
		p.nodesStale = false
	}
	i := p.nodeIx[node]
	return !p.nodeSeen[i] || p.nodeTotals[i] >= p.nodeThreshold
}

// totalWork fills nodeTotals and nodeSeen, indexed like job.Nodes, with each
// node's total progress of this job's succeeded and running attempts.
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
				switch a.State {
				case speculators.StateRunning:
					p.nodeTotals[i] += a.Progress
				case speculators.StateSucceeded:
					p.nodeTotals[i]++
				}
			}
		}
	}
}
