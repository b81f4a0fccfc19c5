package scenario

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

const sizesYAML = `cluster:
  nodes: [{count: 4, slots: 1}]
workload:
  jobs:
    - name: j
      count: 2000
      maps_dist: {dist: uniform, min: 1, max: 100}
      map_s: {dist: pareto, scale: 0.5, shape: 2}
      job_scale: {dist: uniform, min: 10, max: 40}
      copy_work: fresh
`

// TestJobSizeDistribution parses maps_dist, job_scale and copy_work fresh:
// job sizes are whole numbers covering 1..100 with mean about 50.5, each
// job's a-priori mean task time is its job_scale draw times map_s's mean
// (1 s) and its tail index map_s's shape, and fresh copies draw from the
// job's own law.
func TestJobSizeDistribution(t *testing.T) {
	s, err := Parse("sizes.yaml", []byte(sizesYAML))
	if err != nil {
		t.Fatal(err)
	}
	m := s.Materialize(3)
	seen := map[int]bool{}
	sum, meanSum := 0, 0.0
	for _, j := range m.Jobs {
		n := len(j.Maps)
		if n < 1 || n > 100 {
			t.Fatalf("%s: %d maps, want 1..100", j.Name, n)
		}
		seen[n] = true
		sum += n
		if j.TaskMeanS < 10 || j.TaskMeanS > 40 || j.TailIndex != 2 || !j.Fresh || j.FreshMap == nil {
			t.Fatalf("%s: mean %g s, tail %g, fresh %v: want 10..40 s, 2, a fresh law", j.Name, j.TaskMeanS, j.TailIndex, j.Fresh)
		}
		meanSum += j.TaskMeanS
	}
	if !seen[1] || !seen[100] || len(seen) < 95 {
		t.Errorf("sizes cover %d values (1: %v, 100: %v), want nearly all of 1..100", len(seen), seen[1], seen[100])
	}
	if avg := float64(sum) / float64(len(m.Jobs)); math.Abs(avg-50.5) > 2.5 {
		t.Errorf("mean size %.2f, want about 50.5", avg)
	}
	if avg := meanSum / float64(len(m.Jobs)); math.Abs(avg-25) > 1 {
		t.Errorf("mean E[x] %.2f s, want about 25", avg)
	}
	law := m.Jobs[0].FreshMap
	if math.Abs(law.Mean()-m.Jobs[0].TaskMeanS) > 1e-9 {
		t.Errorf("fresh law mean %g, job mean %g", law.Mean(), m.Jobs[0].TaskMeanS)
	}
}

// TestJobSizeErrors: maps_dist with maps, or a bad maps_dist, is an error
// naming the file and line.
func TestJobSizeErrors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"both", strings.Replace(sizesYAML, "      count: 2000\n", "      count: 2000\n      maps: 3\n", 1), "line 5: job group \"j\": give maps or maps_dist"},
		{"bad-dist", strings.Replace(sizesYAML, "min: 1, max: 100", "min: 50, max: 2", 1), "line 7: uniform"},
		{"bad-copy", strings.Replace(sizesYAML, "copy_work: fresh", "copy_work: new", 1), "not same, resample or fresh"},
	} {
		_, err := Parse(c.name+".yaml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.name+".yaml") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want the file and %q", c.name, err, c.want)
		}
	}
}

// TestXuLauScenariosParse reads and materializes every scenario under
// scenarios/xulau/ (kept out of scenarios/*.yaml for their size).
func TestXuLauScenariosParse(t *testing.T) {
	paths, err := filepath.Glob("../../scenarios/xulau/*.yaml")
	if err != nil || len(paths) < 4 {
		t.Fatalf("found %d Xu and Lau scenarios (err %v)", len(paths), err)
	}
	for _, p := range paths {
		s, err := Read(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		m := s.Materialize(1)
		if len(m.Nodes) == 0 || len(m.Jobs) == 0 || !m.Jobs[0].Fresh || m.Jobs[0].TaskMeanS <= 0 {
			t.Fatalf("%s: %d nodes, %d jobs, first job fresh %v mean %g", p, len(m.Nodes), len(m.Jobs), m.Jobs[0].Fresh, m.Jobs[0].TaskMeanS)
		}
	}
}
