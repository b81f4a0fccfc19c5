package srquant

import (
	"math"
	"math/rand/v2"
	"testing"
)

// handCase is worked by hand below (beta = 2 keeps the powers exact):
//
//	P(T1 > D)            = (60/300)^2           = 0.04
//	P(resumed > D - 120) = (0.6*60/180)^2       = 0.04
//	R(0) = (1 - 0.04*0.04)^10                   = 0.984115
//	R(1) = (1 - 0.04*0.04^2)^10                 = 0.999360
//	E(T | T1 <= D) = 60*300*2*(60-300)/((1-2)(300^2-60^2)) = 100
//	E(T | T1 > D, r=0) = 120 + 0      + 36*2/1  = 192
//	E(T | T1 > D, r=1) = 120 + 80     + 36*4/3  = 248
//	E(T | T1 > D, r=2) = 120 + 160    + 36*6/5  = 323.2
//	E_0(T) = 10*(100*0.96 + 192*0.04)   = 1036.8
//	E_1(T) = 10*(100*0.96 + 248*0.04)   = 1059.2
//	E_2(T) = 10*(100*0.96 + 323.2*0.04) = 1089.28
//	U(0) = ln(0.884115) - 0.10368  = -0.226848
//	U(1) = ln(0.899360) - 0.10592  = -0.211991
//	U(2) = ln(0.899974) - 0.108928 = -0.214317
var handCase = Model{N: 10, TMin: 60, Beta: 2, D: 300, TauEst: 120, TauKill: 200, Phi: 0.4}

// TestTheorem1HandComputed checks R(r), eq. (3), on the hand-worked case.
// Reference: SRQuant/LASER paper, §IV-A, Theorem 1.
func TestTheorem1HandComputed(t *testing.T) {
	for r, want := range []float64{0.984115, 0.999360} {
		if got := handCase.PoCD(r); math.Abs(got-want) > 1e-6 {
			t.Errorf("R(%d) = %.6f, want %.6f", r, got, want)
		}
	}
}

// TestTheorem2HandComputed checks E_r(T), eq. (4)-(8).
// Reference: §IV-A, Theorem 2.
func TestTheorem2HandComputed(t *testing.T) {
	for r, want := range []float64{1036.8, 1059.2, 1089.28} {
		if got := handCase.JobTime(r); math.Abs(got-want) > 1e-6 {
			t.Errorf("E_%d(T) = %.4f, want %.4f", r, got, want)
		}
	}
}

// TestAlgorithm1HandComputed checks U(r), eq. (9), and the r Algorithm 1
// picks: one extra attempt beats none (PoCD gain) and two (cost).
// Reference: §IV-A, eq. (9)-(11) and Algorithm 1.
func TestAlgorithm1HandComputed(t *testing.T) {
	for r, want := range []float64{-0.226848, -0.211991, -0.214317} {
		if got := handCase.Utility(r, 0.1, 0.0001); math.Abs(got-want) > 1e-5 {
			t.Errorf("U(%d) = %.6f, want %.6f", r, got, want)
		}
	}
	if r, _ := handCase.Choose(5, 0.1, 0.0001); r != 1 {
		t.Errorf("Algorithm 1 chose r = %d, want 1", r)
	}
	// A hundredfold price makes every extra attempt too dear.
	if r, _ := handCase.Choose(5, 0.1, 0.01); r != 0 {
		t.Errorf("with theta C = 0.01 Algorithm 1 chose r = %d, want 0", r)
	}
	// A deadline no resumed attempt can make leaves R(r) = R(0) for all r,
	// so the cheapest r wins.
	late := handCase
	late.D = 130 // D - tau_est = 10 s < (1-phi) tmin = 36 s
	if r, _ := late.Choose(5, 0.1, 0.0001); r != 0 {
		t.Errorf("hopeless deadline: chose r = %d, want 0", r)
	}
	// Rmin above every R(r): U is -Inf everywhere and r stays 0.
	if r, u := handCase.Choose(5, 1, 0.0001); r != 0 || !math.IsInf(u, -1) {
		t.Errorf("Rmin unreachable: chose r = %d with U = %g, want 0 and -Inf", r, u)
	}
}

// monteCarlo plays the Speculative-Resume mechanism of §III for jobs of m.N
// tasks: an original attempt of Pareto time; if it would overrun D it is
// killed at tau_est and r+1 attempts each process the remaining 1-phi of
// the task at an independent Pareto rate; the fastest is kept, the others
// killed at tau_kill (or when it finishes, if earlier). It returns the
// share of jobs whose tasks all end by D and the mean machine time.
func monteCarlo(m Model, r, jobs int, seed uint64) (pocd, machine float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	draw := func() float64 { return m.TMin * math.Pow(1-rng.Float64(), -1/m.Beta) }
	met := 0
	total := 0.0
	for range jobs {
		ok := true
		for range m.N {
			t1 := draw()
			if t1 <= m.D {
				total += t1
				continue
			}
			best := math.Inf(1)
			for range r + 1 {
				best = min(best, (1-m.Phi)*draw())
			}
			if m.TauEst+best > m.D {
				ok = false
			}
			total += m.TauEst + float64(r)*(m.TauKill-m.TauEst) + best
		}
		if ok {
			met++
		}
	}
	return float64(met) / float64(jobs), total / float64(jobs)
}

// TestTheorem1MonteCarlo checks R(r) against a simulation of the mechanism
// within 1%, at the paper's tail index beta = 1.7 (§VI-A).
// Reference: §III (Speculative-Resume), §IV-A Theorem 1.
func TestTheorem1MonteCarlo(t *testing.T) {
	m := Model{N: 10, TMin: 60, Beta: 1.7, D: 200, TauEst: 120, TauKill: 200, Phi: 0.45}
	for r := 0; r <= 3; r++ {
		mc, _ := monteCarlo(m, r, 200000, uint64(r+1))
		if got := m.PoCD(r); math.Abs(got-mc)/mc > 0.01 {
			t.Errorf("R(%d) = %.4f, Monte Carlo %.4f: more than 1%% apart", r, got, mc)
		}
	}
}

// TestTheorem2MonteCarlo checks E_r(T) against the same simulation within
// 1%. The simulation keeps killed copies only until tau_kill and the model
// assumes the kept copy outlives tau_kill, which holds when (1-phi) tmin >
// tau_kill - tau_est; beta = 2.5 keeps the variance finite so that the
// sample mean settles.
func TestTheorem2MonteCarlo(t *testing.T) {
	m := Model{N: 10, TMin: 150, Beta: 2.5, D: 300, TauEst: 120, TauKill: 160, Phi: 0.5}
	for r := 0; r <= 2; r++ {
		_, mc := monteCarlo(m, r, 200000, uint64(10+r))
		if got := m.JobTime(r); math.Abs(got-mc)/mc > 0.01 {
			t.Errorf("E_%d(T) = %.1f, Monte Carlo %.1f: more than 1%% apart", r, got, mc)
		}
	}
}

func TestFitParetoRecoversParameters(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	var xs []float64
	for range 5000 {
		xs = append(xs, 60*math.Pow(1-rng.Float64(), -1/1.7))
	}
	tmin, beta, ok := FitPareto(xs, nil)
	if !ok || math.Abs(tmin-60)/60 > 0.01 || math.Abs(beta-1.7)/1.7 > 0.05 {
		t.Errorf("fit = (%.2f, %.3f, %v), want about (60, 1.7)", tmin, beta, ok)
	}
	// Censoring the long half at the median must still find beta.
	sortFloat(xs)
	med := xs[len(xs)/2]
	cens := make([]float64, len(xs)-len(xs)/2)
	for i := range cens {
		cens[i] = med
	}
	_, beta, ok = FitPareto(xs[:len(xs)/2], cens)
	if !ok || math.Abs(beta-1.7)/1.7 > 0.08 {
		t.Errorf("censored fit beta = %.3f (ok %v), want about 1.7", beta, ok)
	}
	if _, _, ok := FitPareto([]float64{5}, nil); ok {
		t.Error("a single duration was fitted")
	}
	if _, _, ok := FitPareto([]float64{5, 5, 5}, nil); ok {
		t.Error("equal durations were fitted")
	}
}

func sortFloat(xs []float64) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// TestTheorem1ClosedFormAsPrinted evaluates Theorem 1 as the paper prints
// it, R(r) = [1 - (1-phi)^(beta(r+1)) tmin^(beta(r+2)) / (D^beta
// (D-tau_est)^(beta(r+1)))]^N, on the hand case (the paper's N = 10 tasks a
// job, tau_est = 120 s, tau_kill = 200 s) and on beta = 1.7 (§VI), and
// checks PoCD against it where no probability is capped. By hand at r = 0:
// 0.6^2 x 60^4 / (300^2 x 180^2) = 4,665,600 / 2,916,000,000 = 0.0016.
// Reference: SRQuant/LASER paper, §IV-A, Theorem 1 (eq. (3)); §VI setup.
func TestTheorem1ClosedFormAsPrinted(t *testing.T) {
	printed := func(m Model, r int) float64 {
		b, rr := m.Beta, float64(r)
		x := math.Pow(1-m.Phi, b*(rr+1)) * math.Pow(m.TMin, b*(rr+2)) /
			(math.Pow(m.D, b) * math.Pow(m.D-m.TauEst, b*(rr+1)))
		return math.Pow(1-x, float64(m.N))
	}
	if got := 1 - math.Pow(printed(handCase, 0), 0.1); math.Abs(got-0.0016) > 1e-12 {
		t.Errorf("miss probability at r = 0 = %v, want 0.0016", got)
	}
	m17 := handCase
	m17.Beta = 1.7
	for _, m := range []Model{handCase, m17} {
		for r := range 4 {
			if got, want := m.PoCD(r), printed(m, r); math.Abs(got-want) > 1e-12 {
				t.Errorf("beta %.1f: R(%d) = %.12f, Theorem 1 as printed %.12f", m.Beta, r, got, want)
			}
		}
	}
}
