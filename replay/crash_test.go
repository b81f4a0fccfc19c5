package replay

import (
	"math"
	"testing"
	"time"

	"github.com/specbridge/specbridge/yarnclient/history"
)

// crashJob is a calibratable job of 4 maps, one a host h1..h4, 20 s each;
// map 3's attempt on h4 times out 30 s after its last report at 10 s and a
// retry on h1 succeeds. With later, h4 runs one more map, which succeeds,
// 40 s after the timeout.
func crashJob(later bool) *history.Job {
	const at = 1_700_000_000_000
	j := &history.Job{ID: "job_1700000000000_0001", Status: history.Succeeded, Submit: at, Launch: at + 1000}
	att := func(host string, start, finish int64, status, diag string) history.Attempt {
		return history.Attempt{Host: host, Start: at + start, Finish: at + finish, Status: status, Error: diag}
	}
	for i, h := range []string{"h1", "h2", "h3", "h4"} {
		t := history.Task{Type: history.Map, Index: i, Status: history.Succeeded}
		if h == "h4" {
			t.Attempts = []history.Attempt{
				att("h4", 2000, 45_000, history.Failed, "AttemptID:attempt_1700000000000_0001_m_000003_0 task timeout set: 30s, taskTimedOut: true; task stuck timeout set: 600s, taskStuck: false"),
				att("h1", 46_000, 66_000, history.Succeeded, ""),
			}
		} else {
			t.Attempts = []history.Attempt{att(h, 2000, 22_000, history.Succeeded, "")}
		}
		j.Tasks = append(j.Tasks, t)
	}
	if later {
		j.Tasks = append(j.Tasks, history.Task{Type: history.Map, Index: 4, Status: history.Succeeded,
			Attempts: []history.Attempt{att("h4", 85_000, 95_000, history.Succeeded, "")}})
	}
	j.Finish = at + 100_000
	return j
}

// TestNodeCrashInferredFromTimeouts: a NodeManager whose running attempt
// timed out and that ran nothing after replays as a node crash at the
// attempt's last report (finish - timeout), under the recorded 30 s task
// timeout, with the timed-out attempt no longer scripted to fail; one that
// ran a map after the timeout is not taken to have crashed, and a cluster
// given by --nodes has no crash.
func TestNodeCrashInferredFromTimeouts(t *testing.T) {
	w, err := FromHistory([]*history.Job{crashJob(false)}, ClusterOptions{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	crashed := 0
	for _, n := range w.Config.Nodes {
		for _, e := range n.Episodes {
			crashed++
			if n.Name != "h4" || !math.IsInf(e.Factor, 1) || e.Crash || e.Start != 15_000 || e.End != 0 {
				t.Errorf("node %s: episode %+v, want h4 stopped (hung) for good at 15 s (45 s - 30 s)", n.Name, e)
			}
		}
	}
	if crashed != 1 || w.Config.TaskTimeout != 30*time.Second {
		t.Errorf("%d crash episodes, task timeout %v: want one, 30 s (cluster: %s)", crashed, w.Config.TaskTimeout, w.Cluster)
	}
	for _, a := range w.Jobs[0].Maps[3].Script {
		if a.Fail {
			t.Errorf("map 3's script %+v still fails its first attempt: the crash does", w.Jobs[0].Maps[3].Script)
		}
	}
	for _, co := range []ClusterOptions{{}, {Nodes: 4, Slots: 2}} {
		job := crashJob(co.Nodes == 0)
		w, err := FromHistory([]*history.Job{job}, co, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range w.Config.Nodes {
			if len(n.Episodes) > 0 {
				t.Errorf("nodes %d: node %s crashes (%+v), want no crash", co.Nodes, n.Name, n.Episodes)
			}
		}
		if !w.Jobs[0].Maps[3].Script[0].Fail {
			t.Errorf("nodes %d: map 3's timed-out attempt is no longer scripted to fail: %+v", co.Nodes, w.Jobs[0].Maps[3].Script)
		}
	}
}

// TestNodeSlotsKeepTheRecordedNodes: --node-slots gives every recorded
// NodeManager that many containers and keeps its crash.
func TestNodeSlotsKeepTheRecordedNodes(t *testing.T) {
	w, err := FromHistory([]*history.Job{crashJob(false)}, ClusterOptions{NodeSlots: 4}, 1)
	if err != nil {
		t.Fatal(err)
	}
	crashed := 0
	for _, n := range w.Config.Nodes {
		crashed += len(n.Episodes)
		if n.Slots != 4 {
			t.Errorf("node %s: %d slots, want 4", n.Name, n.Slots)
		}
	}
	if len(w.Config.Nodes) != 4 || crashed != 1 {
		t.Errorf("%d nodes, %d crashes (%s): want the 4 recorded, h4's crash kept", len(w.Config.Nodes), crashed, w.Cluster)
	}
	if _, err := FromHistory([]*history.Job{crashJob(false)}, ClusterOptions{NodeSlots: MaxSlotsPerNode + 1}, 1); err == nil {
		t.Error("--node-slots over the limit: no error")
	}
}

// TestCrashHungOriginalReplaysOnItsNode: the original a crash hung (map 3,
// h4, from 2 s to its timeout at 45 s) goes to its recorded node
// (sim.Task.Node) with work no shorter than its recorded life, so the
// replayed crash at 15 s hangs it and the job pays the timeout and a retry,
// as recorded (100 s). (Here the round robin would put it on h4 too;
// TestRecordedOriginalsGoToTheirRecordedNode in sim shows a placement that
// differs.)
func TestCrashHungOriginalReplaysOnItsNode(t *testing.T) {
	build := func(seed uint64) (*Workload, error) {
		return FromHistory([]*history.Job{crashJob(false)}, ClusterOptions{}, seed)
	}
	w, err := build(1)
	if err != nil {
		t.Fatal(err)
	}
	m3 := w.Jobs[0].Maps[3]
	if m3.Node != "h4" || len(m3.Script) == 0 || m3.Script[0].Fail || m3.Script[0].Work < 43_000 {
		t.Fatalf("map 3: node %q, script %+v: want h4, a first entry not failing of 43 s or more", m3.Node, m3.Script)
	}
	for i, want := range []string{"h1", "h2", "h3"} {
		if got := w.Jobs[0].Maps[i].Node; got != want {
			t.Errorf("map %d: node %q, want %q", i, got, want)
		}
	}
	opts := Options{Speculators: []string{"none"}, Seed: 1, Runs: 1, Registry: registry(t)}
	pinned, err := Simulate(build, opts)
	if err != nil {
		t.Fatal(err)
	}
	if e := pinned[0].MeanJobS/100 - 1; math.Abs(e) > 0.15 {
		t.Errorf("with recorded nodes the job replays at %.1f s, recorded 100 s (%+.0f%%): want within 15%%", pinned[0].MeanJobS, 100*e)
	}
}
