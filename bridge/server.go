package bridge

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/internal/authguard"
	"github.com/specbridge/specbridge/internal/tokens"
	"github.com/specbridge/specbridge/speculators"
)

// Path is where AMs connect.
const Path = "/v1/am"

// Defaults for Config's zero values.
const (
	DefaultMaxFrameBytes = 1 << 20
	DefaultMaxSessions   = 10000
	// DefaultMaxPendingHellos: AMs say hello within milliseconds of the
	// upgrade, so a few hundred at once is a restart's reconnect storm.
	DefaultMaxPendingHellos   = 256
	DefaultMaxEventsPerSecond = 20000
	// DefaultMaxTotalEventsPerSecond: twice issue 3's target load (1,000
	// sessions, 100,000 updates/s), well below what one core decodes.
	DefaultMaxTotalEventsPerSecond = 200_000
	DefaultDecideInterval          = time.Second
	DefaultHandshakeTimeout        = 10 * time.Second
	DefaultIdleTimeout             = 60 * time.Second
	DefaultWriteTimeout            = 10 * time.Second
	DefaultMaxStrikes              = 10
	DefaultStrikeWindow            = time.Minute
	DefaultMaxTasksPerJob          = 1 << 20
	// hardLimitFactor: a frame over MaxFrameBytes*hardLimitFactor closes the
	// connection instead of being read and dropped.
	hardLimitFactor = 16
	// maxEventErrorsPerBatch bounds the event-rejected frames per batch.
	maxEventErrorsPerBatch = 10
)

// Config configures a Server. Zero values take the defaults above.
type Config struct {
	// Registry holds the policies sessions may ask for; required.
	Registry *speculators.Registry
	// Tokens are the accepted shared secrets; at least one is required
	// unless TokenSet is given.
	Tokens []string
	// TokenSet, if set, is checked instead of Tokens; replacing its tokens
	// (serve's SIGHUP re-reads --token-file) changes what the next hello
	// must present, while open sessions carry on.
	TokenSet *tokens.Set

	MaxFrameBytes int64
	// MaxSessions bounds the sessions that said hello; connections that
	// have not yet are counted apart (MaxPendingHellos), so that they
	// cannot take the AMs' places.
	MaxSessions int
	// MaxPendingHellos bounds the connections upgraded that have not said
	// an accepted hello yet (each has HandshakeTimeout to say it); past it
	// an upgrade is refused with 503 (DefaultMaxPendingHellos).
	MaxPendingHellos   int
	MaxEventsPerSecond float64
	// MaxTotalEventsPerSecond is the server's event budget, shared fairly
	// by the sessions sending (fairShare): below the process's capacity,
	// so that flooding sessions cannot delay a light one.
	MaxTotalEventsPerSecond float64
	// MaxBusySessions is how many sessions do work on a frame at once
	// (turns.go: a fair queue of the rest); 0 means GOMAXPROCS-1 (at least
	// 1: a processor left free polls the network at once), negative
	// means no limit (sessions run as the Go scheduler picks them, and a
	// flood of sessions delays a light one by as many turns).
	MaxBusySessions int
	// SchedLatencyTarget paces the fair queue's slots (pace.go): while the
	// Go scheduler's p99 latency is over it, the slots are granted less of
	// the time, so that flooding sessions cannot saturate the host. 0 means
	// DefaultSchedLatencyTarget, negative means no pacing.
	SchedLatencyTarget time.Duration
	DecideInterval     time.Duration
	HandshakeTimeout   time.Duration
	IdleTimeout        time.Duration
	WriteTimeout       time.Duration
	MaxStrikes         int
	StrikeWindow       time.Duration
	MaxTasksPerJob     int
	// MaxJobMemory is the server's budget of estimated job memory, in
	// bytes (hello.go, jobMemory): a hello whose job does not fit beside
	// the open sessions' is refused with CodeMemoryBudget
	// (DefaultMaxJobMemory).
	MaxJobMemory int64

	// Feed, if set, is the fault analyzer (feed.go): sessions pass it every
	// event their engine accepts, subscribe to their job's node events and
	// end the job there when it is over.
	Feed Feed
	// OrphanGrace: a job whose session ended before the job did is ended
	// in Feed after this long without a new session (DefaultOrphanGrace).
	OrphanGrace time.Duration
	// MaxOrphans caps the jobs waiting out OrphanGrace (DefaultMaxOrphans).
	MaxOrphans int
	// MaxFeedQueue bounds the events waiting for Feed (feedwriter.go,
	// DefaultMaxFeedQueue); a session whose events find it full waits for
	// room outside its turn.
	MaxFeedQueue int

	// Health, if set, is asked by /healthz: an error makes it answer 503
	// with the error's text (the embedded analyzer's store is degraded).
	Health func() error
	// Collectors are registered beside the bridge's metrics at /metrics.
	Collectors []prometheus.Collector

	// Knowledge is what policies learned across jobs (GRASS's samples and
	// t_new prior): engines are built with it as their Prior and what they
	// learn is kept in it. Nil: nothing is known or kept.
	Knowledge Knowledge
	// TaskMeanFromPrior gives a job without an a-priori mean task time
	// (the hello's task_mean_ms) the Knowledge's run time for its tasks at
	// their mean input size (speculators.PriorTaskMean; serve
	// --task-mean-from-prior). Off, such a job has no mean, as in a replay
	// without its --task-mean-from-prior.
	TaskMeanFromPrior bool

	// Capacity, if set, is given to every job's engine (JobInfo.Capacity):
	// the cluster's containers as the ResourceManager reports them.
	Capacity speculators.Capacity

	// JobOrder, if set, receives the priority of every job whose policy
	// orders jobs (order.go; serve --rm-job-order), and every job's
	// JobInfo.JobOrder is true: its policy knows the order is applied.
	JobOrder JobOrder

	// Log receives the server's logs; nil uses logrus's standard logger.
	Log logrus.FieldLogger
	// Clock is the server's clock, for its time and every timer (Clock);
	// nil: the wall clock's timers, its time read with Now.
	Clock Clock
	// Now is the server's time when Clock is nil; nil uses time.Now.
	// With a Clock, it is the Clock's Now.
	Now func() time.Time
}

// Knowledge is where the server keeps what policies learned across jobs
// (a grass.MemoryStore, or a grassamples.Store under --data-dir).
type Knowledge interface {
	speculators.Prior
	Keep(speculators.Learned) error
}

// prior is the Prior new engines get (nil without Knowledge).
func (s *Server) prior() speculators.Prior {
	if s.cfg.Knowledge == nil {
		return nil
	}
	return s.cfg.Knowledge
}

// Server accepts AM sessions. Create it with NewServer, mount Handler, and
// call Shutdown to close every session.
type Server struct {
	cfg      Config
	tokens   *tokens.Set
	upgrader websocket.Upgrader
	metrics  *metrics
	live     liveState
	log      logrus.FieldLogger
	authFail *authguard.Guard // failed hellos per source address
	fair     *fairShare
	turns    *turns
	memory   memoryBudget // estimated job memory (Config.MaxJobMemory)
	feedw    *feedWriter  // the only caller of cfg.Feed; nil without one
	// sweepStop stops the orphan sweeper (guarded by mu; nil once stopped).
	sweepStop chan struct{}

	// copies counts the copies (speculative attempts) running in every
	// session's job, as each core last synced them (core.syncCopies):
	// JobInfo.Copies with the cluster's capacity (Config.Capacity).
	copies atomic.Int64

	mu       sync.Mutex
	sessions map[*session]struct{}
	admitted int // sessions whose hello was accepted (MaxSessions)
	pending  int // sessions not yet admitted (MaxPendingHellos)
	byJob    map[string]*core
	nextID   uint64
	closing  bool
	wg       sync.WaitGroup
	feed     feedJobs // guarded by mu
}

// ReadTokenFile reads shared secrets, one per line; blank lines and lines
// starting with # are skipped.
func ReadTokenFile(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read token file: %w", err)
	}
	var tokens []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := string(bytes.TrimSpace(sc.Bytes()))
		if line == "" || line[0] == '#' {
			continue
		}
		tokens = append(tokens, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read token file %s: %w", path, err)
	}
	if len(tokens) == 0 {
		return nil, fmt.Errorf("token file %s holds no token", path)
	}
	return tokens, nil
}

// NewServer checks cfg and builds a server.
func NewServer(cfg Config) (*Server, error) {
	if cfg.Registry == nil {
		return nil, errors.New("bridge: a policy registry is required")
	}
	s := &Server{sessions: map[*session]struct{}{}, byJob: map[string]*core{}, metrics: newMetrics(cfg.Registry.Names()), feed: newFeedJobs()}
	s.tokens = cfg.TokenSet
	if s.tokens == nil {
		set, err := tokens.New(cfg.Tokens)
		if err != nil {
			return nil, fmt.Errorf("bridge: %w", err)
		}
		s.tokens = set
	}
	setDefault(&cfg.MaxFrameBytes, DefaultMaxFrameBytes)
	setDefault(&cfg.MaxSessions, DefaultMaxSessions)
	setDefault(&cfg.MaxPendingHellos, DefaultMaxPendingHellos)
	setDefault(&cfg.MaxEventsPerSecond, DefaultMaxEventsPerSecond)
	setDefault(&cfg.MaxTotalEventsPerSecond, DefaultMaxTotalEventsPerSecond)
	setDefault(&cfg.DecideInterval, DefaultDecideInterval)
	setDefault(&cfg.HandshakeTimeout, DefaultHandshakeTimeout)
	setDefault(&cfg.IdleTimeout, DefaultIdleTimeout)
	setDefault(&cfg.WriteTimeout, DefaultWriteTimeout)
	setDefault(&cfg.MaxStrikes, DefaultMaxStrikes)
	setDefault(&cfg.StrikeWindow, DefaultStrikeWindow)
	setDefault(&cfg.MaxTasksPerJob, DefaultMaxTasksPerJob)
	setDefault(&cfg.MaxJobMemory, DefaultMaxJobMemory)
	setDefault(&cfg.OrphanGrace, DefaultOrphanGrace)
	setDefault(&cfg.MaxOrphans, DefaultMaxOrphans)
	setDefault(&cfg.MaxFeedQueue, DefaultMaxFeedQueue)
	if cfg.Log == nil {
		cfg.Log = logrus.StandardLogger()
	}
	if cfg.Clock != nil {
		cfg.Now = cfg.Clock.Now
	} else {
		if cfg.Now == nil {
			cfg.Now = time.Now
		}
		cfg.Clock = wallClock{now: cfg.Now}
	}
	s.cfg = cfg
	s.log = cfg.Log
	s.fair = newFairShare(cfg.MaxTotalEventsPerSecond, cfg.MaxEventsPerSecond)
	if s.cfg.MaxBusySessions == 0 {
		s.cfg.MaxBusySessions = max(1, runtime.GOMAXPROCS(0)-1)
	}
	if s.cfg.SchedLatencyTarget == 0 {
		s.cfg.SchedLatencyTarget = DefaultSchedLatencyTarget
	}
	s.turns = newTurns(s.cfg.MaxBusySessions, s.cfg.SchedLatencyTarget)
	s.turns.onShare = s.metrics.turnShare.Set
	s.memory = memoryBudget{limit: s.cfg.MaxJobMemory}
	if cfg.Feed != nil {
		s.feedw = newFeedWriter(cfg.Feed, s.cfg.MaxFeedQueue, s.metrics)
		s.sweepStop = make(chan struct{})
		go s.sweepOrphansEvery(s.sweepStop)
	}
	s.metrics.jobMemoryLimit.Set(float64(s.cfg.MaxJobMemory))
	s.authFail = authguard.New(cfg.Log, "AM hello")
	s.authFail.Now = cfg.Now
	for _, c := range cfg.Collectors {
		if err := s.metrics.registry.Register(c); err != nil {
			return nil, fmt.Errorf("bridge: register a metric: %w", err)
		}
	}
	s.upgrader = websocket.Upgrader{
		HandshakeTimeout: cfg.HandshakeTimeout,
		// AMs are not browsers; the token authenticates them.
		CheckOrigin: func(*http.Request) bool { return true },
	}
	return s, nil
}

func setDefault[T int | int64 | float64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// Handler serves the AM endpoint at Path, /healthz and /metrics.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(Path, s.serveAM)
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if s.cfg.Health != nil {
			if err := s.cfg.Health(); err != nil {
				w.WriteHeader(http.StatusServiceUnavailable)
				fmt.Fprintln(w, err)
				return
			}
		}
		fmt.Fprintln(w, "ok")
	})
	mux.Handle("/metrics", promhttp.HandlerFor(s.metrics.registry, promhttp.HandlerOpts{}))
	return mux
}

// Sessions returns the number of open sessions.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// Shutdown closes every session with a shutting-down error frame and waits
// for them to end or for ctx. New connections are refused from now on.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	s.stopOrphansLocked()
	for sess := range s.sessions {
		sess.stop(CodeShuttingDown, "the sidecar is stopping; reconnect and resync")
	}
	s.mu.Unlock()
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		if s.feedw != nil {
			<-s.feedw.close() // queued events and job ends reach the analyzer
		}
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("bridge shutdown: %d sessions still open: %w", s.Sessions(), ctx.Err())
	}
}

func (s *Server) serveAM(w http.ResponseWriter, r *http.Request) {
	if s.authFail.Blocked(r.RemoteAddr) {
		// Spent its budget of bad hellos: refused before the upgrade, unlogged.
		s.metrics.sessionsOpened.WithLabelValues(CodeRateLimited).Inc()
		http.Error(w, "too many failed authentications from this address; try later", http.StatusTooManyRequests)
		return
	}
	// A place among the connections yet to say hello, taken before the
	// upgrade: they cannot take the AMs' session places (MaxSessions counts
	// admitted sessions only), and there are few of them.
	s.mu.Lock()
	full := s.pending >= s.cfg.MaxPendingHellos
	if !full {
		s.pending++
	}
	s.mu.Unlock()
	if full {
		s.metrics.sessionsOpened.WithLabelValues("too-many-pending").Inc()
		http.Error(w, fmt.Sprintf("%d connections are waiting to say hello; try later", s.cfg.MaxPendingHellos), http.StatusServiceUnavailable)
		return
	}
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		// Upgrade has answered the request with an HTTP error.
		s.mu.Lock()
		s.pending--
		s.mu.Unlock()
		s.log.WithError(err).WithField("remote", r.RemoteAddr).Debug("websocket upgrade failed")
		return
	}
	s.mu.Lock()
	var refuse, text string
	if s.closing {
		refuse, text = CodeShuttingDown, "the sidecar is stopping"
	}
	var sess *session
	if refuse == "" {
		s.nextID++
		sess = newSession(s, conn, s.nextID, r.RemoteAddr)
		sess.pending = true
		s.sessions[sess] = struct{}{}
		s.wg.Add(1)
		s.metrics.sessions.Inc()
	} else {
		s.pending--
	}
	s.mu.Unlock()
	if sess == nil {
		s.metrics.sessionsOpened.WithLabelValues(refuse).Inc()
		s.metrics.errorsSent.WithLabelValues(refuse).Inc()
		_ = conn.SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout))
		_ = conn.WriteJSON(ErrorFrame{Type: TypeError, Code: refuse, Text: text, Fatal: true})
		_ = conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseTryAgainLater, refuse))
		_ = conn.Close()
		return
	}
	defer s.wg.Done()
	sess.run()
	sess.forgetOrder()
	s.release(sess)
	s.sessionEnded(sess)
}

// admit gives sess (whose hello is good) a session place, leaving the
// connections yet to say hello; it returns false when MaxSessions are held.
func (s *Server) admit(sess *core) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.admitted >= s.cfg.MaxSessions {
		return false
	}
	s.admitted++
	sess.admitted = true
	if sess.pending {
		sess.pending = false
		s.pending--
	}
	return true
}

// helloRefused gives sess's place back (among the connections yet to say
// hello, or the session place admit gave it): its hello was refused and it
// is closing.
func (s *Server) helloRefused(sess *core) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess.pending {
		sess.pending = false
		s.pending--
	}
	if sess.admitted {
		sess.admitted = false
		s.admitted--
	}
	if sess.memory > 0 {
		s.metrics.jobMemory.Set(float64(s.memory.release(sess.memory)))
		sess.memory = 0
	}
}

// claimJob makes sess the session of job, stopping an older one.
func (s *Server) claimJob(job string, sess *core) {
	s.mu.Lock()
	old := s.byJob[job]
	s.byJob[job] = sess
	s.claimFeedLocked(job)
	s.mu.Unlock()
	if old != nil && old != sess && old.stop != nil {
		old.stop(CodeReplaced, fmt.Sprintf("session %s of the same job took over", sess.name))
	}
}

func (s *Server) release(sess *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.sessions[sess]; !ok {
		return
	}
	delete(s.sessions, sess)
	s.fair.leave(sess)
	if sess.pending {
		s.pending--
	}
	if sess.admitted {
		s.admitted--
	}
	if sess.memory > 0 {
		s.metrics.jobMemory.Set(float64(s.memory.release(sess.memory)))
		sess.memory = 0
	}
	s.copies.Add(-sess.copiesHeld)
	sess.copiesHeld = 0
	if sess.job != "" && s.byJob[sess.job] == sess.core {
		delete(s.byJob, sess.job)
	}
	s.metrics.sessions.Dec()
}

// authorized compares token with every accepted token in constant time.
func (s *Server) authorized(token string) bool {
	return s.tokens.Match(token)
}

// jobSlots is the containers a job can hold (speculators.JobInfo.Slots): the
// hello's slots (the shim's specbridge.cluster.slots) when it has them, else
// the cluster's total containers as the ResourceManager last reported them
// (Config.Capacity, serve --rm-url), else 0 (unknown).
//
// Why the RM's total: a replay gives every policy the simulated cluster's
// containers as JobInfo.Slots, and LATE's SpeculativeCap, the free slots of
// hadoop-legacy, mantri, grass and the cloners are fractions or remainders
// of it. Live with 0, LATE's cap falls back to the job's running attempts:
// one copy at a time for a job of a few tasks, where its replay could run
// six (docs/live-bench.md: the failure job's hung map waited 30 s behind a
// copy of a map slow to start). Read once, at the session's start, as the
// replay's is fixed for the job's life.
func (s *Server) jobSlots(h *Hello) int {
	if h.Slots > 0 || s.cfg.Capacity == nil {
		return h.Slots
	}
	if total, _, ok := s.cfg.Capacity(); ok && total > 0 {
		return min(total, MaxSlots)
	}
	return 0
}

// copiesRunning is JobInfo.Copies: the copies running in every served job,
// given only with the cluster's capacity (Config.Capacity), without which
// a job knows no other job's load (xulau.LiveView).
func (s *Server) copiesRunning() func() int {
	if s.cfg.Capacity == nil {
		return nil
	}
	return func() int { return int(max(0, s.copies.Load())) }
}
