package cfa

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/speculators"
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
	// Gather is the gathering interval (FARMS §3.1: 5 s).
	Gather time.Duration
	// Prober, if set, is asked every round (RM and NM REST probes).
	Prober Prober
	// Now is the clock (time.Now if nil).
	Now func() time.Time
	// OnError hears errors the background loop cannot return (a failed
	// probe, a failed commit is also returned by Tick).
	OnError func(error)
}

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
	failed []analyzer.Record // drained, commit failed: retried first

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
	s := &Service{cfg: cfg, subs: map[string]map[int]func(speculators.Event){}, boxes: newMailboxes(),
		stopPolls: make(chan struct{})}
	st := analyzer.NewState()
	if cfg.Store != "" {
		dir, err := OpenDir(cfg.Store)
		if err != nil {
			return nil, err
		}
		s.store, st, s.Loaded, err = OpenStore(dir, cfg.Analyzer)
		if err != nil {
			return nil, err
		}
	}
	an, err := analyzer.New(cfg.Analyzer, st, s.now())
	if err != nil {
		return nil, err
	}
	s.an = an
	return s, nil
}

func (s *Service) now() analyzer.Time { return s.cfg.Now().UnixMilli() }

// Observe folds one event of job in (bridge.Feed).
func (s *Service) Observe(job string, ev speculators.Event) {
	s.mu.Lock()
	s.an.Observe(job, &ev, s.now())
	s.mu.Unlock()
}

// EndJob records that job finished (bridge.Feed).
func (s *Service) EndJob(job string) {
	s.mu.Lock()
	s.an.EndJob(job, s.now())
	s.mu.Unlock()
	s.boxes.drop(job)
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
func (s *Service) polling(job string) (done func()) {
	s.mu.Lock()
	s.an.AttachPoll(job, s.now())
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.an.Detach(job, s.now(), pollLease.Milliseconds())
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

// commitLocked commits every record not yet durable. Records whose commit
// failed are kept and go first in the next one.
func (s *Service) commitLocked() error {
	recs := append(s.failed, s.an.Drain()...)
	s.failed = nil
	if s.store == nil || len(recs) == 0 {
		return nil
	}
	if err := s.store.Commit(recs, s.an.State()); err != nil {
		s.failed = recs
		return fmt.Errorf("cfa: commit %d records: %w", len(recs), err)
	}
	return nil
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
			if err := s.Tick(ctx); err != nil {
				s.cfg.OnError(err)
			}
		}
	}
}

// StopPolls answers every pending and later long poll at once, so that an
// HTTP server can shut down.
func (s *Service) StopPolls() { s.stopOnce.Do(func() { close(s.stopPolls) }) }

// Close commits what is pending and writes a snapshot.
func (s *Service) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.commitLocked()
	if s.store != nil && err == nil {
		err = s.store.Snapshot(s.an.State())
	}
	if s.store != nil {
		err = errors.Join(err, s.store.Close())
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
