package analyzer

import (
	"strconv"

	"github.com/specbridge/specbridge/speculators"
)

// Observe folds one event of job's engine in, at now on the analyzer's
// clock (heartbeats are timed on the analyzer's clock, so AM clock skew
// does not matter; records keep the event's own time). Node events and
// container needs are ignored: they are the analyzer's output, or not about
// nodes.
func (a *Analyzer) Observe(job string, ev *speculators.Event, now Time) {
	if js := a.sessions[job]; js == nil || !js.subscribed && !js.events {
		a.revive(job, now)
		a.session(job).events = true
	}
	if ev.Kind == speculators.AttemptStatus {
		// The hot path: only attempts that run in a job that has not ended
		// have a beat (report).
		if b := a.reports[job][keyOf(ev.Attempt)]; b != nil {
			b.at, b.reported = max(b.at, now), true
			if b.node != nil {
				a.heard(b.node.name, b.node, now, false)
			}
		}
		return
	}
	if ev.Kind > speculators.AttemptKilled {
		return
	}
	id := attemptName(ev.Attempt)
	j := a.st.Jobs[job]
	switch ev.Kind {
	case speculators.AttemptStarted:
		if j == nil {
			a.emit(Record{Kind: KindJobStarted, Job: job, Time: ev.Time})
			j = a.st.Jobs[job]
		}
		if j.Attempts[id] != nil {
			// A repeat (a resync's snapshot after a reconnect) is not news
			// from the node: counting it as a heartbeat would end a failed
			// node's episode the moment a job on it reconnects.
			return
		}
		node := ev.Node
		if node != "" {
			// The record keeps the node's one shared copy of its id, not
			// the event's own (a decoded frame's string per attempt).
			node = a.live(node).name
		}
		a.emit(Record{Kind: KindAttemptStarted, Job: job, Attempt: id, Node: node, Container: ev.Container,
			Speculative: ev.Speculative, Time: ev.Time})
		if ev.Restated {
			// First seen through a resync (the analyzer restarted on an
			// empty store, or a standalone analyzer meets a new sidecar):
			// the attempt is not news from its node. It gets a full gap
			// from now, as restored attempts do (restartClocks), or stays
			// as silent as its node if the node is in an open episode.
			at0 := now
			if nr := a.st.Nodes[ev.Node]; nr != nil && nr.Open != nil {
				at0 = nr.Open.From
			}
			a.report(job, ev.Attempt, ev.Node, at0, true)
			return
		}
		a.report(job, ev.Attempt, ev.Node, now, false)
		if ev.Node != "" {
			a.heardByReport(ev.Node, now)
		}
	case speculators.AttemptSucceeded, speculators.AttemptFailed, speculators.AttemptKilled:
		if j == nil || j.Attempts[id] == nil {
			return
		}
		state := "SUCCEEDED"
		switch ev.Kind {
		case speculators.AttemptFailed:
			state = "FAILED"
		case speculators.AttemptKilled:
			state = "KILLED"
		}
		if j.Attempts[id].State != state {
			a.emit(Record{Kind: KindAttemptEnded, Job: job, Attempt: id, State: state, Time: ev.Time})
		}
		if ev.Kind == speculators.AttemptSucceeded {
			a.heardByReport(j.Attempts[id].Node, now)
		}
		delete(a.reports[job], keyOf(ev.Attempt))
	}
}

func (a *Analyzer) heardByReport(n speculators.NodeID, at Time) { a.heard(n, a.live(n), at, false) }

func (a *Analyzer) heardByProbe(n speculators.NodeID, at Time) { a.heard(n, a.live(n), at, true) }

// heard notes that node n (ln its live view) was heard at at, by a probe
// or an attempt's report; the first time after its open episode began is
// when it came back.
func (a *Analyzer) heard(n speculators.NodeID, ln *liveNode, at Time, probe bool) {
	ln.heard = max(ln.heard, at)
	back := &ln.backByReport
	if probe {
		back = &ln.backByProbe
	}
	if *back == 0 && ln.nr != nil && ln.nr.Open != nil && at > ln.nr.Open.From {
		*back = at
	}
}

// EndJob records that job finished (its session closed): its attempts and
// map outputs no longer make it a job with work on any node.
func (a *Analyzer) EndJob(job string, now Time) {
	if j := a.st.Jobs[job]; j != nil && j.Ended == 0 {
		a.emit(Record{Kind: KindJobEnded, Job: job, Time: now})
	}
	delete(a.reports, job)
}

// Probe folds one gathering round of NodeManager probes in. A node is heard
// when every NM the RM lists under it is OK (keyed by host, several NMs may
// share a node); an NM that restarted (new start time) or was LOST during
// an episode makes it a failure whose duration does not join the history.
func (a *Analyzer) Probe(now Time, probes []NodeProbe) {
	a.probesStale = false
	byNode := map[speculators.NodeID]bool{}
	for _, p := range probes {
		ln := a.live(p.Node)
		ln.probed = true
		if old, ok := ln.nms[p.NM]; ok && p.StartedAt != 0 && old != 0 && old != p.StartedAt || p.Lost {
			ln.restarted = true
		}
		if p.StartedAt != 0 {
			ln.nms[p.NM] = p.StartedAt
		}
		ok, seen := byNode[p.Node]
		byNode[p.Node] = p.OK && (ok || !seen)
	}
	for n, ok := range byNode {
		if ok {
			a.heardByProbe(n, now)
		}
	}
}

// ProbeFailed records a gathering round that could not reach the RM: it
// says nothing about the nodes, so nodes judged by probes alone (nothing
// running there) are left as they are until probes come back.
func (a *Analyzer) ProbeFailed() { a.probesStale = true }

// attemptName is id.String() ("m_000003_0") without fmt, which would cost
// the simulator, feeding every attempt through the analyzer, as much as the
// rest of Observe.
func attemptName(id speculators.AttemptID) string {
	if id.Task.Index < 0 || id.N < 0 {
		return id.String()
	}
	var buf [32]byte
	b := append(buf[:0], id.Task.Type.Letter()...)
	b = append(b, '_')
	var num [16]byte
	d := strconv.AppendInt(num[:0], int64(id.Task.Index), 10)
	for k := len(d); k < 6; k++ {
		b = append(b, '0')
	}
	b = append(b, d...)
	b = append(b, '_')
	b = strconv.AppendInt(b, int64(id.N), 10)
	return string(b)
}
