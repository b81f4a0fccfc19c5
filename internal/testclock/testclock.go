// Package testclock is a clock that tests move by hand, for the code that
// takes its time from an injected clock (bridge.Config.Clock and .Now,
// cfa.ServiceConfig.Now, authguard.Guard.Now). Its timers and tickers fire
// when the test moves it past their time, never on their own, so a test
// that waits on one waits on no real time. It is safe for concurrent use:
// the server reads it and waits on it on its own goroutines while the test
// moves it. It is for tests only and must not be imported by production
// code.
package testclock

import (
	"context"
	"sync"
	"time"
)

// Clock is a settable clock; the zero Clock reads the zero time.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []*waiter
	// changed is closed and replaced when a timer is made or stopped
	// (AwaitTimers).
	changed chan struct{}
}

// waiter is a timer (every 0) or a ticker, due at at.
type waiter struct {
	at    time.Time
	every time.Duration
	c     chan time.Time
}

// New returns a Clock that reads t.
func New(t time.Time) *Clock { return &Clock{now: t} }

// Now returns the clock's time; it is what code under test is given.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t, firing the timers and tickers due by then.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.fireLocked()
	c.mu.Unlock()
}

// Advance moves the clock on by d, firing the timers and tickers due by
// then.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.fireLocked()
	c.mu.Unlock()
}

// fireLocked sends the time to every waiter due by now: a timer once (and
// it is gone), a ticker once however many of its periods passed (as a
// time.Ticker drops ticks a slow reader missed), its next time the first
// period after now.
func (c *Clock) fireLocked() {
	live := c.waiters[:0]
	fired := false
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			live = append(live, w)
			continue
		}
		select {
		case w.c <- c.now:
		default: // a ticker whose last tick is unread
		}
		if w.every > 0 {
			for !w.at.After(c.now) {
				w.at = w.at.Add(w.every)
			}
			live = append(live, w)
		} else {
			fired = true
		}
	}
	clear(c.waiters[len(live):])
	c.waiters = live
	if fired {
		c.changedLocked()
	}
}

// NewTimer returns a channel that receives the clock's time once the clock
// reaches d from now, and a stop that cancels it (false if it had fired or
// was stopped), as time.NewTimer. d <= 0 fires at once.
func (c *Clock) NewTimer(d time.Duration) (<-chan time.Time, func() bool) {
	w := c.add(d, 0)
	return w.c, func() bool { return c.remove(w) }
}

// NewTicker returns a channel that receives the clock's time each time
// the clock passes another period d (d > 0), and a stop that ends it, as
// time.NewTicker.
func (c *Clock) NewTicker(d time.Duration) (<-chan time.Time, func()) {
	if d <= 0 {
		panic("testclock: non-positive ticker period")
	}
	w := c.add(d, d)
	return w.c, func() { c.remove(w) }
}

func (c *Clock) add(d, every time.Duration) *waiter {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := &waiter{at: c.now.Add(d), every: every, c: make(chan time.Time, 1)}
	c.waiters = append(c.waiters, w)
	c.changedLocked()
	c.fireLocked()
	return w
}

func (c *Clock) remove(w *waiter) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, x := range c.waiters {
		if x == w {
			c.waiters = append(c.waiters[:i], c.waiters[i+1:]...)
			c.changedLocked()
			return true
		}
	}
	return false
}

func (c *Clock) changedLocked() {
	if c.changed != nil {
		close(c.changed)
		c.changed = nil
	}
}

// Timers returns how long each pending timer (not ticker) has left to
// run, in the order they were made.
func (c *Clock) Timers() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	var left []time.Duration
	for _, w := range c.waiters {
		if w.every == 0 {
			left = append(left, w.at.Sub(c.now))
		}
	}
	return left
}

// AwaitTimers blocks until at least n timers (not tickers) are pending,
// and returns what each has left (Timers), or ctx's error: the condition a
// test waits on before it moves the clock past a timer the code under test
// sets on another goroutine.
func (c *Clock) AwaitTimers(ctx context.Context, n int) ([]time.Duration, error) {
	for {
		c.mu.Lock()
		if c.changed == nil {
			c.changed = make(chan struct{})
		}
		ch := c.changed
		c.mu.Unlock()
		if left := c.Timers(); len(left) >= n {
			return left, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
