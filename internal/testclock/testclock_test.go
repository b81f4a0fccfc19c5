package testclock

import (
	"context"
	"testing"
	"time"
)

func TestClockMovesOnlyWhenTold(t *testing.T) {
	t0 := time.UnixMilli(1_700_000_000_000)
	c := New(t0)
	if got := c.Now(); !got.Equal(t0) {
		t.Fatalf("Now %v, want %v", got, t0)
	}
	c.Advance(1500 * time.Millisecond)
	if got := c.Now(); !got.Equal(t0.Add(1500 * time.Millisecond)) {
		t.Fatalf("after Advance: %v", got)
	}
	c.Set(t0.Add(-time.Hour))
	if got := c.Now(); !got.Equal(t0.Add(-time.Hour)) {
		t.Fatalf("after Set: %v", got)
	}
	var zero Clock
	if !zero.Now().IsZero() {
		t.Fatalf("the zero Clock reads %v", zero.Now())
	}
}

// Timers and tickers fire when the clock is moved past them, never on
// their own: a timer once, a ticker once per move however many periods
// it spans, a stopped one never.
func TestTimersFireOnlyWhenMoved(t *testing.T) {
	t0 := time.UnixMilli(1_700_000_000_000)
	c := New(t0)
	timer, stop := c.NewTimer(500 * time.Millisecond)
	tick, stopTick := c.NewTicker(time.Second)
	other, stopOther := c.NewTimer(time.Hour)
	ready := func(ch <-chan time.Time) (time.Time, bool) {
		select {
		case at := <-ch:
			return at, true
		default:
			return time.Time{}, false
		}
	}
	if _, ok := ready(timer); ok {
		t.Fatal("a timer fired before the clock moved")
	}
	if left := c.Timers(); len(left) != 2 || left[0] != 500*time.Millisecond || left[1] != time.Hour {
		t.Fatalf("Timers() = %v, want [500ms 1h]", left)
	}
	c.Advance(499 * time.Millisecond)
	if _, ok := ready(timer); ok {
		t.Fatal("fired 1 ms early")
	}
	c.Advance(time.Millisecond)
	if at, ok := ready(timer); !ok || !at.Equal(t0.Add(500*time.Millisecond)) {
		t.Fatalf("timer: %v, %v; want it fired at t0+500ms", at, ok)
	}
	if stop() {
		t.Error("stop of a fired timer reports it stopped")
	}
	c.Advance(3 * time.Second) // three periods: one tick
	if at, ok := ready(tick); !ok || !at.Equal(t0.Add(3500*time.Millisecond)) {
		t.Fatalf("tick: %v, %v", at, ok)
	}
	if _, ok := ready(tick); ok {
		t.Fatal("a second tick for one move")
	}
	c.Advance(500 * time.Millisecond) // the next period ends at t0+4s
	if _, ok := ready(tick); !ok {
		t.Fatal("no tick at the next period")
	}
	stopTick()
	if !stopOther() {
		t.Error("stop of a pending timer reports it was not pending")
	}
	c.Advance(2 * time.Hour)
	if _, ok := ready(tick); ok {
		t.Error("a stopped ticker ticked")
	}
	if _, ok := ready(other); ok {
		t.Error("a stopped timer fired")
	}
}

// AwaitTimers returns once another goroutine has made the timer, with
// what it has left; a context that ends first is its error.
func TestAwaitTimers(t *testing.T) {
	c := New(time.UnixMilli(0))
	go c.NewTimer(250 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	left, err := c.AwaitTimers(ctx, 1)
	if err != nil || len(left) != 1 || left[0] != 250*time.Millisecond {
		t.Fatalf("AwaitTimers: %v, %v", left, err)
	}
	short, cancelShort := context.WithCancel(context.Background())
	cancelShort()
	if _, err := c.AwaitTimers(short, 2); err == nil {
		t.Error("AwaitTimers returned without the timers or an error")
	}
}
