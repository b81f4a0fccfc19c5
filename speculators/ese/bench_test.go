package ese

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// BenchmarkDecide10kTasks times one Decide over 10,000 running maps on 100
// nodes (elapsed 1200-2400 s, rates 0.0001-0.0004/s, a-priori mean task
// time 600 s, tail index 2): the policy builds the backup set D(l), sorts it by t_rem and asks for a copy of each. The policy's record is
// cleared between iterations so every Decide does the full work.
func BenchmarkDecide10kTasks(b *testing.B) {
	spectest.BenchSpread(b, Policy(), speculators.JobInfo{Maps: 10_000, Slots: 10010, TaskMillis: 600_000, TailIndex: 2}, nil,
		func(s speculators.Speculator) { s.(*policy).book.Forget() })
}
