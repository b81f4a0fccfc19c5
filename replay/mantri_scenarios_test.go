package replay

import (
	"path/filepath"
	"strings"
	"testing"
)

// maxMantriTasks bounds the scenarios the mantri test simulates whole; a
// larger one (the Xu and Lau scenarios hold 22,000 to 458,000 tasks) is cut
// to its first jobs, about cutMantriTasks tasks and at most cutMantriJobs
// jobs (loadPrefix: the same cluster, arrivals and laws, a shorter run), so
// that every bundled scenario is checked and the test stays cheap (the Xu
// and Lau cluster has 3000 machines, each free one offered to mantri). docs/reproductions-xu-lau.md has the
// longer runs made with the CLI.
const (
	maxMantriTasks = 20000
	cutMantriTasks = 1500
	cutMantriJobs  = 100
)

// Mantri as GRASS (NSDI'14 §6) and the SCA paper (§II) use it, acting on
// each task's first progress report, is a reasonable baseline: with one copy
// per task, restarts only when they are likely to save time and at most
// gamma restarts per task, it is never more than 1.5x slower than Hadoop's
// own speculator on a bundled scenario (issue 13, item 4: before these
// rules it made kill storms, tens of thousands of copies on heavy-tailed
// jobs; issue 26: without its 30 s trust floor). Every bundled scenario,
// the Xu and Lau ones included, is simulated, in parallel.
func TestMantriWithinHadoopOnEveryScenario(t *testing.T) {
	top, err := filepath.Glob("../scenarios/*.yaml")
	if err != nil || len(top) == 0 {
		t.Fatalf("no bundled scenarios in ../scenarios (%v)", err)
	}
	xl, err := filepath.Glob("../scenarios/xulau/*.yaml")
	if err != nil || len(xl) == 0 {
		t.Fatalf("no bundled scenarios in ../scenarios/xulau (%v)", err)
	}
	reg := registry(t)
	for _, path := range append(top, xl...) {
		name, in, w, tasks := loadScenarioTasks(t, path)
		if tasks > maxMantriTasks {
			keep := min(cutMantriJobs, max(1, len(w.Jobs)*cutMantriTasks/tasks))
			t.Logf("%s: %d tasks, above %d: its first %d of %d jobs are simulated", name, tasks, maxMantriTasks, keep, len(w.Jobs))
			in = loadPrefix(t, path, keep)
		}
		t.Run(strings.ReplaceAll(name, "/", "-"), func(t *testing.T) {
			t.Parallel()
			opts := Options{Speculators: []string{"hadoop", "mantri"}, Seed: 1, Runs: 1, Registry: reg}
			res, err := Simulate(WorkloadOf(in, opts.Cluster), opts)
			if err != nil {
				t.Fatal(err)
			}
			hadoop, mantri := res[0], res[1]
			ratio := mantri.MeanJobS / hadoop.MeanJobS
			t.Logf("%s: hadoop %.1fs, mantri %.1fs (%.2fx), mantri copies %.0f, kills %.0f, container-s %.0f (hadoop %.0f), tasks %d",
				name, hadoop.MeanJobS, mantri.MeanJobS, ratio, mantri.SpeculativeAttempts, mantri.KilledAttempts, mantri.ContainerS, hadoop.ContainerS, mantri.Tasks)
			if ratio > 1.5 {
				t.Errorf("%s: mantri %.1fs is %.2fx hadoop's %.1fs, want <= 1.5x", name, mantri.MeanJobS, ratio, hadoop.MeanJobS)
			}
			if mantri.SpeculativeAttempts > float64(mantri.Tasks) {
				t.Errorf("%s: mantri launched %.0f copies for %d tasks, want at most one per task", name, mantri.SpeculativeAttempts, mantri.Tasks)
			}
			if mantri.KilledAttempts > 4*float64(mantri.Tasks) {
				t.Errorf("%s: mantri killed %.0f attempts for %d tasks, want at most gamma restarts plus one losing copy per task", name, mantri.KilledAttempts, mantri.Tasks)
			}
		})
	}
	if len(top) < 13 || len(xl) < 11 {
		t.Errorf("%d and %d bundled scenarios; want at least the 13 of the LATE, GRASS and FARMS reproductions and the 11 of Xu and Lau", len(top), len(xl))
	}
}

// loadScenarioTasks loads the bundled scenario at path (its name relative to
// ../scenarios), its seed-1 workload and that workload's task count, for the
// scenario tests that cut a large scenario to its first jobs.
func loadScenarioTasks(t *testing.T, path string) (string, *Input, *Workload, int) {
	t.Helper()
	name := strings.TrimSuffix(strings.TrimPrefix(path, "../scenarios/"), ".yaml")
	in := load(t, path)
	w, err := WorkloadOf(in, ClusterOptions{})(1)
	if err != nil {
		t.Fatal(err)
	}
	tasks := 0
	for _, j := range w.Jobs {
		m, r := j.TaskCounts()
		tasks += m + r
	}
	return name, in, w, tasks
}
