// Package testclock is a clock that tests move by hand, for the code that
// takes its time from an injected func() time.Time (bridge.Config.Now,
// cfa.ServiceConfig.Now, authguard.Guard.Now). It is safe for concurrent use: the server reads it
// on its own goroutines while the test moves it. It is for tests only and
// must not be imported by production code.
package testclock

import (
	"sync"
	"time"
)

// Clock is a settable clock; the zero Clock reads the zero time.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// New returns a Clock that reads t.
func New(t time.Time) *Clock { return &Clock{now: t} }

// Now returns the clock's time; it is what code under test is given.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}
