package analyzer

import (
	"fmt"

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
	reports  map[string]map[attemptKey]*beat  // job -> running attempt -> last heard (analyzer clock)
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
// a status report yet (else it was heard only when it started), and its
// node. An attempt has one while it runs in a job that has not ended: a
// status report is found here without building its string id, which would
// cost more than the rest of Observe.
type beat struct {
	at       Time
	node     *liveNode // nil: the attempt's node is not known
	reported bool
}

type liveNode struct {
	// name is the node's id, one copy shared by the beats of its attempts
	// and their records (a tracked attempt's memory is mostly such ids).
	name      speculators.NodeID
	heard     Time             // latest time the node was heard
	probed    bool             // a gatherer has reported on it
	nms       map[string]int64 // NM id -> start time
	restarted bool             // during the open episode
	// First time heard after the open episode began, from attempts' reports
	// and from probes: when the node came back (0 = not yet).
	backByReport, backByProbe Time
	// nr is the node's record once it has one (its first episode, or a
	// restored state): heard checks for an open episode without a lookup.
	nr *NodeRecord
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
	a := &Analyzer{cfg: cfg, det: det, st: st, reports: map[string]map[attemptKey]*beat{}, nodes: map[speculators.NodeID]*liveNode{},
		sessions: map[string]*jobSession{}}
	for n, nr := range st.Nodes {
		det.Restore(n, nr.History)
		ln := a.live(n)
		ln.heard, ln.nr = now, nr
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
	for sid, at := range j.Attempts {
		if at.State != "RUNNING" {
			continue
		}
		aid, err := ParseAttempt(sid)
		if err != nil {
			a.fault(fmt.Errorf("job %s: %w", job, err))
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
			if b, ok := m[keyOf(aid)]; ok {
				reported = b.reported
			}
			delete(m, keyOf(aid)) // replace, not keep the later of the two
		}
		a.report(job, aid, at.Node, at0, reported)
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
	a.AttachPoll(job, now)
	a.session(job).told = nil
}

// AttachPoll counts a subscription of job from now that is not a new
// session: one long poll of the HTTP API (a remote sidecar's polls of one
// session follow one another, and its new sessions poll from the mailbox's
// start, so a poll only makes the job alive). Detach ends it.
func (a *Analyzer) AttachPoll(job string, now Time) {
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

// ForgetIdle drops job's session when nothing is subscribed to it and
// the analyzer has no record of the job (a poll of an unknown name), and
// reports whether it did (or there was none).
func (a *Analyzer) ForgetIdle(job string) bool {
	js := a.sessions[job]
	if js != nil && js.subs > 0 {
		return false
	}
	if a.st.Jobs[job] != nil {
		return false
	}
	delete(a.sessions, job)
	return true
}

// Sessions is the number of jobs the analyzer keeps a session for.
func (a *Analyzer) Sessions() int { return len(a.sessions) }

func (a *Analyzer) limits() Limits {
	return a.cfg.Limits()
}

func (a *Analyzer) live(n speculators.NodeID) *liveNode {
	ln := a.nodes[n]
	if ln == nil {
		ln = &liveNode{name: n, nms: map[string]int64{}}
		a.nodes[n] = ln
	}
	return ln
}

// report notes that job's running attempt on node n was heard at at
// (reported: by a status report, else by its start).
func (a *Analyzer) report(job string, attempt speculators.AttemptID, n speculators.NodeID, at Time, reported bool) {
	m := a.reports[job]
	if m == nil {
		m = map[attemptKey]*beat{}
		a.reports[job] = m
	}
	k := keyOf(attempt)
	b := m[k]
	if b == nil {
		b = &beat{}
		if n != "" {
			b.node = a.live(n)
		}
		m[k] = b
	}
	b.at = max(b.at, at)
	b.reported = b.reported || reported
}

// emit applies r to the state and queues it for the store.
func (a *Analyzer) emit(r Record) {
	r.Seq = a.st.Seq + 1
	if err := a.st.Apply(&r, a.limits()); err != nil {
		// The analyzer only emits records its own state accepts; a refusal
		// is a bug, kept out of the log so that the log always replays.
		a.fault(err)
		return
	}
	if r.Kind == KindEpisodeStarted {
		a.live(r.Node).nr = a.st.Nodes[r.Node]
	}
	if r.Kind == KindEpisodeEnded && r.Recorded {
		eps := a.st.Nodes[r.Node].Episodes
		a.det.Record(r.Node, eps[len(eps)-1].Duration)
	}
	a.pending = append(a.pending, r)
}

// fault keeps the first internal inconsistency met, for Err.
func (a *Analyzer) fault(err error) {
	if a.bug == nil {
		a.bug = fmt.Errorf("cfa: internal: %w", err)
	}
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

// attemptKey packs an attempt id into one word, so that finding a status
// report's attempt is a 64-bit map lookup (the simulator feeds every report
// of every attempt): the task type in the top 8 bits, the task index in the
// next 32, the attempt number in the low 24 (ids beyond 2^24 attempts of a
// task, which no job has, would share keys).
type attemptKey uint64

func keyOf(id speculators.AttemptID) attemptKey {
	return attemptKey(uint64(id.Task.Type)<<56 | uint64(uint32(id.Task.Index))<<24 | uint64(uint32(id.N)&(1<<24-1)))
}

// Heard returns every node heard from since the analyzer started (by an
// attempt's report or a probe) with the latest time it was heard, for an
// operator's view; nodes known only from the records are not in it.
func (a *Analyzer) Heard() map[speculators.NodeID]Time {
	out := make(map[speculators.NodeID]Time, len(a.nodes))
	for n, ln := range a.nodes {
		out[n] = ln.heard
	}
	return out
}
