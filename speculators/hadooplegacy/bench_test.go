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
	spectest.BenchHeavyTail(b, Policy(), 1_000, 10_000, 100, 1, func(s speculators.Speculator) { clear(s.(*policy).tasks[speculators.Map]) })
}
