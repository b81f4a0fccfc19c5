package analyzer

import (
	"slices"
	"sort"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/detect"
)

// nodeBeats is what a node's running attempts of live jobs say: the latest
// status report among those that have reported (reporting), and the latest
// start among those that have not.
type nodeBeats struct {
	last, started Time
	reporting     bool
}

// running returns, per node with running attempts of live jobs, what they
// say; and the nodes with running attempts of jobs that are not alive only
// (see alive).
func (a *Analyzer) running(now Time) (map[speculators.NodeID]nodeBeats, map[speculators.NodeID]bool) {
	out := map[speculators.NodeID]nodeBeats{}
	held := map[speculators.NodeID]bool{}
	for job, m := range a.reports {
		alive := a.alive(job, now)
		for _, b := range m {
			if b.node == nil {
				continue
			}
			n := b.node.name
			if !alive {
				held[n] = true
				continue
			}
			nb := out[n]
			if b.reported {
				nb.last, nb.reporting = max(nb.last, b.at), true
			} else {
				nb.started = max(nb.started, b.at)
			}
			out[n] = nb
		}
	}
	for n := range out {
		delete(held, n)
	}
	return out, held
}

// Tick is one gathering round at now: it opens and closes episodes,
// declares nodes suspected and failed against their thresholds, forgets
// jobs past retention, and returns the notices for jobs' engines.
func (a *Analyzer) Tick(now Time) []Notice {
	var out []Notice
	busy, held := a.running(now)
	names := make([]speculators.NodeID, 0, len(a.nodes))
	for n := range a.nodes {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	for _, n := range names {
		ln := a.nodes[n]
		heard, back := ln.heard, ln.backByProbe
		nb, ok := busy[n]
		if ok && nb.reporting {
			heard, back = nb.last, ln.backByReport // live jobs' attempts running there: their heartbeats decide
		} else if ok && !ln.probed {
			// Only attempts that have yet to report, and no probes: heard
			// until StartGrace after the latest start (Config.StartGrace).
			heard, back = max(ln.heard, min(now, nb.started+a.cfg.StartGrace)), ln.backByReport
		} else if held[n] && (!ln.probed || a.probesStale) {
			continue // only absent jobs' attempts run there: no evidence either way
		} else if !ln.probed {
			heard, back = now, now // nothing runs there and nobody probes it: nothing to say
		} else if a.probesStale {
			continue
		}
		ln.heard = max(ln.heard, heard)
		out = a.step(n, ln, heard, back, now, out)
		out = a.announce(n, now, out)
	}
	a.forget(now)
	return out
}

// step moves node n's episode on: heard is when it was last heard, back
// the first time it was heard after the open episode began (0 = not yet).
func (a *Analyzer) step(n speculators.NodeID, ln *liveNode, heard, back, now Time, out []Notice) []Notice {
	nr := a.st.Nodes[n]
	silent := now - heard
	if nr == nil || nr.Open == nil {
		if !detect.Unresponsive(silent, a.cfg.Gap) {
			ln.restarted = false
			return out
		}
		a.emit(Record{Kind: KindEpisodeStarted, Node: n, From: heard})
		nr = a.st.Nodes[n]
		ln.backByReport, ln.backByProbe, back = 0, 0, 0
	}
	ep := nr.Open
	if !detect.Unresponsive(silent, a.cfg.Gap) && heard > ep.From {
		if back <= ep.From || back > heard {
			back = heard
		}
		told := ep.Told
		a.emit(Record{Kind: KindEpisodeEnded, Node: n, To: back, Restarted: ln.restarted, Recorded: !ln.restarted})
		ln.restarted, ln.backByReport, ln.backByProbe = false, 0, 0
		for _, job := range told {
			if j := a.st.Jobs[job]; j != nil && j.Ended == 0 {
				out = append(out, Notice{Job: job, Event: speculators.Event{Kind: speculators.NodeResumed, Time: now, Node: n}})
			}
		}
		return out
	}
	threshold := a.det.Threshold(n)
	declare := func(kind string, ek speculators.EventKind) {
		jobs := a.jobsWithWork(n)
		a.emit(Record{Kind: kind, Node: n, Time: now, Threshold: threshold, Told: jobs})
		for _, job := range jobs {
			a.markTold(job, n, ep.From, ek)
			out = append(out, Notice{Job: job, Event: speculators.Event{Kind: ek, Time: now, Node: n}})
		}
	}
	suspect, fail := detect.Verdict{Suspected: ep.Suspected != 0, Failed: ep.Failed != 0}.Judge(silent, threshold, a.cfg.SuspectFraction)
	if suspect {
		declare(KindNodeSuspected, speculators.NodeSuspected)
	}
	if fail {
		declare(KindNodeFailed, speculators.NodeFailed)
	}
	return out
}

// markTold notes that job's current sessions were told kind about n's
// episode that began at from.
func (a *Analyzer) markTold(job string, n speculators.NodeID, from Time, kind speculators.EventKind) {
	js := a.sessions[job]
	if js == nil {
		return // not alive: it will be told when it comes back
	}
	if js.told == nil {
		js.told = map[speculators.NodeID]toldMark{}
	}
	js.told[n] = toldMark{from: from, kind: kind}
}

// announce tells every live job with work on n what its current sessions
// have not been told of n's open, declared episode: the job connected,
// reconnected (its engine is new: after a sidecar restart nothing else
// remembers what it was told) or got work on the node after the
// declaration. It is told the latest state only (NodeFailed, or
// NodeSuspected before that), so a failed node is never downgraded to
// suspected. Jobs new to the episode join its Told (a KindNodeTold record),
// so they hear NodeResumed too.
func (a *Analyzer) announce(n speculators.NodeID, now Time, out []Notice) []Notice {
	nr := a.st.Nodes[n]
	if nr == nil || nr.Open == nil || nr.Open.Suspected == 0 && nr.Open.Failed == 0 {
		return out
	}
	ep := nr.Open
	kind := speculators.NodeSuspected
	if ep.Failed != 0 {
		kind = speculators.NodeFailed
	}
	var fresh []string
	for _, job := range a.jobsWithWork(n) {
		if !a.alive(job, now) {
			continue
		}
		if m, ok := a.sessions[job].told[n]; ok && m.from == ep.From && m.kind == kind {
			continue
		}
		a.markTold(job, n, ep.From, kind)
		out = append(out, Notice{Job: job, Event: speculators.Event{Kind: kind, Time: now, Node: n}})
		if !slices.Contains(ep.Told, job) {
			fresh = append(fresh, job)
		}
	}
	if len(fresh) > 0 {
		a.emit(Record{Kind: KindNodeTold, Node: n, Told: fresh})
	}
	return out
}

// jobsWithWork returns the running jobs with an attempt running on n or a
// completed map whose output is stored there, sorted.
func (a *Analyzer) jobsWithWork(n speculators.NodeID) []string {
	var jobs []string
	for id, j := range a.st.Jobs {
		if j.Ended != 0 {
			continue
		}
		for _, at := range j.Attempts {
			if at.Node == n && (at.State == "RUNNING" || at.Map && at.State == "SUCCEEDED") {
				jobs = append(jobs, id)
				break
			}
		}
	}
	sort.Strings(jobs)
	return jobs
}

// jobRecordBytes estimates a job record's memory: the map entries, the
// strings and the structs (measured ~1.8 KB for a small job).
func jobRecordBytes(j *JobRecord) int64 {
	n := int64(300 + len(j.ID))
	for id, at := range j.Attempts {
		n += int64(180 + len(id) + len(at.Node) + len(at.Container) + len(at.State))
	}
	return n
}

// forget drops jobs that ended more than the retention period ago.
func (a *Analyzer) forget(now Time) {
	type ended struct {
		id    string
		at    Time
		bytes int64
	}
	var old []string
	var kept []ended
	var keptBytes int64
	for id, j := range a.st.Jobs {
		switch {
		case j.Ended == 0:
		case now-j.Ended > a.cfg.Retention:
			old = append(old, id)
		default:
			e := ended{id, j.Ended, jobRecordBytes(j)}
			kept = append(kept, e)
			keptBytes += e.bytes
		}
	}
	sort.Strings(old)
	maxJobs, maxBytes := a.cfg.MaxEndedJobs, a.cfg.MaxEndedBytes
	if maxJobs > 0 && len(kept) > maxJobs || maxBytes > 0 && keptBytes > maxBytes {
		sort.Slice(kept, func(i, k int) bool {
			if kept[i].at != kept[k].at {
				return kept[i].at < kept[k].at
			}
			return kept[i].id < kept[k].id
		})
		for _, e := range kept {
			if (maxJobs <= 0 || len(kept) <= maxJobs) && (maxBytes <= 0 || keptBytes <= maxBytes) {
				break
			}
			old = append(old, e.id)
			kept = kept[1:]
			keptBytes -= e.bytes
		}
	}
	for _, id := range old {
		a.emit(Record{Kind: KindJobForgotten, Job: id})
		if js := a.sessions[id]; js != nil && js.subs == 0 {
			delete(a.sessions, id)
		}
	}
}
