package late

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// benchJob builds a job of 10,000 maps running on 100 nodes with varied
// progress (elapsed 1200-2400 s, rates 0.0001-0.0004/s) and ten free slots.
func benchJob(b *testing.B) (*spectest.Harness, speculators.Time) {
	const maps = 10000
	h := spectest.For(b, Policy(), speculators.JobInfo{Maps: maps, Slots: maps + 10}, nil)
	return h, spectest.Spread(h, maps)
}

// BenchmarkDecide10kTasks times one Decide over 10,000 running maps: it
// samples every rate, takes the percentile, ranks the slow quarter and
// launches ten copies (one allocation each: its reason). The policy's own
// Decide is timed, its marks reset between iterations, so every Decide does
// the full work (the engine's copy ledger would hold the first ten).
func BenchmarkDecide10kTasks(b *testing.B) {
	h, now := benchJob(b)
	spectest.BenchDecide(b, h, now, 10, h.Policy().(*policy).forget)
}

// BenchmarkAllowSpeculativeOn10kTasks times the node gate over the same job
// after a status report, so every call sums the nodes' work again.
func BenchmarkAllowSpeculativeOn10kTasks(b *testing.B) {
	h, now := benchJob(b)
	a := speculators.AttemptID{Task: spectest.Map(0)}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		h.Status(a, now, 0.5)
		h.Engine.AllowSpeculativeOn("node042", now)
	}
}
