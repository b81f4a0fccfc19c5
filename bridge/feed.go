package bridge

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

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
// server's clock (Config.Now); sweepOrphans ends those past, called every
// orphanSweep by a goroutine of the server, or by a test that moved its
// clock.
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
	t := time.NewTicker(orphanSweep(s.cfg.OrphanGrace))
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
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

// subscribe registers the session for its job's node events and gives its
// new engine the node state earlier engines of the job were told.
func (s *core) subscribe() {
	feed := s.srv.cfg.Feed
	if feed == nil {
		return
	}
	s.observeKnownNodes()
	s.noticeWake = make(chan struct{}, 1)
	_ = s.srv.feedw.push(context.Background(), feedOp{kind: feedSubscribe, job: s.job, sess: s}) // no events: queued at once
}

// observeKnownNodes feeds the engine the nodes its job's earlier engines
// heard were suspected or failed (after a reconnect or a resync).
func (s *core) observeKnownNodes() {
	for _, ev := range s.srv.nodeEvents(s.job) {
		if err := s.engine.Observe(&ev); err != nil {
			s.log.WithError(err).Debug("node state not applied to the rebuilt engine")
		}
	}
}

// deliver runs on the analyzer's goroutine: it only queues.
func (s *core) deliver(ev speculators.Event) {
	s.noticeMu.Lock()
	dropped := len(s.notices) >= maxQueuedNotices
	if !dropped {
		s.notices = append(s.notices, ev)
	} else {
		s.noticesDropped++
	}
	first := dropped && s.noticesDropped == 1
	s.noticeMu.Unlock()
	if dropped {
		s.srv.metrics.noticesDropped.Inc()
		if first {
			s.log.WithField("node", ev.Node).Warnf("fault analyzer notices: more than %d wait for this session's loop; further ones are dropped and counted (specbridge_bridge_notices_dropped_total)", maxQueuedNotices)
		}
	}
	select {
	case s.noticeWake <- struct{}{}:
	default:
	}
}

// onNotices feeds the queued node events to the engine, stamped with the
// AM's clock (policies compare them with attempts' report times), and
// decides.
func (s *core) onNotices() error {
	s.noticeMu.Lock()
	evs := s.notices
	s.notices = nil
	s.noticeMu.Unlock()
	if s.engine == nil || s.jobEnded || len(evs) == 0 {
		return nil
	}
	now := s.amNow()
	for i := range evs {
		ev := &evs[i]
		ev.Time = now
		if err := s.engine.Observe(ev); err != nil {
			s.log.WithError(err).Warn("node event from the fault analyzer not applied")
			continue
		}
		s.srv.noteNodeEvent(s.job, *ev)
		s.log.WithFields(logrus.Fields{"node": ev.Node, "event": ev.Kind.String()}).Info("fault analyzer notice")
	}
	s.srv.metrics.events.Add(float64(len(evs)))
	return s.decideAndSend(time.Time{})
}

// feedObserve queues one accepted event for the analyzer; the batch is
// passed on after the turn (afterTurn).
func (s *core) feedObserve(ev *speculators.Event) {
	if s.srv.cfg.Feed != nil && !s.jobEnded {
		s.feedBatch = append(s.feedBatch, *ev)
		s.feedBatch[len(s.feedBatch)-1].FetchFailedMaps = nil // recycled with the frame; the analyzer does not read it
	}
}

// afterTurn runs once the session's turn has ended: it passes the turn's
// accepted events to the feed writer (waiting for room, outside any turn),
// and when the turn ended the job, waits for the analyzer to make the end
// durable before the session reads on, so that what it answers next (the
// pong of the job's last batch) never acknowledges a job the analyzer could
// lose. A bye whose end could not be made durable is told so
// (job-end-failed); the job end stays queued in the analyzer's memory and
// is retried with its next commit.
func (s *core) afterTurn() error {
	if len(s.feedBatch) > 0 {
		batch := s.feedBatch
		s.feedBatch = nil // the writer owns it now
		if err := s.srv.feedw.push(s.ctx, feedOp{kind: feedObserve, job: s.job, evs: batch}); err != nil {
			return nil // the session is closing
		}
	}
	if !s.endQueued {
		return nil
	}
	s.endQueued = false
	s.srv.mu.Lock()
	s.srv.forgetJobLocked(s.job)
	s.srv.mu.Unlock()
	done := make(chan error, 1)
	_ = s.srv.feedw.push(s.ctx, feedOp{kind: feedEnd, job: s.job, done: done})
	var err error
	select {
	case err = <-done:
	case <-s.ctx.Done():
		return nil
	}
	if err == nil {
		return nil
	}
	s.log.WithError(err).Warn("the job's end is not durable in the fault analyzer yet (retried with its next commit)")
	if !s.byeWaits {
		return nil
	}
	s.byeWaits = false
	return s.sendError(ErrorFrame{Code: CodeJobEndFailed, Text: "the job's end is not yet durable in the fault analyzer: " + truncate(err.Error(), 300)})
}

// onBye takes the AM's word that its job is over (Bye, PROTOCOL.md): a
// final state ends the job in the analyzer at once, rather than after the
// grace period a job whose AM left unfinished gets, which for a failed or
// killed job would hold its records as running for --cfa-job-grace. The
// session stays open until the AM closes it.
func (s *core) onBye(b *Bye) {
	state := truncate(b.State, 32)
	if !JobDone(b.State) {
		s.log.WithField("state", state).Info("the AM is stopping before its job is over")
		return
	}
	if !s.byeCounted {
		s.byeCounted = true
		s.srv.metrics.jobsEnded.WithLabelValues(b.State).Inc()
	}
	if s.srv.cfg.Feed == nil || s.jobEnded {
		s.log.WithField("state", state).Info("the AM says the job is over")
		return
	}
	s.jobEnded, s.endQueued, s.byeWaits = true, true, true
	s.log.WithField("state", state).Info("the AM says the job is over: the job is ended in the fault analyzer")
}

// checkJobEnded tells the analyzer once every task of the job has
// succeeded or been dropped: the job holds no more work on any node.
func (s *core) checkJobEnded() {
	if s.srv.cfg.Feed == nil || s.jobEnded || s.engine == nil || !s.jobFinished() {
		return
	}
	s.jobEnded, s.endQueued = true, true
	s.log.Info("every task done: the job is ended in the fault analyzer")
}

// jobFinished reports whether every task has succeeded, or was dropped
// (a drop decision was sent) and has no attempt running any more. Cheap
// unless the job is close to its end: it runs after every batch.
func (s *core) jobFinished() bool {
	j := s.engine.Job
	done, total := 0, 0
	for ty := range j.Tasks {
		done += j.Completed[ty]
		total += len(j.Tasks[ty])
	}
	if done == total {
		return true
	}
	if done+len(s.dropped) < total {
		return false
	}
	for ty := range j.Tasks {
		for _, t := range j.Tasks[ty] {
			if !t.Done() && (!s.dropped[t.ID] || t.RunningAttempts > 0) {
				return false
			}
		}
	}
	return true
}

// noteDecision remembers the tasks a drop was sent for.
func (s *core) noteDecision(d *speculators.Decision) {
	if d.Kind != speculators.Drop || s.srv.cfg.Feed == nil {
		return
	}
	if s.dropped == nil {
		s.dropped = map[speculators.TaskID]bool{}
	}
	s.dropped[d.Task] = true
}

// resyncFeed follows a resync: the rebuilt engine gets the node state its
// job's engines were told, and the analyzer the snapshot's attempt starts
// and ends (it ignores repeats, and takes starts it has not seen as
// Restated: not signs of life of their nodes). Status reports are not
// passed on: a snapshot's report times are the AM's resync time, not
// heartbeats.
func (s *core) resyncFeed(evs []speculators.Event) {
	if s.srv.cfg.Feed == nil {
		return
	}
	s.observeKnownNodes()
	for i := range evs {
		switch evs[i].Kind {
		case speculators.AttemptStatus:
		case speculators.AttemptStarted:
			ev := evs[i]
			ev.Restated = true
			s.feedObserve(&ev)
		default:
			s.feedObserve(&evs[i])
		}
	}
	s.checkJobEnded()
}
