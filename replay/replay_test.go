package replay

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/all/alltest"
	"github.com/specbridge/specbridge/yarnclient/history"
)

const shared = "../data" // the bundled inputs (data/README.md)

func registry(t testing.TB) *speculators.Registry {
	t.Helper()
	return alltest.Registry(t)
}

// bySpeculator indexes results by their policy.
func bySpeculator(res []Result) map[string]Result {
	out := map[string]Result{}
	for _, r := range res {
		out[r.Speculator] = r
	}
	return out
}

func load(t testing.TB, path string) *Input {
	t.Helper()
	in, err := Load(path, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func simulateJSON(t *testing.T, path string, opts Options) []byte {
	t.Helper()
	in := load(t, path)
	res, err := Simulate(WorkloadOf(in, opts.Cluster), opts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rep := &Report{Input: path, Format: string(in.Format), Mode: "simulate", Seed: opts.Seed, Runs: opts.Runs, Results: res}
	if err := rep.Write(&buf, "json"); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Same inputs and seed give byte-identical output; another seed does not.
func TestDeterministic(t *testing.T) {
	reg := registry(t)
	opts := Options{Speculators: reg.Names(), Seed: 7, Runs: 2, Registry: reg}
	path := "../scenarios/late-ec2-stragglers.yaml"
	a, b := simulateJSON(t, path, opts), simulateJSON(t, path, opts)
	if !bytes.Equal(a, b) {
		t.Fatalf("two runs with seed 7 differ:\n%s\n---\n%s", a, b)
	}
	opts.Seed = 8
	if c := simulateJSON(t, path, opts); bytes.Equal(a, bytes.Replace(c, []byte(`"seed": 8`), []byte(`"seed": 7`), 1)) {
		t.Fatal("seeds 7 and 8 gave the same figures")
	}
}

// Every bundled input (data/: both .jhist files and the SWIM trace) replays in both modes.
func TestSharedDataReplaysInBothModes(t *testing.T) {
	reg := registry(t)
	paths, _ := filepath.Glob(filepath.Join(shared, "jhist", "*.jhist"))
	swim, _ := filepath.Glob(filepath.Join(shared, "swim", "*.tsv"))
	paths = append(paths, swim...)
	if len(paths) < 3 {
		t.Fatalf("found %d bundled inputs, want the two .jhist files and the SWIM trace", len(paths))
	}
	for _, p := range paths {
		in := load(t, p)
		names := reg.Names()
		if in.Format == history.FormatSWIM {
			names = []string{"none", "late"} // the whole day is large; two policies prove it replays
		}
		opts := Options{Speculators: names, Seed: 1, Runs: 1, Registry: reg}
		res, err := Simulate(WorkloadOf(in, opts.Cluster), opts)
		if err != nil {
			t.Fatalf("%s simulate: %v", p, err)
		}
		for _, r := range res {
			if r.Jobs != len(in.Jobs) || r.Tasks == 0 || r.UnfinishedJobs != 0 || r.MeanJobS <= 0 {
				t.Fatalf("%s %s: %+v", p, r.Speculator, r)
			}
		}
		dres, _, err := Decide(in, opts)
		if err != nil {
			t.Fatalf("%s decisions: %v", p, err)
		}
		if len(dres) != len(names) || dres[0].Tasks == 0 {
			t.Fatalf("%s decisions: %+v", p, dres)
		}
	}
}

// The 0.23 history records no avataar; decisions mode still sees attempts
// that overlapped an earlier one as speculative, and a policy run over the
// recorded timeline refuses none of its events.
func TestDecisionsOnRecordedTimeline(t *testing.T) {
	reg := registry(t)
	for _, p := range []string{"job_0.23.9-FAILED.jhist", "job_2.4.0-FAILED.jhist"} {
		in := load(t, filepath.Join(shared, "jhist", p))
		res, _, err := Decide(in, Options{Speculators: reg.Names(), Seed: 1, Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.SkippedEvents != 0 {
				t.Errorf("%s %s: %d recorded events refused", p, r.Speculator, r.SkippedEvents)
			}
		}
	}
}

func TestBadInputsNameFileAndLine(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(shared, "jhist", "job_2.4.0-FAILED.jhist"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	cut := filepath.Join(dir, "cut.jhist")
	// Keep 10 whole lines and half of the 11th.
	os.WriteFile(cut, []byte(strings.Join(lines[:10], "")+lines[10][:len(lines[10])/2]), 0o644)
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("cluster:\n  nodes: [{count: 1, slots: 1}]\nworkload:\n  jobs: [{count: 0, maps: 1, map_s: 1}]\n"), 0o644)
	for path, want := range map[string]string{cut: "line 11", bad: "line 4"} {
		_, err := Load(path, LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%s) error %v: want the file and %q", path, err, want)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing.jhist"), LoadOptions{}); err == nil {
		t.Error("missing file loaded")
	}
}

// An attempt whose recorded finish is years after the job's start (a
// damaged time) is an error naming the file and job in decisions mode: its
// reports every 3 s and the decisions every second never ended.
func TestDecisionsRefuseADamagedSpan(t *testing.T) {
	data, err := os.ReadFile("../yarnclient/history/testdata/job_3.5-SUCCEEDED-speculative.jhist")
	if err != nil {
		t.Fatal(err)
	}
	// The first map attempt's finish, 200 million seconds on.
	text := strings.Replace(string(data), `"finishTime":1795291807312`, `"finishTime":1995291807312`, 1)
	path := filepath.Join(t.TempDir(), "damaged.jhist")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := registry(t)
	_, _, err = Decide(load(t, path), Options{Speculators: []string{"late"}, Seed: 1, Registry: reg})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "over the limit of 2592000000 ms") {
		t.Fatalf("error %v, want one naming %s and the limit", err, path)
	}
}
