package replay

import (
	"reflect"
	"testing"

	"github.com/specbridge/specbridge/store/grassamples"
)

// A replay's results do not depend on the order of --speculators nor on
// which other policies run in it: with a persistent store (--data-dir),
// every policy reads the samples as of the replay's start, and what GRASS
// learns in one policy's runs reaches only later replays. Issue 13, item 8.
func TestResultsIndependentOfSpeculatorOrder(t *testing.T) {
	in := load(t, "../scenarios/grass-deadline.yaml")
	// A short slice of the workload keeps the test fast: the first jobs.
	build := func(seed uint64) (*Workload, error) {
		w, err := WorkloadOf(in, ClusterOptions{})(seed)
		if err != nil {
			return nil, err
		}
		n := min(len(w.Jobs), 12)
		w.Jobs, w.Groups = w.Jobs[:n], w.Groups[:n]
		return w, nil
	}
	reg := registry(t)
	run := func(names ...string) map[string]Result {
		t.Helper()
		st, err := grassamples.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		// The store already holds what an earlier replay taught grass.
		if _, err := Simulate(build, Options{Speculators: []string{"grass"}, Seed: 5, Runs: 1, Registry: reg, Store: st}); err != nil {
			t.Fatal(err)
		}
		res, err := Simulate(build, Options{Speculators: names, Seed: 1, Runs: 2, Registry: reg, Store: st})
		if err != nil {
			t.Fatal(err)
		}
		return bySpeculator(res)
	}
	a := run("grass", "gs", "late")
	b := run("late", "gs", "grass")
	c := run("grass")
	for _, name := range []string{"grass", "gs", "late"} {
		if !reflect.DeepEqual(a[name], b[name]) {
			t.Errorf("%s differs with the order of --speculators:\n%+v\n%+v", name, a[name], b[name])
		}
	}
	if !reflect.DeepEqual(a["grass"], c["grass"]) {
		t.Errorf("grass differs when it runs alone:\n%+v\n%+v", a["grass"], c["grass"])
	}
}
