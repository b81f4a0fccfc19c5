package xulau

import (
	"math"
	"testing"
)

// TestExpectedMaxMatchesItsIntegral checks the closed form of E[max of m]
// against eq. (12)'s integral, E[d] = mu + int_mu^inf (1 - (1-(mu/t)^alpha)^m) dt,
// taken with t = mu u^(-1/alpha).
// Reference: Xu and Lau, §IV-A eqs. (10)-(12).
func TestExpectedMaxMatchesItsIntegral(t *testing.T) {
	for _, tc := range []struct {
		p Pareto
		m float64
	}{{Pareto{1, 2}, 1}, {Pareto{1, 2}, 10}, {Pareto{2, 4}, 20}, {Pareto{0.5, 6}, 5}, {Pareto{1, 2.5}, 3}} {
		f := func(u float64) float64 {
			if u <= 0 {
				return 0
			}
			// d/du of t = mu u^(-1/alpha) is -(mu/alpha) u^(-1/alpha - 1).
			return (1 - math.Pow(1-u, tc.m)) * tc.p.Mu / tc.p.Alpha * math.Pow(u, -1/tc.p.Alpha-1)
		}
		integral := tc.p.Mu + gaussLegendre(f, 0, 1, 4000)
		if got := tc.p.ExpectedMax(tc.m); math.Abs(got-integral)/integral > 2e-3 {
			t.Errorf("%+v m=%g: closed form %.6f, integral %.6f", tc.p, tc.m, got, integral)
		}
	}
	if got, want := (Pareto{1, 2}).ExpectedMax(1), 2.0; math.Abs(got-want) > 1e-12 {
		t.Errorf("E[max of 1] = %g, want the mean %g", got, want)
	}
}

// TestExpectedMinCapped checks E[min(z, Y)] at its limits and against a
// direct integral of the survival function.
func TestExpectedMinCapped(t *testing.T) {
	p := Pareto{Mu: 1, Alpha: 3}
	if got := p.ExpectedMinCapped(0.5); got != 0.5 {
		t.Errorf("z below mu: %g, want z", got)
	}
	if got := p.ExpectedMinCapped(1e9); math.Abs(got-p.Mean()) > 1e-9 {
		t.Errorf("z large: %g, want the mean %g", got, p.Mean())
	}
	z := 2.5
	want := gaussLegendre(p.Survival, 0, z, 200)
	if got := p.ExpectedMinCapped(z); math.Abs(got-want) > 1e-6 {
		t.Errorf("z %g: %g, integral of the survival %g", z, got, want)
	}
}
