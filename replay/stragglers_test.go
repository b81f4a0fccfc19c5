package replay

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/specbridge/specbridge/sim"
)

// The straggler model stretches about TailFraction of the tasks by
// TailMin..TailCap and slows SlowNodeFraction of the nodes, from the seed
// alone; Off leaves the workload as the trace says.
func TestStragglerModelDraws(t *testing.T) {
	m := DefaultStragglerModel()
	stragglerRand := func(seed uint64) *rand.Rand {
		_, _, rs, err := stragglerDraws(ClusterOptions{Stragglers: &m}, seed)
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	job := func() sim.Job {
		j := sim.Job{Maps: make([]sim.Task, 20000)}
		for i := range j.Maps {
			j.Maps[i].Work = 1000
		}
		return j
	}
	a, b := job(), job()
	m.stretch(stragglerRand(3), &a)
	m.stretch(stragglerRand(3), &b)
	stretched := 0
	for i, tk := range a.Maps {
		if tk.Work != b.Maps[i].Work {
			t.Fatal("same seed, different stragglers")
		}
		if tk.Work == 1000 {
			continue
		}
		stretched++
		if tk.Work < 1500 || tk.Work > 10000 {
			t.Errorf("task %d stretched to %d ms, want 1.5x..10x", i, tk.Work)
		}
	}
	if f := float64(stretched) / float64(len(a.Maps)); f < 0.04 || f > 0.06 {
		t.Errorf("%.3f of tasks straggle, want about %.2f", f, m.TailFraction)
	}
	nodes := make([]sim.Node, 100)
	m.slowNodes(stragglerRand(3), nodes)
	slow := 0
	for _, n := range nodes {
		if n.Slowdown == m.SlowNodeFactor {
			slow++
		}
	}
	if slow != 8 {
		t.Errorf("%d slow nodes of 100, want 8", slow)
	}
	if err := (StragglerModel{TailFraction: 2}).Validate(); err == nil {
		t.Error("a tail fraction of 2 validated")
	}
}

// With the straggler model the policies differ on a SWIM trace as on the
// scenarios: on the first 600 jobs of the Facebook 2009 day, hadoop and late
// beat no speculation on mean job time; without it they cannot.
func TestSWIMStragglersLetPoliciesDiffer(t *testing.T) {
	path := filepath.Join(shared, "swim", "FB-2009_samples_24_times_1hr_0.tsv")
	in := load(t, path)
	if len(in.Jobs) > 600 {
		in.Jobs = in.Jobs[:600]
	}
	reg := registry(t)
	mean := func(co ClusterOptions) map[string]Result {
		opts := Options{Speculators: []string{"none", "hadoop", "late"}, Seed: 1, Runs: 1, Registry: reg, Cluster: co}
		res, err := Simulate(WorkloadOf(in, co), opts)
		if err != nil {
			t.Fatal(err)
		}
		return bySpeculator(res)
	}
	with := mean(ClusterOptions{})
	off := StragglerModel{Off: true}
	without := mean(ClusterOptions{Stragglers: &off})
	t.Logf("with stragglers: none %.1fs, hadoop %.1fs, late %.1fs; without: none %.1fs, hadoop %.1fs, late %.1fs",
		with["none"].MeanJobS, with["hadoop"].MeanJobS, with["late"].MeanJobS,
		without["none"].MeanJobS, without["hadoop"].MeanJobS, without["late"].MeanJobS)
	if with["none"].StragglerModel == "" || without["none"].StragglerModel != "" {
		t.Errorf("straggler model reported %q with, %q without", with["none"].StragglerModel, without["none"].StragglerModel)
	}
	for _, p := range []string{"hadoop", "late"} {
		if with[p].MeanJobS >= with["none"].MeanJobS {
			t.Errorf("%s %.1fs does not beat none %.1fs with the straggler model", p, with[p].MeanJobS, with["none"].MeanJobS)
		}
	}
}
