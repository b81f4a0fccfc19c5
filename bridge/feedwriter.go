package bridge

import (
	"context"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/specbridge/specbridge/speculators"
)

// DefaultMaxFeedQueue bounds the events waiting for the fault analyzer
// (Config.MaxFeedQueue): at ~200 bytes an event, about 13 MB.
const DefaultMaxFeedQueue = 65_536

// feedWriter is the only caller of Config.Feed: sessions queue their calls
// and one goroutine makes them, in the order queued. The analyzer's store
// I/O (an embedded analyzer commits in Observe when its own queue is full,
// and in EndJob; a remote one posts) therefore never runs inside a
// session's fair-queue turn, where on two cores it held the server's one
// slot and froze every AM, not only those sending (issue 24). A slow or full
// store costs the records waiting for it: sessions go on deciding, and a
// session whose events find the queue full waits, outside any turn, for
// room (backpressure on that AM alone; an AM that only pings never waits).
//
// One goroutine keeps each job's calls in order (its events, then its
// end) without a lock per job; the analyzer serialises its calls anyway.
type feedWriter struct {
	feed Feed
	max  int

	mu      sync.Mutex
	queue   []feedOp
	events  int           // events queued
	space   chan struct{} // closed when events drop
	wake    chan struct{} // the worker has work
	closing bool
	done    chan struct{} // closed when the worker has drained the queue after close

	queued  prometheus.Gauge
	waiting prometheus.Counter
}

type feedOpKind uint8

const (
	feedObserve feedOpKind = iota
	feedEnd
	feedSubscribe
	feedUnsubscribe
	feedSync // tells done once every op queued before it was made
)

type feedOp struct {
	kind feedOpKind
	job  string
	evs  []speculators.Event
	sess *core        // subscribe, unsubscribe
	done chan<- error // end: told EndJob's answer, if set
}

func newFeedWriter(feed Feed, max int, m *metrics) *feedWriter {
	w := &feedWriter{feed: feed, max: max, space: make(chan struct{}), wake: make(chan struct{}, 1), done: make(chan struct{}),
		queued: m.feedQueued, waiting: m.feedWaits}
	go w.run()
	return w
}

// push queues op. Calls without events are queued at once; a batch of
// events waits while the queue holds max events (a batch larger than max
// goes in alone), or until ctx ends (the session is closing: its events
// are then not passed on, as those of a session cut mid-batch).
func (w *feedWriter) push(ctx context.Context, op feedOp) error {
	n := len(op.evs)
	counted := false
	for {
		w.mu.Lock()
		if n == 0 || w.events == 0 || w.events+n <= w.max {
			w.queue = append(w.queue, op)
			w.events += n
			w.queued.Set(float64(w.events))
			w.mu.Unlock()
			select {
			case w.wake <- struct{}{}:
			default:
			}
			return nil
		}
		space := w.space
		w.mu.Unlock()
		if !counted {
			counted = true
			w.waiting.Inc()
		}
		select {
		case <-space:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (w *feedWriter) run() {
	for {
		w.mu.Lock()
		if len(w.queue) == 0 {
			if w.closing {
				w.mu.Unlock()
				close(w.done)
				return
			}
			w.mu.Unlock()
			<-w.wake
			continue
		}
		op := w.queue[0]
		w.queue[0] = feedOp{}
		w.queue = w.queue[1:]
		w.mu.Unlock()
		w.do(op)
		if n := len(op.evs); n > 0 {
			w.mu.Lock()
			w.events -= n
			w.queued.Set(float64(w.events))
			close(w.space)
			w.space = make(chan struct{})
			w.mu.Unlock()
		}
	}
}

func (w *feedWriter) do(op feedOp) {
	switch op.kind {
	case feedObserve:
		for i := range op.evs {
			w.feed.Observe(op.job, op.evs[i])
		}
	case feedEnd:
		err := w.feed.EndJob(op.job)
		if op.done != nil {
			op.done <- err
		}
	case feedSubscribe:
		cancel := w.feed.Subscribe(op.job, op.sess.deliver)
		op.sess.noticeMu.Lock()
		op.sess.unsubscribe = cancel
		op.sess.noticeMu.Unlock()
	case feedSync:
		op.done <- nil
	case feedUnsubscribe:
		op.sess.noticeMu.Lock()
		cancel := op.sess.unsubscribe
		op.sess.unsubscribe = nil
		op.sess.noticeMu.Unlock()
		if cancel != nil {
			cancel()
		}
	}
}

// close makes the worker stop once the queue is drained; drained is
// closed then.
func (w *feedWriter) close() (drained <-chan struct{}) {
	w.mu.Lock()
	w.closing = true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return w.done
}
