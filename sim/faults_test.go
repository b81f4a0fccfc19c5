package sim

import (
	"testing"
	"time"

	"github.com/specbridge/specbridge/speculators"
)

var m1 = speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: 1}}

// crashSetup: two 10 s maps packed on n0, the reduce (30 s: 10 s of copy)
// on n1; n0 crashes at 15 s, when the reduce has copied the first map's
// output and not the second's.
func crashSetup(expiry, readTimeout time.Duration) (Config, []Job) {
	ns := nodes(2, 2)
	ns[0].Episodes = []Episode{{Start: 15000, Crash: true}}
	cfg := cfgFor(ns)
	cfg.Placement = PlacementPack
	cfg.ReduceSlowstart = 0
	cfg.Faults.NodeExpiry = expiry
	cfg.Faults.ShuffleReadTimeout = readTimeout
	return cfg, []Job{{ID: "j", Maps: works(10000, 10000), Reduces: works(30000)}}
}

// A crash loses the outputs stored on the node; the reduce that still needs
// one reports a fetch failure every shuffle read timeout (195, 375, 555 s),
// and the AM fails the map's completed attempt at the third report (Hadoop's
// 3 notifications; 3/1 shuffling reduce >= 0.5). The map runs again on n1
// (10 s), the reduce copies the rest (5 s) and sorts and reduces (20 s).
// Reference: FARMS §2.3.1; JobImpl.TaskAttemptFetchFailureTransition.
func TestCrashFetchFailuresRerunMap(t *testing.T) {
	cfg, jobs := crashSetup(0, 180*time.Second)
	p := &script{}
	res := runScript(t, cfg, jobs, p)
	r := res.Jobs[0]
	var reports []speculators.Time
	for _, ev := range seenOf(p, speculators.AttemptStatus, r0) {
		if len(ev.FetchFailedMaps) > 0 {
			reports = append(reports, ev.Time)
			if len(ev.FetchFailedMaps) != 1 || ev.FetchFailedMaps[0] != m1.Task {
				t.Errorf("fetch failure at %d names %v, want only %s (the output the reduce had not copied)", ev.Time, ev.FetchFailedMaps, m1.Task)
			}
		}
	}
	want := []speculators.Time{195000, 375000, 555000}
	if len(reports) != len(want) {
		t.Fatalf("fetch-failure reports at %v, want %v", reports, want)
	}
	for i := range want {
		expectTime(t, "fetch failure report", reports[i], want[i])
	}
	failed := seenOf(p, speculators.AttemptFailed, m1)
	if len(failed) != 1 || failed[0].Time != 555000 {
		t.Errorf("map 1's completed attempt failed %v, want once at 555000", failed)
	}
	if len(seenOf(p, speculators.AttemptFailed, m0))+len(seenOf(p, speculators.AttemptKilled, m0)) != 0 {
		t.Error("map 0's output, already copied, was declared lost")
	}
	expectInt(t, "fetch-failure reruns", r.FetchFailureReruns, 1)
	expectInt(t, "fetch failures reported", r.FetchFailures, 3)
	expectTime(t, "finish", r.Finish, 590000)
}

// NM expiry: 600 s after the crash the node is LOST and the AM runs both
// completed maps there again (actOnUnusableNode); n1 has one free
// container, so they run one after the other (615-625, 625-635 s), then the
// reduce copies its last 5 s and runs 20 s more.
func TestNodeExpiryRerunsCompletedMaps(t *testing.T) {
	cfg, jobs := crashSetup(600*time.Second, 10000*time.Second)
	p := &script{}
	res := runScript(t, cfg, jobs, p)
	r := res.Jobs[0]
	for _, id := range []speculators.AttemptID{m0, m1} {
		expectOnceAt(t, p, speculators.AttemptKilled, id, 615000) // NM expiry
	}
	expectInt(t, "expiry reruns", r.ExpiryReruns, 2)
	expectInt(t, "fetch-failure reruns", r.FetchFailureReruns, 0)
	expectTime(t, "finish", r.Finish, 660000)
}

// A container cleanup delay holds the job after its last task until the AM
// gives up on the containers it stopped on the unreachable node.
func TestContainerCleanupDelay(t *testing.T) {
	cfg, jobs := crashSetup(600*time.Second, 10000*time.Second)
	jobs[0].Maps = works(10000, 700000) // map 1 still runs on n0 at the crash
	cfg.Faults.ContainerCleanupDelay = 1800 * time.Second
	res := runScript(t, cfg, jobs)
	// Map 1 times out at 612 s (last report at 12 s): its cleanup gives up
	// at 2412 s, long after its retry and the reduce are done.
	expectTime(t, "finish", res.Jobs[0].Finish, 2412000)
}

// A trigger crashes the node holding the job's maps once its map progress
// reaches the point; the maps there stall and time out.
func TestTriggerCrashesBusiestNode(t *testing.T) {
	cfg := cfgFor(nodes(2, 2))
	cfg.Placement = PlacementPack
	cfg.Faults.NodeExpiry = 0
	cfg.Triggers = []Trigger{{Job: "j", MapProgress: 0.5, Episode: Episode{Crash: true}}}
	p := &script{}
	res := runScript(t, cfg, []Job{{ID: "j", Maps: works(20000, 20000)}}, p)
	// Progress reaches 0.5 at the 10 s tick; both maps on n0 stall, fail
	// at 609 s (last report 9 s) and run again on n1.
	expectTime(t, "finish", res.Jobs[0].Finish, 629000)
	expectOnceAt(t, p, speculators.AttemptFailed, m0, 609000)
}

// A reduce-progress trigger crashes the node running the job's reduce once
// the job's reduce progress reaches the point (here 0.8, inside the reduce
// phase); the reduce stalls there and times out.
func TestTriggerAtReduceProgress(t *testing.T) {
	cfg := cfgFor([]Node{{Name: "a", Slots: 1}, {Name: "b", Slots: 1}})
	cfg.Faults.NodeExpiry = 0
	cfg.Triggers = []Trigger{{Job: "j", Reduces: true, ReduceProgress: 0.8, Episode: Episode{Crash: true}}}
	p := &script{}
	// One map of 10 s on a, the reduce (30 s, a third per phase) on b after
	// it: its progress passes 0.8 at 10 + 30 x 0.8 = 34 s.
	res := runScript(t, cfg, []Job{{ID: "j", Maps: works(10000), Reduces: works(30000)}}, p)
	r0 := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Reduce}}
	f := seenOf(p, speculators.AttemptFailed, r0)
	if len(f) != 1 || f[0].Time < 600000 {
		t.Fatalf("reduce failed %v, want once after the 600 s timeout", f)
	}
	if res.Jobs[0].Finish < f[0].Time+30000 {
		t.Errorf("job finished at %d, before the reduce's retry could", res.Jobs[0].Finish)
	}
	if err := cfg.Faults.validate(cfg.Nodes, []Trigger{{Job: "j", Reduces: true, ReduceProgress: 1.5}}); err == nil {
		t.Error("reduce progress 1.5 validated")
	}
}
