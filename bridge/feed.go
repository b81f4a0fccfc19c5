package bridge

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/specbridge/specbridge/speculators"
)

// Feed is the fault analyzer as the bridge sees it, declared once, here
// where it is used: cfa.Service (embedded) and cfa.Remote (a standalone
// analyzer over HTTP) implement it (checked in feed_test.go). The bridge
// does not import cfa, so that a sidecar without an analyzer does not
// carry it.
//
//   - Observe gets every event a session's engine accepted, in order;
//   - Subscribe registers a session for its job's node events; deliver is
//     called from the analyzer's goroutine and only queues the event for the
//     session's loop, which feeds it to the engine and decides;
//   - EndJob is called once the job is over (PROTOCOL.md, "Fault analyzer");
//     it returns once the job's records are durable, or the error that
//     kept them from being so.
//
// Every call is made by the server's feed writer (feedwriter.go), never
// inside a session's turn: each may block on the analyzer's store.
type Feed interface {
	Observe(job string, ev speculators.Event)
	Subscribe(job string, deliver func(speculators.Event)) (cancel func())
	EndJob(job string) error
}

// DefaultOrphanGrace is how long a job whose session ended unfinished may
// go without a new session before the analyzer is told it ended.
const DefaultOrphanGrace = 10 * time.Minute

// maxQueuedNotices bounds the node events queued for one session; the
// analyzer publishes a handful per node episode, so this is never reached by
// a session whose loop runs.
const maxQueuedNotices = 4096

// feedJobs is the server's per-job bookkeeping for the analyzer: the node
// state each job's engines have been told (so that an engine rebuilt by a
// resync or a new session of the job starts with it), and when each job
// whose AM went away without finishing is ended. The deadlines are on the
// server's clock (Config.Clock); sweepOrphans ends those past, called
// every orphanSweep of that clock by a goroutine of the server.
type feedJobs struct {
	nodes   map[string]map[speculators.NodeID]speculators.Event // job -> node -> last node event
	orphans map[string]time.Time                                // job -> when it is ended
	order   []string                                            // orphans, oldest first (may hold claimed ones: skipped)
}

// DefaultMaxOrphans caps the jobs waiting out their grace period; beyond
// it the oldest is ended in the analyzer at once (its AM has been gone
// longest).
const DefaultMaxOrphans = 10_000

func newFeedJobs() feedJobs {
	return feedJobs{nodes: map[string]map[speculators.NodeID]speculators.Event{}, orphans: map[string]time.Time{}}
}

// orphanSweep is how often the server looks for orphans past their grace
// period (at most a tenth of it).
func orphanSweep(grace time.Duration) time.Duration {
	return min(max(grace/10, time.Millisecond), time.Second)
}

// sweepOrphansEvery ends orphans past their deadline every orphanSweep
// until stop is closed.
func (s *Server) sweepOrphansEvery(stop <-chan struct{}) {
	tick, stopTick := s.cfg.Clock.NewTicker(orphanSweep(s.cfg.OrphanGrace))
	defer stopTick()
	for {
		select {
		case <-stop:
			return
		case <-tick:
			s.sweepOrphans(s.cfg.Now())
		}
	}
}

// sweepOrphans ends in the analyzer, oldest first, every job whose grace
// period is over at now and that no session has claimed.
func (s *Server) sweepOrphans(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	live := s.feed.order[:0]
	for _, job := range s.feed.order {
		deadline, ok := s.feed.orphans[job]
		switch {
		case !ok:
		case now.Before(deadline) || s.byJob[job] != nil:
			live = append(live, job)
		default:
			delete(s.feed.orphans, job)
			delete(s.feed.nodes, job)
			s.log.WithField("job", job).Infof("no session for %s: the job is ended in the fault analyzer", s.cfg.OrphanGrace)
			_ = s.feedw.push(context.Background(), feedOp{kind: feedEnd, job: job}) // no events: queued at once
		}
	}
	clear(s.feed.order[len(live):])
	s.feed.order = live
}

// ExpectJobs starts the orphan timer of jobs the analyzer holds as running
// (restored from its store after a restart): each is ended unless a session
// for it says hello within the grace period.
func (s *Server) ExpectJobs(jobs []string) {
	if s.cfg.Feed == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, job := range jobs {
		if s.byJob[job] == nil {
			s.orphanLocked(job)
		}
	}
}

// orphanLocked (s.mu held) ends job in the analyzer after the grace period
// unless a session claims it first.
func (s *Server) orphanLocked(job string) {
	if _, ok := s.feed.orphans[job]; s.closing || ok {
		return
	}
	for len(s.feed.orphans) >= s.cfg.MaxOrphans && len(s.feed.order) > 0 {
		old := s.feed.order[0]
		s.feed.order = s.feed.order[1:]
		if _, ok := s.feed.orphans[old]; ok {
			s.endJobLocked(old)
			s.log.WithField("job", old).Infof("more than %d jobs without a session: the oldest is ended in the fault analyzer now", s.cfg.MaxOrphans)
		}
	}
	if len(s.feed.order) > 2*s.cfg.MaxOrphans { // drop claimed entries
		live := s.feed.order[:0]
		for _, j := range s.feed.order {
			if _, ok := s.feed.orphans[j]; ok {
				live = append(live, j)
			}
		}
		s.feed.order = live
	}
	s.feed.order = append(s.feed.order, job)
	s.feed.orphans[job] = s.cfg.Now().Add(s.cfg.OrphanGrace)
}

// claimFeedLocked (s.mu held) cancels job's orphan deadline: a session has it.
func (s *Server) claimFeedLocked(job string) {
	delete(s.feed.orphans, job)
}

// endJobLocked (s.mu held) ends job without waiting (an orphan evicted).
func (s *Server) endJobLocked(job string) {
	s.forgetJobLocked(job)
	_ = s.feedw.push(context.Background(), feedOp{kind: feedEnd, job: job}) // no events: queued at once
}

func (s *Server) forgetJobLocked(job string) {
	delete(s.feed.nodes, job)
	delete(s.feed.orphans, job)
}

// noteNodeEvent records the last node event job's engine got about a node.
func (s *Server) noteNodeEvent(job string, ev speculators.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.feed.nodes[job]
	if m == nil {
		m = map[speculators.NodeID]speculators.Event{}
		s.feed.nodes[job] = m
	}
	if ev.Kind == speculators.NodeResumed {
		delete(m, ev.Node)
		return
	}
	m[ev.Node] = ev
}

// nodeEvents returns the node events an engine of job built now must
// observe: the nodes still suspected or failed, by node name (a defined
// order: the engine's state must not depend on a map's).
func (s *Server) nodeEvents(job string) []speculators.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []speculators.Event
	for _, ev := range s.feed.nodes[job] {
		out = append(out, ev)
	}
	slices.SortFunc(out, func(a, b speculators.Event) int { return strings.Compare(string(a.Node), string(b.Node)) })
	return out
}

// stopOrphansLocked (s.mu held) forgets every orphan at shutdown: the
// jobs are not over, the sidecar is.
func (s *Server) stopOrphansLocked() {
	clear(s.feed.orphans)
	s.feed.order = nil
	if s.sweepStop != nil {
		close(s.sweepStop)
		s.sweepStop = nil
	}
}

// sessionEnded runs after sess has left the server: it stops the session's
// subscription and, unless the job finished or another session has it,
// starts the job's orphan timer.
func (s *Server) sessionEnded(sess *session) {
	if s.cfg.Feed == nil || sess.job == "" {
		return
	}
	_ = s.feedw.push(context.Background(), feedOp{kind: feedUnsubscribe, sess: sess.core}) // no events: queued at once
	if sess.jobEnded {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byJob[sess.job] == nil {
		s.orphanLocked(sess.job)
	}
}

// ---- session side ----
