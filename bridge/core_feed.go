package bridge

import (
	"context"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/speculators"
)

// The session core's side of the fault analyzer (the server's, the job
// bookkeeping across sessions, is in feed.go): subscribing, queuing and
// applying notices, passing accepted events and job ends to the feed
// writer after the turn.

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
	s.forgetOrder()
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
