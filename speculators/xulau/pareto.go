// Package xulau is the mathematics of Xu and Lau's optimisation-based
// speculative execution ("Optimization for Speculative Execution in Big
// Data Processing Clusters", Xu and Lau, §III-§VI): the Pareto task-time
// model, problem P2 of §IV (how many clones each waiting job's tasks get),
// the straggler threshold sigma* of eq. (28) (§V, SDA), the expected
// resource of a task under ESE's backup rule (eqs. (30)-(33), Fig. 4) and
// ESE's clone count of eq. (29) (§VI).
//
// It holds pure functions of numbers (pareto.go, p2.go, sigma.go) and the
// bookkeeping the four cloning and straggler policies share over a
// speculators.Job (jobs.go): no events of its own, no randomness, no I/O,
// no wall clock. The policies sca, sda, ese and dolly call it; their paper
// tests check it against the paper.
package xulau

import (
	"fmt"
	"math"
)

// Pareto is the task-time law of Xu and Lau §III: F(t) = 1 - (Mu/t)^Alpha
// for t >= Mu. Alpha is the heavy-tail order (tail index).
type Pareto struct {
	Mu, Alpha float64
}

// ParetoWithMean is the Pareto law of tail index alpha (> 1) and mean mean:
// Mu = mean (alpha-1)/alpha.
func ParetoWithMean(mean, alpha float64) (Pareto, error) {
	if !(alpha > 1) || !(mean > 0) || math.IsInf(mean, 0) || math.IsInf(alpha, 0) {
		return Pareto{}, fmt.Errorf("pareto with mean %g and tail index %g: want mean > 0 and a finite tail index > 1", mean, alpha)
	}
	return Pareto{Mu: mean * (alpha - 1) / alpha, Alpha: alpha}, nil
}

// Mean is E[x] = Alpha Mu / (Alpha - 1) (+Inf for Alpha <= 1).
func (p Pareto) Mean() float64 {
	if p.Alpha <= 1 {
		return math.Inf(1)
	}
	return p.Alpha * p.Mu / (p.Alpha - 1)
}

// Survival is 1 - F(t).
func (p Pareto) Survival(t float64) float64 {
	if t <= p.Mu {
		return 1
	}
	return math.Pow(p.Mu/t, p.Alpha)
}

// MinOf is the law of the fastest of c i.i.d. copies: Pareto(Mu, c Alpha)
// (eq. (10) with F Pareto).
func (p Pareto) MinOf(c float64) Pareto { return Pareto{Mu: p.Mu, Alpha: c * p.Alpha} }

// ExpectedMax is E[max of m i.i.d. draws], the expected completion of a
// job of m tasks started together (eqs. (11)-(12)). For a Pareto law it is
// Mu Gamma(m+1) Gamma(1-1/Alpha) / Gamma(m+1-1/Alpha); m may be any real
// >= 1 (the continuous relaxation of P2 evaluates it at fractional copy
// counts through MinOf, never at fractional m). +Inf for Alpha <= 1.
func (p Pareto) ExpectedMax(m float64) float64 {
	if p.Alpha <= 1 {
		return math.Inf(1)
	}
	b := 1 / p.Alpha
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	return p.Mu * math.Exp(lg(m+1)+lg(1-b)-lg(m+1-b))
}

// ExpectedMinCapped is E[min(z, Y)] for Y of this law: the time a copy of
// this law runs alongside an attempt that has z left.
func (p Pareto) ExpectedMinCapped(z float64) float64 {
	if z <= p.Mu {
		return math.Max(z, 0)
	}
	if p.Alpha == 1 {
		return p.Mu + p.Mu*math.Log(z/p.Mu)
	}
	return p.Mu + p.Mu/(p.Alpha-1)*(1-math.Pow(p.Mu/z, p.Alpha-1))
}

// gaussLegendre integrates f over [a, b] with a composite 16-point
// Gauss-Legendre rule on n panels: the integrands here are smooth once
// the Pareto variable is changed to its survival probability.
func gaussLegendre(f func(float64) float64, a, b float64, n int) float64 {
	if b <= a {
		return 0
	}
	h := (b - a) / float64(n)
	s := 0.0
	for k := 0; k < n; k++ {
		lo := a + float64(k)*h
		mid, half := lo+h/2, h/2
		for i, x := range glNodes {
			s += glWeights[i] * half * (f(mid-half*x) + f(mid+half*x))
		}
	}
	return s
}

// 16-point Gauss-Legendre nodes (positive half) and weights.
var (
	glNodes = [8]float64{0.0950125098376374, 0.2816035507792589, 0.4580167776572274, 0.6178762444026438,
		0.7554044083550030, 0.8656312023878318, 0.9445750230732326, 0.9894009349916499}
	glWeights = [8]float64{0.1894506104550685, 0.1826034150449236, 0.1691565193950025, 0.1495959888165767,
		0.1246289712555339, 0.0951585116824928, 0.0622535239386479, 0.0271524594117541}
)

// goldenMin returns the x in [a, b] minimising a unimodal f.
func goldenMin(f func(float64) float64, a, b, tol float64) float64 {
	const g = 0.6180339887498949
	x1, x2 := b-g*(b-a), a+g*(b-a)
	f1, f2 := f(x1), f(x2)
	for b-a > tol {
		if f1 <= f2 {
			b, x2, f2 = x2, x1, f1
			x1 = b - g*(b-a)
			f1 = f(x1)
		} else {
			a, x1, f1 = x1, x2, f2
			x2 = a + g*(b-a)
			f2 = f(x2)
		}
	}
	return (a + b) / 2
}
