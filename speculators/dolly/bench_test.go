package dolly

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// BenchmarkDecide10kTasks times one Decide over spectest.Spread's 10,000
// running maps: with small-job-tasks raised to 20000 the job counts as
// small, and with the capacity unknown no budget applies, so Dolly asks for
// a clone of each; its record is cleared between iterations.
func BenchmarkDecide10kTasks(b *testing.B) {
	spectest.BenchSpread(b, Policy(), speculators.JobInfo{Maps: 10_000, TaskMillis: 600_000, TailIndex: 2}, map[string]string{"small-job-tasks": "20000"},
		func(s speculators.Speculator) { s.(*policy).book.Forget() })
}
