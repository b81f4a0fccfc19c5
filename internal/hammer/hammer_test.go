package hammer

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// Every worker repeats its step with its own index and a count from 0
// until Stop; Stop waits for the steps under way; a step that returns
// false ends its worker alone; a step waiting on Stopped is released by
// Stop.
func TestWorkersRepeatUntilStopped(t *testing.T) {
	const n = 4
	var counts [n]atomic.Int64
	var inStep, quit, released atomic.Int64
	l := New()
	l.Go(n, func(w, i int) bool {
		inStep.Add(1)
		defer inStep.Add(-1)
		if int64(i) != counts[w].Load() {
			t.Errorf("worker %d: step %d after %d steps", w, i, counts[w].Load())
		}
		counts[w].Add(1)
		runtime.Gosched()
		return true
	})
	l.Go(1, func(w, i int) bool {
		quit.Add(1)
		return false
	})
	l.Go(1, func(w, i int) bool {
		<-l.Stopped()
		released.Add(1)
		return true
	})
	for w := range counts {
		for counts[w].Load() < 100 { // each worker steps on its own
			runtime.Gosched()
		}
	}
	l.Stop()
	if k := inStep.Load(); k != 0 {
		t.Errorf("%d steps still running after Stop returned", k)
	}
	l.Stop() // again: no panic, nothing to wait for
	if quit.Load() != 1 || released.Load() != 1 {
		t.Errorf("a step returning false ran %d times, want 1; the waiting step was released %d times, want 1", quit.Load(), released.Load())
	}
}
