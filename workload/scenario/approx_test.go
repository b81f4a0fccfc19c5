package scenario

import (
	"strings"
	"testing"
)

// GRASS §6.1: the ideal duration runs every task at its job's median in
// waves of the job's containers.
func TestIdealDuration(t *testing.T) {
	j := &Job{Maps: []Task{{WorkS: 1}, {WorkS: 10}, {WorkS: 3}, {WorkS: 4}, {WorkS: 100}}, Reduces: []Task{{WorkS: 6}, {WorkS: 2}}}
	// maps: median 4, ceil(5/2) = 3 waves; reduces: median 4, 1 wave.
	if got := IdealDuration(j, [2]int{2, 2}); got != 16 {
		t.Errorf("ideal = %g, want 16", got)
	}
}

func TestBins(t *testing.T) {
	for n, want := range map[int]string{1: BinSmall, 50: BinSmall, 51: BinMedium, 500: BinMedium, 501: BinLarge} {
		if got := Bin(n); got != want {
			t.Errorf("Bin(%d) = %s, want %s", n, got, want)
		}
	}
}

// The bundled SWIM scenario draws the asked number of jobs per bin, with
// deadlines between 1.02 and 1.20 of the ideal duration, in trace order.
func TestSWIMSampling(t *testing.T) {
	s, err := Read("../../scenarios/grass-deadline.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := s.Materialize(4)
	count := map[string]int{}
	last, most := -1.0, 0
	for _, j := range m.Jobs {
		count[Bin(len(j.Maps)+len(j.Reduces))]++
		most = max(most, len(j.Maps))
		if len(j.Reduces) != 0 || len(j.Maps) > 4000 || len(j.Maps) < 5 {
			t.Errorf("%s: %d maps %d reduces", j.Name, len(j.Maps), len(j.Reduces))
		}
		// deadline_from dry-run: the factor is drawn here, the ideal
		// duration (and so the deadline) comes from the caller's dry run.
		if f := j.DeadlineFactor; !(f >= 1.02 && f <= 1.20) || j.DeadlineFrom != DeadlineFromDryRun || j.DeadlineS != 0 ||
			j.Order != "sjf" || !j.EnforceBounds {
			t.Errorf("%s: deadline factor %g from %q (deadline %g), order %q, enforce %v", j.Name, f, j.DeadlineFrom, j.DeadlineS, j.Order, j.EnforceBounds)
		}
		j.SetIdeal(100)
		if j.IdealS != 100 || j.DeadlineS != 100*j.DeadlineFactor {
			t.Errorf("%s: SetIdeal(100) gave ideal %g, deadline %g", j.Name, j.IdealS, j.DeadlineS)
		}
		if j.SubmitS < last {
			t.Errorf("%s submitted at %g before the previous job (%g)", j.Name, j.SubmitS, last)
		}
		last = j.SubmitS
	}
	if count[BinSmall] != 40 || count[BinMedium] != 20 || count[BinLarge] != 5 {
		t.Errorf("bins %v, want 40/20/5", count)
	}
	if most <= 800 {
		t.Errorf("largest job %d maps: the 4000-block cap should keep seed 4's large jobs of 933 and 981 blocks whole", most)
	}
}

func TestSWIMErrors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"hand", "cluster: {nodes: [{count: 1, slots: 1}]}\nworkload:\n  jobs:\n    - {count: 1, maps: 2, map_s: 1, swim: {path: x.tsv}}\n", "line 4: job group"},
		{"both", "cluster: {nodes: [{count: 1, slots: 1}]}\nworkload:\n  jobs:\n    - swim: {path: x.tsv, jobs: 2, small: 1}\n", "line 4: job group"},
		{"order", "cluster: {nodes: [{count: 1, slots: 1}]}\nworkload:\n  jobs:\n    - {count: 1, maps: 2, map_s: 1, order: random}\n", "line 4: job group"},
		{"deadlines", "cluster: {nodes: [{count: 1, slots: 1}]}\nworkload:\n  jobs:\n    - {count: 1, maps: 2, map_s: 1, deadline_s: 5, deadline_factor: 1.1}\n", "line 4: job group"},
		{"deadline_from", "cluster: {nodes: [{count: 1, slots: 1}]}\nworkload:\n  jobs:\n    - {count: 1, maps: 2, map_s: 1, deadline_factor: 1.1, deadline_from: trace}\n", "line 4: job group"},
		{"deadline_from alone", "cluster: {nodes: [{count: 1, slots: 1}]}\nworkload:\n  jobs:\n    - {count: 1, maps: 2, map_s: 1, deadline_from: dry-run}\n", "line 4: job group"},
		{"dry-run ideal_slots", "cluster: {nodes: [{count: 1, slots: 1}]}\nworkload:\n  jobs:\n    - {count: 1, maps: 2, map_s: 1, deadline_factor: 1.1, deadline_from: dry-run, ideal_slots: 2}\n", "line 4: job group"},
		{"key", "cluster: {nodes: [{count: 1, slots: 1}]}\nworkload:\n  jobs:\n    - swim: {path: x.tsv, colour: red}\n", "line 4: unknown field"},
		// Keys a SWIM group would otherwise drop without a word: the trace
		// fixes each job's size and each task's time.
		{"swim job_scale", "cluster: {nodes: [{count: 1, slots: 1}]}\nworkload:\n  jobs:\n    - {swim: {path: x.tsv}, job_scale: {dist: uniform, min: 1, max: 4}}\n", "line 4: job group \"\": a swim group takes its job sizes and task times from the trace; remove maps_dist and job_scale"},
		{"swim maps_dist", "cluster: {nodes: [{count: 1, slots: 1}]}\nworkload:\n  jobs:\n    - {swim: {path: x.tsv}, maps_dist: 5}\n", "remove maps_dist and job_scale"},
		{"swim reduce_phases", "cluster: {nodes: [{count: 1, slots: 1}]}\nworkload:\n  jobs:\n    - {swim: {path: x.tsv}, reduce_phases: [0.5, 0.5, 0.5]}\n", "line 4: job group \"\": reduce_phases sum to 1.5, not 1"},
	} {
		_, err := Parse(c.name+".yaml", []byte(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), "read "+c.name+".yaml") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	s, err := Parse("missing.yaml", []byte("cluster: {nodes: [{count: 1, slots: 1}]}\nworkload:\n  jobs:\n    - swim: {path: no-such.tsv}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.TracesLoaded() {
		t.Error("traces reported loaded before LoadTraces")
	}
	if err := s.LoadTraces(t.TempDir()); err == nil || !strings.Contains(err.Error(), "read missing.yaml line 4: swim trace") {
		t.Errorf("LoadTraces: err = %v", err)
	}
}
