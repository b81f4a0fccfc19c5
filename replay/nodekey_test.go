package replay

import (
	"path/filepath"
	"strings"
	"testing"
)

// A mini cluster's three NodeManagers share the host localhost: the replay's
// recorded cluster has the three of them, named host:port as the shim names
// nodes live, not one node of localhost.
func TestRecordedClusterTellsNodeManagersOfAHostApart(t *testing.T) {
	for _, streaming := range []bool{false, true} {
		in := load(t, "testdata/minicluster-3nm.jhist")
		if streaming {
			_, in = loadBoth(t, "testdata/minicluster-3nm.jhist")
		}
		w, err := WorkloadOf(in, ClusterOptions{})(1)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Config.Nodes) != 3 {
			t.Fatalf("streaming %v: %d nodes (%s), want the 3 NodeManagers", streaming, len(w.Config.Nodes), w.Cluster)
		}
		for _, n := range w.Config.Nodes {
			if !strings.HasPrefix(n.Name, "localhost:") {
				t.Errorf("streaming %v: node %q, want localhost:PORT", streaming, n.Name)
			}
		}
	}
}

// Hosts that each ran one NodeManager keep their names: one node a host.
func TestRecordedClusterOfOneNodeManagerAHost(t *testing.T) {
	w, err := WorkloadOf(load(t, filepath.Join(shared, "jhist", "job_2.4.0-FAILED.jhist")), ClusterOptions{})(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Config.Nodes) != 1 || w.Config.Nodes[0].Name != "localhost" {
		t.Errorf("nodes %+v, want the one host localhost", w.Config.Nodes)
	}
}
