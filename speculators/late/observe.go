package late

import "github.com/specbridge/specbridge/speculators"

// markState is where this policy's own request for a copy of a task stands.
type markState uint8

const (
	// markNone: no request of ours is outstanding.
	markNone markState = iota
	// markRequested: Decide asked for a copy that has not started yet.
	markRequested
	// markCopyRunning: the copy started and is running as attempt copy.
	markCopyRunning
)

// mark is the policy's record of one task it asked to speculate. A task with
// a mark other than markNone is "being speculated" (§4: LATE ranks only
// "running tasks that are not currently being speculated"), so it gets at
// most one copy at a time.
type mark struct {
	state markState
	copy  int32 // the copy's attempt number, markCopyRunning only
}

// size grows the marks to the job's task counts (fixed at creation; grown
// lazily so a policy needs no job at construction).
func (p *policy) size(job *speculators.Job) {
	for ty := range job.Tasks {
		n := len(job.Tasks[ty])
		p.marks[ty] = speculators.Grow(p.marks[ty], n)
		p.doneRates[ty] = speculators.Grow(p.doneRates[ty], n)
		if p.sized[ty] != n {
			p.sized[ty] = n
			p.livePos[ty] = make([]int32, n)
			p.liveRecs[ty] = p.liveRecs[ty][:0]
			p.done[ty].reset()
			clear(p.doneRates[ty])
			for _, t := range job.Tasks[ty] {
				p.setLive(t)
				p.noteDone(t)
			}
		}
	}
}

// Observe keeps the set of tasks being speculated current, and notes that
// the nodes' total work must be summed again (AllowSpeculativeOn). A request becomes
// a running copy when the task's next attempt starts (whether the AM flagged
// it speculative or not: it is the attempt our request produced). The mark
// is cleared when the task succeeds, when the copy ends, or when the task
// has no running attempt left (the AM reruns it as an ordinary task, and a
// request still waiting for a container then has nothing to copy).
//
// A request the AM refuses without ever starting an attempt stays pending
// until the task finishes: the engine sees no refusal, and erring on the
// side of fewer copies is the paper's side (§4's cap).
func (p *policy) Observe(job *speculators.Job, ev *speculators.Event) {
	if ev.Kind == speculators.AttemptStatus || ev.Kind.Lifecycle() {
		p.nodesStale = true
		p.noteAttempt(job, ev)
	} // other events (container needs, node health, bounds) touch no attempt
	if ev.Kind == speculators.AttemptStatus {
		p.noteProgress(ev)
		return
	}
	t := job.LifecycleTask(ev)
	if t == nil {
		return
	}
	p.size(job)
	p.noteDone(t)
	p.noteMark(t, ev)
	p.setLive(t)
}

// noteMark moves the task's mark on for a lifecycle event (see Observe).
func (p *policy) noteMark(t *speculators.Task, ev *speculators.Event) {
	m := &p.marks[t.ID.Type][t.ID.Index]
	if m.state == markNone {
		return
	}
	switch ev.Kind {
	case speculators.AttemptStarted:
		if m.state == markRequested {
			*m = mark{state: markCopyRunning, copy: ev.Attempt.N}
		}
		return
	case speculators.AttemptSucceeded:
		p.clear(m)
		return
	}
	// Failed or killed.
	if t.Done() || t.RunningAttempts == 0 || (m.state == markCopyRunning && ev.Attempt.N == m.copy) {
		p.clear(m)
	}
}

// noteDone keeps the task's entry in done: the progress rate of its
// succeeded attempt, 1 over the attempt's run time, which no longer changes
// once it ended (none when it ran for no time, when the task is dropped or
// when it has no succeeded attempt, or no longer has one).
func (p *policy) noteDone(t *speculators.Task) {
	ty, i := t.ID.Type, t.ID.Index
	c := &p.doneRates[ty][i]
	a := t.Succeeded
	if t.Dropped {
		a = nil
	}
	if c.attempt == a && (a != nil || !c.ok) {
		return
	}
	if c.ok { // take the old rate out
		p.done[ty].remove(c.rate)
	}
	*c = doneRate{attempt: a}
	if a == nil || a.Running() || a.Elapsed(0) <= 0 {
		return
	}
	c.rate, c.ok = a.ProgressRate(0), true
	p.done[ty].add(c.rate)
}

func (p *policy) clear(m *mark) {
	*m = mark{}
}

// forget drops every mark, as if the policy were new (benchmarks).
func (p *policy) forget() {
	for ty := range p.marks {
		clear(p.marks[ty])
		for k := range p.liveRecs[ty] {
			p.liveRecs[ty][k].marked = false
		}
	}
}
