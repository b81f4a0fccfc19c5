package hadooplegacy

import (
	"math/rand/v2"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// BenchmarkDecide10kTasks measures one Decide of a job with 10,000 running
// maps and 1,000 completed ones, progress spread as a heavy-tailed job would
// show, and 100 free containers, so each call hands out up to 100 copies.
// The policy's memory of what it launched is cleared between iterations
// (outside the timer) so every iteration does the same work.
func BenchmarkDecide10kTasks(b *testing.B) {
	const done, running = 1_000, 10_000
	h := newHarness(b, speculators.JobInfo{Maps: done + running, Slots: running + 100}, nil)
	rng := rand.New(rand.NewPCG(7, 7))
	for i := int32(0); i < done; i++ {
		h.event(speculators.AttemptStarted, m(i), 0, 0, 0)
		h.event(speculators.AttemptSucceeded, m(i), 0, 20_000+rng.Int64N(10_000), 0)
	}
	now := speculators.Time(120_000)
	for i := int32(done); i < done+running; i++ {
		start := 30_000 + rng.Int64N(60_000)
		report := now - rng.Int64N(3_000)
		rate := 1 / (60_000 * (1 + rng.ExpFloat64()*0.5)) // progress per ms
		h.run(m(i), start, report, min(0.99, float64(report-start)*rate))
	}
	p := h.e.Policy.(*policy)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		clear(p.tasks[speculators.Map])
		b.StartTimer()
		if len(h.e.Decide(now)) == 0 {
			b.Fatal("no stragglers: the benchmark measures nothing")
		}
	}
}
