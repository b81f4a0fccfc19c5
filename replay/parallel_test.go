package replay

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestParallelOutputIdentical: a replay on several goroutines gives the
// same results, and hands Observe the same runs in the same order, byte for
// byte, as a serial one (issue 17).
func TestParallelOutputIdentical(t *testing.T) {
	in := load(t, filepath.Join(shared, "swim", "FB-2009_samples_24_times_1hr_0.tsv"))
	in.Jobs = in.Jobs[:150]
	reg := registry(t)
	replayWith := func(parallel int) []byte {
		var buf bytes.Buffer
		jobs, err := NewJobsWriter(&buf, "csv")
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{Speculators: []string{"hadoop", "late", "none"}, Seed: 3, Runs: 2, Registry: reg, Parallel: parallel,
			Observe: func(r *Run) error { return jobs.Write(JobRows("fb", r)) }}
		res, err := Simulate(WorkloadOf(in, opts.Cluster), opts)
		if err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		return append(buf.Bytes(), out...)
	}
	serial := replayWith(1)
	for _, p := range []int{2, 4} {
		if got := replayWith(p); !bytes.Equal(got, serial) {
			t.Errorf("--parallel %d: output differs from --parallel 1 (%d vs %d bytes)", p, len(got), len(serial))
		}
	}
}
