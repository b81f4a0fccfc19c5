package sim

import (
	"sort"

	"github.com/specbridge/specbridge/speculators"
)

// eventKind is what a simulation event does when it fires.
type eventKind uint8

const (
	evSubmit    eventKind = iota // ref = job
	evSpeed                      // ref = node: an episode starts or ends
	evFinish                     // ref = attempt, gen = finish generation
	evHeartbeat                  // ref = attempt, gen = heartbeat generation
	evTimeout                    // ref = attempt: check mapreduce.task.timeout
	evDecide                     // the periodic Decide tick for every running job
	evFetch                      // ref = reduce attempt, gen = fetch generation (faults.go)
	evExpiry                     // ref = node, gen = hung generation: NM expiry
	evCleanup                    // ref = job: its container cleanups have given up
	evKillJob                    // ref = job: killed as recorded (Job.KillAt, script.go)
	// A new kind goes before this line: the last must fit in kindBits.
)

const _ = 1<<kindBits - 1 - evKillJob // every kind fits in event.key's kind bits

// event is one pending timer. Ties in time are broken by seq, the order in
// which events were pushed, so the run is deterministic. Timers that were
// superseded are not removed; they carry a generation that no longer
// matches and are skipped when they fire.
//
// key holds seq in its upper 60 bits and the kind in its lower 4: seqs are
// unique, so ordering by key is ordering by seq, and the event is 24 bytes
// instead of 32 with a kind field of its own (the timer heap and the
// heartbeat lane are read at every event; docs/scale.md).
type event struct {
	at  speculators.Time
	key uint64
	ref int32
	gen uint32
}

// kindBits is the width of the kind in event.key; every eventKind fits.
const kindBits = 4

func (e *event) kind() eventKind { return eventKind(e.key & (1<<kindBits - 1)) }

func eventKey(seq uint64, kind eventKind) uint64 { return seq<<kindBits | uint64(kind) }

// eventHeap is a 4-ary min-heap of event values ordered by (at, seq). It is
// hand-written rather than container/heap so that pushes do not box values
// into interfaces; four children per node halve the depth, and pops (which
// dominate) touch fewer cache lines than with a binary heap.
type eventHeap struct {
	items []event
	seq   uint64
}

func (h *eventHeap) len() int { return len(h.items) }

func less(a, b *event) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.key < b.key
}

func (h *eventHeap) push(at speculators.Time, kind eventKind, ref int32, gen uint32) {
	h.seq++
	e := event{at: at, key: eventKey(h.seq, kind), ref: ref, gen: gen}
	h.items = append(h.items, e)
	items := h.items
	// Sift up with a hole: the same moves as swapping, half the writes.
	i := len(items) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !less(&e, &items[p]) {
			break
		}
		items[i] = items[p]
		i = p
	}
	items[i] = e
}

// peekAt is the time of the earliest event; the heap must not be empty.
func (h *eventHeap) peekAt() speculators.Time { return h.items[0].at }

// pop removes and returns the earliest event; the heap must not be empty.
func (h *eventHeap) pop() event {
	items := h.items
	top := items[0]
	n := len(items) - 1
	x := items[n]
	items = items[:n]
	h.items = items
	if n == 0 {
		return top
	}
	// Sift the last item down from the root with a hole: the same moves
	// as swapping it down, half the writes.
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+4, n)
		for k := c + 1; k < end; k++ {
			if less(&items[k], &items[m]) {
				m = k
			}
		}
		if !less(&items[m], &x) {
			break
		}
		items[i] = items[m]
		i = m
	}
	items[i] = x
	return top
}

// timers is the run's event queue: a heap for timers of any delay, a FIFO
// lane for timers pushed in non-decreasing time order (heartbeats are always
// due now + Heartbeat, and now never goes back), and the jobs' submits,
// known when the run begins and held sorted outside the heap so that a
// trace of many jobs costs no heap depth (submits). All draw seq from one
// counter (the submits' reserved before the run's first timer) and pop
// merges them by (at, seq), so the order is exactly that of a single heap
// while most pushes and pops cost O(1).
type timers struct {
	heap eventHeap
	lane []event
	head int
	subs []event
	sub  int
	// peeked: next is the source of the next event, as peekAt found it
	// (first); a push clears it, a pop uses it. The run peeks after each
	// event and pops right after, so this saves one look at the three
	// sources per event.
	peeked bool
	next   int
}

func (q *timers) len() int { return q.heap.len() + len(q.lane) - q.head + len(q.subs) - q.sub }

// submits queues one submit per job at its time, job i with the i-th seq
// from now on: the order pushing them one by one to the heap gave.
func (q *timers) submits(at func(i int) speculators.Time, n int) {
	q.peeked = false
	q.subs = make([]event, n)
	for i := range q.subs {
		q.heap.seq++
		q.subs[i] = event{at: at(i), key: eventKey(q.heap.seq, evSubmit), ref: int32(i)}
	}
	sort.Slice(q.subs, func(a, b int) bool { return less(&q.subs[a], &q.subs[b]) })
}

// pushOrdered queues a timer in the FIFO lane when it is not earlier than
// the lane's last one, else in the heap.
func (q *timers) pushOrdered(at speculators.Time, kind eventKind, ref int32, gen uint32) {
	q.peeked = false
	if n := len(q.lane); n > q.head && q.lane[n-1].at > at {
		q.heap.push(at, kind, ref, gen)
		return
	}
	if q.head > 1024 && q.head*2 > len(q.lane) {
		n := copy(q.lane, q.lane[q.head:])
		q.lane = q.lane[:n]
		q.head = 0
	}
	q.heap.seq++
	q.lane = append(q.lane, event{at: at, key: eventKey(q.heap.seq, kind), ref: ref, gen: gen})
}

func (q *timers) push(at speculators.Time, kind eventKind, ref int32, gen uint32) {
	q.peeked = false
	q.heap.push(at, kind, ref, gen)
}

// Sources of the next event (timers.first).
const (
	fromHeap = iota
	fromLane
	fromSubs
)

// first says which source holds the next event; q must not be empty.
func (q *timers) first() int {
	var best *event
	src := fromHeap
	if q.heap.len() > 0 {
		best = &q.heap.items[0]
	}
	if q.head < len(q.lane) && (best == nil || less(&q.lane[q.head], best)) {
		best, src = &q.lane[q.head], fromLane
	}
	if q.sub < len(q.subs) && (best == nil || less(&q.subs[q.sub], best)) {
		src = fromSubs
	}
	return src
}

// peekAt is the time of the next event; q must not be empty.
func (q *timers) peekAt() speculators.Time {
	q.next, q.peeked = q.first(), true
	switch q.next {
	case fromLane:
		return q.lane[q.head].at
	case fromSubs:
		return q.subs[q.sub].at
	}
	return q.heap.peekAt()
}

// pop removes and returns the next event; q must not be empty.
func (q *timers) pop() event {
	src := q.next
	if !q.peeked {
		src = q.first()
	}
	q.peeked = false
	switch src {
	case fromLane:
		e := q.lane[q.head]
		q.head++
		return e
	case fromSubs:
		e := q.subs[q.sub]
		q.sub++
		return e
	}
	return q.heap.pop()
}
