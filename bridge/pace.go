package bridge

import (
	rtmetrics "runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// The fair queue's pacing (turns.go): how much of the turn slots' time the
// server grants, adapted to what the host can do without delaying a light
// session.
//
// Why: the fair queue puts a light session's frame in front of every
// flooding one, but at saturation the delay is outside the queue. With the
// host's cores busy, every hand-off on a light frame's path (the network
// poller waking its reader, the reader handing the frame to the session's
// goroutine, the write) waits for a processor, the garbage collector runs
// many times a second and the OS preempts the server's threads for the
// flooding clients' processes. A fixed server-wide event budget avoids that
// only if it is sized below the host's capacity, which nobody knows in
// advance (it moves with the policy, the frame sizes and the neighbours).
//
// What: a duty cycle. The slots may be busy at most share of the time (a
// token bucket of slot time: earned at share x slots per second, spent by
// each turn's wall-clock duration); while it is in debt no backlogged
// session is granted a turn, so they wait (and are not read: backpressure),
// while a light session (turns.go, lightSlack) is granted at once and its
// turn charged all the same.
// Choice: share adapts to the Go scheduler's latency, which is what a
// light frame's hand-offs wait for — the runtime's /sched/latencies
// histogram (time goroutines spent runnable before running), whose p99
// over each paceStep is compared with Config.SchedLatencyTarget: above it,
// share is cut by a fifth (multiplicative decrease, down to minShare);
// at or below it, share grows by paceIncrease (additive increase, up to
// all of it). This is AIMD, as in TCP congestion control, with the
// scheduler's queueing delay as the congestion signal, as CoDel (Nichols
// and Jacobson, "Controlling Queue Delay", ACM Queue 2012) uses a packet
// queue's sojourn time rather than its length. Without saturation the p99
// stays far under the target and share stays 1: pacing costs nothing.
const (
	paceStep     = 100 * time.Millisecond
	paceBurst    = 5 * time.Millisecond // slot time a paced slot may bank
	paceDecrease = 0.8
	paceIncrease = 0.02
	// minShare bounds the cut: flooding sessions keep a tenth of the slots'
	// time, so they are slowed, never starved.
	minShare = 0.1
	// paceMinSamples: a window with fewer scheduler events says nothing.
	paceMinSamples = 200
)

// DefaultSchedLatencyTarget is Config.SchedLatencyTarget's default: a light
// frame's path has a handful of hand-offs, so keeping each under a
// millisecond at the p99 keeps its round trip within a few (issue 14's
// target is 10 ms).
const DefaultSchedLatencyTarget = time.Millisecond

// pacer is the token bucket of slot time; guarded by turns.mu.
type pacer struct {
	slots  float64
	share  float64 // of the slots' time granted, in [minShare, 1]
	tokens float64 // seconds of slot time banked (negative: debt)
	last   time.Time
}

func newPacer(slots int, now time.Time) *pacer {
	return &pacer{slots: float64(slots), share: 1, tokens: paceBurst.Seconds(), last: now}
}

// wait is how long until the bucket is out of debt at now (0: grant).
func (p *pacer) wait(now time.Time) time.Duration {
	rate := p.share * p.slots
	avail := p.tokens + now.Sub(p.last).Seconds()*rate
	if avail >= 0 {
		return 0
	}
	return time.Duration(-avail / rate * float64(time.Second))
}

// charge spends a turn's duration at now. The bucket is capped only when
// every slot is idle (idle): the turns still running earned tokens as they
// ran, so with share 1 slots busy all the time never go into debt.
func (p *pacer) charge(cost time.Duration, now time.Time, idle bool) {
	el := max(now.Sub(p.last).Seconds(), 0)
	p.tokens += el*p.share*p.slots - cost.Seconds()
	if idle {
		p.tokens = min(p.tokens, paceBurst.Seconds())
	}
	p.last = now
}

// adjust applies one step of the control law for a window whose p99
// scheduler latency was p99 over n events.
func (p *pacer) adjust(p99 time.Duration, n uint64, target time.Duration) {
	if n >= paceMinSamples && p99 > target {
		p.share = max(minShare, p.share*paceDecrease)
		return
	}
	p.share = min(1, p.share+paceIncrease)
}

// schedProbe reads the runtime's scheduler latency histogram and gives the
// p99 of what was recorded since the last read.
type schedProbe struct {
	next atomic.Int64 // unix ns of the next step

	mu     sync.Mutex
	sample []rtmetrics.Sample
	prev   []uint64
}

const schedLatencies = "/sched/latencies:seconds"

func newSchedProbe() *schedProbe {
	return &schedProbe{sample: []rtmetrics.Sample{{Name: schedLatencies}}}
}

// due reports whether a step is due at now, claiming it (one caller wins).
func (sp *schedProbe) due(now time.Time) bool {
	n := sp.next.Load()
	if now.UnixNano() < n {
		return false
	}
	return sp.next.CompareAndSwap(n, now.Add(paceStep).UnixNano())
}

// read returns the p99 of the scheduler latencies since the last read and
// how many there were.
func (sp *schedProbe) read() (time.Duration, uint64) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	rtmetrics.Read(sp.sample)
	if sp.sample[0].Value.Kind() != rtmetrics.KindFloat64Histogram {
		return 0, 0 // not this runtime: never paced
	}
	h := sp.sample[0].Value.Float64Histogram()
	first := sp.prev == nil
	if first {
		sp.prev = make([]uint64, len(h.Counts))
	}
	var total uint64
	delta := make([]uint64, len(h.Counts))
	for i, c := range h.Counts {
		delta[i] = c - sp.prev[i]
		total += delta[i]
		sp.prev[i] = c
	}
	if first || total == 0 {
		return 0, 0
	}
	return histQuantile(h.Buckets, delta, total, 0.99), total
}

// histQuantile is the upper bound of the bucket holding quantile q of
// counts (Buckets has one more boundary than counts; an infinite bound is
// replaced by its lower one).
func histQuantile(bounds []float64, counts []uint64, total uint64, q float64) time.Duration {
	want := uint64(float64(total)*q + 0.5)
	var c uint64
	for i, n := range counts {
		c += n
		if c >= want && n > 0 {
			b := bounds[i+1]
			if b > 1e9 { // +Inf
				b = bounds[i]
			}
			return time.Duration(b * float64(time.Second))
		}
	}
	return 0
}
