package sda

import (
	"math"
	"testing"

	"github.com/specbridge/specbridge/speculators/xulau"
)

// TestPaperSigmaStarAlpha2: sigma* of eq. (28), computed numerically, is
// 1 + sqrt(2)/2 for Pareto task times of tail index 2, with two copies.
// Reference: Xu and Lau, §V-A eqs. (26)-(28), Theorem 3, and §V-C ("For
// alpha = 2, we apply Theorem 3 and Equation (28) to obtain the optimal
// value for sigma_i which is 1 + sqrt(2)/2").
func TestPaperSigmaStarAlpha2(t *testing.T) {
	sigma, copies, err := xulau.SigmaStar(2, 0, 8)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + math.Sqrt2/2; math.Abs(sigma-want) > 1e-4 {
		t.Errorf("sigma* = %.6f, want 1 + sqrt(2)/2 = %.6f", sigma, want)
	}
	if copies != 2 {
		t.Errorf("copies at sigma* = %d, want 2 (Theorem 3)", copies)
	}
}

// TestPaperSigmaStarDependsOnTailOnly: sigma* does not depend on the mean
// task time nor on the detection point s, only on the tail index, and the
// straggler cost at sigma* is below never duplicating.
// Reference: Xu and Lau, §V-A, Theorem 3.
func TestPaperSigmaStarDependsOnTailOnly(t *testing.T) {
	base, _, err := xulau.SigmaStar(2, 0, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []float64{0.1, 0.3, 0.5} {
		got, c, err := xulau.SigmaStar(2, s, 8)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-base) > 1e-4 || c != 2 {
			t.Errorf("s = %g: sigma* %.5f copies %d, want %.5f and 2", s, got, c, base)
		}
	}
	for _, mean := range []float64{1, 7.5, 300} {
		law, _ := xulau.ParetoWithMean(mean, 2)
		at := xulau.StragglerCost(law, 0.2, base, 2)
		never := xulau.StragglerCost(law, 0.2, math.Inf(1), 1)
		if !(at < never) {
			t.Errorf("mean %g: cost at sigma* %.4f E[x] is not below never duplicating %.4f E[x]", mean, at, never)
		}
		for _, off := range []float64{-0.3, 0.3} {
			if v := xulau.StragglerCost(law, 0.2, base+off, 2); v < at {
				t.Errorf("mean %g: sigma %.3f costs %.5f < %.5f at sigma*", mean, base+off, v, at)
			}
		}
	}
	prev := base
	for _, a := range []float64{3, 4, 5} {
		got, _, err := xulau.SigmaStar(a, 0, 8)
		if err != nil {
			t.Fatal(err)
		}
		if !(got > prev) {
			t.Errorf("alpha %g: sigma* %.4f not above %.4f (a lighter tail waits longer)", a, got, prev)
		}
		prev = got
	}
}
