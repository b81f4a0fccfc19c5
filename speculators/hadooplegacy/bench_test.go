package hadooplegacy

import (
	"math/rand/v2"
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
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < done; i++ {
		h.Start(m(i), "node1", 0)
		h.Succeed(speculators.AttemptID{Task: m(i), N: 0}, 20_000+rng.Int64N(10_000))
	}
	now := speculators.Time(120_000)
	for i := done; i < done+running; i++ {
		start := 30_000 + rng.Int64N(60_000)
		report := now - rng.Int64N(3_000)
		rate := 1 / (60_000 * (1 + rng.ExpFloat64()*0.5)) // progress per ms
		h.Running(m(i), "node1", start, report, min(0.99, float64(report-start)*rate))
	}
	p := h.Engine.Policy.(*policy)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		clear(p.tasks[speculators.Map])
		b.StartTimer()
		if len(h.Engine.Decide(now)) == 0 {
			b.Fatal("no stragglers: the benchmark measures nothing")
		}
	}
}
