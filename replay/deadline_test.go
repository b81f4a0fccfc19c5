package replay

import (
	"testing"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/workload/scenario"
)

// scenarioWorkload parses the scenario text (named name) and builds its
// workload for seed.
func scenarioWorkload(t *testing.T, name, text string, seed uint64) (*scenario.Scenario, *Workload) {
	t.Helper()
	s, err := scenario.Parse(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	w, err := FromScenario(s, seed, ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s, w
}

// deadline_from: dry-run (GRASS §6.1's ideal duration, every task at its
// job's median, on the job's share of the cluster). Two jobs of 4 maps
// arrive together on 2 slots under the fair scheduler: alone, a job's ideal
// is two waves of its median; sharing, each gets one
// slot and runs 4 waves. The dry run sees the share, waves do not. The
// deadline is the dry-run duration x the drawn factor, the same for every
// build of the same seed.
func TestDryRunDeadlines(t *testing.T) {
	text := `cluster:
  scheduler: fair
  nodes: [{count: 1, slots: 2}]
workload:
  jobs:
    - name: a
      count: 2
      maps: 4
      map_s: {dist: uniform, min: 9, max: 11}
      deadline_factor: {dist: uniform, min: 1.02, max: 1.2}
      deadline_from: dry-run
`
	s, w := scenarioWorkload(t, "dry.yaml", text, 3)
	m := s.Materialize(3)
	for i, j := range w.Jobs {
		mj := &m.Jobs[i]
		waves := scenario.IdealDuration(mj, [2]int{2, 2}) // 2 waves of the median
		median := scenario.MedianWorkS(mj.Maps)
		deadline := float64(j.Deadline-j.Submit) / 1000
		f := deadline / mj.DeadlineFactor
		// 4 waves of the median plus the simulator's container start-up.
		if !(f >= 4*median-0.01 && f < 4*median+10) || !(f > waves) {
			t.Errorf("%s: ideal %.2fs (deadline %.2fs / factor %.3f), want about 4 waves of %.2fs (waves model %.2fs)",
				j.ID, f, deadline, mj.DeadlineFactor, median, waves)
		}
	}
	w2, err := FromScenario(s, 3, ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range w.Jobs {
		if w.Jobs[i].Deadline != w2.Jobs[i].Deadline || w.Jobs[i].Deadline <= 0 {
			t.Errorf("%s: deadline %d then %d", w.Jobs[i].ID, w.Jobs[i].Deadline, w2.Jobs[i].Deadline)
		}
	}
}

// A heavy-tailed law's draws of years (or of +Inf, past float64) are
// truncated to the simulator's longest task, not wrapped around to 1 ms.
func TestScenarioHugeDrawsTruncated(t *testing.T) {
	const text = `
cluster:
  nodes: [{count: 2, slots: 2}]
workload:
  jobs:
    - {name: a, count: 1, maps: 50, map_s: {dist: lognormal, median: 10, sigma: 1000}}
`
	_, w := scenarioWorkload(t, "tail.yaml", text, 1)
	longest, shortest := 0, 0
	for _, task := range w.Jobs[0].Maps {
		if task.Work < 1 || task.Work > sim.MaxWork {
			t.Fatalf("work %d ms out of [1, %d]", task.Work, sim.MaxWork)
		}
		if task.Work == sim.MaxWork {
			longest++
		}
		if task.Work == 1 {
			shortest++
		}
	}
	if longest == 0 || shortest == 0 {
		t.Fatalf("%d tasks at the longest and %d at 1 ms; sigma 1000 should draw both", longest, shortest)
	}
}
