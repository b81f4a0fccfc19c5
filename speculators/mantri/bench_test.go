package mantri

import (
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
	spectest.BenchHeavyTail(b, Policy(), 1_000, 10_000, 10, 10, func(s speculators.Speculator) {
		p := s.(*policy)
		for i := range p.tasks[speculators.Map] {
			p.tasks[speculators.Map][i].pending = false
		}
		p.pendingCount = 0
	})
}
