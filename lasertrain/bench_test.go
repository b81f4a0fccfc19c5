package lasertrain

import "testing"

// BenchmarkTrainDefault trains the bundled default model (the issue's
// target: under a minute on 2 cores).
func BenchmarkTrainDefault(b *testing.B) {
	srcs := sources(b, "scenarios/laser-pocd.yaml", "yarnclient/history/testdata")
	for b.Loop() {
		if _, err := Train(srcs, DefaultConfig()); err != nil {
			b.Fatal(err)
		}
	}
}
