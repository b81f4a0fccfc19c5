package hadoop

import (
	"math/rand/v2"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// BenchmarkDecide10kTasks measures one scan of a job with 10,000 running
// maps and 1,000 completed ones, reports 0-3 s old and progress spread as a
// heavy-tailed job would show. Each iteration is a due scan (the clock moves
// by retry-after-speculate).
func BenchmarkDecide10kTasks(b *testing.B) {
	const done, running = 1_000, 10_000
	h := spectest.For(b, Policy(), speculators.JobInfo{ID: "job_test", Maps: done + running, Reduces: 0}, nil)
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < done; i++ {
		h.Completed("node1", 0, 20_000+rng.Int64N(10_000), spectest.Map(i))
	}
	now := speculators.Time(60_000)
	for i := done; i < done+running; i++ {
		start := 30_000 + rng.Int64N(25_000)
		report := now - rng.Int64N(3_000)
		rate := 1 / (20_000 * (1 + rng.ExpFloat64()*0.3)) // progress per ms
		h.Running(spectest.Map(i), "node1", start, report, min(0.99, float64(report-start)*rate))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.Engine.Decide(now)
		now += 15_000
	}
}
