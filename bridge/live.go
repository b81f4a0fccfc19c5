package bridge

import (
	"slices"
	"sync"
	"time"

	"github.com/specbridge/specbridge/speculators"
)

// recentDecisions is how many of the latest decisions Live keeps, across
// sessions.
const recentDecisions = 100

// SessionView is one connected AM as an operator sees it (the dashboard).
type SessionView struct {
	Session string `json:"session"`
	Job     string `json:"job"`
	User    string `json:"user"`
	Queue   string `json:"queue"`
	Policy  string `json:"policy"`
	// Member is the member policy a per-job policy (auto) applies to the
	// job now; "" for other policies.
	Member       string            `json:"member,omitempty"`
	Params       map[string]string `json:"params"`
	Since        time.Time         `json:"since"`
	Maps         int               `json:"maps"`
	Reduces      int               `json:"reduces"`
	TasksRunning int               `json:"tasks_running"`
	TasksDone    int               `json:"tasks_done"`
	Events       uint64            `json:"events"`
	Decisions    uint64            `json:"decisions"`
	Applied      uint64            `json:"applied"`
	Refused      uint64            `json:"refused"`
}

// DecisionView is one decision sent, with the AM's answer once acked.
type DecisionView struct {
	Time    time.Time `json:"time"`
	Session string    `json:"session"`
	Job     string    `json:"job"`
	Policy  string    `json:"policy"`
	WireDecision
	// Result is "" until the AM acks it, then applied or refused.
	Result  string `json:"result,omitempty"`
	Refusal string `json:"refusal,omitempty"`
}

// LiveView is what the server is doing now: open sessions (oldest first)
// and the latest decisions (newest first), and totals since start.
type LiveView struct {
	Sessions       []SessionView  `json:"sessions"`
	Decisions      []DecisionView `json:"decisions"`
	EventsTotal    uint64         `json:"events_total"`
	DecisionsTotal uint64         `json:"decisions_total"`
}

// liveState is the server's side of Live: totals and the decision ring.
// Sessions publish into it and into their own liveSession from their run
// goroutine; Live reads under the locks, never touching an engine.
type liveState struct {
	mu        sync.Mutex
	events    uint64
	decisions uint64
	recent    []DecisionView // oldest first, at most recentDecisions
}

// liveSession is a session's published view, guarded by its own lock.
type liveSession struct {
	mu   sync.Mutex
	view SessionView
	open bool // hello accepted
}

// Live returns a copy of what the server is doing now.
func (s *Server) Live() LiveView {
	var out LiveView
	s.mu.Lock()
	for sess := range s.sessions {
		sess.live.mu.Lock()
		if sess.live.open {
			v := sess.live.view
			v.Params = maps(v.Params)
			out.Sessions = append(out.Sessions, v)
		}
		sess.live.mu.Unlock()
	}
	s.mu.Unlock()
	slices.SortFunc(out.Sessions, func(a, b SessionView) int {
		if c := a.Since.Compare(b.Since); c != 0 {
			return c
		}
		return compareStrings(a.Session, b.Session)
	})
	s.live.mu.Lock()
	out.EventsTotal, out.DecisionsTotal = s.live.events, s.live.decisions
	for i := len(s.live.recent) - 1; i >= 0; i-- {
		out.Decisions = append(out.Decisions, s.live.recent[i])
	}
	s.live.mu.Unlock()
	return out
}

func maps(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// publishHello makes the session visible once its hello is accepted.
func (s *core) publishHello(h *Hello, params map[string]string) {
	s.live.mu.Lock()
	s.live.view = SessionView{Session: s.name, Job: h.Job, User: h.User, Queue: h.Queue, Policy: s.policy,
		Params: params, Since: s.srv.cfg.Now(), Maps: h.Maps, Reduces: h.Reduces}
	s.live.open = true
	s.live.mu.Unlock()
	s.publishProgress(0)
}

// publishProgress refreshes the task counts from the engine (run goroutine
// only) and adds events to the totals.
func (s *core) publishProgress(events int) {
	if s.engine == nil {
		return
	}
	j := s.engine.Job
	running, done := 0, 0
	for ty := range speculators.NumTaskTypes {
		running += j.RunningTasks[ty]
		done += j.Completed[ty]
	}
	member := ""
	if m, ok := s.engine.Policy.(interface{ Member() string }); ok {
		member = m.Member()
	}
	s.live.mu.Lock()
	s.live.view.TasksRunning, s.live.view.TasksDone = running, done
	s.live.view.Member = member
	s.live.view.Events += uint64(events)
	s.live.mu.Unlock()
	if events > 0 {
		s.srv.live.mu.Lock()
		s.srv.live.events += uint64(events)
		s.srv.live.mu.Unlock()
	}
}

// publishDecisions records decisions just sent.
func (s *core) publishDecisions(ds []WireDecision) {
	s.live.mu.Lock()
	s.live.view.Decisions += uint64(len(ds))
	s.live.mu.Unlock()
	now := s.srv.cfg.Now()
	l := &s.srv.live
	l.mu.Lock()
	defer l.mu.Unlock()
	l.decisions += uint64(len(ds))
	for _, d := range ds {
		if len(l.recent) == recentDecisions {
			l.recent = append(l.recent[:0], l.recent[1:]...)
		}
		l.recent = append(l.recent, DecisionView{Time: now, Session: s.name, Job: s.job, Policy: s.policy, WireDecision: d})
	}
}

// publishAck records the AM's answer to decision id.
func (s *core) publishAck(id uint64, result, reason string) {
	s.live.mu.Lock()
	if result == AckApplied {
		s.live.view.Applied++
	} else {
		s.live.view.Refused++
	}
	s.live.mu.Unlock()
	l := &s.srv.live
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := len(l.recent) - 1; i >= 0; i-- {
		if d := &l.recent[i]; d.Session == s.name && d.ID == id {
			d.Result, d.Refusal = result, truncate(reason, 200)
			break
		}
	}
}
