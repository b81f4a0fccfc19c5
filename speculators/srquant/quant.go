package srquant

import (
	"math"
	"sort"
)

// Model holds what Theorems 1 and 2 of "Speculative-Resume with
// Quantitative Analysis" (SRQuant/LASER paper, §IV-A) need: Pareto task
// times (TMin, Beta), a job of N tasks with deadline D, the estimation and
// kill points TauEst and TauKill, and Phi, the progress of the straggler's
// original attempt at TauEst (the paper's phi_est). Times are in seconds,
// measured from the task's start.
type Model struct {
	N       int
	TMin    float64
	Beta    float64
	D       float64
	TauEst  float64
	TauKill float64
	Phi     float64
}

// PoCD is R(r) of Theorem 1: the probability that all N tasks finish by D
// when a task whose original attempt would overrun D is killed at TauEst and
// r+1 attempts resume from its byte offset:
//
//	R(r) = [1 - (1-phi)^(beta(r+1)) tmin^(beta(r+2)) / (D^beta (D-tau_est)^(beta(r+1)))]^N.
//
// It is the product of P(T1 > D) = (tmin/D)^beta and, for each of the r+1
// resumed attempts, P((1-phi) T > D - tau_est) = ((1-phi) tmin/(D-tau_est))^beta
// (a resumed attempt processes the remaining fraction 1-phi of the task at
// an independent Pareto rate). Each probability is capped at 1, which the
// closed form does not do when D - tau_est < (1-phi) tmin (no resumed
// attempt can then make the deadline); the cap keeps R in [0, 1].
func (m Model) PoCD(r int) float64 {
	pOrig := paretoTail(m.TMin, m.Beta, m.D)
	pResumed := 1.0
	if left := m.D - m.TauEst; left > 0 {
		pResumed = paretoTail((1-m.Phi)*m.TMin, m.Beta, left)
	}
	miss := pOrig * math.Pow(pResumed, float64(r+1))
	return math.Pow(1-miss, float64(m.N))
}

// paretoTail is P(X > x) for X ~ Pareto(tmin, beta).
func paretoTail(tmin, beta, x float64) float64 {
	if x <= tmin {
		return 1
	}
	return math.Pow(tmin/x, beta)
}

// TaskTime is E(T_j) of Theorem 2, eq. (4)-(8): the expected machine time
// of one task,
//
//	E(T_j) = E(T_j | T_j1 <= D) P(T_j1 <= D) + E(T_j | T_j1 > D) P(T_j1 > D),
//
// with E(T_j | T_j1 <= D) the mean of a Pareto truncated at D, eq. (6), and
// E(T_j | T_j1 > D) = tau_est + r (tau_kill - tau_est) + E[min of r+1
// resumed attempts]: the original ran until tau_est, r attempts are killed
// at tau_kill, and the kept one runs to the end.
//
// Choice: the flattened text of eq. (8) is ambiguous about its last term;
// we use its derivation. The minimum of r+1 independent Pareto(tmin, beta)
// is Pareto(tmin, beta(r+1)), whose mean is tmin beta(r+1)/(beta(r+1)-1),
// scaled by the fraction 1-phi left to process. For beta(r+1) <= 1 the
// mean is infinite and so is the cost.
func (m Model) TaskTime(r int) float64 {
	pOver := paretoTail(m.TMin, m.Beta, m.D)
	under := 0.0
	if m.D > m.TMin {
		under = truncatedParetoMean(m.TMin, m.Beta, m.D)
	}
	b := m.Beta * float64(r+1)
	if b <= 1 {
		return math.Inf(1)
	}
	kept := (1 - m.Phi) * m.TMin * b / (b - 1)
	over := m.TauEst + float64(r)*(m.TauKill-m.TauEst) + kept
	return under*(1-pOver) + over*pOver
}

// truncatedParetoMean is E(X | X <= d) for X ~ Pareto(tmin, beta), eq. (6):
// tmin d beta (tmin^(beta-1) - d^(beta-1)) / ((1-beta)(d^beta - tmin^beta)).
// At beta = 1 the limit is tmin d ln(d/tmin) / (d - tmin).
func truncatedParetoMean(tmin, beta, d float64) float64 {
	if math.Abs(beta-1) < 1e-9 {
		return tmin * d * math.Log(d/tmin) / (d - tmin)
	}
	return tmin * d * beta * (math.Pow(tmin, beta-1) - math.Pow(d, beta-1)) /
		((1 - beta) * (math.Pow(d, beta) - math.Pow(tmin, beta)))
}

// JobTime is E_r(T) of Theorem 2: N E(T_j), the job's expected machine time.
func (m Model) JobTime(r int) float64 { return float64(m.N) * m.TaskTime(r) }

// Utility is U(r) = log(R(r) - Rmin) - theta C E_r(T), eq. (9); -Inf when
// R(r) <= Rmin.
func (m Model) Utility(r int, rMin, thetaC float64) float64 {
	gain := m.PoCD(r) - rMin
	if !(gain > 0) {
		return math.Inf(-1)
	}
	return math.Log(gain) - thetaC*m.JobTime(r)
}

// Choose is Algorithm 1: the r in [0, rMax] with the largest U(r), the
// first one on ties, 0 when every U(r) is -Inf (the straggler still gets one
// resumed attempt: Algorithm 1 launches r_m + 1).
func (m Model) Choose(rMax int, rMin, thetaC float64) (r int, u float64) {
	best, rm := math.Inf(-1), 0
	for k := 0; k <= rMax; k++ {
		if v := m.Utility(k, rMin, thetaC); v > best {
			best, rm = v, k
		}
	}
	return rm, best
}

// FitPareto fits Pareto(tmin, beta) by maximum likelihood to completed
// durations done and running elapsed times censored (right-censored: those
// tasks take at least that long). tmin is the smallest completed duration;
// beta = k / (sum over completed of ln(x/tmin) + sum over censored of
// ln(max(c, tmin)/tmin)), the censored MLE. ok is false with fewer than
// two completed durations or no spread (all equal), when there is nothing
// to fit. beta is clamped to [1.01, 20] so that the mean stays finite and a
// tiny spread does not give an absurd exponent.
//
// Choice: the paper fits nothing (it measures beta = 1.7 on its testbed,
// §VI-A); fitting the job's own attempts is the reading, and
// counting running attempts as censored keeps the fit from being biased
// towards the short tasks that happened to finish first.
func FitPareto(done, censored []float64) (tmin, beta float64, ok bool) {
	if len(done) < 2 {
		return 0, 0, false
	}
	xs := append([]float64(nil), done...)
	sort.Float64s(xs)
	tmin = xs[0]
	if !(tmin > 0) {
		return 0, 0, false
	}
	sum := 0.0
	for _, x := range xs {
		sum += math.Log(x / tmin)
	}
	for _, c := range censored {
		if c > tmin {
			sum += math.Log(c / tmin)
		}
	}
	if !(sum > 0) {
		return 0, 0, false
	}
	beta = float64(len(xs)) / sum
	return tmin, math.Min(math.Max(beta, 1.01), 20), true
}
