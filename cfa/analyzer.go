package cfa

import (
	"fmt"
	"slices"
	"sort"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/detect"
)

// Config holds the analyzer's parameters.
type Config struct {
	// Detector is "tws" (default), "mean" or "fixed"; Detect its window L,
	// base b, initial threshold and floor (speculators/detect).
	Detector string
	Detect   detect.Config
	// Gap is how long a node may go unheard before an unresponsive episode
	// begins. Default 4 s: one of Hadoop's 3 s progress reports plus 1 s of
	// slack for the shim's batching and the network, so that a late batch
	// does not open an episode (each would join the node's history and drag
	// its threshold towards the floor).
	Gap Time
	// SuspectFraction: jobs hear NodeSuspected once an episode has lasted
	// this fraction of the node's threshold (default 0.5, as the simulator).
	SuspectFraction float64
	// MaxEpisodes bounds the closed episodes kept per node (default 1000).
	MaxEpisodes int
	// Retention: a job ended this long ago is forgotten (default 24 h).
	Retention Time
	// MaxEndedJobs and MaxEndedBytes cap the ended jobs kept before their
	// retention is over (defaults 10,000 and 64 MiB, by jobRecordBytes's
	// estimate); over either, the jobs that ended first are forgotten
	// first. Running jobs are never forgotten.
	MaxEndedJobs  int
	MaxEndedBytes int64
	// StartGrace: an attempt is a heartbeat of its node from its first
	// status report on. Before that its JVM is starting and its task
	// setting up, which on a loaded node takes many seconds (10-15 s seen on
	// the 2-core mini cluster), so that silence says nothing about the
	// node: a node whose running attempts have all yet to report is judged
	// by probes when a prober covers it, else taken as heard until
	// StartGrace after the latest of those starts (default 30 s), so a node
	// that dies while its attempts start is still caught.
	StartGrace Time
}

// DefaultConfig is TWS with speculators/detect's defaults (L = 5, b = 2)
// and a 4 s gap.
func DefaultConfig() Config {
	return Config{Detector: "tws", Detect: detect.DefaultConfig(), Gap: 4_000, SuspectFraction: 0.5,
		MaxEpisodes: 1000, Retention: 24 * 3600 * 1000, StartGrace: 30_000, MaxEndedJobs: 10_000, MaxEndedBytes: 64 << 20}
}

// Notice is a node event for one job's engine.
type Notice struct {
	Job   string
	Event speculators.Event
}

// NodeProbe is what the gatherer learnt about one NodeManager: from the
// ResourceManager's node list and the NM's own /ws/v1/node/info.
type NodeProbe struct {
	Node      speculators.NodeID // the node as attempts name it: the NM's id, or its host (NodeKey)
	NM        string             // the NM's id (host:port); keyed by host, several NMs may share a node
	OK        bool               // RM lists it RUNNING and the NM answered healthy
	Lost      bool               // RM lists it LOST, SHUTDOWN or DECOMMISSIONED
	StartedAt int64              // the NM's start time; a change means it restarted
}

// Analyzer is the fault analyzer's logic: job-level records from the
// events of every job, system-level records (unresponsive episodes) from
// heartbeat gaps and probes, and a failure detector with the FAS feedback.
// It is pure: the caller passes the time, does the I/O and serialises calls.
type Analyzer struct {
	cfg     Config
	det     detect.Detector
	st      *State
	pending []Record

	// Volatile: what is rebuilt from live traffic after a restart.
	reports  map[string]map[string]beat       // job -> attempt -> last heard (analyzer clock)
	nodes    map[speculators.NodeID]*liveNode // heartbeat view
	sessions map[string]*jobSession           // job -> its connection to the analyzer

	bug error
	// probesStale: the last gathering round could not reach the RM, so
	// probed nodes with nothing running are not judged this round.
	probesStale bool
}

// jobSession is what the analyzer knows of one job's sessions since it
// started. Whether a job is alive decides whether its heartbeats count (see
// Analyzer.alive); told is what the job's current engines have been told.
type jobSession struct {
	subs       int  // open subscriptions: a session of the job is connected
	until      Time // after the last subscription closed, alive until then (a lease)
	subscribed bool // it has subscribed since the analyzer started
	events     bool // it has sent an event since the analyzer started
	// told: per node, the open episode (by its start) and the latest event
	// this job's current sessions were told about it.
	told map[speculators.NodeID]toldMark
}

type toldMark struct {
	from Time
	kind speculators.EventKind
}

// beat is when a running attempt was last heard, and whether it has sent
// a status report yet (else it was heard only when it started).
type beat struct {
	at       Time
	reported bool
}

type liveNode struct {
	heard     Time             // latest time the node was heard
	probed    bool             // a gatherer has reported on it
	nms       map[string]int64 // NM id -> start time
	restarted bool             // during the open episode
	// First time heard after the open episode began, from attempts' reports
	// and from probes: when the node came back (0 = not yet).
	backByReport, backByProbe Time
}

// New returns an analyzer over st (NewState() for a fresh one; a restored
// State to carry on). now starts every attempt's heartbeat clock: after a
// restart attempts get a full gap to report before their nodes look silent
// (except on nodes with an open episode, which stay silent until heard).
func New(cfg Config, st *State, now Time) (*Analyzer, error) {
	def := DefaultConfig()
	if cfg.Detector == "" {
		cfg.Detector = def.Detector
	}
	if cfg.Gap <= 0 {
		cfg.Gap = def.Gap
	}
	if cfg.SuspectFraction <= 0 || cfg.SuspectFraction > 1 {
		cfg.SuspectFraction = def.SuspectFraction
	}
	if cfg.MaxEpisodes <= 0 {
		cfg.MaxEpisodes = def.MaxEpisodes
	}
	if cfg.Retention <= 0 {
		cfg.Retention = def.Retention
	}
	if cfg.StartGrace <= 0 {
		cfg.StartGrace = def.StartGrace
	}
	det, err := detect.New(cfg.Detector, cfg.Detect)
	if err != nil {
		return nil, fmt.Errorf("cfa: %w", err)
	}
	if st == nil {
		st = NewState()
	}
	a := &Analyzer{cfg: cfg, det: det, st: st, reports: map[string]map[string]beat{}, nodes: map[speculators.NodeID]*liveNode{},
		sessions: map[string]*jobSession{}}
	for n, nr := range st.Nodes {
		det.Restore(n, nr.History)
		ln := a.live(n)
		ln.heard = now
		if nr.Open != nil {
			ln.heard = nr.Open.From
		}
	}
	for id := range st.Jobs {
		a.restartClocks(id, now)
	}
	return a, nil
}

// restartClocks gives job's running attempts a full gap to report from now,
// except attempts on a node in an open episode, which stay as silent as they
// were: neither the analyzer's own downtime nor the job's absence may end an
// episode.
func (a *Analyzer) restartClocks(job string, now Time) {
	j := a.st.Jobs[job]
	if j == nil || j.Ended != 0 {
		return
	}
	for aid, at := range j.Attempts {
		if at.State != "RUNNING" {
			continue
		}
		at0 := now
		if nr := a.st.Nodes[at.Node]; nr != nil && nr.Open != nil {
			at0 = nr.Open.From
		}
		// An attempt restored from the store counts as reporting (whether it
		// had reported is not kept); one seen before keeps what it was.
		reported := true
		if m := a.reports[job]; m != nil {
			if b, ok := m[aid]; ok {
				reported = b.reported
			}
			delete(m, aid) // replace, not keep the later of the two
		}
		a.report(job, aid, at0, reported)
	}
}

// alive reports whether job's heartbeats count at now: whose silence
// counts. A node is judged from heartbeat gaps only through the attempts
// of jobs that are alive here: a job with a session subscribed to the
// analyzer (or one whose last subscription closed less than its lease ago:
// a standalone analyzer's long polls come and go), or a job that has never
// subscribed since the analyzer started but has sent it events (a feed
// that does not subscribe). A job restored from the
// store after a restart whose AM has not reconnected, or whose sessions
// have all gone, is not alive: its attempts stopped reporting because its AM
// is not connected, which says nothing about their nodes, so it must not
// make them look silent (during the bridge's grace period before it ends
// such a job, this would be a false suspicion). A node running only such
// jobs' attempts is judged by NodeManager probes if there are any, and is
// otherwise left as it is until a live job or a probe speaks for it. When
// a job comes alive again its attempts' clocks restart (restartClocks) and
// it is told again of every declared node where it has work (announce).
//
// The AM itself is the limit of this rule: an AM that hangs while its
// session stays connected silences its attempts as a node failure would.
func (a *Analyzer) alive(job string, now Time) bool {
	js := a.sessions[job]
	switch {
	case js == nil:
		return false
	case js.subs > 0 || now < js.until:
		return true
	default:
		return !js.subscribed && js.events
	}
}

func (a *Analyzer) session(job string) *jobSession {
	js := a.sessions[job]
	if js == nil {
		js = &jobSession{}
		a.sessions[job] = js
	}
	return js
}

// revive is job coming alive at now: its clocks restart and what its
// engines were told is forgotten, so that the next round tells it again.
func (a *Analyzer) revive(job string, now Time) {
	a.restartClocks(job, now)
	a.session(job).told = nil
}

// Attach records that a new session of job subscribed to its node events
// at now (Service.Subscribe). Its engine is new, so it is told again of
// every declared node where the job has work, even if an older session of
// the job is still subscribed.
func (a *Analyzer) Attach(job string, now Time) {
	a.attach(job, now)
	a.session(job).told = nil
}

// attach counts a subscription of job from now: a session's, or one long
// poll of the HTTP API (a remote sidecar's polls of one session follow one
// another, and its new sessions poll from the mailbox's start, so a poll
// only makes the job alive).
func (a *Analyzer) attach(job string, now Time) {
	if !a.alive(job, now) {
		a.revive(job, now)
	}
	js := a.session(job)
	js.subs++
	js.subscribed = true
}

// Detach records that a subscription of job ended at now; the job stays
// alive for lease more (0 for a session that is gone).
func (a *Analyzer) Detach(job string, now, lease Time) {
	js := a.sessions[job]
	if js == nil || js.subs == 0 {
		return
	}
	js.subs--
	if js.subs > 0 {
		return
	}
	js.until = max(js.until, now+lease)
	if j := a.st.Jobs[job]; j != nil && j.Ended != 0 && lease == 0 {
		delete(a.sessions, job) // over; forget drops the others with their jobs
	}
}

func (a *Analyzer) limits() limits {
	return limits{window: a.cfg.Detect.Window, episodes: a.cfg.MaxEpisodes}
}

func (a *Analyzer) live(n speculators.NodeID) *liveNode {
	ln := a.nodes[n]
	if ln == nil {
		ln = &liveNode{nms: map[string]int64{}}
		a.nodes[n] = ln
	}
	return ln
}

func (a *Analyzer) report(job, attempt string, at Time, reported bool) {
	m := a.reports[job]
	if m == nil {
		m = map[string]beat{}
		a.reports[job] = m
	}
	b := m[attempt]
	b.at = max(b.at, at)
	b.reported = b.reported || reported
	m[attempt] = b
}

// emit applies r to the state and queues it for the store.
func (a *Analyzer) emit(r Record) {
	r.Seq = a.st.Seq + 1
	if err := a.st.Apply(&r, a.limits()); err != nil {
		// The analyzer only emits records its own state accepts; a refusal
		// is a bug, kept out of the log so that the log always replays.
		if a.bug == nil {
			a.bug = fmt.Errorf("cfa: internal: %w", err)
		}
		return
	}
	if r.Kind == KindEpisodeEnded && r.Recorded {
		eps := a.st.Nodes[r.Node].Episodes
		a.det.Record(r.Node, eps[len(eps)-1].Duration)
	}
	a.pending = append(a.pending, r)
}

// Err returns the first internal inconsistency met (a record the state
// refused), nil normally.
func (a *Analyzer) Err() error { return a.bug }

// Drain returns the records emitted since the last call, for the store.
func (a *Analyzer) Drain() []Record {
	out := a.pending
	a.pending = nil
	return out
}

// State returns the live state. The caller must not modify it, nor use it
// concurrently with other calls.
func (a *Analyzer) State() *State { return a.st }

// Threshold is node's current threshold (how long it may be silent).
func (a *Analyzer) Threshold(n speculators.NodeID) Time { return a.det.Threshold(n) }

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
	id := ev.Attempt.String()
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
		a.emit(Record{Kind: KindAttemptStarted, Job: job, Attempt: id, Node: ev.Node, Container: ev.Container,
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
			a.report(job, id, at0, true)
			return
		}
		a.report(job, id, now, false)
		if ev.Node != "" {
			a.heardByReport(ev.Node, now)
		}
	case speculators.AttemptStatus:
		if j != nil && j.Attempts[id] != nil && j.Attempts[id].State == "RUNNING" {
			a.report(job, id, now, true)
			a.heardByReport(j.Attempts[id].Node, now)
		}
	case speculators.AttemptSucceeded, speculators.AttemptFailed, speculators.AttemptKilled:
		if j == nil || j.Attempts[id] == nil {
			return
		}
		state := map[speculators.EventKind]string{speculators.AttemptSucceeded: "SUCCEEDED",
			speculators.AttemptFailed: "FAILED", speculators.AttemptKilled: "KILLED"}[ev.Kind]
		if j.Attempts[id].State != state {
			a.emit(Record{Kind: KindAttemptEnded, Job: job, Attempt: id, State: state, Time: ev.Time})
		}
		if ev.Kind == speculators.AttemptSucceeded {
			a.heardByReport(j.Attempts[id].Node, now)
		}
		delete(a.reports[job], id)
	}
}

func (a *Analyzer) heardByReport(n speculators.NodeID, at Time) {
	ln := a.live(n)
	ln.heard = max(ln.heard, at)
	if nr := a.st.Nodes[n]; nr != nil && nr.Open != nil && ln.backByReport == 0 && at > nr.Open.From {
		ln.backByReport = at
	}
}

func (a *Analyzer) heardByProbe(n speculators.NodeID, at Time) {
	ln := a.live(n)
	ln.heard = max(ln.heard, at)
	if nr := a.st.Nodes[n]; nr != nil && nr.Open != nil && ln.backByProbe == 0 && at > nr.Open.From {
		ln.backByProbe = at
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
		j := a.st.Jobs[job]
		alive := a.alive(job, now)
		for id, b := range m {
			n := j.Attempts[id].Node
			if n == "" {
				continue
			}
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

// forget drops jobs that ended more than the retention period ago, and
// the earliest-ended ones beyond MaxEndedJobs or MaxEndedBytes.
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
