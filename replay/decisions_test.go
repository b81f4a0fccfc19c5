package replay

import (
	"math"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// An attempt's reported progress in decisions mode follows its clock
// splits: a map silent until its end reports 0 through its start-up (the
// first twelfth's time beyond a typical twelfth), then linear; a straggler
// killed after two twelfths reports no more than that before its kill; a
// reduce's phase is its score's third; without splits the score is
// linear over the run.
func TestProgressFollowsClockSplits(t *testing.T) {
	at := func(a history.Attempt, ty history.TaskType, ms int64) (float64, speculators.Phase) {
		return progressAt(ty, &a, a.Start+ms)
	}
	silent := history.Attempt{Start: 1000, Finish: 13_000, ClockSplits: []int32{11_940, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6}}
	silent.FirstReport = 11_940 // as jhist.go reads these splits
	if p, _ := at(silent, history.Map, 6000); p != 0 {
		t.Errorf("a map silent until its end reports %.3f at half its run, want 0 (its start-up)", p)
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
	if p, _ := at(killed, history.Map, 33_000); math.Abs(p-2.0/12) > 1e-9 {
		t.Errorf("the killed straggler reports %.3f at 33 s, after its last twelfth, want the two twelfths it reached (Hadoop's even spread of the rest is not progress)", p)
	}
	// A copy killed 2.6 s in, in its start-up: every twelfth the spread.
	early := history.Attempt{Start: 0, Finish: 2600, Status: history.Killed,
		ClockSplits: []int32{212, 212, 213, 212, 213, 212, 212, 213, 212, 213, 212, 213}}
	if p, _ := at(early, history.Map, 2000); p != 0 {
		t.Errorf("a copy killed in its start-up reports %.3f, want 0", p)
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
// in 29.7 s and was killed at 33.9 s), decisions mode's timeline shows the
// straggler as the AM saw it: its last report before the kill is at most
// two twelfths, where the linear interpolation (the kill taken as the end
// of its work) reported 0.97 and a policy saw an ordinary task.
func TestDecisionsModeSeesAKilledStraggler(t *testing.T) {
	in := load(t, "testdata/livebench-r2/late.r2-1.jhist")
	tl, err := buildTimeline(in.Jobs[0])
	if err != nil || tl == nil {
		t.Fatalf("timeline: %v", err)
	}
	straggler := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: 0}, N: 0}
	last, killed := -1.0, false
	for _, ev := range tl.events {
		if ev.Attempt != straggler {
			continue
		}
		switch ev.Kind {
		case speculators.AttemptStatus:
			last = ev.Progress
		case speculators.AttemptKilled:
			killed = true
		}
	}
	if !killed || last < 0 || last > 2.0/12+1e-9 {
		t.Errorf("the straggler's last report before its kill: progress %.3f (killed %v), want at most two twelfths", last, killed)
	}
}
