package scenario

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func bundled(t testing.TB) []string {
	paths, err := filepath.Glob("../../scenarios/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no bundled scenarios found (err %v)", err)
	}
	return paths
}

func TestBundledScenariosParse(t *testing.T) {
	for _, p := range bundled(t) {
		s, err := Read(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		m := s.Materialize(1)
		if len(m.Nodes) == 0 || len(m.Jobs) == 0 {
			t.Fatalf("%s: materialized %d nodes, %d jobs", p, len(m.Nodes), len(m.Jobs))
		}
	}
}

func TestSleepSensitivityShape(t *testing.T) {
	s, err := Read("../../scenarios/late-sleep-sensitivity.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := s.Materialize(7)
	if len(m.Nodes) != 40 {
		t.Fatalf("nodes = %d, want 40 (LATE §5.4)", len(m.Nodes))
	}
	factors := map[float64]int{}
	for _, n := range m.Nodes {
		factors[n.Slowdown]++
	}
	if factors[3] != 5 || factors[10] != 1 {
		t.Fatalf("slowdown counts %v: want five at 3 and one at 10", factors)
	}
	j := m.Jobs[0]
	mean := 0.0
	for _, r := range j.Reduces {
		mean += r.WorkS
	}
	mean /= float64(len(j.Reduces))
	if mean < 65 || mean > 75 {
		t.Fatalf("mean reduce work %.1f s, want about 70 s (100 sleeps of U(0,1.4))", mean)
	}
}

func TestMaterializeDeterministic(t *testing.T) {
	s, err := Read("../../scenarios/late-ec2-heterogeneous.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := s.Materialize(3), s.Materialize(3), s.Materialize(4)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed gave different workloads")
	}
	if reflect.DeepEqual(a, c) {
		t.Fatal("different seeds gave identical workloads")
	}
}

func TestErrorsNameFileAndLine(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"unknown-top", "cluster:\n  nodes: [{count: 1, slots: 1}]\nworkload:\n  jobs: [{count: 1, maps: 1, map_s: 1}]\nbogus: 1\n", "line 5"},
		{"unknown-nested", "cluster:\n  nodes:\n    - count: 1\n      slots: 1\n      speed: 2\nworkload:\n  jobs: [{count: 1, maps: 1, map_s: 1}]\n", `line 5: unknown field "speed"`},
		// The top level reads like the nested levels (not yaml.v3's Go type
		// name), and both suggest the key meant.
		{"typo-top", "cluster:\n  nodes: [{count: 1, slots: 1}]\nworkloads:\n  jobs: [{count: 1, maps: 1, map_s: 1}]\n", `line 3: unknown field "workloads" (did you mean "workload"?)`},
		{"typo-nested", "cluster:\n  nodes: [{count: 1, map_slot: 1}]\nworkload:\n  jobs: [{count: 1, maps: 1, map_s: 1}]\n", `line 2: unknown field "map_slot" (did you mean "map_slots"?)`},
		{"bad-dist", "cluster:\n  nodes: [{count: 1, slots: 1}]\nworkload:\n  jobs:\n    - count: 1\n      maps: 2\n      map_s: {dist: pareto, scale: 0, shape: 1}\n", "line 7: pareto"},
		{"no-nodes", "cluster:\n  scheduler: fifo\nworkload:\n  jobs: [{count: 1, maps: 1, map_s: 1}]\n", "line 2: cluster has no nodes"},
		{"missing-map-s", "cluster:\n  nodes: [{count: 1, slots: 1}]\nworkload:\n  jobs:\n    - count: 1\n      maps: 3\n", "line 5: job group"},
		{"fault-node", "cluster:\n  nodes: [{count: 1, slots: 1}]\nworkload:\n  jobs: [{count: 1, maps: 1, map_s: 1}]\nfaults:\n  - {kind: hang, node: nope-01, at_s: 1}\n", `line 6: fault names node "nope-01"`},
		{"progress-twice", "cluster:\n  nodes: [{count: 1, slots: 1}]\nworkload:\n  jobs: [{name: j, count: 1, maps: 1, map_s: 1}]\nfaults:\n  - {kind: crash, node: job-maps, job: j, at_map_progress: 0.5,\n     at_map_progress_dist: {dist: uniform, min: 0, max: 0.9}}\n", "line 6: give at_map_progress or at_map_progress_dist"},
		{"progress-dist-bad", "cluster:\n  nodes: [{count: 1, slots: 1}]\nworkload:\n  jobs: [{name: j, count: 1, maps: 1, map_s: 1}]\nfaults:\n  - kind: crash\n    node: job-maps\n    job: j\n    at_map_progress_dist: {dist: uniform, min: 0.9, max: 0.1}\n", "line 9: uniform distribution"},
		{"progress-dist-no-job", "cluster:\n  nodes: [{count: 1, slots: 1}]\nworkload:\n  jobs: [{name: j, count: 1, maps: 1, map_s: 1}]\nfaults:\n  - {kind: crash, node: job-maps, at_map_progress_dist: {dist: uniform, min: 0, max: 0.9}}\n", "line 6: job and at_map_progress"},
		{"slowdown-applies", "cluster:\n  nodes:\n    - {count: 1, slots: 1, slowdown: 2, slowdown_applies_to: maps}\nworkload:\n  jobs: [{count: 1, maps: 1, map_s: 1}]\n", `line 3: node group "": slowdown_applies_to "maps"`},
		{"not-yaml", "cluster: [\n", "line"},
		{"empty", "", "line 1: empty"},
		{"bad-number", "cluster:\n  nodes: [{count: 1, slots: 1}]\nworkload:\n  jobs: [{count: 1, maps: 1, map_s: fast}]\n", "line 4"},
	}
	// Non-finite and out-of-range numbers: the simulator would turn them
	// into 1 ms or wrapped-around times, or run for centuries.
	job := func(extra string) string {
		return "cluster:\n  nodes: [{count: 1, slots: 1}]\nworkload:\n  jobs:\n    - {count: 1, maps: 1, map_s: 1" + extra + "}\n"
	}
	cases = append(cases, []struct{ name, text, want string }{
		{"nan-work", strings.Replace(job(""), "map_s: 1", "map_s: .nan", 1), "line 5: .nan is not a finite number"},
		{"inf-work", strings.Replace(job(""), "map_s: 1", "map_s: {dist: uniform, min: 1, max: .inf}", 1), "line 5: .inf is not a finite number"},
		{"nan-mean", strings.Replace(job(""), "map_s: 1", "map_s: {dist: exponential, mean: .NaN}", 1), "line 5: .NaN is not a finite number"},
		{"nan-at", job(", at_s: .nan"), "line 5: .nan"},
		{"nan-phases", job(", reduces: 1, reduce_s: 1, reduce_phases: [.nan, 0.5, 0.5]"), "line 5: .nan"},
		{"nan-slowstart", "cluster:\n  reduce_slowstart: .nan\n  nodes: [{count: 1, slots: 1}]\nworkload:\n  jobs: [{count: 1, maps: 1, map_s: 1}]\n", "line 2: .nan"},
		{"inf-heartbeat", "cluster:\n  heartbeat_s: -.inf\n  nodes: [{count: 1, slots: 1}]\nworkload:\n  jobs: [{count: 1, maps: 1, map_s: 1}]\n", "line 2: -.inf"},
		{"huge-heartbeat", "cluster:\n  heartbeat_s: 1e300\n  nodes: [{count: 1, slots: 1}]\nworkload:\n  jobs: [{count: 1, maps: 1, map_s: 1}]\n", "line 2: heartbeat_s"},
		{"huge-at", job(", at_s: 1e300"), "line 5: job group"},
		{"huge-input", job(", map_input_mib: 1e300"), "line 5: job group"},
		{"huge-dist", strings.Replace(job(""), "map_s: 1", "map_s: {dist: exponential, mean: 1e300}", 1), "line 5: exponential distribution: 1e+300 is over"},
		{"work-over-a-month", strings.Replace(job(""), "map_s: 1", "map_s: 1e8", 1), "line 5: job group \"\": task work 1e+08 s"},
		{"too-many-slots", strings.Replace(job(""), "count: 1, slots: 1", "count: 100000, slots: 2000000000", 1), "line 2: node group \"\": the cluster has over"},
		{"huge-slowdown", strings.Replace(job(""), "count: 1, slots: 1", "count: 1, slots: 1, slowdown: 1e12", 1), "line 2: node group \"\": slowdown 1e+12 is not in [0, 1000]"},
		{"huge-fault-factor", job("") + "faults:\n  - {kind: slowdown, node: node-01, at_s: 1, factor: 1e12}\n", "line 7: slowdown fault needs a factor in (0, 1000]"},
		{"too-many-tasks", strings.Replace(job(""), "count: 1, maps: 1", "count: 1000000, maps: 1000000", 1), "line 5: job group \"\": the workload has over"},
	}...)
	for _, c := range cases {
		_, err := Parse(c.name+".yaml", []byte(c.text))
		if err == nil {
			t.Errorf("%s: parsed without error", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.name+".yaml") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not name the file and %q", c.name, err, c.want)
		}
	}
}

func TestTruncatedBundledScenario(t *testing.T) {
	data, err := os.ReadFile("../../scenarios/late-sleep-sensitivity.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// Cut inside the workload: the job group loses its reduce durations.
	cut := strings.Index(string(data), "      reduce_s:")
	_, err = Parse("cut.yaml", data[:cut])
	if err == nil || !strings.Contains(err.Error(), "cut.yaml line") {
		t.Fatalf("truncated scenario: err = %v, want an error naming cut.yaml and a line", err)
	}
}

func FuzzScenario(f *testing.F) {
	for _, p := range bundled(f) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("cluster: {nodes: [{count: 2, slots: 1}]}\nworkload: {jobs: [{count: 1, maps: 1, map_s: {dist: sum, n: 2, of: 1}}]}\n"))
	f.Add([]byte("cluster: {nodes: [{count: 2, slots: 1}]}\nworkload: {jobs: [{count: 3, maps: 4, map_s: 1, order: sjf, deadline_factor: {dist: uniform, min: 1.02, max: 1.2}, ideal_slots: 2}]}\n"))
	f.Add([]byte("cluster: {nodes: [{count: 2, slots: 1}]}\nworkload: {jobs: [{swim: {path: t.tsv, small: 1, max_maps: 5, map_only: true, time_scale: 0.5}, order: ljf, error_bound: 0.1}]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "read fuzz.yaml") {
				t.Fatalf("error does not name the input: %v", err)
			}
			return
		}
		// A valid scenario must materialize without panicking; keep it small.
		if cost(s) < 1e5 {
			checkLazyTasks(t, s.Materialize(1), s.MaterializeLazy(1, func(*Job) bool { return true }))
		}
	})
}

// checkLazyTasks checks that every job of lazy, whose tasks were let go,
// draws again the tasks eager drew (bit for bit: a fuzzed law may draw NaN).
func checkLazyTasks(t *testing.T, eager, lazy *Materialized) {
	t.Helper()
	if len(eager.Jobs) != len(lazy.Jobs) {
		t.Fatalf("%d jobs eagerly, %d lazily", len(eager.Jobs), len(lazy.Jobs))
	}
	same := func(a, b []Task) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			x, y := a[i], b[i]
			if math.Float64bits(x.WorkS) != math.Float64bits(y.WorkS) || x.InputBytes != y.InputBytes {
				return false
			}
			for k := range x.Phases {
				if math.Float64bits(x.Phases[k]) != math.Float64bits(y.Phases[k]) {
					return false
				}
			}
		}
		return true
	}
	for i := range lazy.Jobs {
		j := &lazy.Jobs[i]
		if !j.Lazy() || j.Maps != nil || j.Reduces != nil {
			t.Fatalf("job %s kept its tasks", j.Name)
		}
		maps, reduces := j.Tasks()
		if e := &eager.Jobs[i]; e.Name != j.Name || !same(e.Maps, maps) || !same(e.Reduces, reduces) {
			t.Fatalf("job %s: tasks drawn again differ from the first draw", j.Name)
		}
	}
}

// TestMaterializeLazyDrawsTheSameTasks: the bundled scenarios' jobs,
// generated or sampled from a SWIM trace, let go of their tasks and draw
// them again as Materialize drew them.
func TestMaterializeLazyDrawsTheSameTasks(t *testing.T) {
	for _, p := range bundled(t) {
		s, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		if cost(s) > 1e6 {
			continue
		}
		for _, seed := range []uint64{1, 2} {
			checkLazyTasks(t, s.Materialize(seed), s.MaterializeLazy(seed, func(*Job) bool { return true }))
		}
	}
}

// cost estimates how many draws Materialize makes.
func cost(s *Scenario) float64 {
	draws := func(d *Dist) float64 {
		if d != nil && d.Kind == "sum" {
			return float64(d.N)
		}
		return 1
	}
	total := 0.0
	for _, g := range s.Cluster.Nodes {
		total += float64(g.Count) * draws(g.SlowdownDist)
	}
	for _, g := range s.Workload.Jobs {
		total += float64(g.Count) * (float64(g.Maps)*draws(g.MapS) + float64(g.Reduces)*draws(g.ReduceS))
	}
	return total
}

// A file far larger than any scenario (a trace given as one by mistake)
// is refused without being read whole.
func TestOversizedScenarioRefused(t *testing.T) {
	big := io.MultiReader(strings.NewReader("name: x\n"), io.LimitReader(zeros{}, 2*MaxBytes))
	if _, err := ReadFrom(big, "big.yaml"); err == nil || !strings.Contains(err.Error(), "read big.yaml: over 16 MiB") {
		t.Fatalf("error %v, want one naming big.yaml and the size", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}
