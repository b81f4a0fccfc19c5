package replay

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestParallelOutputIdentical: a replay on several goroutines gives the
// same results, and hands Observe the same runs in the same order, byte for
// byte, as a serial one (issue 17): for a SWIM trace read eagerly, and a
// Rumen trace and a scenario streamed (LoadOptions.Stream).
func TestParallelOutputIdentical(t *testing.T) {
	swim := load(t, filepath.Join(shared, "swim", "FB-2009_samples_24_times_1hr_0.tsv"))
	swim.Jobs = swim.Jobs[:150]
	dir := t.TempDir()
	inputs := map[string]*Input{"swim": swim}
	for name, path := range map[string]string{"rumen": rumenDay(t, dir, 6), "scenario": spreadScenario(t, dir)} {
		in, err := Load(path, LoadOptions{Stream: true})
		if err != nil {
			t.Fatal(err)
		}
		inputs[name] = in
	}
	reg := registry(t)
	for name, in := range inputs {
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
				t.Errorf("%s, --parallel %d: output differs from --parallel 1 (%d vs %d bytes)", name, p, len(got), len(serial))
			}
		}
	}
}
