package bridge

import (
	"testing"
	"time"
)

func TestEventBudget(t *testing.T) {
	now := time.Unix(0, 0)
	b := newEventBudget(100, now)
	if w := b.take(100, now); w != 0 {
		t.Fatalf("the burst waits %v", w)
	}
	if w := b.take(50, now); w != 500*time.Millisecond {
		t.Fatalf("50 over the budget waits %v, want 500ms", w)
	}
	// After the debt is paid and one more second passes, a full burst is free.
	if w := b.take(100, now.Add(1500*time.Millisecond)); w != 0 {
		t.Fatalf("after refilling: wait %v", w)
	}
	if w := newEventBudget(0, now).take(1e9, now); w != 0 {
		t.Fatalf("unlimited budget waits %v", w)
	}
}

func TestStrikesWindow(t *testing.T) {
	now := time.Unix(0, 0)
	s := newStrikes(2, time.Minute)
	if s.add(now) || s.add(now.Add(time.Second)) {
		t.Fatal("two strikes of two allowed ended the session")
	}
	if !s.add(now.Add(2 * time.Second)) {
		t.Fatal("a third strike within the window was allowed")
	}
	s = newStrikes(2, time.Minute)
	s.add(now)
	s.add(now.Add(time.Second))
	if s.add(now.Add(2 * time.Minute)) {
		t.Fatal("strikes older than the window counted")
	}
}
