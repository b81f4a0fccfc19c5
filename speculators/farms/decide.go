package farms

import (
	"fmt"
	"math"

	"github.com/specbridge/specbridge/speculators"
)

// Decide returns, in this order: for each failure episode in the order the
// analyzer declared them, the FAS kills of its copies if its node resumed,
// else the re-runs of the outputs lost with the node and the copies of its
// stalled tasks; then the re-runs for fetch failures; then the base policy's
// decisions. A base Speculate for a task this layer has copied, or a base
// Rerun of an output already re-run, is dropped: the task has its copy, the
// output its re-run.
func (p *policy) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	p.size(job)
	for i := range p.episodes {
		e := &p.episodes[i]
		switch {
		case e.done:
		case e.resumed:
			out = p.killOnResume(job, int32(i), out)
		default:
			out = p.checkEpisode(job, int32(i), now, out)
		}
	}
	out = p.rerunFetchFailed(job, out)
	return p.passBase(job, now, out)
}

// checkEpisode acts on a node the analyzer declared failed, once per check
// interval while the node is still down (health back to suspect, without a
// resume, pauses it).
//
// Multiplicative batches (§3.2): the first check copies initialTasks tasks,
// each later check initialTasks x growth^k more (2, 4, 8, ...), "if they
// remain slow or unresponsive". A check that finds no candidate launches
// nothing and does not grow the next batch. tws has no batches: each check
// copies every candidate.
//
// Re-runs (§3.2, retrospective) are issued at each check too, so that a map
// whose success is reported after the failure is declared is still caught.
func (p *policy) checkEpisode(job *speculators.Job, ei int32, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	e := &p.episodes[ei]
	n := job.Node(e.node)
	if n == nil || n.Health != speculators.NodeDown || now < e.nextCheck {
		return out
	}
	e.nextCheck = now + p.checkInterval
	if p.retrospective && now-e.failedAt >= p.rerunAfter {
		out = p.rerunLostOutputs(job, e, now, out)
	}
	cands := p.findCandidates(job, e)
	if len(cands) == 0 {
		return out
	}
	batch := len(cands)
	if p.initialTasks > 0 {
		batch = min(batch, p.batchSize(e.rounds))
	}
	for _, c := range cands[:batch] {
		id := c.task.ID
		p.marks[id.Type][id.Index] = mark{state: markRequested, episode: ei, original: c.attempt.ID.N}
		e.tasks = append(e.tasks, id)
		out = append(out, speculators.Decision{
			Kind:   speculators.Speculate,
			Task:   id,
			Copies: 1,
			Reason: p.copyReason(e, c, batch, now),
		})
	}
	e.rounds++
	return out
}

// batchSize is initialTasks x growth^rounds, rounded down and bounded so
// that it cannot overflow.
func (p *policy) batchSize(rounds int) int {
	b := float64(p.initialTasks) * math.Pow(p.growth, float64(rounds))
	if b >= 1<<30 || math.IsInf(b, 1) {
		return 1 << 30
	}
	return max(1, int(b))
}

// candidate is a task with a stalled attempt on a failed node.
type candidate struct {
	task    *speculators.Task
	attempt *speculators.Attempt // the task's running attempt on the node
}

// findCandidates lists the failed node's tasks that need a copy.
//
// Which tasks. §3.2: "when a failed node is detected, FARMS can list all the
// affected tasks as its speculation candidates" — every task with a running
// attempt on the node, with no one-minute rule and no comparison with the
// job's other tasks (§2.2.1: they may all be equally slow). We leave out a
// task that is done or dropped, one already copied by this layer (or asked to
// be by the base), one with a running attempt on a node that is not down (it
// has a live attempt already), and one whose attempt on the node progressed
// after the failure was declared: "the condition to keep making speculation
// copies is ... if they remain slow or unresponsive", and a task the node
// still runs is neither.
//
// Order. On a failed node every attempt's time left is unbounded, so LATE's
// ranking says nothing. Maps come first (reduces wait for every map output,
// and a reduce copy elsewhere would stall on the same maps), then the task
// index, the order Hadoop schedules them.
func (p *policy) findCandidates(job *speculators.Job, e *episode) []candidate {
	p.candidates = p.candidates[:0]
	for ty := range job.Tasks {
		for _, t := range job.Tasks[ty] {
			if t.RunningAttempts == 0 || t.Done() || t.Dropped {
				continue
			}
			if p.marks[ty][t.ID.Index].state != markNone || p.baseAsked[ty][t.ID.Index] {
				continue
			}
			if a := stalledOn(job, t, e); a != nil {
				p.candidates = append(p.candidates, candidate{task: t, attempt: a})
			}
		}
	}
	return p.candidates
}

// stalledOn returns t's running attempt on the episode's node if it has made
// no progress since the failure and every running attempt of t is on a node
// that is down; nil otherwise.
func stalledOn(job *speculators.Job, t *speculators.Task, e *episode) *speculators.Attempt {
	var on *speculators.Attempt
	for _, a := range t.Attempts {
		if a.Running() && a.Node == e.node {
			on = a
			break
		}
	}
	if on == nil || on.LastProgressChange > e.failedAt {
		return nil
	}
	if t.RunningAttempts == 1 {
		return on
	}
	for _, a := range t.Attempts {
		if a.Running() && a.Node != e.node {
			if n := job.Node(a.Node); n == nil || n.Health != speculators.NodeDown {
				return nil
			}
		}
	}
	return on
}

// copyReason says why a failed node's task was copied, e.g. "node n1
// failed 12s ago; m_000003_0 there stalled at 0.40; batch of 4 (check 2)".
func (p *policy) copyReason(e *episode, c candidate, batch int, now speculators.Time) string {
	kind := "batch of " + fmt.Sprint(batch)
	if p.initialTasks == 0 {
		kind = "every stalled task at once"
	}
	return fmt.Sprintf("node %s failed %ds ago; %s there stalled at %.2f; %s (check %d)",
		e.node, (now-e.failedAt)/1000, c.attempt.ID, c.attempt.Progress, kind, e.rounds+1)
}

// killOnResume is the FAS feedback of Fig. 7: "if the node resumed soon, we
// issue kill to the speculative tasks", while "if the original node is
// resumed too late, the speculative tasks can still help the job progress
// faster". What separates soon from too late is left open; we compare
// progress scores, since both attempts need the rest of the same task's work
// and the copy's node is not known to be faster: a copy is killed when its
// original still runs and the copy does not lead it by more than
// resume-keep-lead (default 0.1 of the task). A copy that leads by more runs
// on and the first to finish wins, as for any copy. A copy requested and not
// yet started is judged when it starts (it then has progress 0, so it is
// killed while its original runs). Re-runs of completed maps are not undone:
// their outputs were already declared lost.
//
// A node that failed again before this Decide saw its resume is down: its
// copies are not killed but handed to the new episode, which will judge them
// when the node next resumes.
func (p *policy) killOnResume(job *speculators.Job, ei int32, out []speculators.Decision) []speculators.Decision {
	if next := p.openEpisode(p.episodes[ei].node); next >= 0 {
		p.handOver(ei, int32(next))
		return out
	}
	e := &p.episodes[ei]
	waiting := false
	for _, id := range e.tasks {
		m := &p.marks[id.Type][id.Index]
		if m.state == markNone || m.episode != ei {
			continue
		}
		if m.state == markRequested {
			waiting = true
			continue
		}
		t := job.Task(id)
		orig, cp := t.Attempt(m.original), t.Attempt(m.copy)
		if orig != nil && cp != nil && orig.Running() && cp.Running() && cp.Progress-orig.Progress <= p.keepLead {
			out = append(out, speculators.Decision{
				Kind:    speculators.Kill,
				Task:    id,
				Attempt: cp.ID,
				Reason: fmt.Sprintf("node %s resumed after %ds down; original %s at %.2f, copy at %.2f",
					e.node, (e.resumedAt-e.failedAt)/1000, orig.ID, orig.Progress, cp.Progress),
			})
		}
		*m = mark{}
	}
	if !waiting {
		e.done = true
		e.tasks = nil
	}
	return out
}

// handOver moves episode from's copies to episode to and closes from.
func (p *policy) handOver(from, to int32) {
	for _, id := range p.episodes[from].tasks {
		if m := &p.marks[id.Type][id.Index]; m.state != markNone && m.episode == from {
			m.episode = to
			p.episodes[to].tasks = append(p.episodes[to].tasks, id)
		}
	}
	p.episodes[from].done, p.episodes[from].tasks = true, nil
}

// passBase appends the base policy's decisions, dropping a Speculate of a
// task this layer copied and a Rerun of an output already re-run, and
// noting the base's requests and re-runs.
func (p *policy) passBase(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	from := len(out)
	out = p.base.Decide(job, now, out)
	kept := from
	for _, d := range out[from:] {
		switch d.Kind {
		case speculators.Speculate:
			if t := job.Task(d.Task); t != nil {
				if p.marks[d.Task.Type][d.Task.Index].state != markNone {
					continue
				}
				p.baseAsked[d.Task.Type][d.Task.Index] = true
			}
		case speculators.Rerun:
			if t := job.Task(d.Attempt.Task); t != nil && d.Attempt.Task.Type == speculators.Map {
				if p.rerun[d.Attempt.Task.Index] == d.Attempt.N+1 {
					continue
				}
				p.rerun[d.Attempt.Task.Index] = d.Attempt.N + 1
			}
		}
		out[kept] = d
		kept++
	}
	clear(out[kept:])
	return out[:kept]
}
