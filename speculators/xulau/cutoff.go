package xulau

import "math"

// Cutoff load of Xu and Lau §III: the load below which cloning every task
// (each at least twice) lowers the mean task delay, the "lightly loaded"
// regime of SCA and SDA, and above which only straggler detection (SDA,
// ESE) helps.
//
// Each machine is an M/G/1 queue. With omega = lambda E[m] E[s] / M (the
// offered load, lambda jobs per unit time, E[m] tasks per job, E[s] the
// mean task time, M machines):
//
//   - without copies, eq. (1): W_t = E[s] (omega E[s^2]/E[s]^2 / (2 (1 -
//     omega)) + 1), and for a Pareto law of tail index alpha, E[s^2]/E[s]^2
//     = (alpha-1)^2 / (alpha (alpha-2)) for alpha > 2, infinite for alpha
//     <= 2;
//   - with two copies of every task, eq. (3): W_t^c = E[s] (omega (alpha-1)
//     (1 - 4 alpha^2 + 4 alpha) / (alpha (2 alpha - 1)) + 2 (alpha - 1)) /
//     (2 alpha - 1 - 4 omega (alpha - 1));
//   - Theorem 1 (cloning must not overload the cluster): omega < (2 alpha -
//     1) / (4 (alpha - 1)), the pole of eq. (3).
//
// omega_U is the largest omega below Theorem 1's bound with W_t^c < W_t
// (eq. (4)), and lambda_U = omega_U M / (E[m] E[s]), eq. (5). For alpha <=
// 2 W_t is infinite and omega_U is Theorem 1's bound: 3/4 at alpha = 2,
// which for the paper's setup (M = 3000, E[m] = 50.5, E[s] = 2.5 units)
// gives lambda_U = 17.8 jobs per unit.

// CloneBound is Theorem 1's bound on omega, (2 alpha - 1) / (4 (alpha - 1));
// +Inf for alpha <= 1.
func CloneBound(alpha float64) float64 {
	if !(alpha > 1) {
		return math.Inf(1)
	}
	return (2*alpha - 1) / (4 * (alpha - 1))
}

// DelayNoCopies is W_t / E[s] of eq. (1) for a Pareto law of tail index
// alpha at load omega (+Inf when omega >= 1 or the second moment is
// infinite, alpha <= 2).
func DelayNoCopies(omega, alpha float64) float64 {
	if omega >= 1 || !(alpha > 2) {
		return math.Inf(1)
	}
	ratio := (alpha - 1) * (alpha - 1) / (alpha * (alpha - 2))
	return omega*ratio/(2*(1-omega)) + 1
}

// DelayTwoCopies is W_t^c / E[s] of eq. (3) at load omega (+Inf at or past
// Theorem 1's bound).
func DelayTwoCopies(omega, alpha float64) float64 {
	den := 2*alpha - 1 - 4*omega*(alpha-1)
	if den <= 0 {
		return math.Inf(1)
	}
	num := omega*(alpha-1)*(1-4*alpha*alpha+4*alpha)/(alpha*(2*alpha-1)) + 2*(alpha-1)
	return num / den
}

// CutoffOmega is omega_U of §III for tail index alpha (> 1): the largest
// load below Theorem 1's bound at which two copies of every task still
// lower the mean task delay (eq. (4)), found by bisection between 0 and
// the bound. The bisection assumes one crossing of eq. (3) and eq. (1) in
// that interval (eq. (3) has its pole at the bound, below eq. (1)'s at 1);
// TestPaperCutoffLoad checks the ordering on either side at alpha 3.
func CutoffOmega(alpha float64) float64 {
	bound := CloneBound(alpha)
	if math.IsInf(bound, 0) {
		return 0
	}
	hi := math.Min(bound, 1)
	if !(alpha > 2) {
		return hi
	}
	better := func(w float64) bool { return DelayTwoCopies(w, alpha) < DelayNoCopies(w, alpha) }
	if !better(0) {
		return 0
	}
	lo := 0.0
	for range 200 {
		mid := (lo + hi) / 2
		if better(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// CutoffLambda is lambda_U of eq. (5): omega_U M / (E[m] E[s]), in jobs per
// the unit of meanTask; 0 when an input is not positive.
func CutoffLambda(alpha float64, machines int, meanTasks, meanTask float64) float64 {
	if machines <= 0 || !(meanTasks > 0) || !(meanTask > 0) {
		return 0
	}
	return CutoffOmega(alpha) * float64(machines) / (meanTasks * meanTask)
}
