package replay

import (
	"bufio"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/specbridge/specbridge/sim"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden-outputs.txt from this build")

// goldenJobs is how many of each bundled scenario's earliest jobs the golden
// runs replay: enough for contention, stragglers and every policy's rules to
// act, few enough that every policy on every scenario stays a few seconds.
const goldenJobs = 25

const goldenFile = "testdata/golden-outputs.txt"

// Every bundled scenario, reduced to its first goldenJobs jobs, gives the
// same per-job outcome under every registered policy as the build that wrote
// testdata/golden-outputs.txt (issue 31: the replay's cost work changes how
// the simulator and the policies find their candidates, never what they
// choose). A policy whose rules change on purpose rewrites its lines with
// go test ./replay -run TestGoldenOutputs -update-golden, and the commit
// says why.
func TestGoldenOutputs(t *testing.T) {
	paths, err := filepath.Glob("../scenarios/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob("../scenarios/*/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	paths = append(paths, more...)
	if len(paths) == 0 {
		t.Fatal("no bundled scenarios under ../scenarios")
	}
	reg := registry(t)
	policies := reg.Names()
	var mu sync.Mutex
	got := map[string]string{}
	t.Run("scenarios", func(t *testing.T) {
		for _, path := range paths {
			name := strings.TrimSuffix(strings.TrimPrefix(path, "../scenarios/"), ".yaml")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				opts := Options{Speculators: policies, Seed: 1, Runs: 1, Registry: reg, Parallel: 1,
					Observe: func(r *Run) error {
						h := goldenHash(r.Sim)
						mu.Lock()
						got[name+" "+r.Policy] = h
						mu.Unlock()
						return nil
					}}
				if _, err := Simulate(LimitJobs(WorkloadOf(load(t, path), ClusterOptions{}), goldenJobs), opts); err != nil {
					t.Fatal(err)
				}
			})
		}
	})
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if *updateGolden {
		var b strings.Builder
		b.WriteString("# scenario policy sha256 of the per-job outcome (replay/golden_test.go)\n")
		for _, k := range keys {
			fmt.Fprintf(&b, "%s %s\n", k, got[k])
		}
		if err := os.WriteFile(goldenFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := readGolden(t)
	for _, k := range keys {
		w, ok := want[k]
		switch {
		case !ok:
			t.Errorf("%s: no golden hash in %s (run with -update-golden)", k, goldenFile)
		case w != got[k]:
			t.Errorf("%s: outcome hash %s, golden %s: the replay's output changed", k, got[k], w)
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("%s: in %s but not simulated", k, goldenFile)
		}
	}
}

func readGolden(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		fs := strings.Fields(s)
		if len(fs) != 3 {
			t.Fatalf("%s:%d: want 'scenario policy hash', got %q", goldenFile, line, s)
		}
		out[fs[0]+" "+fs[1]] = fs[2]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// goldenHash digests the fields of every job's outcome that the replay's
// outputs are computed from, field by field so that a field added to
// JobResult later does not change it.
func goldenHash(res *sim.Result) string {
	h := sha256.New()
	fmt.Fprintf(h, "makespan %d end %d unfinished %d\n", res.Makespan, res.End, res.Unfinished)
	for i := range res.Jobs {
		j := &res.Jobs[i]
		fmt.Fprintf(h, "%s %d %d %d %d %d %d %d %d %d %d %d %d %q %v %d %d %d %d %d %d %d %v\n",
			j.ID, j.Submit, j.Start, j.Finish, j.Maps, j.Reduces, j.Attempts, j.ContainerMs, j.WastedContainerMs,
			j.SpeculativeLaunched, j.SpeculativeWon, j.KilledAttempts, j.FailedAttempts, j.FailedTask, j.Killed,
			j.PreemptedReduces, j.RerunMaps, j.DroppedTasks, j.WrongSpeculations, j.FetchFailures,
			j.FetchFailureReruns, j.ExpiryReruns, j.TaskFinish)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}
