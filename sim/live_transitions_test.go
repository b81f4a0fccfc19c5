package sim

import (
	"bufio"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/speculators"
)

// transitionSpec is testdata/live-node-pause.txt: a failure and the node
// transitions it must produce, shared with the live MRApp test in java-shim.
type transitionSpec struct {
	ints   map[string]int64
	expect []string
}

func readTransitionSpec(t *testing.T, path string) transitionSpec {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	spec := transitionSpec{ints: map[string]int64{}}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) == 0 || strings.HasPrefix(fields[0], "#"):
		case fields[0] == "expect" && len(fields) == 3:
			spec.expect = append(spec.expect, fields[1]+" "+fields[2])
		case len(fields) == 2:
			v, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
			spec.ints[fields[0]] = v
		default:
			t.Fatalf("%s:%d: cannot read %q", path, line, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"nodes", "slots", "heartbeat-ms", "gather-ms", "initial-threshold-ms", "pause-node", "pause-from-ms", "pause-for-ms"} {
		if _, ok := spec.ints[k]; !ok {
			t.Fatalf("%s: no %s", path, k)
		}
	}
	return spec
}

// A replayed failure announces the node transitions a live run of it does:
// the failure of testdata/live-node-pause.txt (one node's attempts stop
// reporting for a while), run in the simulator with the real analyzer,
// gives the transitions the file lists, which java-shim's
// NodePauseTransitionsMRAppTest checks against a live sidecar.
func TestReplayedNodePauseMatchesLive(t *testing.T) {
	spec := readTransitionSpec(t, "testdata/live-node-pause.txt")
	ms := func(k string) time.Duration { return time.Duration(spec.ints[k]) * time.Millisecond }
	ns := make([]Node, spec.ints["nodes"])
	for i := range ns {
		ns[i] = Node{Name: fmt.Sprintf("node%d", i), Slots: int(spec.ints["slots"])}
	}
	from := speculators.Time(spec.ints["pause-from-ms"])
	ns[spec.ints["pause-node"]].Episodes = []Episode{{Start: from, End: from + speculators.Time(spec.ints["pause-for-ms"]), Factor: posInf()}}
	cfg := cfgFor(ns)
	cfg.Heartbeat, cfg.DecideInterval = ms("heartbeat-ms"), 100*time.Millisecond
	cfg.Faults.Analyzer.Gather = ms("gather-ms")
	cfg.Faults.Analyzer.Detect.Initial = spec.ints["initial-threshold-ms"]
	maps := make([]speculators.Time, len(ns)*int(spec.ints["slots"]))
	for i := range maps {
		maps[i] = 60_000
	}
	p := &script{}
	res := runScript(t, cfg, []Job{{ID: "j", Maps: works(maps...)}}, p)
	if res.Jobs[0].Finish < 0 {
		t.Fatal("the job did not finish")
	}
	var got []string
	for _, ev := range p.seen {
		switch ev.Kind {
		case speculators.NodeSuspected, speculators.NodeFailed, speculators.NodeResumed:
			got = append(got, string(ev.Node)+" "+ev.Kind.String())
		}
	}
	if !reflect.DeepEqual(got, spec.expect) {
		t.Errorf("replayed transitions %q, want %q (testdata/live-node-pause.txt)", got, spec.expect)
	}
}
