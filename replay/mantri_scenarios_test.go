package replay

import (
	"path/filepath"
	"strings"
	"testing"
)

// maxMantriTasks bounds the scenarios the mantri test simulates: the Xu and
// Lau scenarios (22,000 to 458,000 tasks) take minutes each and already run
// mantri beside hadoop in xulau_scenarios_test.go; docs/reproductions-
// fidelity.md says which larger scenarios were measured with the CLI.
const maxMantriTasks = 20000

// Mantri as GRASS (NSDI'14 §6) and the SCA paper (§II) use it is a
// reasonable baseline: with one copy per task, restarts only when they are
// likely to save time and at most gamma restarts per task, it is never more
// than 1.5x slower than Hadoop's own speculator on a bundled scenario
// (issue 13, item 4: before these rules it made kill storms, tens of
// thousands of copies on heavy-tailed jobs). Every bundled scenario of at
// most maxMantriTasks tasks is simulated, in parallel.
func TestMantriWithinHadoopOnEveryScenario(t *testing.T) {
	paths, err := filepath.Glob("../scenarios/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no bundled scenarios in ../scenarios (%v)", err)
	}
	reg := registry(t)
	ran := 0
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".yaml")
		w, err := WorkloadOf(load(t, path), ClusterOptions{})(1)
		if err != nil {
			t.Fatal(err)
		}
		tasks := 0
		for _, j := range w.Jobs {
			tasks += len(j.Maps) + len(j.Reduces)
		}
		if tasks > maxMantriTasks {
			t.Logf("%s: %d tasks, above %d: not simulated here (see maxMantriTasks)", name, tasks, maxMantriTasks)
			continue
		}
		ran++
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res := simulateScenario(t, name, Options{Speculators: []string{"hadoop", "mantri"}, Seed: 1, Runs: 1, Registry: reg})
			hadoop, mantri := res[0], res[1]
			ratio := mantri.MeanJobS / hadoop.MeanJobS
			t.Logf("%s: hadoop %.1fs, mantri %.1fs (%.2fx), mantri copies %.0f, kills %.0f, tasks %d",
				name, hadoop.MeanJobS, mantri.MeanJobS, ratio, mantri.SpeculativeAttempts, mantri.KilledAttempts, mantri.Tasks)
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
	if ran < 13 {
		t.Errorf("only %d bundled scenarios small enough to simulate; want at least the 13 of the LATE, GRASS and FARMS reproductions", ran)
	}
}
