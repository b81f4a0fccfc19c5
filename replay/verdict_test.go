package replay

import (
	"strings"
	"testing"
)

func res(name string, meanS, containerH float64) Result {
	return Result{Speculator: name, Figures: Figures{Jobs: 10, MeanJobS: meanS, ContainerS: containerH * 3600}}
}

// The verdict names the fastest policy, the fastest at no more than
// hadoop's container time, and the non-dominated policies between them.
func TestVerdictTimeAgainstCost(t *testing.T) {
	rs := []Result{res("none", 5000, 400), res("hadoop", 300, 200), res("mantri", 260, 180), res("ras", 110, 190),
		res("grass", 100, 250), res("gs", 95, 900), res("late", 310, 210)}
	v := NewVerdict(rs)
	if v.BestOnTime.Policy != "gs" || v.BestAtBaselineCost == nil || v.BestAtBaselineCost.Policy != "ras" || v.Baseline.Policy != "hadoop" {
		t.Fatalf("best %+v, at hadoop's cost %+v", v.BestOnTime, v.BestAtBaselineCost)
	}
	var front []string
	for _, f := range v.Front {
		front = append(front, f.Policy)
	}
	if got := strings.Join(front, ","); got != "gs,grass,ras,mantri" {
		t.Errorf("front %s, want gs,grass,ras,mantri (fastest first)", got)
	}
	text := strings.Join(v.Summary, "\n")
	for _, want := range []string{"Best on mean job time: gs, 95.0 s at 900.0 container-hours",
		"Best at no more than hadoop's container time: ras, 110.0 s at 190.0 container-hours (hadoop: 300.0 s at 200.0)",
		"Between them, faster only at a higher cost: grass (100.0 s, 250.0 container-hours, 1.2x hadoop's)"} {
		if !strings.Contains(text, want) {
			t.Errorf("verdict lacks %q:\n%s", want, text)
		}
	}
	if NewVerdict([]Result{{Speculator: "none"}}) != nil {
		t.Error("a verdict with no finished job")
	}
}

// Counts print as whole numbers when they are (one run), else with one
// decimal (a mean over runs).
func TestCount(t *testing.T) {
	for x, want := range map[float64]string{0: "0", 3: "3", 1371.5: "1371.5", 2.25: "2.2"} {
		if got := Count(x); got != want {
			t.Errorf("Count(%v) = %q, want %q", x, got, want)
		}
	}
}

// The verdict says how auto compares with the best single policy on mean
// job time, and tells the user to hand-pick when auto is more than 5%
// behind (issue 27).
func TestVerdictComparesAutoWithTheBestSinglePolicy(t *testing.T) {
	cases := []struct {
		auto float64
		pct  float64
		want string
	}{
		{90, -5.3, "auto (90.0 s) is at least as fast as the best single policy, gs (95.0 s)"},
		{97, 2.1, "auto (97.0 s) is within 2.1% of the best single policy, gs (95.0 s): hand-picking gains little."},
		{120, 26.3, "auto (120.0 s) is 26.3% slower than the best single policy, gs (95.0 s): on this input, hand-pick gs."},
	}
	for _, c := range cases {
		v := NewVerdict([]Result{res("hadoop", 300, 200), res("auto", c.auto, 300), res("gs", 95, 900)})
		if v.AutoVsBestPct == nil || *v.AutoVsBestPct != c.pct || v.BestSingle != "gs" {
			t.Errorf("auto %.0f s: auto vs best %v%% (%s), want %v%% (gs)", c.auto, v.AutoVsBestPct, v.BestSingle, c.pct)
		}
		if text := strings.Join(v.Summary, "\n"); !strings.Contains(text, c.want) {
			t.Errorf("verdict lacks %q:\n%s", c.want, text)
		}
	}
	if v := NewVerdict([]Result{res("hadoop", 300, 200), res("gs", 95, 900)}); v.AutoVsBestPct != nil {
		t.Errorf("without auto the verdict compares it: %v", *v.AutoVsBestPct)
	}
}
