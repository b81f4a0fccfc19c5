package replay

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/yarnclient/history"
)

// speedJob is a calibratable history job of one map per host, each taking
// base ms times its host's factor (hosts without one: 1) plus a jitter of up
// to 5% that varies with the job and the host, and straggle times longer on
// host straggler (none when "").
func speedJob(k int, hosts []string, factor map[string]float64, base int64, straggler string, straggle float64) *history.Job {
	const submit = 1_700_000_000_000
	at := submit + int64(k)*1_000_000
	j := &history.Job{ID: fmt.Sprintf("job_1700000000000_%04d", k+1), Status: history.Succeeded, Submit: at, Launch: at + 1000}
	end := int64(0)
	for i, h := range hosts {
		f := factor[h]
		if f == 0 {
			f = 1
		}
		if h == straggler {
			f *= straggle
		}
		jitter := 1 + 0.05*float64((k*7+i*3)%11)/10
		d := int64(float64(base) * f * jitter)
		start := at + 2000
		j.Tasks = append(j.Tasks, history.Task{ID: fmt.Sprintf("task_%d_m_%06d", k, i), Type: history.Map, Index: i, Status: history.Succeeded,
			Attempts: []history.Attempt{{ID: fmt.Sprintf("attempt_%d_m_%06d_0", k, i), Host: h, Start: start, Finish: start + d, Status: history.Succeeded}}})
		end = max(end, start+d)
	}
	j.Finish = end + 1000
	return j
}

// TestNodeSpeedsFromTheHistory: a node three times slower than the others,
// measured from five jobs whose maps each ran once on every node (one job
// with a straggler on another node), replays as a node of slowdown 3, the
// others nominal, and its tasks carry the slowdown they were recorded at; on
// a uniform cluster with the same jitter and straggler every node is
// nominal; and a one-job input sees the slow node at half its factor (one
// sample against the prior, in logs) unless other histories of the cluster
// (SpeedHistories) add their samples.
func TestNodeSpeedsFromTheHistory(t *testing.T) {
	hosts := []string{"h1", "h2", "h3", "h4", "h5", "h6"}
	slowdowns := func(jobs []*history.Job, co ClusterOptions) (map[string]float64, []float64) {
		t.Helper()
		w, err := FromHistory(jobs, co, 1)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]float64{}
		for _, n := range w.Config.Nodes {
			out[n.Name] = n.Slowdown
		}
		var tasks []float64
		for _, m := range w.Jobs[0].Maps {
			tasks = append(tasks, m.Slowdown)
		}
		return out, tasks
	}
	for _, tc := range []struct {
		name   string
		factor map[string]float64
	}{{"h6 three times slower", map[string]float64{"h6": 3}}, {"uniform", nil}} {
		var jobs []*history.Job
		for k := range 5 {
			straggler := ""
			if k == 2 {
				straggler = "h2"
			}
			jobs = append(jobs, speedJob(k, hosts, tc.factor, 10_000, straggler, 4))
		}
		got, tasks := slowdowns(jobs, ClusterOptions{})
		for _, h := range hosts {
			want := tc.factor[h]
			if want == 0 {
				want = 1
			}
			if math.Abs(got[h]-want) > 0.1*want {
				t.Errorf("%s: node %s replays at slowdown %.3f, want %.1f", tc.name, h, got[h], want)
			}
		}
		if tc.factor != nil && math.Abs(tasks[5]-got["h6"]) > 1e-9 {
			t.Errorf("%s: the map recorded on h6 has slowdown %.3f, want its node's %.3f", tc.name, tasks[5], got["h6"])
		}
		if tc.factor == nil && fmt.Sprint(tasks) != "[0 0 0 0 0 0]" {
			t.Errorf("uniform: the maps' slowdowns are %v, want none", tasks)
		}
	}
	jobs := make([]*history.Job, 5)
	for k := range jobs {
		jobs[k] = speedJob(k, hosts, map[string]float64{"h6": 3}, 10_000, "", 1)
	}
	alone, _ := slowdowns(jobs[:1], ClusterOptions{})
	if math.Abs(alone["h6"]-math.Sqrt(3)) > 0.15 {
		t.Errorf("one job: h6 replays at slowdown %.3f, want about 1.73 (the median, in logs, of its one sample of 3 and the prior's 1)", alone["h6"])
	}
	pooled, _ := slowdowns(jobs[:1], ClusterOptions{SpeedHistories: jobs[1:]})
	if math.Abs(pooled["h6"]-3) > 0.3 {
		t.Errorf("one job with four more of its cluster: h6 replays at slowdown %.3f, want about 3", pooled["h6"])
	}
}

// TestNodeSpeedsFittedJointly: jobs of four maps on a cluster of nine
// nodes, a third of them 3x slow, each map placed at random and one map a
// job a 4x straggler (as on the live benchmark's cluster): a job's median is
// often a slow map's, so its per-job ratios (the joint fit's first round)
// see the slow nodes well short of 3; the joint fit sees them within 20% of
// 3 and the fast nodes nominal.
func TestNodeSpeedsFittedJointly(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 1))
	slow := map[string]bool{"n0": true, "n3": true, "n6": true}
	var d speedData
	for k := range 30 {
		j := &history.Job{ID: fmt.Sprintf("job_1_%04d", k)}
		straggler := r.IntN(4)
		for i := range 4 {
			n := fmt.Sprintf("n%d", r.IntN(9))
			dur := 5000 * (1 + 0.1*r.Float64())
			if slow[n] {
				dur *= 3
			}
			if i == straggler {
				dur *= 4
			}
			j.Tasks = append(j.Tasks, history.Task{Type: history.Map, Index: i, Status: history.Succeeded,
				Attempts: []history.Attempt{{Host: n, Start: 1000, Finish: 1000 + int64(dur), Status: history.Succeeded}}})
		}
		d.add(j)
	}
	name := func(k hostPort) string { return k.host }
	first, fitted := nodeFactors(&d, name, 1), nodeFactors(&d, name, speedFitRounds)
	t.Logf("first round %v, fitted %v", first, fitted)
	worstFirst := 3.0
	for i := range 9 {
		n := fmt.Sprintf("n%d", i)
		want, f := 1.0, fitted[n]
		if f == 0 {
			f = 1
		}
		if slow[n] {
			want = 3
			worstFirst = min(worstFirst, max(first[n], 1))
		}
		if math.Abs(f-want) > 0.2*want {
			t.Errorf("node %s: fitted factor %.2f, want %.0f within 20%% (first round %.2f)", n, f, want, first[n])
		}
	}
	if worstFirst > 2.4 {
		t.Errorf("the first round (per-job ratios) sees every slow node at 2.4 or more (least %.2f): the case does not show what the joint fit is for", worstFirst)
	}
}

// TestNodeSpeedsOfALiveCluster: the fifteen histories of one round of the
// live benchmark (session 16: 18 NodeManagers on one machine, every third
// 3x slow: 33301, 35885, 37377, 38981, 40667, 44783; a map's sleep is
// slowed, not its JVM's start-up, so a slow node's attempt takes about
// 1.5-2x a fast one's). The joint fit finds four of the slow nodes at 1.25x
// or more and leaves every fast node nominal; the first round alone (per-job
// ratios: a job's median is often a slow node's attempt) sees the slow nodes
// lower, one of them at 1.25x or more.
func TestNodeSpeedsOfALiveCluster(t *testing.T) {
	slow := map[string]bool{}
	for _, p := range []string{"33301", "35885", "37377", "38981", "40667", "44783"} {
		slow["localhost:"+p] = true
	}
	files, err := filepath.Glob("testdata/livebench-r2/*.jhist")
	if err != nil || len(files) != 15 {
		t.Fatalf("fixtures: %v, %v", files, err)
	}
	var in *Input
	var extra []*history.Job
	for _, f := range files {
		if filepath.Base(f) == "stock.r2-1.jhist" {
			in = load(t, f)
			continue
		}
		extra = append(extra, load(t, f).Jobs...)
	}
	w, err := WorkloadOf(in, ClusterOptions{NodeSlots: 4, SpeedHistories: extra})(1)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, n := range w.Config.Nodes {
		switch {
		case slow[n.Name] && n.Slowdown >= 1.25:
			found++
		case !slow[n.Name] && n.Slowdown != 1:
			t.Errorf("fast node %s replays at %.2f, want 1", n.Name, n.Slowdown)
		}
	}
	if found < 4 {
		t.Errorf("%d slow nodes at 1.25x or more (cluster %v), want 4 or more", found, w.Config.Nodes)
	}
	var d speedData
	ports := history.NodePorts{}
	for _, j := range append(slices.Clone(in.Jobs), extra...) {
		d.add(j)
		ports.Add(j)
	}
	shared := ports.Shared()
	name := func(k hostPort) string { return (&history.Attempt{Host: k.host, Port: k.port}).NodeKey(shared) }
	first, fitted := nodeFactors(&d, name, 1), nodeFactors(&d, name, speedFitRounds)
	t.Logf("first round %v\nfitted %v", first, fitted)
	atLeast := func(fs map[string]float64) int {
		k := 0
		for n, f := range fs {
			if slow[n] && f >= 1.25 {
				k++
			}
		}
		return k
	}
	if atLeast(first) >= atLeast(fitted) {
		t.Errorf("the first round alone finds %d slow nodes at 1.25x or more, the joint fit %d (%v): the fixture does not show what the joint fit is for", atLeast(first), atLeast(fitted), first)
	}
}

// TestNodeSpeedsCensoredByRaces: a speculating cluster of nine nodes, a
// third of them slow (each attempt there 2-4x, drawn), jobs of four maps
// placed at random, one map a job a 4x straggler. An attempt still running
// at 1.5x the typical time gets a copy on a fast node, and when the copy
// wins, the original is killed: the slow nodes' slowest attempts, and the
// stragglers, leave only a lower bound of their times. Fitted on the
// succeeded attempts alone, the slow nodes come out short of their median
// of 3 (the survivors of the races are their fast draws); with the lost
// races as lower bounds, each slow node's factor is higher and nearer 3,
// and every fast node stays nominal (the stragglers' lower bounds are
// outvoted by their nodes' other attempts).
func TestNodeSpeedsCensoredByRaces(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 2))
	slow := map[string]bool{"n0": true, "n3": true, "n6": true}
	var withLost, succeeded speedData
	const typical, copyAt = 5000.0, 7500.0
	for k := range 40 {
		j := &history.Job{ID: fmt.Sprintf("job_1_%04d", k)}
		straggler := r.IntN(4)
		for i := range 4 {
			n := fmt.Sprintf("n%d", r.IntN(9))
			dur := typical * (1 + 0.1*r.Float64())
			if slow[n] {
				dur *= 2 + 2*r.Float64()
			}
			if i == straggler {
				dur *= 4
			}
			orig := history.Attempt{Host: n, Start: 1000, Finish: 1000 + int64(dur), Status: history.Succeeded}
			task := history.Task{Type: history.Map, Index: i, Status: history.Succeeded}
			if won := copyAt + typical*(1+0.1*r.Float64()); dur > won {
				fast := fmt.Sprintf("n%d", 1+3*r.IntN(3)) // n1, n4 or n7
				orig.Finish, orig.Status = 1000+int64(won), history.Killed
				task.Attempts = append(task.Attempts, history.Attempt{Host: fast, Start: 1000 + int64(copyAt), Finish: 1000 + int64(won), Status: history.Succeeded, Speculative: true})
			}
			task.Attempts = append(task.Attempts, orig)
			j.Tasks = append(j.Tasks, task)
		}
		withLost.add(j)
		for ti := range j.Tasks {
			j.Tasks[ti].Attempts = slices.DeleteFunc(j.Tasks[ti].Attempts, func(a history.Attempt) bool { return a.Status == history.Killed })
		}
		succeeded.add(j)
	}
	name := func(k hostPort) string { return k.host }
	censored, survivors := nodeFactors(&withLost, name, speedFitRounds), nodeFactors(&succeeded, name, speedFitRounds)
	t.Logf("with lost races %v, succeeded alone %v", censored, survivors)
	for i := range 9 {
		n := fmt.Sprintf("n%d", i)
		f, g := max(censored[n], 1), max(survivors[n], 1)
		switch {
		case !slow[n] && f != 1:
			t.Errorf("fast node %s: factor %.2f with the lost races, want 1", n, f)
		case slow[n] && (f < 1.08*g || math.Abs(f-3) >= math.Abs(g-3)):
			t.Errorf("slow node %s: factor %.2f with the lost races, %.2f without: want 8%% higher or more, and nearer 3", n, f, g)
		}
	}
}
