package ese

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// BenchmarkDecide10kTasks times one Decide over spectest.Spread's 10,000
// running maps of a job with an a-priori mean task time of 600 s and tail
// index 2: ESE builds the backup set D(l), sorts it by t_rem and asks for a
// copy of each, its record cleared between iterations.
func BenchmarkDecide10kTasks(b *testing.B) {
	spectest.BenchSpread(b, Policy(), speculators.JobInfo{Maps: 10_000, Slots: 10010, TaskMillis: 600_000, TailIndex: 2}, nil,
		func(s speculators.Speculator) { s.(*policy).book.Forget() })
}
