package sca

import (
	"fmt"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// BenchmarkDecide10kTasks times one Decide over 10,000 running maps on 100
// nodes (elapsed 1200-2400 s, rates 0.0001-0.0004/s, a-priori mean task
// time 600 s, tail index 2): the policy asks for the P2 clones of each of them (live with the cluster's capacity unknown:
// P2 for the job alone, an exact search over 10,000 x 7 extra copies). The policy's record is
// cleared between iterations so every Decide does the full work.
func BenchmarkDecide10kTasks(b *testing.B) {
	const maps = 10000
	h := spectest.For(b, Policy(), speculators.JobInfo{Maps: maps, TaskMillis: 600_000, TailIndex: 2}, nil)
	now := spectest.Sec(3600)
	for i := 0; i < maps; i++ {
		node := speculators.NodeID(fmt.Sprintf("node%03d", i%100))
		start := spectest.Sec(float64(1200 + i%1200))
		rate := 0.0001 + 0.000003*float64((i*7919)%100)
		h.Run(spectest.Map(i), node, start, rate, now)
	}
	if first := len(h.Decide(now)); first == 0 {
		b.Fatal("the first Decide asked for nothing: the benchmark would time an empty scan")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		h.Policy().(*policy).book.Forget()
		h.Engine.Decide(now)
	}
}
