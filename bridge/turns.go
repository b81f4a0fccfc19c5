package bridge

import (
	"container/heap"
	"context"
	"sync"
	"time"
)

// maxLead bounds a turn's cost in the fair queue (units: events).
const maxLead = 100

// bytesPerUnit: a frame's cost is estimated before it is decoded as one
// unit per this many bytes (an event takes 100-300 bytes on the wire, so
// this overestimates, alike for every session).
const bytesPerUnit = 64

// lightSlack: a session whose finish tag is at most this many units past
// the virtual time when it asks for a turn is light: it goes before every
// session that is not, and does not wait for the pacer's debt. Such a
// session has had at most its share (a backlogged one is a frame or more
// past the virtual time after each turn), as FQ-CoDel's "new flows" go
// before its old ones (RFC 8290, §4.1), by rate rather than by emptiness:
// a session sending small frames stays light only while it sends them no
// faster than the virtual time advances. Choice: 8 units, a few small
// frames; a light AM's last frame (2 units for a one-event batch) put it
// just past the virtual time, and it then waited for every flooder queued
// before it (measured: 5-19 ms beside 200 flooders, pacing on).
const lightSlack = 8

// estimateUnits is the fair queue's estimate of a frame's cost from its size.
func estimateUnits(size int) float64 {
	return min(1+float64(size)/bytesPerUnit, maxLead)
}

// turns is the server's fair queue of session work. A session's work on a
// frame (validating and decoding it, folding its events into the engine,
// deciding) is done in a turn; at most slots turns run at once
// (Config.MaxBusySessions), so that the Go scheduler never holds hundreds
// of runnable session goroutines in front of a light session's one.
//
// Choice: by default one processor fewer than GOMAXPROCS (at least one).
// Go's scheduler asks the network poller for ready connections only when a
// processor runs out of work, or from sysmon every 10 ms; with every
// processor busy on turns a light AM's frame waited up to that long before
// its session even asked for a turn (p50 23 ms beside 50 abusers on two
// loaded cores, against 6 ms with one slot). The price is a processor's
// share of throughput under saturation.
//
// Which waiting session goes next builds on start-time fair queueing
// (Goyal, Vin and Cheng, "Start-time Fair Queueing", SIGCOMM 1996): every
// turn gets a start tag max(the session's finish tag, the virtual time),
// the virtual time is the largest start tag granted, and the session's
// finish tag becomes start tag plus the turn's cost. A session that used
// less than the backlogged sessions starts at the virtual time, in front
// of them. Four choices make a light AM go first in practice; each was
// found by timing where a good AM's frame waited beside 200 flooding
// sessions (BenchmarkGoodAMBesideAbusers):
//
//   - Cost: a turn's cost is its frame's events plus one (turn.units), the
//     unit of the sessions' event budgets (limits.go), so that a session
//     under its share of the event budget is a light one here too. The cost
//     was first the turn's wall-clock duration; that made a well-behaved AM
//     look heavy whenever its frames were dearer than a flooder's per event
//     (a large job's decide) or the host was saturated (a turn's wall-clock
//     time then includes the scheduling delays of its hand-offs, which are
//     not the session's doing). What a costly frame costs the host is the
//     pacer's business (pace.go), which charges wall-clock time. A turn
//     whose units were not set costs 1.
//   - Bounded cost: a turn costs at most maxLead units. Without a bound an
//     AM's first frames (its job's every attempt started: 4,000 events for
//     2,000 maps) put it thousands of units ahead of the virtual time,
//     which advances by one flooder's frame per round of 200 flooders, and
//     it then waited a round per frame for seconds (p99 50-70 ms). What a
//     session sends over time is bounded by its event budget, not here.
//   - Order by start tag plus the frame's estimated cost (from its size,
//     known before decoding), ties to the session with less service (the
//     lower finish tag), then arrival. Flooders sending alike move in lock
//     step, a round of them sharing one start tag; by start tag and arrival
//     a light AM one small frame past that tag waited for the whole round
//     (20-30 ms of queueing beside 200 flooders).
//   - Light sessions first (lightSlack).
//
// A turn ends before the session writes to its connection (session.write
// buffers frames during a turn, endTurn sends them), so a session whose
// client does not read never holds a slot.
type turns struct {
	limited bool // false: turns are granted at once, unaccounted

	mu    sync.Mutex
	slots int
	free  int     // slots not held
	vtime float64 // start tag of the turn granted last
	seq   uint64  // arrival order, breaks ties
	queue turnQueue

	// Pacing (pace.go): nil when not paced.
	pace   *pacer
	probe  *schedProbe
	target time.Duration
	armed  bool // a timer will dispatch when the pacer's debt is paid
	// onShare, if set, is told the pacer's share after every step.
	onShare func(float64)
}

// newTurns makes a fair queue of slots turns at once (<= 0: no limit).
// With target > 0 the slots' time is paced by the scheduler's latency
// (pace.go).
func newTurns(slots int, target time.Duration) *turns {
	t := &turns{limited: slots > 0, free: slots, slots: slots}
	if t.limited && target > 0 {
		t.pace, t.probe, t.target = newPacer(slots, time.Now()), newSchedProbe(), target
	}
	return t
}

// turnTag is a session's finish tag, guarded by turns.mu.
type turnTag struct{ finish float64 }

// turn is one granted turn; end is safe from any goroutine, once.
type turn struct {
	t     *turns
	tag   *turnTag
	start float64 // start tag
	units float64 // the turn's cost in the fair queue; set before end
	at    time.Time
	once  sync.Once
	done  chan struct{}
}

// waiter is a session waiting for a turn.
type waiter struct {
	start float64
	key   float64 // start plus the frame's estimated cost: the order
	used  float64 // the session's finish tag when it asked: ties go to the lower
	light bool    // at most lightSlack past the virtual time: goes first, skips the pacer's debt
	seq   uint64
	index int
	ready chan struct{}
	won   bool // granted; guarded by turns.mu
}

// acquire waits for a turn for the session whose finish tag is tag, to
// handle a frame of size bytes, or until ctx ends. It returns how long it
// waited, too.
func (t *turns) acquire(ctx context.Context, tag *turnTag, size int) (*turn, time.Duration, error) {
	asked := time.Now()
	if !t.limited {
		return &turn{done: make(chan struct{}), at: asked}, 0, nil
	}
	t.mu.Lock()
	start := max(tag.finish, t.vtime)
	light := tag.finish <= t.vtime+lightSlack
	if t.free > 0 && t.queue.Len() == 0 && (t.pace == nil || light || t.pace.wait(asked) == 0) {
		t.free--
		t.vtime = start
		t.mu.Unlock()
		return &turn{t: t, tag: tag, start: start, at: asked, done: make(chan struct{})}, 0, nil
	}
	t.seq++
	w := &waiter{start: start, key: start + estimateUnits(size), used: tag.finish, light: light, seq: t.seq, ready: make(chan struct{})}
	heap.Push(&t.queue, w)
	t.dispatchLocked(asked)
	t.mu.Unlock()
	select {
	case <-w.ready:
		now := time.Now()
		return &turn{t: t, tag: tag, start: start, at: now, done: make(chan struct{})}, now.Sub(asked), nil
	case <-ctx.Done():
		t.mu.Lock()
		if w.won { // granted meanwhile: pass the slot on
			t.free++
			t.dispatchLocked(time.Now())
		} else {
			heap.Remove(&t.queue, w.index)
		}
		t.mu.Unlock()
		return nil, 0, ctx.Err()
	}
}

// end ends the turn, charges its units to the session and its duration to
// the pacer.
func (tn *turn) end() {
	tn.once.Do(func() {
		close(tn.done)
		t := tn.t
		if t == nil {
			return
		}
		now := time.Now()
		cost := now.Sub(tn.at)
		t.mu.Lock()
		tn.tag.finish = tn.start + min(max(tn.units, 1), maxLead)
		t.free++
		if t.pace != nil {
			t.pace.charge(cost, now, t.free == t.slots)
		}
		t.dispatchLocked(now)
		t.mu.Unlock()
		if t.probe != nil && t.probe.due(now) {
			t.step()
		}
	})
}

// dispatchLocked grants free slots to the first waiters while the pacer
// allows; when it does not, a timer dispatches once its debt is paid. A
// light first waiter (see lightSlack) does not wait for the pacer; its turn is charged to the
// pacer all the same, so the backlogged sessions wait for it.
func (t *turns) dispatchLocked(now time.Time) {
	for t.free > 0 && t.queue.Len() > 0 {
		if t.pace != nil && !t.queue[0].light {
			if d := t.pace.wait(now); d > 0 {
				if !t.armed {
					t.armed = true
					time.AfterFunc(d, t.kick)
				}
				return
			}
		}
		w := heap.Pop(&t.queue).(*waiter)
		w.won = true
		t.free--
		t.vtime = max(t.vtime, w.start) // ordered by key, a later start may go first
		close(w.ready)
	}
}

// kick dispatches after the pacer's debt is paid.
func (t *turns) kick() {
	t.mu.Lock()
	t.armed = false
	t.dispatchLocked(time.Now())
	t.mu.Unlock()
}

// step reads the scheduler's latency since the last step and adjusts the
// pacer's share (pace.go).
func (t *turns) step() {
	p99, n := t.probe.read()
	t.mu.Lock()
	t.pace.adjust(p99, n, t.target)
	share := t.pace.share
	t.mu.Unlock()
	if t.onShare != nil {
		t.onShare(share)
	}
}

// turnQueue is a min-heap of waiters: light ones first, then by start tag
// plus estimated cost, then by the service the session had (its finish
// tag), then arrival.
type turnQueue []*waiter

func (q turnQueue) Len() int { return len(q) }
func (q turnQueue) Less(i, j int) bool {
	if q[i].light != q[j].light {
		return q[i].light
	}
	if q[i].key != q[j].key {
		return q[i].key < q[j].key
	}
	if q[i].used != q[j].used {
		return q[i].used < q[j].used
	}
	return q[i].seq < q[j].seq
}
func (q turnQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *turnQueue) Push(x any) {
	w := x.(*waiter)
	w.index = len(*q)
	*q = append(*q, w)
}
func (q *turnQueue) Pop() any {
	old := *q
	w := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	return w
}
