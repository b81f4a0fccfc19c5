package all

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// BenchmarkDecide10kTasks times every registered policy's Decide, through
// the engine, for a job with 10,000 running maps (on 100 nodes, progress
// spread as a heavy-tailed job shows it, every one reported within the last
// 3 s) and 1,000 completed ones, 1 MB of input each, and ten free slots: the
// live sidecar's steady state, where the engine decides once a second and a
// policy remembers the copies it asked for. Each iteration moves the clock
// on by one second (Hadoop's scan interval) without new events; the first
// Decide, which asks for the copies, is outside the timer. The per-policy
// benchmarks (late, hadoop, hadoop-legacy, grass, farms) reset the policy's
// memory instead, to time the full work of a first Decide.
//
// Target (issue 10): under 0.5 ms per Decide for every policy.
func BenchmarkDecide10kTasks(b *testing.B) {
	reg, err := Registry()
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range reg.Names() {
		b.Run(name, func(b *testing.B) {
			const done, running = 1_000, 10_000
			sizes := make([]int64, done+running)
			for i := range sizes {
				sizes[i] = 1 << 20
			}
			h := spectest.New(b, reg, spectest.Job{Policy: name,
				Info: speculators.JobInfo{Maps: done + running, MapInputBytes: sizes, Slots: running + 10}})
			now := spectest.HeavyTail(h, done, running)
			h.Decide(now)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				now += 1000
				h.Engine.Decide(now)
			}
		})
	}
}
