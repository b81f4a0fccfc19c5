package cfa

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// Prober gathers the NodeManagers' state: the ResourceManager's node list
// and each NM's own answer (RESTProber).
type Prober interface {
	Probe(ctx context.Context) ([]analyzer.NodeProbe, error)
}

// ServiceConfig configures a Service.
type ServiceConfig struct {
	Analyzer analyzer.Config
	// Store is a local directory or an hdfs://host:port/path URL; "" keeps
	// everything in memory only.
	Store string
	// HDFS reaches an hdfs:// Store; nil: the environment's configuration
	// (hdfs.EnvConf).
	HDFS *hdfs.Config
	// Dir, if set, is the store directory itself and Store is ignored
	// (tests inject write failures through it).
	Dir Dir
	// Gather is the gathering interval (FARMS §3.1: 5 s).
	Gather time.Duration
	// Prober, if set, is asked every round (RM and NM REST probes).
	Prober Prober
	// Now is the clock (time.Now if nil).
	Now func() time.Time
	// OnError hears errors the background loop cannot return (a failed
	// probe). Store write failures are logged to Log instead, once per
	// episode (see Health).
	OnError func(error)
	// MaxPending bounds the records waiting for the store (default
	// DefaultMaxPending). While the store cannot be written (a full disk)
	// records wait in memory up to this bound; then Observe blocks until a
	// commit succeeds: backpressure on the sessions that send events,
	// instead of unbounded memory or dropped records.
	MaxPending int
	// Log hears store write failures and recoveries (logrus's standard
	// logger if nil).
	Log logrus.FieldLogger
	// Collectors are served beside the analyzer's own at Handler's
	// /metrics (the binary's build information); an embedded analyzer's
	// host serves its own.
	Collectors []prometheus.Collector
}

// DefaultMaxPending is ServiceConfig.MaxPending's default: at ~300 bytes
// a record, about 15 MB.
const DefaultMaxPending = 50_000

// Service runs an analyzer.Analyzer live: it serialises calls, stamps events with
// its clock, gathers probes, persists records and delivers notices. It
// implements bridge.Feed (declared there, where it is used).
type Service struct {
	cfg ServiceConfig

	mu     sync.Mutex
	an     *analyzer.Analyzer
	store  *Store
	subs   map[string]map[int]func(speculators.Event)
	nextID int
	boxes  *mailboxes
	queue  []analyzer.Record // drained, not yet durable (a failed commit's first)
	more   *sync.Cond
	closed bool
	unlock func() error // releases the store directory's lock

	// The store's health: set while writes fail (guarded by mu).
	degradedSince time.Time
	lastErr       error
	failures      int
	metrics       *serviceMetrics

	stopPolls chan struct{}
	stopOnce  sync.Once

	// Loaded says what the store held at start.
	Loaded LoadReport
}

// NewService opens the store, reloads its state and builds the analyzer.
func NewService(cfg ServiceConfig) (*Service, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Gather <= 0 {
		cfg.Gather = 5 * time.Second
	}
	if cfg.OnError == nil {
		cfg.OnError = func(error) {}
	}
	if cfg.MaxPending <= 0 {
		cfg.MaxPending = DefaultMaxPending
	}
	if cfg.Log == nil {
		cfg.Log = logrus.StandardLogger()
	}
	s := &Service{cfg: cfg, subs: map[string]map[int]func(speculators.Event){}, boxes: newMailboxes(),
		stopPolls: make(chan struct{}), unlock: func() error { return nil }, metrics: newServiceMetrics()}
	s.more = sync.NewCond(&s.mu)
	s.metrics.since = s.now()
	st := analyzer.NewState()
	if cfg.Store != "" || cfg.Dir != nil {
		dir := cfg.Dir
		if dir == nil {
			var err error
			if dir, err = OpenDir(cfg.Store, cfg.HDFS); err != nil {
				return nil, err
			}
		}
		if l, ok := dir.(locker); ok {
			release, err := l.Lock()
			if err != nil {
				closeDir(dir)
				return nil, err
			}
			s.unlock = release
		}
		var err error
		s.store, st, s.Loaded, err = OpenStore(dir, cfg.Analyzer)
		if err != nil {
			_ = s.unlock()
			closeDir(dir)
			return nil, err
		}
	}
	an, err := analyzer.New(cfg.Analyzer, st, s.now())
	if err != nil {
		_ = s.unlock()
		if s.store != nil {
			_ = s.store.Close()
		}
		return nil, err
	}
	s.an = an
	return s, nil
}

func closeDir(d Dir) {
	if c, ok := d.(io.Closer); ok {
		_ = c.Close()
	}
}

func (s *Service) now() analyzer.Time { return s.cfg.Now().UnixMilli() }

// Observe folds one event of job in (bridge.Feed).
//
// It blocks while MaxPending records wait for a store that cannot be
// written (backpressure): a full queue first tries a commit at once, and
// if the store is failing, waits for the commit that succeeds.
func (s *Service) Observe(job string, ev speculators.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.store != nil && len(s.queue) >= s.cfg.MaxPending && !s.closed {
		if s.degradedSince.IsZero() {
			_ = s.commitLocked() // logged there
		}
		for len(s.queue) >= s.cfg.MaxPending && !s.closed {
			s.metrics.blocked.Inc()
			s.more.Wait()
			s.metrics.blocked.Dec()
		}
	}
	s.an.Observe(job, &ev, s.now())
	s.queueLocked()
}

// queueLocked moves the analyzer's new records to the queue.
func (s *Service) queueLocked() {
	if recs := s.an.Drain(); len(recs) > 0 && s.store != nil {
		s.queue = append(s.queue, recs...)
		s.metrics.pending.Set(float64(len(s.queue)))
	}
}

// EndJob records that job finished (bridge.Feed) and commits: once it
// returns nil the job's records are durable. A failing store's error is
// returned (the records wait with the others, are retried with the next
// commit, and the failure is logged once per episode), so that the caller
// does not tell the AM its job's end is kept when it is not (issue 24).
// The bridge calls it from its feed writer, never inside a session's turn.
func (s *Service) EndJob(job string) error {
	s.mu.Lock()
	s.an.EndJob(job, s.now())
	err := s.commitLocked()
	s.mu.Unlock()
	s.boxes.drop(job)
	return err
}

// Subscribe registers deliver for job's node events (bridge.Feed). A subscription
// is also how the analyzer knows the job's session is connected: while none
// is open, the job's silence says nothing about its nodes (analyzer.Analyzer, "alive"),
// and once one opens the job is told again of every declared node where it
// has work, at the next gathering round.
func (s *Service) Subscribe(job string, deliver func(speculators.Event)) (cancel func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextID
	s.nextID++
	if s.subs[job] == nil {
		s.subs[job] = map[int]func(speculators.Event){}
	}
	s.subs[job][id] = deliver
	s.an.Attach(job, s.now())
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			delete(s.subs[job], id)
			if len(s.subs[job]) == 0 {
				delete(s.subs, job)
			}
			s.an.Detach(job, s.now(), 0)
		})
	}
}

// pollLease is how long a job whose notices a remote sidecar long-polls
// stays alive after a poll ends: Remote asks again at once, or after 1 s
// when the analyzer failed to answer.
const pollLease = 10 * time.Second

// polling marks job alive for the length of one long poll of its notices
// (and pollLease after); the returned function ends it.
//
// A poll of a job the analyzer has no record of (its sidecar polls before
// its first events are posted, or a client polls made-up names) keeps
// nothing once it ends: its session and its (empty) mailbox are dropped,
// so that polls of many distinct names do not grow memory for good.
func (s *Service) polling(job string) (done func()) {
	s.mu.Lock()
	s.an.AttachPoll(job, s.now())
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.an.Detach(job, s.now(), pollLease.Milliseconds())
		if s.an.State().Jobs[job] == nil && len(s.subs[job]) == 0 && s.an.ForgetIdle(job) {
			s.boxes.dropEmpty(job)
		}
		s.mu.Unlock()
	}
}

// Tick runs one gathering round now: probes (if a Prober is set), the
// analyzer's round, a commit of every new record, then delivery of the
// round's notices. A commit error is returned; the records stay queued and
// go with the next commit, and notices are delivered only once their
// records are durable.
func (s *Service) Tick(ctx context.Context) error {
	var probes []analyzer.NodeProbe
	var perr error
	if s.cfg.Prober != nil {
		probes, perr = s.cfg.Prober.Probe(ctx)
		if perr != nil {
			s.cfg.OnError(perr)
		}
	}
	s.mu.Lock()
	now := s.now()
	if s.cfg.Prober != nil {
		if perr != nil {
			s.an.ProbeFailed()
		} else {
			s.an.Probe(now, probes)
		}
	}
	notices := s.an.Tick(now)
	s.metrics.observeDeclarations(s.an.State())
	err := s.commitLocked()
	var calls []func()
	for _, n := range notices {
		s.boxes.put(n)
		for _, deliver := range s.subs[n.Job] {
			ev := n.Event
			calls = append(calls, func() { deliver(ev) })
		}
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	for _, c := range calls {
		c()
	}
	return s.an.Err()
}

// Flush makes every record so far durable.
func (s *Service) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commitLocked()
}

// ErrStoreDegraded is wrapped by the errors of commits that fail; they are
// logged once per episode (when writes start failing and when they work
// again), not per attempt.
var ErrStoreDegraded = errors.New("cfa: store writes failing")

// commitLocked commits every record not yet durable. Records whose commit
// failed are kept and go first in the next one.
func (s *Service) commitLocked() error {
	s.queueLocked()
	if s.store == nil || len(s.queue) == 0 {
		return nil
	}
	n := len(s.queue)
	err := s.store.Commit(s.queue, s.an.State())
	if errors.Is(err, ErrSnapshotFailed) {
		// The records are durable (not to be written again); the snapshot
		// is retried at the next commit.
		s.cfg.Log.WithError(err).WithField("store", s.store.Dir().String()).Warn("cfa: snapshot failed; the log holds every record, the snapshot is retried at the next commit")
		err = nil
	}
	if err != nil {
		s.failures++
		s.lastErr = err
		s.metrics.writeFailures.Inc()
		if s.degradedSince.IsZero() {
			s.degradedSince = s.cfg.Now()
			s.metrics.degraded.Set(1)
			s.cfg.Log.WithError(err).WithFields(logrus.Fields{"store": s.store.Dir().String(), "pending": n, "max_pending": s.cfg.MaxPending}).
				Error("cfa: store write failed; records wait in memory and are retried every gather interval; event senders are held back once max_pending wait (logged once until writes work again)")
		}
		return fmt.Errorf("%w: commit %d records: %w", ErrStoreDegraded, n, err)
	}
	s.queue = nil
	s.metrics.pending.Set(0)
	s.metrics.writes.Inc()
	s.metrics.written.Add(float64(n))
	if !s.degradedSince.IsZero() {
		s.cfg.Log.WithFields(logrus.Fields{"store": s.store.Dir().String(), "failed_writes": s.failures,
			"for": s.cfg.Now().Sub(s.degradedSince).Round(time.Millisecond).String(), "committed": n}).Warn("cfa: store writable again; every waiting record committed")
		s.degradedSince, s.lastErr, s.failures = time.Time{}, nil, 0
		s.metrics.degraded.Set(0)
	}
	s.more.Broadcast()
	return nil
}

// Health is nil while the store takes writes, else what fails and since
// when (for /healthz: the analyzer is degraded, not down).
func (s *Service) Health() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.degradedSince.IsZero() {
		return nil
	}
	return fmt.Errorf("degraded: store %s: writes failing since %s (%d failed writes, %d records waiting, at most %d before senders wait): %v",
		s.store.Dir(), s.degradedSince.UTC().Format(time.RFC3339), s.failures, len(s.queue), s.cfg.MaxPending, s.lastErr)
}

// Run gathers every interval until ctx ends, then commits and writes a
// snapshot. Round errors go to OnError; Run returns the final commit's.
func (s *Service) Run(ctx context.Context) error {
	t := time.NewTicker(s.cfg.Gather)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return s.Close()
		case <-t.C:
			if err := s.Tick(ctx); err != nil && !errors.Is(err, ErrStoreDegraded) {
				s.cfg.OnError(err)
			}
		}
	}
}

// StopPolls answers every pending and later long poll at once, so that an
// HTTP server can shut down.
func (s *Service) StopPolls() { s.stopOnce.Do(func() { close(s.stopPolls) }) }

// Close commits what is pending and writes a snapshot.
// Blocked senders are released (their events are kept in memory and lost
// if the final commit fails, which is returned).
func (s *Service) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.more.Broadcast()
	err := s.commitLocked()
	if s.store != nil && err == nil {
		err = errors.Join(s.store.Seal(), s.store.Snapshot(s.an.State()))
	}
	if s.store != nil {
		err = errors.Join(err, s.unlock(), s.store.Close())
	}
	s.StopPolls()
	return err
}

// View runs f with the analyzer's state under the lock (read only).
func (s *Service) View(f func(st *analyzer.State, threshold func(speculators.NodeID) analyzer.Time)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s.an.State(), s.an.Threshold)
}
