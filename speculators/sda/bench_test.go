package sda

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// BenchmarkDecide10kTasks times one Decide over 10,000 running maps on 100
// nodes (elapsed 1200-2400 s, rates 0.0001-0.0004/s, a-priori mean task
// time 600 s, tail index 2): the policy scans them for stragglers (t_rem against sigma* E[t_new]) and asks for a copy of each. The policy's record is
// cleared between iterations so every Decide does the full work.
func BenchmarkDecide10kTasks(b *testing.B) {
	const maps = 10000
	h := spectest.For(b, Policy(), speculators.JobInfo{Maps: maps, Slots: maps + 10, TaskMillis: 600_000, TailIndex: 2}, nil)
	now := spectest.Spread(h, maps)
	spectest.BenchEngineDecide(b, h, now, 1, h.Policy().(*policy).book.Forget)
}
