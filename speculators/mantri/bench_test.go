package mantri

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// BenchmarkDecide10kTasks times one Decide over 10,000 running maps (100
// nodes, heavy-tailed progress, all reported within 3 s) and 1,000 completed
// ones with ten free slots and nothing waiting: every running task's
// P(c t_rem > (c+1) t_new) against the completions, and the ten most likely
// copied. The policy's pending marks are cleared outside the timer, so every
// Decide does the whole work.
func BenchmarkDecide10kTasks(b *testing.B) {
	const done, running = 1_000, 10_000
	h := spectest.For(b, Policy(), speculators.JobInfo{Maps: done + running, Slots: running + 10}, nil)
	rng := rand.New(rand.NewPCG(7, 7))
	node := func(i int) speculators.NodeID { return speculators.NodeID(fmt.Sprintf("node%03d", i%100)) }
	for i := 0; i < done; i++ {
		h.Complete(spectest.Map(i), node(i), 0, 20_000+rng.Int64N(10_000))
	}
	now := speculators.Time(120_000)
	for i := done; i < done+running; i++ {
		start := 30_000 + rng.Int64N(60_000)
		report := now - rng.Int64N(3_000)
		rate := 1 / (60_000 * (1 + rng.ExpFloat64()*0.5)) // progress per ms
		h.Running(spectest.Map(i), node(i), start, report, min(0.99, float64(report-start)*rate))
	}
	p := h.Policy().(*policy)
	var out []speculators.Decision
	if out = p.Decide(h.Job(), now, out); len(out) != 10 {
		b.Fatalf("decide asked for %d copies, want 10", len(out))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		clear(p.pending[speculators.Map])
		p.pendingCount = 0
		b.StartTimer()
		out = p.Decide(h.Job(), now, out[:0])
	}
}
