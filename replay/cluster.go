package replay

import (
	"fmt"
	"path"
	"strings"
)

// swimClusters are the cluster sizes of the SWIM day-long Facebook
// workloads, by the name the SWIM workloads repository gives them: FB-2009
// "comes from historical Hadoop traces on a 600-machine cluster at
// Facebook", FB-2010 from "the same cluster at Facebook, now grown to 3000
// machines" (SWIM wiki, Workloads repository; the FB-2009 README shipped with
// the trace says 600 machines too).
//
// A SWIM file carries no host names, so the name of the file is the only
// thing that tells which trace it is: a file named like the repository's
// (FB-2009_... or FB-2010_...) is replayed on that many nodes unless --nodes
// says otherwise. Any other SWIM file gets DefaultNodes, and the output says
// which size was assumed and why (Result.Cluster).
var swimClusters = []struct {
	prefix string
	nodes  int
}{
	{"FB-2009", 600},
	{"FB-2010", 3000},
}

// NodesDefaultText says, for --nodes' help, which cluster a history is
// re-executed on without the flag: its recorded hosts, or for SWIM the
// trace's own cluster when the file's name tells it, else DefaultNodes.
func NodesDefaultText() string {
	var b strings.Builder
	b.WriteString("recorded hosts; SWIM")
	for _, c := range swimClusters {
		fmt.Fprintf(&b, " %s %d,", c.prefix, c.nodes)
	}
	fmt.Fprintf(&b, " other %d", DefaultNodes)
	return b.String()
}

// swimNodes is the cluster size a SWIM file's name tells, 0 when unknown.
func swimNodes(file string) (int, string) {
	base := path.Base(strings.ReplaceAll(file, "\\", "/"))
	for _, c := range swimClusters {
		if strings.HasPrefix(base, c.prefix) {
			return c.nodes, fmt.Sprintf("SWIM %s trace: a %d-machine cluster", c.prefix, c.nodes)
		}
	}
	return 0, ""
}

// clusterNote says what cluster a recorded workload was re-executed on and
// where its size came from.
func clusterNote(nodes, slots int, from string) string {
	return fmt.Sprintf("%d nodes x %d slots (%s)", nodes, slots, from)
}
