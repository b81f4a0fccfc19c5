package testclock

import (
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
