package hadooplegacy

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// BenchmarkDecide10kTasks measures one Decide of a job with 10,000 running
// maps and 1,000 completed ones, progress spread as a heavy-tailed job would
// show, and 100 free containers, so each call hands out up to 100 copies.
// The policy's memory of what it launched is cleared between iterations
// (outside the timer) so every iteration does the same work.
func BenchmarkDecide10kTasks(b *testing.B) {
	const done, running = 1_000, 10_000
	h := spectest.For(b, Policy(), speculators.JobInfo{Maps: done + running, Slots: running + 100}, nil)
	now := spectest.HeavyTail(h, done, running)
	p := h.Engine.Policy.(*policy)
	spectest.BenchDecide(b, h, now, 1, func() { clear(p.tasks[speculators.Map]) })
}
