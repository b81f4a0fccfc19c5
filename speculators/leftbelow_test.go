package speculators

import (
	"math"
	"math/rand/v2"
	"testing"
)

// LeftStaysBelow's time is a true bound: at every ms from now up to it the
// attempt's PhaseTimeLeft stays at or below the given ms (maps and reduces,
// in and out of a phase with progress), and it is not far early: a few ms
// after it the estimate has passed the level (or it never does).
func TestLeftStaysBelow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	checked := 0
	for range 2000 {
		a := &Attempt{State: StateRunning, Start: Time(rng.IntN(5000)), Progress: rng.Float64()}
		if rng.IntN(2) == 0 {
			a.Phase = PhaseReduce
			a.PhaseStart = a.Start + Time(rng.IntN(4000))
			a.PhaseStartProgress = a.Progress * rng.Float64()
		}
		now := max(a.Start, a.PhaseStart) + 1 + Time(rng.IntN(3000))
		level := float64(rng.IntN(200000) + 1)
		until, ok := a.LeftStaysBelow(now, level)
		if !ok {
			t.Fatalf("%+v at %d: no answer", a, now)
		}
		if until == math.MaxInt64 {
			continue
		}
		for at := now; at <= until; at += max(1, (until-now)/500) {
			if left := a.PhaseTimeLeft(at) * 1000; left > level {
				t.Fatalf("%+v: left %v ms at %d above %v, inside the bound %d", a, left, at, level, until)
			}
		}
		if left := a.PhaseTimeLeft(until+2) * 1000; left <= level*(1-1e-5) {
			t.Fatalf("%+v: left %v ms at %d, just past the bound %d, still well below %v", a, left, until+2, until, level)
		}
		checked++
	}
	if checked < 1000 {
		t.Fatalf("only %d bounds checked", checked)
	}
	done := &Attempt{State: StateRunning, Progress: 1}
	if u, ok := done.LeftStaysBelow(10, 5); !ok || u != math.MaxInt64 {
		t.Errorf("finished work: %d %v, want never", u, ok)
	}
	fresh := &Attempt{State: StateRunning, Start: 10}
	if _, ok := fresh.LeftStaysBelow(20, 5); ok {
		t.Error("no progress yet: want no answer")
	}
	edge := &Attempt{State: StateRunning, Start: 0, Progress: 0.5, Phase: PhaseReduce, PhaseStart: 20, PhaseStartProgress: 0.4}
	if _, ok := edge.LeftStaysBelow(20, 5); ok {
		t.Error("phase begun at now: want no answer")
	}
}
