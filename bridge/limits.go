package bridge

import "time"

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
