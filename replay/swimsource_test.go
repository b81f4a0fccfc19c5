package replay

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/yarnclient/history"
)

// TestSWIMStreamedWorkloadIsTheEagerOne: a SWIM trace read as its rows
// (LoadStreaming) builds the same workload as the trace read whole, its
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
	eager, err := Load(path, "", history.DefaultSWIMModel())
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := LoadStreaming(path, "", history.DefaultSWIMModel(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if lazy.Jobs != nil || lazy.JobCount() != len(eager.Jobs) {
		t.Fatalf("streamed input: %d jobs held, %d counted; want none held and %d counted", len(lazy.Jobs), lazy.JobCount(), len(eager.Jobs))
	}
	for _, seed := range []uint64{1, 7} {
		we, err := WorkloadOf(eager, ClusterOptions{})(seed)
		if err != nil {
			t.Fatal(err)
		}
		wl, err := WorkloadOf(lazy, ClusterOptions{})(seed)
		if err != nil {
			t.Fatal(err)
		}
		for i := range wl.Jobs {
			h := &wl.Jobs[i]
			if h.Load == nil || h.Maps != nil || h.Reduces != nil {
				t.Fatalf("seed %d: job %d is not streamed (Load %v, %d maps held)", seed, i, h.Load != nil, len(h.Maps))
			}
			full := *h
			if err := h.Load(&full); err != nil {
				t.Fatal(err)
			}
			if maps, reduces := h.TaskCounts(); maps != len(full.Maps) || reduces != len(full.Reduces) {
				t.Fatalf("seed %d: job %d: announced %d+%d tasks, loaded %d+%d", seed, i, maps, reduces, len(full.Maps), len(full.Reduces))
			}
			full.Load, full.NumTasks, full.LongestWork = nil, [2]int{}, 0
			wl.Jobs[i] = full
		}
		if !reflect.DeepEqual(we, wl) {
			t.Fatalf("seed %d: the streamed workload differs from the eager one", seed)
		}
		if len(wl.Config.Nodes) != 600 || !strings.Contains(wl.Cluster, "600-machine") {
			t.Errorf("seed %d: cluster %d nodes, %q; want 600 from the FB-2009 name", seed, len(wl.Config.Nodes), wl.Cluster)
		}
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
