package auto_test

import (
	"fmt"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/auto"
	"github.com/specbridge/specbridge/speculators/grass"
)

// BenchmarkDecideMapOnly10k is one Decide of an exact map-only job of
// 10,000 maps with 1,000 running, where rule v36's kill of copies behind
// their originals is on: with no copy running (none), and with 50 copies
// running ahead of their originals (ahead), which are visited but kept.
// The kill's scan is what it measures: before it visited only the running
// maps it cost a visit of all 10,000 maps and a count of the copies' wins
// at every Decide.
func BenchmarkDecideMapOnly10k(b *testing.B) {
	const maps, running, copies = 10000, 1000, 50
	s := speculators.Time(1000)
	for _, withCopies := range []bool{false, true} {
		name := "none"
		if withCopies {
			name = "ahead"
		}
		b.Run(name, func(b *testing.B) {
			reg := registry(b)
			e, err := reg.NewEngineWith(speculators.JobInfo{ID: "j", Maps: maps}, auto.Name, nil, 1, grass.NewMemoryStore())
			if err != nil {
				b.Fatal(err)
			}
			id := func(task int, n int32) speculators.AttemptID {
				return speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: int32(task)}, N: n}
			}
			var evs []speculators.Event
			for i := range running {
				node := speculators.NodeID(fmt.Sprintf("n%d", i%100))
				evs = append(evs,
					speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: id(i, 0), Node: node},
					speculators.Event{Kind: speculators.AttemptStatus, Time: 20 * s, Attempt: id(i, 0), Progress: 0.3, Phase: speculators.PhaseMap})
				if withCopies && i < copies {
					evs = append(evs,
						speculators.Event{Kind: speculators.AttemptStarted, Time: 5 * s, Attempt: id(i, 1), Node: "fast", Speculative: true},
						speculators.Event{Kind: speculators.AttemptStatus, Time: 20 * s, Attempt: id(i, 1), Progress: 0.6, Phase: speculators.PhaseMap})
				}
			}
			for i := range evs {
				if err := e.Observe(&evs[i]); err != nil {
					b.Fatalf("event %d: %v", i, err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				for _, d := range e.Decide(21 * s) {
					if d.Kind == speculators.Kill {
						b.Fatalf("a copy ahead of its original was killed: %s", d.Reason)
					}
				}
			}
		})
	}
}
