package bridge

import (
	"context"
	"sync"
	"testing"
	"time"
)

// With all of the slots' time granted, a slot busy back to back never goes
// into debt: pacing costs nothing when the host keeps up.
func TestPacerFullShareNeverInDebt(t *testing.T) {
	t0 := time.Unix(1000, 0)
	p := newPacer(1, t0)
	now := t0
	for i := range 1000 {
		cost := time.Duration(i%7+1) * time.Millisecond
		now = now.Add(cost)
		p.charge(cost, now, true)
		if w := p.wait(now); w != 0 {
			t.Fatalf("turn %d: wait %v at share 1", i, w)
		}
	}
	// Two slots, two turns overlapping: the second to end is not in debt.
	p = newPacer(2, t0)
	p.charge(10*time.Millisecond, t0.Add(10*time.Millisecond), false)
	p.charge(10*time.Millisecond, t0.Add(11*time.Millisecond), true)
	if w := p.wait(t0.Add(11 * time.Millisecond)); w != 0 {
		t.Fatalf("two overlapping turns on two slots: wait %v at share 1", w)
	}
}

// At share s a turn of duration d is followed by an idle slot for about
// d/s - d (less the banked burst).
func TestPacerShareSpacesTurns(t *testing.T) {
	t0 := time.Unix(1000, 0)
	p := newPacer(1, t0)
	p.share = 0.25
	end := t0.Add(20 * time.Millisecond)
	p.charge(20*time.Millisecond, end, true)
	// Earned 5 ms during the turn, banked 5 ms: 10 ms of debt at 0.25.
	if w := p.wait(end); w < 39*time.Millisecond || w > 41*time.Millisecond {
		t.Fatalf("wait %v after a 20 ms turn at share 0.25 with 5 ms banked, want 40 ms", w)
	}
	if w := p.wait(end.Add(40 * time.Millisecond)); w != 0 {
		t.Fatalf("still waiting %v once the debt is paid", w)
	}
}

// The control law: cut by a fifth while the scheduler's p99 is over the
// target (never under minShare), grow back slowly when it is not, and
// ignore windows with too few samples.
func TestPacerAdjust(t *testing.T) {
	p := newPacer(1, time.Now())
	target := time.Millisecond
	p.adjust(5*time.Millisecond, paceMinSamples-1, target)
	if p.share != 1 {
		t.Fatalf("share %v after a window of too few samples, want 1", p.share)
	}
	p.adjust(5*time.Millisecond, 10_000, target)
	if p.share != paceDecrease {
		t.Fatalf("share %v after one congested window, want %v", p.share, paceDecrease)
	}
	for range 100 {
		p.adjust(5*time.Millisecond, 10_000, target)
	}
	if p.share != minShare {
		t.Fatalf("share %v after many congested windows, want the floor %v", p.share, minShare)
	}
	p.adjust(target, 10_000, target)
	if want := minShare + paceIncrease; p.share < want-1e-9 || p.share > want+1e-9 {
		t.Fatalf("share %v after a window at the target, want %v", p.share, want)
	}
	for range 100 {
		p.adjust(0, 10_000, target)
	}
	if p.share != 1 {
		t.Fatalf("share %v after many calm windows, want 1", p.share)
	}
}

func TestHistQuantile(t *testing.T) {
	bounds := []float64{0, 1e-6, 1e-3, 1e-2, 1e300}
	counts := []uint64{0, 98, 1, 1}
	if q := histQuantile(bounds, counts, 100, 0.99); q != 10*time.Millisecond {
		t.Fatalf("p99 %v, want 10ms", q)
	}
	if q := histQuantile(bounds, counts, 100, 0.5); q != time.Millisecond {
		t.Fatalf("p50 %v, want 1ms", q)
	}
	if q := histQuantile(bounds, []uint64{0, 0, 0, 5}, 5, 0.99); q != 10*time.Millisecond {
		t.Fatalf("p99 in the open bucket %v, want its lower bound 10ms", q)
	}
}

// While the pacer is in debt no backlogged session gets a turn, however
// many slots are free, but a light one does (it had at most its share);
// once the debt is paid the backlog goes in order.
func TestPacedTurnsLightSessionSkipsDebt(t *testing.T) {
	q := newTurns(1, time.Millisecond)
	ctx := context.Background()
	var a, heavy1, heavy2, light turnTag
	heavy1.finish, heavy2.finish = 5e9, 6e9
	first, _, err := q.acquire(ctx, &a, 100)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 3)
	var wg sync.WaitGroup
	for _, w := range []struct {
		name string
		tag  *turnTag
	}{{"heavy2", &heavy2}, {"heavy1", &heavy1}, {"light", &light}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tn, _, err := q.acquire(ctx, w.tag, 100)
			if err != nil {
				t.Error(err)
				return
			}
			got <- w.name
			tn.end()
		}()
	}
	for deadline := time.Now().Add(waitFor); q.waiting() != 3; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d waiting, want 3", q.waiting())
		}
	}
	q.mu.Lock()
	q.pace.share = minShare
	q.pace.tokens = -1e6 // deep in debt: no timer fires during the test
	q.armed = true       // and none is armed
	q.mu.Unlock()
	first.end()
	if name := <-got; name != "light" {
		t.Fatalf("%s got a turn while the pacer was in debt, want light", name)
	}
	for deadline := time.Now().Add(waitFor); ; time.Sleep(time.Millisecond) {
		q.mu.Lock()
		free := q.free
		q.mu.Unlock()
		if free == 1 { // the light turn has ended
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the light turn did not end")
		}
	}
	if n := q.waiting(); n != 2 {
		t.Fatalf("%d waiting while the pacer is in debt, want 2 (no backlogged session granted)", n)
	}
	q.mu.Lock()
	q.pace.share, q.pace.tokens, q.pace.last = 1, paceBurst.Seconds(), time.Now()
	q.mu.Unlock()
	q.kick()
	order := []string{<-got, <-got}
	wg.Wait()
	if order[0] != "heavy1" || order[1] != "heavy2" {
		t.Fatalf("the backlog went %v once the debt was paid, want heavy1, heavy2", order)
	}
}
