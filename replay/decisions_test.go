package replay

import (
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// An attempt's reported progress in decisions mode follows its clock
// splits: a map silent until its end reports under a twelfth until then
// (linear within its first twelfth, as within any); a straggler
// killed after two twelfths reports no more than that before its kill; a
// reduce's phase is its score's third; without splits the score is
// linear over the run.
func TestProgressFollowsClockSplits(t *testing.T) {
	at := func(a history.Attempt, ty history.TaskType, ms int64) (float64, speculators.Phase) {
		return progressAt(ty, &a, a.Start+ms)
	}
	silent := history.Attempt{Start: 1000, Finish: 13_000, ClockSplits: []int32{11_940, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6}}
	if p, _ := at(silent, history.Map, 6000); p >= 1.0/12 {
		t.Errorf("a map silent until its end reports %.3f at half its run, want under a twelfth", p)
	}
	if p, _ := at(silent, history.Map, 11_999); p < 0.9 {
		t.Errorf("a map silent until its end reports %.3f just before it, want most of it", p)
	}
	// Killed at 33.9 s, two twelfths reached at 29.7 s, the rest of its
	// time spread by Hadoop over the twelfths it never reached.
	killed := history.Attempt{Start: 0, Finish: 33_900, Status: history.Killed,
		ClockSplits: []int32{20_553, 9192, 401, 401, 401, 401, 401, 401, 401, 401, 401, 401}}
	if p, _ := at(killed, history.Map, 20_000); math.Abs(p-20_000.0/20_553/12) > 0.01 {
		t.Errorf("the killed straggler reports %.3f at 20 s, want %.3f (most of its first twelfth)", p, 20_000.0/20_553/12)
	}
	if p, _ := at(killed, history.Map, 29_000); p > 2.0/12 {
		t.Errorf("the killed straggler reports %.3f at 29 s, want under two twelfths", p)
	}
	even := history.Attempt{Start: 0, Finish: 12_000, ClockSplits: []int32{1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000}}
	for _, tc := range []struct {
		ms    int64
		phase speculators.Phase
	}{{2000, speculators.PhaseShuffle}, {6000, speculators.PhaseSort}, {10_000, speculators.PhaseReduce}} {
		if p, ph := at(even, history.Reduce, tc.ms); ph != tc.phase || math.Abs(p-float64(tc.ms)/12_000) > 1e-9 {
			t.Errorf("reduce at %d ms: %.3f in %v, want %.3f in %v", tc.ms, p, ph, float64(tc.ms)/12_000, tc.phase)
		}
	}
	plain := history.Attempt{Start: 0, Finish: 10_000}
	if p, _ := at(plain, history.Map, 2500); p != 0.25 {
		t.Errorf("without splits: %.3f at a quarter of the run, want 0.25", p)
	}
}

// On a live history where late's copy beat a straggler (testdata/
// livebench-r2/late.r2-1.jhist: map 0's first attempt reached two twelfths
// in 29.7 s and was killed at 33.9 s), decisions mode shows hadoop the
// straggler as Hadoop's AM saw it: its estimated run is minutes, where the
// linear interpolation (the kill taken as the end of its work) gave 33.9 s.
func TestDecisionsModeSeesAKilledStraggler(t *testing.T) {
	in := load(t, "testdata/livebench-r2/late.r2-1.jhist")
	res, _, err := Decide(in, Options{Speculators: []string{"hadoop"}, Seed: 1, Runs: 1, Registry: registry(t)})
	if err != nil {
		t.Fatal(err)
	}
	run := regexp.MustCompile(`estimated run ([0-9.]+)s`)
	found := false
	for _, d := range res[0].Decisions {
		if d.Kind != "speculate" || d.Task != "task_1795937562760_0016_m_000000" {
			continue
		}
		found = true
		m := run.FindStringSubmatch(d.Reason)
		if m == nil {
			t.Fatalf("reason %q names no estimated run", d.Reason)
		}
		if s, _ := strconv.ParseFloat(m[1], 64); s < 120 {
			t.Errorf("hadoop estimates the straggler's run at %.1f s (%s), want minutes: it reported a twelfth in 20 s", s, d.Reason)
		}
	}
	if !found {
		t.Errorf("hadoop did not speculate the straggler: %+v", res[0].Decisions)
	}
}
