package sda

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/specbridge/specbridge/speculators/xulau"
)

// idealFlowtimes draws the job population of Xu and Lau's §VII setup (m
// U(1,100) tasks, E[x] U(1,4) units, Pareto tail index 2) and returns the
// mean job flowtime in units with no speculation and under an ideal SDA at
// threshold sigma with c copies: every task starts at once (no queueing), a
// straggler is known with its exact t_rem after det units of its run (det =
// 0: at its launch, the best any detection-based policy can do), and it gets
// c-1 fresh copies then. A job's flowtime is its slowest task's.
func idealFlowtimes(jobs int, sigma float64, c int, det float64) (none, ideal float64) {
	r := rand.New(rand.NewPCG(1, 2))
	for range jobs {
		m := 1 + r.IntN(100)
		law, _ := xulau.ParetoWithMean(1+3*r.Float64(), 2)
		draw := func() float64 { return law.Mu * math.Pow(1-r.Float64(), -1/law.Alpha) }
		slowest, slowestSDA := 0.0, 0.0
		for range m {
			t := draw()
			slowest = max(slowest, t)
			if t > det && t-det > sigma*law.Mean() {
				for k := 1; k < c; k++ {
					t = min(t, det+draw())
				}
			}
			slowestSDA = max(slowestSDA, t)
		}
		none += slowest
		ideal += slowestSDA
	}
	return none / float64(jobs), ideal / float64(jobs)
}

// TestPaperSDAFlowtimeBound bounds what SDA can gain on the paper's §VII
// setup, whatever the scheduler: with sigma* of eq. (28) and its copy count
// (Theorem 3: 2), an ideal SDA (no queueing, exact t_rem at launch) keeps
// about 29% of the no-speculation flowtime, and even a copy of every task
// (sigma 0) about 26%. So SDA can be 60% below a baseline (Fig. 2) only if
// that baseline keeps more than 70% of the no-speculation flowtime, i.e.
// removes less than 30% of it; a baseline that removes 60% (our hadoop and
// mantri do on xulau/sca-sda.yaml) is at most about 27% above ideal SDA.
// Job order cannot change this: the bound has no queueing to reorder.
// Reference: Xu and Lau, §V-A eqs. (18)-(20), (27)-(28), Theorem 3, §V-C
// and §VII, Fig. 2.
func TestPaperSDAFlowtimeBound(t *testing.T) {
	sigma, copies, err := xulau.SigmaStar(2, 0, 8)
	if err != nil {
		t.Fatal(err)
	}
	const jobs = 20000
	none, ideal := idealFlowtimes(jobs, sigma, copies, 0)
	_, all := idealFlowtimes(jobs, 0, copies, 0)
	t.Logf("mean flowtime (units): none %.3f, ideal SDA (sigma %.3f, %d copies) %.3f (%.1f%%), copy of every task %.3f (%.1f%%)",
		none, sigma, copies, ideal, 100*ideal/none, all, 100*all/none)
	if !(ideal < 0.4*none) {
		t.Errorf("ideal SDA %.3f is not 60%% below no speculation %.3f: SDA would not help on the paper's setup", ideal, none)
	}
	if !(all < ideal) {
		t.Errorf("copying every task (%.3f) is not faster than copying stragglers (%.3f)", all, ideal)
	}
	// For SDA to be 60% below a baseline, the baseline must keep
	// ideal/0.4 of the flowtime: more than 70% of no speculation's.
	if implied := ideal / 0.4 / none; !(implied > 0.7) {
		t.Errorf("a baseline 60%% above ideal SDA keeps only %.0f%% of the no-speculation flowtime; want > 70%%", 100*implied)
	}
	// A baseline that keeps 40% of the no-speculation flowtime (removes
	// 60%) is less than 40% above ideal SDA: the target of SDA 40%
	// below it is out of reach.
	if gap := 1 - ideal/(0.4*none); !(gap < 0.4) {
		t.Errorf("ideal SDA is %.0f%% below a baseline at 40%% of no speculation; want < 40%%", 100*gap)
	}
}

// The same ideal SDA with detection at the first progress report, 3 s
// (0.3 units on the bundled scenarios' scale), for a few thresholds: what
// the simulated sda should measure on xulau/sca-sda.yaml at light load. A
// t_rem overstated between reports acts like a lower sigma: the engine's
// elapsed-time rate made sigma* = 1.707 measure what sigma 1.0 gives here
// (41.0 s), which is why SDA takes t_rem from its latest report
// (xulau.TimeLeft). Detecting at 3 s rather than at launch costs about 2 s
// of mean flowtime at sigma*.
func TestPaperSDADetectionAtTheFirstReport(t *testing.T) {
	sigma, copies, err := xulau.SigmaStar(2, 0, 8)
	if err != nil {
		t.Fatal(err)
	}
	const jobs, det = 20000, 0.3
	mean := func(sg, d float64) float64 { _, m := idealFlowtimes(jobs, sg, copies, d); return 10 * m }
	atStar, atStar0 := mean(sigma, det), mean(sigma, 0)
	one, zero := mean(1.0, det), mean(0, det)
	t.Logf("ideal SDA mean flowtime (s, 1 unit = 10 s): sigma* %.1f (at launch %.1f), sigma 1.0 %.1f, sigma 0 %.1f", atStar, atStar0, one, zero)
	if !(atStar0 < atStar && atStar < atStar0*1.1) {
		t.Errorf("detecting at 3 s gives %.1f s against %.1f s at launch: want a little slower, under 10%%", atStar, atStar0)
	}
	if !(zero < one && one < atStar) {
		t.Errorf("a lower threshold is not faster at light load: sigma 0 %.1f, 1.0 %.1f, sigma* %.1f", zero, one, atStar)
	}
}
