package bridge

import (
	"fmt"
	"math"
	"sync"
	"time"
)

// throttleNoticeEvery: a session held back by its event budget is told so
// (a throttled error frame) at most once in this long, so that the notice
// costs a flooding session nothing worth counting and a client's log gets
// a line a second, not a line a frame.
const throttleNoticeEvery = time.Second

// throttleNotice is the error frame telling a session it is not read for
// wait because it is over its event budget of rate events a second.
func throttleNotice(wait time.Duration, rate float64) ErrorFrame {
	ms := max(int64(math.Ceil(float64(wait)/float64(time.Millisecond))), 1)
	return ErrorFrame{Code: CodeThrottled, RetryAfterMS: ms, EventsPerSecond: math.Round(rate),
		Text: fmt.Sprintf("over this session's event budget of %.0f events/s (its share of the server's); frames are read again in %d ms, nothing is dropped", rate, ms)}
}

// eventBudget is a token bucket of events per second. Taking more than is
// available goes into debt; the caller waits out the debt before reading
// more, which is how the bridge applies backpressure instead of dropping
// events.
type eventBudget struct {
	rate   float64 // tokens per second; <= 0 means unlimited
	burst  float64
	tokens float64
	last   time.Time
}

func newEventBudget(rate float64, now time.Time) *eventBudget {
	burst := rate
	if burst < 1 {
		burst = 1
	}
	return &eventBudget{rate: rate, burst: burst, tokens: burst, last: now}
}

// setRate changes the rate (and the burst, one second of it).
func (b *eventBudget) setRate(rate float64) {
	b.rate = rate
	b.burst = max(rate, 1)
	b.tokens = min(b.tokens, b.burst)
}

// take spends n tokens at now and returns how long the caller must wait
// before the bucket is out of debt (0 when it is not in debt).
func (b *eventBudget) take(n int, now time.Time) time.Duration {
	if b.rate <= 0 {
		return 0
	}
	if el := now.Sub(b.last); el > 0 {
		b.tokens += el.Seconds() * b.rate
		if b.tokens > b.burst {
			b.tokens = b.burst
		}
		b.last = now
	}
	b.tokens -= float64(n)
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens / b.rate * float64(time.Second))
}

// strikes counts a session's bad frames in a sliding window.
type strikes struct {
	max    int
	window time.Duration
	times  []time.Time // ring of the latest max+1 strike times
	next   int
	count  int
}

func newStrikes(max int, window time.Duration) *strikes {
	if max < 0 {
		max = 0
	}
	return &strikes{max: max, window: window, times: make([]time.Time, max+1)}
}

// add records a strike at now and reports whether the session has now had
// more than max strikes within the window.
func (s *strikes) add(now time.Time) bool {
	s.times[s.next] = now
	s.next = (s.next + 1) % len(s.times)
	if s.count < len(s.times) {
		s.count++
	}
	if s.count < len(s.times) {
		return false
	}
	// The oldest of the last max+1 strikes is at s.next.
	return now.Sub(s.times[s.next]) <= s.window
}

// fairShare divides the server's event budget (MaxTotalEventsPerSecond)
// evenly among the sessions sending events: each session's rate is its
// share or MaxEventsPerSecond, whichever is lower, so that a few flooding
// AMs are held back (their frames wait in their own TCP buffers) before
// they saturate the process, while an AM sending less than its share is
// never delayed. This is fair queueing by rate: max-min fairness over the
// sessions active in the last second, recounted every 100 ms.
type fairShare struct {
	total   float64
	perMax  float64
	mu      sync.Mutex
	last    map[*session]time.Time // when each session last sent events
	active  int
	counted time.Time
}

func newFairShare(total, perMax float64) *fairShare {
	return &fairShare{total: total, perMax: perMax, last: map[*session]time.Time{}, active: 1}
}

// rate notes that s sends events at now and returns its rate.
func (f *fairShare) rate(s *session, now time.Time) float64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.last[s]; !ok {
		f.active++ // a newcomer counts at once
	}
	f.last[s] = now
	if now.Sub(f.counted) >= 100*time.Millisecond {
		n := 0
		for x, at := range f.last {
			if now.Sub(at) <= time.Second {
				n++
			} else {
				delete(f.last, x)
			}
		}
		f.active, f.counted = max(n, 1), now
	}
	return min(f.perMax, f.total/float64(f.active))
}

// leave forgets s (its session ended).
func (f *fairShare) leave(s *session) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.last[s]; ok {
		delete(f.last, s)
		f.active = max(f.active-1, 1)
	}
}
