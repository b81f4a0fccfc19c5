package replay

import (
	"path/filepath"
	"testing"

	"github.com/specbridge/specbridge/speculators/grass"
)

// BenchmarkSimulateSWIM re-executes the whole SWIM Facebook 2009 day
// (5,894 jobs) under hadoop and reports simulator events per second. Not
// under none: a policy that reads no status report is sent no heartbeats
// (sim/heartbeats.go), so its run has few events, each a costly one, and
// its events/s no longer says how fast the simulator handles a policy's
// event stream.
func BenchmarkSimulateSWIM(b *testing.B) {
	in := load(b, filepath.Join(shared, "swim", "FB-2009_samples_24_times_1hr_0.tsv"))
	w, err := FromHistory(in.Jobs, ClusterOptions{}, 1)
	if err != nil {
		b.Fatal(err)
	}
	reg := registry(b)
	opts := Options{Registry: reg}
	var events int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, _, err := runOne(w, "hadoop", opts, 1, grass.NewMemoryStore())
		if err != nil {
			b.Fatal(err)
		}
		events += res.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
