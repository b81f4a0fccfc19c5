package sca

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// BenchmarkDecide10kTasks times one Decide over spectest.Spread's 10,000
// running maps (a-priori mean 600 s, tail index 2): live with the cluster's
// capacity unknown, SCA solves P2 for the job alone, an exact search over
// 10,000 x 7 extra copies, and asks for each task's clones; its record is
// cleared between iterations.
func BenchmarkDecide10kTasks(b *testing.B) {
	spectest.BenchSpread(b, Policy(), speculators.JobInfo{Maps: 10_000, TaskMillis: 600_000, TailIndex: 2}, nil,
		func(s speculators.Speculator) { s.(*policy).book.Forget() })
}
