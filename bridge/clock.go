package bridge

import "time"

// Clock is the server's time: what it reads and what it waits on. Every
// timer of the server runs on it: a session's decide ticker, its event
// budget (the wait of a session over it, and the fair share that sets its
// rate), and the orphan sweep; a test gives a clock it moves by hand
// (internal/testclock) and waits on no real time. Two things stay on the
// wall clock by nature: the connection's read and write deadlines (the
// kernel's), and the fair queue's pacing (turns.go, pace.go), which
// measures how long the machine's scheduler takes to run a goroutine and
// so must read real time.
type Clock interface {
	Now() time.Time
	// NewTimer returns a channel that receives the time once d has
	// passed, and a stop that cancels it, as time.NewTimer.
	NewTimer(d time.Duration) (<-chan time.Time, func() bool)
	// NewTicker returns a channel that receives the time every d, and a
	// stop that ends it, as time.NewTicker.
	NewTicker(d time.Duration) (<-chan time.Time, func())
}

// wallClock is the wall clock's timers, read with now (Config.Now).
type wallClock struct{ now func() time.Time }

func (c wallClock) Now() time.Time { return c.now() }

func (wallClock) NewTimer(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}

func (wallClock) NewTicker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}
