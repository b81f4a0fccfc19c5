package xulau

import (
	"fmt"
	"math"
	"sync"
)

// StragglerCost is the expected resource of one task under SDA's model
// (§V, P3 and eqs. (21)-(26)), in units of E[x]: the first copy runs alone
// until a fraction s of its run, when its remaining time z = (1-s) t_1 is
// known; if z > sigma E[x] the task is a straggler and c-1 fresh copies
// start, and the c copies run until the first finishes (d = min(z, Y),
// Y the fastest fresh copy); otherwise the first copy finishes alone.
//
//	E[R] = s E[x] + E[z; z <= sigma E[x]] + E[c min(z, Y_{c-1}); z > sigma E[x]]
//
// c = 1 is "never duplicate". law has E[x] = law.Mean().
func StragglerCost(law Pareto, s, sigma float64, c int) float64 {
	mean := law.Mean()
	zLaw := Pareto{Mu: (1 - s) * law.Mu, Alpha: law.Alpha}
	T := sigma * mean
	uT := zLaw.Survival(T) // P(z > T)
	tailZ := 0.0           // E[z; z > T]
	if T <= zLaw.Mu {
		tailZ = zLaw.Mean()
	} else {
		tailZ = law.Alpha * math.Pow(zLaw.Mu, law.Alpha) * math.Pow(T, 1-law.Alpha) / (law.Alpha - 1)
	}
	cost := s*mean + zLaw.Mean() - tailZ
	if c <= 1 {
		return (cost + tailZ) / mean
	}
	y := law.MinOf(float64(c - 1))
	// E[c min(z, Y); z > T] with z = zLaw.Mu u^(-1/alpha), u uniform on (0, uT).
	g := func(u float64) float64 {
		return float64(c) * y.ExpectedMinCapped(zLaw.Mu*math.Pow(u, -1/law.Alpha))
	}
	return (cost + gaussLegendre(g, 0, uT, 64)) / mean
}

// SigmaStar is sigma* of eq. (28): the straggler threshold, in units of
// E[x], that minimises StragglerCost when each sigma is paired with its best
// copy count rho(sigma) of eq. (27), and that copy count. It searches c in
// 1..maxCopies and, for each, sigma in [0, 20] by golden section (the cost
// is unimodal in sigma at a fixed c: its derivative in the threshold T is
// f(T) (T - c E[min(T, Y_{c-1})]), one sign change); the joint minimum over
// (sigma, c) is eq. (28)'s since rho(sigma) is the argmin over c at each
// sigma. For a Pareto law the answer depends on the tail index alone
// (Theorem 3): for alpha = 2 it is 1 + sqrt(2)/2 with c = 2. Results are
// memoised per (alpha, s, maxCopies): every job of a run asks.
func SigmaStar(alpha, s float64, maxCopies int) (sigma float64, copies int, err error) {
	if !(alpha > 1) || math.IsInf(alpha, 1) || !(s >= 0 && s < 1) || maxCopies < 1 {
		return 0, 0, fmt.Errorf("sigma*: tail index %g, detection fraction %g, max copies %d: want alpha > 1, 0 <= s < 1, max copies >= 1", alpha, s, maxCopies)
	}
	key := sigmaKey{alpha, s, maxCopies}
	sigmaMu.Lock()
	v, ok := sigmaMemo[key]
	sigmaMu.Unlock()
	if ok {
		return v.sigma, v.copies, nil
	}
	law := Pareto{Mu: (alpha - 1) / alpha, Alpha: alpha} // E[x] = 1
	best, bestSigma, bestC := math.Inf(1), math.Inf(1), 1
	for c := 2; c <= maxCopies; c++ {
		f := func(sig float64) float64 { return StragglerCost(law, s, sig, c) }
		sig := goldenMin(f, 0, 20, 1e-7)
		if v := f(sig); v < best-1e-12 {
			best, bestSigma, bestC = v, sig, c
		}
	}
	if never := StragglerCost(law, s, math.Inf(1), 1); never <= best {
		bestSigma, bestC = math.Inf(1), 1
	}
	sigmaMu.Lock()
	sigmaMemo[key] = sigmaVal{bestSigma, bestC}
	sigmaMu.Unlock()
	return bestSigma, bestC, nil
}

type sigmaKey struct {
	alpha, s float64
	r        int
}

type sigmaVal struct {
	sigma  float64
	copies int
}

// The memo only saves time: a value depends on its key alone, so sharing it
// between runs (and goroutines of a parallel replay) cannot change a result.
var (
	sigmaMu   sync.Mutex
	sigmaMemo = map[sigmaKey]sigmaVal{}
)

// BackupCost is E[R]/E[x] of ESE's approximate analysis (§VI-B, eqs.
// (30)-(33), Fig. 4): in a heavily loaded cluster a task is first looked at
// (its "asktime") at a time uniform over its run t; it gets one backup if its
// remaining time t - a exceeds sigma E[x], and the two copies then run
// until the first finishes; otherwise it runs alone.
//
//	E[R] = E[x; x <= sigma E[x]]
//	     + E[ (1/t) int_0^{t - sigma E[x]} (a + 2 E[min(t-a, t_new)]) da + sigma E[x] ; x > sigma E[x] ]
func BackupCost(law Pareto, sigma float64) float64 {
	mean := law.Mean()
	T := sigma * mean
	short := law.Mean() // E[x; x <= T]
	if T > law.Mu {
		short -= law.Alpha * math.Pow(law.Mu, law.Alpha) * math.Pow(T, 1-law.Alpha) / (law.Alpha - 1)
	} else {
		short = 0
	}
	// t = law.Mu u^(-1/alpha), u uniform on (0, P(x > T)).
	inner := func(t float64) float64 {
		if t <= T {
			return t
		}
		w := func(x float64) float64 { return law.ExpectedMinCapped(x) }
		return ((t-T)*(t-T)/2+2*gaussLegendre(w, T, t, 8))/t + T
	}
	g := func(u float64) float64 { return inner(law.Mu * math.Pow(u, -1/law.Alpha)) }
	return (short + gaussLegendre(g, 0, law.Survival(T), 64)) / mean
}

// BackupSigma is the sigma minimising BackupCost for tail index alpha, by
// golden section over [0.5, 8] (Fig. 4: about 1.7 for alpha = 2, close to
// 2.0 for alpha >= 3).
func BackupSigma(alpha float64) float64 {
	law := Pareto{Mu: (alpha - 1) / alpha, Alpha: alpha}
	return goldenMin(func(s float64) float64 { return BackupCost(law, s) }, 0.5, 8, 1e-5)
}

// CloneCount is c* of eq. (29): the copies each task of a small job of m
// tasks starts with, maximising U(E[t], m) - gamma m c E[t_ij] with U = -E[t]
// (as in P2), for c in 1..maxCopies and m c <= idle (the idle machines
// N(l); at least 1 copy whatever idle says).
func CloneCount(m int, law Pareto, gamma float64, maxCopies, idle int) int {
	p := P2{Gamma: gamma}
	j := WaitingJob{Tasks: m, Law: law}
	best, bestC := math.Inf(1), 1
	for c := 1; c <= maxCopies && (c == 1 || m*c <= idle); c++ {
		if v := p.Cost(j, float64(c)); v < best {
			best, bestC = v, c
		}
	}
	return bestC
}
