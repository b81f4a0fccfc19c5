package farms

import "github.com/specbridge/specbridge/speculators"

// policy is the failure layer over a base straggler policy. Its own state is
// the failure episodes it acts on, the copies it asked for, the outputs it
// re-ran and the maps reducers reported; the rest is scratch space.
type policy struct {
	options
	base         speculators.Speculator
	baseObserver speculators.Observer
	baseGate     speculators.NodeGate
	baseTeacher  speculators.Teacher

	// episodes lists every failure the analyzer declared, in the order it
	// declared them; marks refer to them by index.
	episodes []episode
	// marks[type][index]: the copy this layer asked for, if any.
	marks [speculators.NumTaskTypes][]mark
	// baseAsked[type][index]: the base policy asked for a copy that has not
	// started yet, so the failure layer does not add another.
	baseAsked [speculators.NumTaskTypes][]bool
	// rerun[index] is 1 + the attempt number of the map output this policy
	// (or the base) last declared lost, 0 when none: a loss is re-run once.
	rerun []int32
	// fetchReported lists maps named by fetch-failure reports since the last
	// Decide, in report order, possibly repeated.
	fetchReported []speculators.TaskID

	// Scratch reused by Decide.
	candidates []candidate
}

// episode is one failure of one node as the analyzer declared it.
type episode struct {
	node     speculators.NodeID
	failedAt speculators.Time
	// rounds counts the checks that launched copies; the next batch is
	// initialTasks x growth^rounds.
	rounds    int
	nextCheck speculators.Time
	// resumed: the analyzer reported the node back (NodeResumed) at
	// resumedAt; its copies are then judged by killOnResume.
	resumed   bool
	resumedAt speculators.Time
	// done: nothing more to do for this episode.
	done bool
	// tasks lists the tasks copied because of this episode.
	tasks []speculators.TaskID
}

// markState is where a copy this layer asked for stands.
type markState uint8

const (
	markNone markState = iota
	// markRequested: Decide asked for the copy; it has not started.
	markRequested
	// markRunning: the copy runs as attempt copy.
	markRunning
)

// mark is the layer's record of one task it copied because of a failure.
type mark struct {
	state    markState
	episode  int32 // index into policy.episodes
	original int32 // the stalled attempt on the failed node
	copy     int32 // markRunning: the copy's attempt number
}

// size grows the per-task state to the job's task counts.
func (p *policy) size(job *speculators.Job) {
	for ty := range job.Tasks {
		p.marks[ty] = speculators.Grow(p.marks[ty], len(job.Tasks[ty]))
		p.baseAsked[ty] = speculators.Grow(p.baseAsked[ty], len(job.Tasks[ty]))
	}
	p.rerun = speculators.Grow(p.rerun, len(job.Tasks[speculators.Map]))
}

// openEpisode returns the index of the node's episode that has not resumed,
// or -1.
func (p *policy) openEpisode(node speculators.NodeID) int {
	for i := range p.episodes {
		if e := &p.episodes[i]; e.node == node && !e.resumed && !e.done {
			return i
		}
	}
	return -1
}

// Observe lets the base policy see the event, then keeps the layer's own
// records: failure episodes from the analyzer's node events, its copies
// from attempt events, and the maps named in fetch-failure reports.
//
// A requested copy becomes running when the task's next attempt starts (the
// attempt the request produced, flagged speculative or not). The mark is
// cleared when the task succeeds, when the copy ends, or when the original
// ends (the copy is then all the task has, and is no longer a copy to kill on
// resume). A NodeFailed for a node whose episode has not resumed is a repeat
// and is ignored; one after a NodeResumed opens a new episode.
func (p *policy) Observe(job *speculators.Job, ev *speculators.Event) {
	if p.baseObserver != nil {
		p.baseObserver.Observe(job, ev)
	}
	p.size(job)
	switch ev.Kind {
	case speculators.NodeFailed:
		if p.openEpisode(ev.Node) < 0 {
			p.episodes = append(p.episodes, episode{node: ev.Node, failedAt: ev.Time, nextCheck: ev.Time})
		}
		return
	case speculators.NodeResumed:
		if i := p.openEpisode(ev.Node); i >= 0 {
			p.episodes[i].resumed, p.episodes[i].resumedAt = true, ev.Time
		}
		return
	case speculators.AttemptStatus:
		if p.retrospective && p.fetchFailures > 0 {
			p.fetchReported = append(p.fetchReported, ev.FetchFailedMaps...)
		}
		return
	}
	t := job.LifecycleTask(ev)
	if t == nil {
		return
	}
	ty, ix := t.ID.Type, t.ID.Index
	m := &p.marks[ty][ix]
	if ev.Kind == speculators.AttemptStarted {
		if m.state == markRequested && ev.Attempt.N != m.original {
			m.state, m.copy = markRunning, ev.Attempt.N
		}
		p.baseAsked[ty][ix] = false
		return
	}
	if t.Done() {
		p.baseAsked[ty][ix] = false
	}
	if m.state == markNone {
		return
	}
	if t.Done() || ev.Attempt.N == m.original || (m.state == markRunning && ev.Attempt.N == m.copy) {
		*m = mark{}
	}
}
