package replay

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/yarnclient/history"
)

// TestLiveBenchReplay replays the stock run's histories of docs/live-bench.md
// (scripts/live-bench.sh on the mini cluster: slow NodeManagers, two
// straggler jobs, a node failure job) as the benchmark does, and checks what
// the page says of them: the replay sees the cluster's NodeManagers, not one
// localhost; it reproduces each stock job's recorded time within 15%; a
// policy gets a copy placed on the straggler job (with the NodeManagers
// merged into one node, none could be); and the failure job's lost
// NodeManager replays as a crash (inferred from its timed-out attempt), to
// which farms reacts ahead of late, its base policy.
func TestLiveBenchReplay(t *testing.T) {
	reg := registry(t)
	params := map[string]map[string]string{"late": {"min-runtime-ms": "5000"}, "farms": {"base-params": "min-runtime-ms=5000"}}
	copies := 0.0
	for i := 1; i <= 3; i++ {
		path := fmt.Sprintf("testdata/livebench/stock-%d.jhist", i)
		in := load(t, path)
		if len(in.Jobs) != 1 {
			t.Fatalf("%s: %d jobs, want 1", path, len(in.Jobs))
		}
		w, err := WorkloadOf(in, ClusterOptions{})(1)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Config.Nodes) < 3 {
			t.Errorf("%s: %d nodes (%s), want the NodeManagers the job ran on (3 or more)", path, len(w.Config.Nodes), w.Cluster)
		}
		res, err := Simulate(WorkloadOf(in, ClusterOptions{}),
			Options{Speculators: []string{"none", "hadoop", "late", "farms"}, Params: params, Seed: 1, Runs: 3, Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		j := in.Jobs[0]
		recorded := float64(j.Finish-j.Submit) / 1000
		if e := res[0].MeanJobS/recorded - 1; math.Abs(e) > 0.15 {
			t.Errorf("%s: the replay of stock takes %.1f s, recorded %.1f s (%+.0f%%), want within 15%%", path, res[0].MeanJobS, recorded, 100*e)
		}
		if i == 1 {
			copies = res[1].SpeculativeAttempts + res[2].SpeculativeAttempts
		}
		crashed := 0
		for _, n := range w.Config.Nodes {
			crashed += len(n.Episodes)
		}
		switch {
		case i == 3 && (crashed != 1 || !strings.Contains(w.Cluster, "node crashes inferred")):
			t.Errorf("%s: %d crash episodes (cluster: %s), want the failed NodeManager's crash inferred from its timed-out attempt", path, crashed, w.Cluster)
		case i == 3 && !(res[3].MeanJobS < res[2].MeanJobS):
			t.Errorf("%s: farms %.1f s, late %.1f s: farms should react to the crash (its failure layer) and finish first", path, res[3].MeanJobS, res[2].MeanJobS)
		case i < 3 && crashed != 0:
			t.Errorf("%s: %d crash episodes (cluster: %s), want none", path, crashed, w.Cluster)
		}
	}
	if copies == 0 {
		t.Error("stock-1 (a 40 s straggler): neither hadoop nor late got a copy placed in the replay")
	}
}

// TestCopyStartupFromTheHistory: a job's copy start-up (sim.Job.CopyStartup)
// is its first container allocation plus the median silence of its
// succeeded maps (the time to their first report, at least their start-up),
// read from the history's progress splits; a history without them leaves
// it 0, as scenarios do.
func TestCopyStartupFromTheHistory(t *testing.T) {
	in := load(t, "testdata/livebench/stock-1.jhist")
	j := in.Jobs[0]
	var s []int64
	for _, task := range j.Tasks {
		for _, a := range task.Attempts {
			if task.Type == history.Map && a.Status == history.Succeeded {
				s = append(s, max(a.FirstReport, a.Startup))
			}
		}
	}
	slices.Sort(s)
	median := (s[len(s)/2-1] + s[len(s)/2]) / 2 // 4 maps
	c := calibrate(j)
	if c.alloc <= 0 || median <= 1000 || c.copyStartup != c.alloc+median {
		t.Fatalf("copy start-up %d ms, allocation %d, maps' silences %v: want the allocation plus their median (> 1 s)", c.copyStartup, c.alloc, s)
	}
	w, err := WorkloadOf(in, ClusterOptions{})(1)
	if err != nil {
		t.Fatal(err)
	}
	if got := w.Jobs[0].CopyStartup; got != c.copyStartup {
		t.Errorf("the replayed job's CopyStartup is %d, want %d", got, c.copyStartup)
	}
	for i := range j.Tasks {
		for k := range j.Tasks[i].Attempts {
			j.Tasks[i].Attempts[k].Startup = 0 // a history without progress splits
		}
	}
	if c := calibrate(j); c.copyStartup != 0 {
		t.Errorf("without progress splits: copy start-up %d, want 0", c.copyStartup)
	}
}

// TestCopyCostFromHistoriesWithCopies: a copy cost is the median start-up
// of succeeded copies of maps of a kind less that of succeeded original
// maps, over the replayed jobs and the cluster's other histories; it needs
// 3 copies of the kind, is never negative, lengthens the replayed jobs'
// copies of the kind (sim.Job.CopyExtra, CloneExtra, also in their
// start-up) and is left out with NoCopyCost. A copy started while its
// original was still starting is a clone (the launch burst), any other a
// later copy, and each kind has its own cost; the original of a cloned task
// started in the burst too, and counts with the clones.
func TestCopyCostFromHistoriesWithCopies(t *testing.T) {
	// withCopies gives task i an original starting at 1 s with start-up
	// orig[i] (one more task, original only, for extra originals), and a
	// copy of start-up copies[i] starting at 1 s + at[i].
	withCopies := func(orig, copies, at []int64) *history.Job {
		j := &history.Job{ID: "job_1_0009"}
		for i, s := range orig {
			atts := []history.Attempt{{Status: history.Succeeded, Start: 1000, Startup: s}}
			if i < len(copies) {
				atts = append(atts, history.Attempt{N: 1, Status: history.Succeeded, Start: 1000 + at[i], Startup: copies[i], Speculative: true})
			}
			j.Tasks = append(j.Tasks, history.Task{Type: history.Map, Attempts: atts})
		}
		return j
	}
	late := []int64{20_000, 20_000, 20_000} // copies started 20 s after their originals
	burst := []int64{2000, 2000, 2000}      // started 2 s after, while the originals (10-14 s) start
	var none startups
	for _, tc := range []struct {
		orig, copies, at []int64
		want             copyCosts
	}{
		{[]int64{10_000, 12_000, 14_000}, []int64{20_000, 25_000, 30_000}, late, copyCosts{copy: 13_000}},
		// A burst: the cloned tasks' originals start in it too (21-25 s,
		// against 8-12 s for the tasks not cloned): the burst's median,
		// 22.5 s, less the others' 10 s.
		{[]int64{21_000, 23_000, 25_000, 8_000, 10_000, 12_000}, []int64{20_000, 22_000, 30_000}, burst, copyCosts{clone: 12_500}},
		// Every original cloned: no original outside a burst to measure
		// against.
		{[]int64{10_000, 12_000, 14_000}, []int64{20_000, 25_000, 30_000}, burst, copyCosts{}},
		// A start-up of 0 is one the progress splits did not show, left
		// out: with the zeros the originals' median would be 0.
		{[]int64{10_000, 12_000, 14_000, 0, 0, 0, 0}, []int64{20_000, 25_000, 30_000}, late, copyCosts{copy: 13_000}},
		{[]int64{10_000, 12_000, 14_000}, []int64{20_000, 25_000}, late, copyCosts{}},   // too few copies
		{[]int64{10_000, 12_000, 14_000}, []int64{1000, 2000, 3000}, late, copyCosts{}}, // copies quicker: no cost
		{[]int64{0, 0, 0}, []int64{0, 0, 0}, late, copyCosts{}},                         // no progress splits
	} {
		if got := none.copyCost([]*history.Job{withCopies(tc.orig, tc.copies, tc.at)}); got != tc.want {
			t.Errorf("originals %v, copies %v at +%v ms: copy costs %+v, want %+v", tc.orig, tc.copies, tc.at, got, tc.want)
		}
	}
	in := load(t, "testdata/livebench/stock-1.jhist")
	other := []*history.Job{withCopies([]int64{10_000, 12_000, 14_000}, []int64{30_000, 30_000, 30_000}, late),
		withCopies([]int64{40_000, 40_000, 40_000}, []int64{40_000, 40_000, 40_000}, burst)}
	c := calibrate(in.Jobs[0])
	var s startups
	s.add(in.Jobs[0])
	cost := s.copyCost(other)
	if cost.copy <= 0 || cost.clone <= cost.copy {
		t.Fatalf("copy costs %+v with copies starting 30 s and clones 40 s against the stock run's maps, want both more than 0, clones more", cost)
	}
	streamed, err := Load("testdata/livebench/stock-1.jhist", LoadOptions{Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, input := range []*Input{in, streamed} {
		for _, noCost := range []bool{false, true} {
			w, err := WorkloadOf(input, ClusterOptions{SpeedHistories: other, NoCopyCost: noCost})(1)
			if err != nil {
				t.Fatal(err)
			}
			want := cost
			if noCost {
				want = copyCosts{}
			}
			j := w.Jobs[0]
			if j.CopyExtra != want.copy || j.CopyStartup != c.copyStartup+want.copy || j.CloneExtra != want.clone || j.CloneStartup != c.copyStartup+want.clone {
				t.Errorf("streamed %v, NoCopyCost %v: the replayed job's CopyExtra %d, CopyStartup %d, CloneExtra %d, CloneStartup %d; want %d, %d, %d and %d",
					input == streamed, noCost, j.CopyExtra, j.CopyStartup, j.CloneExtra, j.CloneStartup, want.copy, c.copyStartup+want.copy, want.clone, c.copyStartup+want.clone)
			}
			if !j.WaveOriginals {
				t.Errorf("streamed %v: a stock run's job (no clones) does not make its originals started with clones pay their cost", input == streamed)
			}
		}
	}
	// A history whose originals started with clones holds the burst's cost
	// in their recorded times already.
	if !startedWithClones(other[1]) || startedWithClones(other[0]) || startedWithClones(in.Jobs[0]) {
		t.Errorf("started with clones: a burst %v, copies 20 s later %v, the stock run %v; want true, false, false",
			startedWithClones(other[1]), startedWithClones(other[0]), startedWithClones(in.Jobs[0]))
	}
	// An original that shows no start-up is judged against the originals
	// that show one (10 s), as the copy cost judges it: its copy 7 s after
	// it is a clone, though the median of every succeeded map, unseen
	// zeros and the copy included, is 5 s.
	unseen := withCopies([]int64{0, 10_000, 10_000, 10_000, 0, 0, 0}, []int64{30_000}, []int64{7000})
	if !startedWithClones(unseen) {
		t.Errorf("a copy 7 s after an original that shows no start-up, the others 10 s: not taken as started with clones")
	}
}

// TestDecisionsModeReadsTheDeadlineBesideTheHistory: decisions mode gives a
// policy the job's deadline from the configuration kept beside its .jhist
// (specbridge.grass.deadline-ms), read whole or streamed as the CLI reads
// it, as a simulated replay and the live sidecar do. The fixture is live
// auto's straggler job of docs/live-bench.md. Live, its grass made no copy
// before its 60 s deadline (the straggler's own extrapolation then counted
// in its own t_new, which rose past the time left) and asked to drop the
// straggler at the deadline; decisions mode did the same. Now grass copies
// the straggler at 25 s as a deadline job (the reason names the time to the
// deadline) and still drops it at the deadline; without the configuration
// it decides for an exact job. The reports follow the attempts' clock
// splits (progressAt): the straggler's first report came 22.2 s after its
// launch (the splits' first twelfth, drawn by Hadoop as one line from the
// launch), so grass has no t_rem for it until then; once it has, t_rem is
// minutes. (Interpolated linearly over the runs, before, it copied at
// 12 s, from a progress the AM had not yet been told.)
func TestDecisionsModeReadsTheDeadlineBesideTheHistory(t *testing.T) {
	reg := registry(t)
	path := "testdata/livebench-deadline/auto-1.jhist"
	bare := filepath.Join(t.TempDir(), "auto-1.jhist")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bare, data, 0o644); err != nil {
		t.Fatal(err)
	}
	decide := func(p string, stream bool) []TimedDecision {
		t.Helper()
		in, err := Load(p, LoadOptions{Stream: stream})
		if err != nil {
			t.Fatal(err)
		}
		res, _, err := Decide(in, Options{Speculators: []string{"grass"}, Seed: 1, Runs: 1, Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		return res[0].Decisions
	}
	for _, stream := range []bool{false, true} {
		ds := decide(path, stream)
		if len(ds) != 2 || ds[0].Kind != "speculate" || ds[0].AtS != 25 || !strings.Contains(ds[0].Reason, "to deadline") ||
			ds[1].Kind != "drop" || !strings.Contains(ds[1].Reason, "deadline") {
			t.Errorf("streamed %v: decisions %+v, want a copy of the straggler at 25 s for the deadline, then its drop at the deadline", stream, ds)
		}
		ds = decide(bare, stream)
		if len(ds) == 0 || ds[0].Kind != "speculate" || !strings.Contains(ds[0].Reason, "exact job") {
			t.Errorf("streamed %v, no configuration: decisions %+v, want a copy of the straggler as for an exact job", stream, ds)
		}
	}

	// A deadline that does not parse is an error naming the configuration
	// and the key, not a job decided without its deadline.
	spoiled := t.TempDir()
	if err := os.WriteFile(filepath.Join(spoiled, "auto-1.jhist"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	conf, err := os.ReadFile("testdata/livebench-deadline/job_1795905797681_0013_conf.xml")
	if err != nil {
		t.Fatal(err)
	}
	bad := regexp.MustCompile(`(<name>specbridge.grass.deadline-ms</name>\s*<value>)[^<]*`).ReplaceAll(conf, []byte("${1}sixty seconds"))
	if bytes.Equal(bad, conf) {
		t.Fatal("the fixture's configuration has no specbridge.grass.deadline-ms to spoil")
	}
	confPath := filepath.Join(spoiled, "job_1795905797681_0013_conf.xml")
	if err := os.WriteFile(confPath, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, stream := range []bool{false, true} {
		in, err := Load(filepath.Join(spoiled, "auto-1.jhist"), LoadOptions{Stream: stream})
		if err == nil {
			_, _, err = Decide(in, Options{Speculators: []string{"grass"}, Seed: 1, Runs: 1, Registry: reg})
		}
		if err == nil || !strings.Contains(err.Error(), confPath) || !strings.Contains(err.Error(), "specbridge.grass.deadline-ms") {
			t.Errorf("streamed %v: a deadline that does not parse gave %v, want an error naming %s and the key", stream, err, confPath)
		}
	}
}

// TestCloneBurstCost replays a stock run of docs/live-bench.md under sca
// with the same round's sca histories as the cluster's other histories
// (testdata/livebench-sca: the third round of session 14's second run). Live, sca's
// jobs took 35.7, 36.8 and 58.8 s: each map started an original and two
// clones at once, 12 JVMs on the NodeManagers' two shared cores, and the
// originals started up as slowly as their clones. The replay measures that
// burst's cost from the sca histories (the cloned tasks' originals and
// clones against the originals started alone) and charges it to the
// clones and to the originals that start with them (sim.Job.WaveOriginals);
// charging the clones alone predicted 34.2 s, 22% short; now 44.9 s.
// Within 15% of the live mean.
func TestCloneBurstCost(t *testing.T) {
	sca, err := Load("testdata/livebench-sca/sca", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	live := 0.0
	for _, j := range sca.Jobs {
		live += float64(j.Finish-j.Submit) / 1000 / float64(len(sca.Jobs))
		if !startedWithClones(j) {
			t.Errorf("%s (sca, live): no map started with clones", j.ID)
		}
	}
	// Each stock history replayed as its own input, as the benchmark
	// passes them (each on the NodeManagers it ran on).
	predicted := 0.0
	for i := 1; i <= 3; i++ {
		stock := load(t, fmt.Sprintf("testdata/livebench-sca/stock/stock-%d.jhist", i))
		if startedWithClones(stock.Jobs[0]) {
			t.Errorf("%s (stock, live): a map started with clones", stock.Jobs[0].ID)
		}
		co := ClusterOptions{NodeSlots: 4, SpeedHistories: sca.Jobs}
		res, err := Simulate(WorkloadOf(stock, co), Options{Speculators: []string{"sca"}, Seed: 1, Runs: 10, Registry: registry(t)})
		if err != nil {
			t.Fatal(err)
		}
		predicted += res[0].MeanJobS / 3
	}
	t.Logf("sca replayed from the stock run: %.1f s, live %.1f s", predicted, live)
	if e := predicted/live - 1; math.Abs(e) > 0.15 {
		t.Errorf("sca replayed from the stock run: %.1f s, live %.1f s (%+.0f%%), want within 15%%", predicted, live, 100*e)
	}
}

// TestClusterOfEveryNamedNodeManager: a stock history replayed with other
// histories of its cluster (SpeedHistories) replays on every NodeManager
// those name too, each at its measured speed, less one they show crashed
// before the stock job began; one that crashed after it began is kept. The
// streamed input gives the same cluster, and both place copies as YARN
// does; a scenario does not.
func TestClusterOfEveryNamedNodeManager(t *testing.T) {
	sc := load(t, "../scenarios/late-ec2-heterogeneous.yaml")
	if w, err := WorkloadOf(sc, ClusterOptions{})(1); err != nil || w.Config.YARNPlacement {
		t.Errorf("a scenario places copies as YARN does (%v): its papers' systems chose the node", err)
	}
	in := load(t, "testdata/livebench/stock-1.jhist")
	streamed, err := Load("testdata/livebench/stock-1.jhist", LoadOptions{Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	own, err := WorkloadOf(in, ClusterOptions{NodeSlots: 4})(1)
	if err != nil {
		t.Fatal(err)
	}
	// shifted is crashJob (h1..h4, h4 crashing 15 s in) moved to start at
	// the stock job's submit plus by ms.
	shifted := func(by int64) *history.Job {
		j := crashJob(false)
		d := in.Jobs[0].Submit + by - j.Submit
		j.Submit, j.Launch, j.Finish = j.Submit+d, j.Launch+d, j.Finish+d
		for ti := range j.Tasks {
			for ai := range j.Tasks[ti].Attempts {
				a := &j.Tasks[ti].Attempts[ai]
				a.Start, a.Finish = a.Start+d, a.Finish+d
			}
		}
		return j
	}
	for _, tc := range []struct {
		crashAt int64 // the crash job's start against the stock job's submit, ms
		h4      bool
	}{{-3_600_000, false}, {60_000, true}} {
		extra := []*history.Job{shifted(tc.crashAt)}
		for k := range 4 {
			extra = append(extra, speedJob(k, []string{"h5", "h6", "h7"}, map[string]float64{"h7": 3}, 10_000, "", 1))
		}
		var clusters []string
		for _, input := range []*Input{in, streamed} {
			w, err := WorkloadOf(input, ClusterOptions{NodeSlots: 4, SpeedHistories: extra})(1)
			if err != nil {
				t.Fatal(err)
			}
			clusters = append(clusters, fmt.Sprint(w.Config.Nodes))
			if !w.Config.YARNPlacement {
				t.Errorf("a .jhist replay does not place copies as YARN does (sim.Config.YARNPlacement)")
			}
			got := map[string]float64{}
			for _, n := range w.Config.Nodes {
				got[n.Name] = n.Slowdown
				if n.Slots != 4 {
					t.Errorf("node %s has %d slots, want --node-slots' 4", n.Name, n.Slots)
				}
			}
			for _, n := range own.Config.Nodes {
				if _, ok := got[n.Name]; !ok {
					t.Errorf("crash at %+d ms: the stock job's own node %s is not in the cluster", tc.crashAt, n.Name)
				}
			}
			for _, h := range []string{"h1", "h2", "h3", "h5", "h6", "h7"} {
				if _, ok := got[h]; !ok {
					t.Errorf("crash at %+d ms: %s, named by the other histories, is not in the cluster %v", tc.crashAt, h, got)
				}
			}
			if _, ok := got["h4"]; ok != tc.h4 {
				t.Errorf("crash at %+d ms: h4 in the cluster %v, want %v", tc.crashAt, ok, tc.h4)
			}
			if math.Abs(got["h7"]-3) > 0.3 {
				t.Errorf("h7 replays at slowdown %.2f, want about 3", got["h7"])
			}
			if want := len(own.Config.Nodes) + 6; tc.h4 && len(got) != want+1 || !tc.h4 && len(got) != want {
				t.Errorf("crash at %+d ms: %d nodes, want the stock job's %d and 6 or 7 more", tc.crashAt, len(got), len(own.Config.Nodes))
			}
		}
		if clusters[0] != clusters[1] {
			t.Errorf("the streamed input's cluster differs:\n%s\n%s", clusters[0], clusters[1])
		}
		// Another seed of the same replay reuses the streamed input's view
		// of the speed histories (historySource.extraOf) and gets the same
		// cluster; the next case's list (another crash) is computed afresh
		// (the h4 checks above fail if it is not).
		view := streamed.hist.extra
		w2, err := WorkloadOf(streamed, ClusterOptions{NodeSlots: 4, SpeedHistories: extra})(2)
		if err != nil {
			t.Fatal(err)
		}
		if streamed.hist.extra != view || fmt.Sprint(w2.Config.Nodes) != clusters[1] {
			t.Errorf("crash at %+d ms: seed 2 did not reuse seed 1's view of the speed histories, or its cluster differs:\n%s\n%s", tc.crashAt, fmt.Sprint(w2.Config.Nodes), clusters[1])
		}
	}
}
