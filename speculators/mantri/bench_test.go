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
// copied. The policy's own Decide is timed (spectest.BenchHeavyTail): the
// engine's copy ledger is not kept, so every Decide does the whole work.
func BenchmarkDecide10kTasks(b *testing.B) {
	spectest.BenchHeavyTail(b, Policy(), 1_000, 10_000, 10, 10, func(speculators.Speculator) {})
}
