package dolly

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// BenchmarkDecide10kTasks times one Decide over 10,000 running maps on 100
// nodes (elapsed 1200-2400 s, rates 0.0001-0.0004/s, a-priori mean task
// time 600 s, tail index 2): the policy asks for a clone of each of them (small-job-tasks raised to 20000 so that
// the job counts as small; capacity unknown, so no budget). The policy's record is
// cleared between iterations so every Decide does the full work.
func BenchmarkDecide10kTasks(b *testing.B) {
	spectest.BenchSpread(b, Policy(), speculators.JobInfo{Maps: 10_000, TaskMillis: 600_000, TailIndex: 2}, map[string]string{"small-job-tasks": "20000"},
		func(s speculators.Speculator) { s.(*policy).book.Forget() })
}
