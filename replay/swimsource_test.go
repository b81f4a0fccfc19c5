package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSWIMStreamedWorkloadIsTheEagerOne: a SWIM trace read as its rows
// (LoadOptions.Stream) builds the same workload as the trace read whole, its
// jobs' tasks loaded (sim.Job.Load) equal to the eager ones, on the
// cluster its name tells (FB-2009: 600 machines), said in Workload.Cluster.
func TestSWIMStreamedWorkloadIsTheEagerOne(t *testing.T) {
	src := filepath.Join(shared, "swim", "FB-2009_samples_24_times_1hr_0.tsv")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	path := filepath.Join(t.TempDir(), "FB-2009_first300.tsv")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:300], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	eager, lazy := loadSWIMBoth(t, path)
	if n := checkStreamedIsEager(t, eager, lazy, ClusterOptions{}); n != lazy.JobCount() {
		t.Fatalf("%d of %d jobs streamed; want all", n, lazy.JobCount())
	}
	wl, err := WorkloadOf(lazy, ClusterOptions{})(7)
	if err != nil {
		t.Fatal(err)
	}
	if len(wl.Config.Nodes) != 600 || !strings.Contains(wl.Cluster, "600-machine") {
		t.Errorf("cluster %d nodes, %q; want 600 from the FB-2009 name", len(wl.Config.Nodes), wl.Cluster)
	}
	w, err := WorkloadOf(lazy, ClusterOptions{Nodes: 40})(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Config.Nodes) != 40 || !strings.Contains(w.Cluster, "--nodes") {
		t.Errorf("--nodes 40: cluster %d nodes, %q", len(w.Config.Nodes), w.Cluster)
	}
}

// TestSWIMClusterByName: only the SWIM repository's trace names give a
// cluster size; another SWIM file gets the default, said so.
func TestSWIMClusterByName(t *testing.T) {
	for name, want := range map[string]int{"FB-2009_samples_24_times_1hr_0.tsv": 600, "/x/FB-2010_samples_24_times_1hr_1.tsv": 3000,
		"mytrace.tsv": 0, "old-FB-2010.tsv": 0} {
		if got, _ := swimNodes(name); got != want {
			t.Errorf("swimNodes(%q) = %d, want %d", name, got, want)
		}
	}
	in := load(t, filepath.Join(shared, "swim", "FB-2009_samples_24_times_1hr_0.tsv"))
	in.Jobs, in.Nodes, in.NodesFrom = in.Jobs[:20], 0, "" // as an unnamed SWIM file
	w, err := WorkloadOf(in, ClusterOptions{})(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Config.Nodes) != DefaultNodes || !strings.Contains(w.Cluster, "default") {
		t.Errorf("unnamed SWIM input: %d nodes, %q; want the default %d, said so", len(w.Config.Nodes), w.Cluster, DefaultNodes)
	}
}

// TestSWIMRowAtTimeZero: a row submitted at the trace's time 0 is a job
// like the others, eager or streamed (it was dropped: its attempts'
// start, 0, read as unknown).
func TestSWIMRowAtTimeZero(t *testing.T) {
	path := filepath.Join(t.TempDir(), "zero.tsv")
	rows := "job0\t0\t0\t100\t100\t100\njob1\t10\t10\t100\t100\t100\n"
	if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	eager, lazy := loadSWIMBoth(t, path)
	checkStreamedIsEager(t, eager, lazy, ClusterOptions{})
	w, err := WorkloadOf(lazy, ClusterOptions{})(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Jobs) != 2 || w.Jobs[0].ID != "job0" || w.Jobs[0].Submit != 0 || w.Jobs[1].Submit != 10_000 {
		t.Fatalf("jobs %d; want job0 at 0 s and job1 at 10 s", len(w.Jobs))
	}
}

// TestSWIMCorruptRowNamedOnce: a row the model refuses is an error naming
// the file and line once, with no hint at Go fields a user cannot set.
func TestSWIMCorruptRowNamedOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.tsv")
	if err := os.WriteFile(path, []byte("job0\t5\t0\t999999999999999999\t1\t1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := Load(path, LoadOptions{Stream: true})
	if err == nil {
		_, err = WorkloadOf(in, ClusterOptions{})(1)
	}
	if err == nil || strings.Count(err.Error(), path) != 1 || !strings.Contains(err.Error(), path+" line 1: ") || strings.Contains(err.Error(), "SWIMModel") {
		t.Fatalf("error %v; want %s line 1 named once", err, path)
	}
}

// loadSWIMBoth loads the SWIM trace at path eagerly and as a stream.
func loadSWIMBoth(t *testing.T, path string) (eager, lazy *Input) {
	t.Helper()
	eager, err := Load(path, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lazy, err = Load(path, LoadOptions{Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	return eager, lazy
}
