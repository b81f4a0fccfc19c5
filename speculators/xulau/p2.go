package xulau

import (
	"fmt"
	"math"
)

// WaitingJob is one job of chi(l), the jobs not yet scheduled at a time
// slot (§IV-A): its task count m and its task-time law.
type WaitingJob struct {
	Tasks int
	Law   Pareto
}

// P2 is problem P2 of §IV-A for one time slot: choose c_i, the copies each
// task of waiting job i starts with, to minimise
//
//	sum_i E[t_i(c_i)] + Gamma sum_i m_i c_i E[t_ij(c_i)]
//
// subject to sum_i m_i c_i <= Idle and 1 <= c_i <= MaxCopies, where t_i is
// the job's completion (the max over its m_i tasks of the min over c_i
// copies, eqs. (10)-(12)) and t_ij a task's duration (eq. (13)). This is
// the paper's objective with the utility U(E[t], m) = -E[t] it evaluates
// (§IV-A, "a special example"); the constant l - a_i of the flowtime is
// dropped since it does not move the argmax.
type P2 struct {
	Jobs      []WaitingJob
	Idle      int     // N(l): idle machines
	MaxCopies int     // r
	Gamma     float64 // resource weight gamma
}

func (p *P2) validate() error {
	if p.MaxCopies < 1 {
		return fmt.Errorf("p2: max copies %d < 1", p.MaxCopies)
	}
	if !(p.Gamma >= 0) {
		return fmt.Errorf("p2: gamma %g is not >= 0", p.Gamma)
	}
	for i, j := range p.Jobs {
		if j.Tasks < 1 || !(j.Law.Alpha > 1) || !(j.Law.Mu > 0) {
			return fmt.Errorf("p2: job %d: %d tasks, tail index %g, scale %g: want >= 1 task and a Pareto law with finite mean", i, j.Tasks, j.Law.Alpha, j.Law.Mu)
		}
	}
	return nil
}

// Cost is job j's term of the objective at c copies per task (c may be
// fractional: the continuous relaxation the gradient projection solves).
func (p *P2) Cost(j WaitingJob, c float64) float64 {
	law := j.Law.MinOf(c)
	m := float64(j.Tasks)
	return law.ExpectedMax(m) + p.Gamma*m*c*law.Mean()
}

// Feasible reports whether every waiting job fits with one copy per task,
// sum m_i < N(l): Algorithm 1 solves P2 only then (line 6).
func (p *P2) Feasible() bool {
	n := 0
	for _, j := range p.Jobs {
		n += j.Tasks
	}
	return n < p.Idle
}

// SolveExact returns the integer optimum of P2 by dynamic programming over
// the extra copies sum_i m_i (c_i - 1) <= Idle - sum_i m_i: exact, since
// the objective is separable across jobs. Cost: O(jobs x budget x r), the
// budget capped at sum_i m_i (r - 1). Ties go to fewer copies. An error
// when P2 is not Feasible or its inputs are out of range.
func (p *P2) SolveExact() ([]int, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	if !p.Feasible() {
		return nil, fmt.Errorf("p2: %d jobs do not fit %d idle machines with one copy each", len(p.Jobs), p.Idle)
	}
	base, most := 0, 0
	for _, j := range p.Jobs {
		base += j.Tasks
		most += j.Tasks * (p.MaxCopies - 1)
	}
	budget := min(p.Idle-base, most)
	r := p.MaxCopies
	// best[b] is the least cost of the jobs so far using exactly b extra
	// copies (Inf when unreachable); choice[k][b] the copies job k took.
	inf := math.Inf(1)
	best := make([]float64, budget+1)
	next := make([]float64, budget+1)
	for b := range best {
		best[b] = inf
	}
	best[0] = 0
	choice := make([][]int8, len(p.Jobs))
	costs := make([]float64, r+1)
	for k, j := range p.Jobs {
		for c := 1; c <= r; c++ {
			costs[c] = p.Cost(j, float64(c))
		}
		choice[k] = make([]int8, budget+1)
		for b := range next {
			next[b] = inf
		}
		for b, v := range best {
			if math.IsInf(v, 1) {
				continue
			}
			for c := 1; c <= r; c++ {
				nb := b + j.Tasks*(c-1)
				if nb > budget {
					break
				}
				if s := v + costs[c]; s < next[nb] {
					next[nb], choice[k][nb] = s, int8(c)
				}
			}
		}
		best, next = next, best
	}
	at, least := 0, inf
	for b, v := range best {
		if v < least {
			at, least = b, v
		}
	}
	out := make([]int, len(p.Jobs))
	for k := len(p.Jobs) - 1; k >= 0; k-- {
		out[k] = int(choice[k][at])
		at -= p.Jobs[k].Tasks * (out[k] - 1)
	}
	return out, nil
}

// GradientSteps are the step sizes eta1, eta2, eta3 of the gradient
// projection of §IV-A (the paper's Fig. 1 uses 0.2, 0.3, 0.4).
type GradientSteps struct{ Nu, Upper, Lower float64 }

// PaperSteps are the step sizes of the paper's Fig. 1 experiment.
var PaperSteps = GradientSteps{Nu: 0.2, Upper: 0.3, Lower: 0.4}

// GradientResult is the gradient projection's outcome: the continuous
// copy counts, the iterations it took and whether it met the tolerance.
type GradientResult struct {
	Copies     []float64
	Iterations int
	Converged  bool
}

// SolveGradient runs the gradient projection of §IV-A on the Lagrangian dual
// of P2's continuous relaxation: start at c = 1, nu = xi = h = 0.1; each
// iteration sets every c_i to the argmax of the Lagrangian f (a
// golden-section search, f being concave in c_i by Lemma 1), then moves the
// multipliers along their subgradients (Lemma 2) and projects them on
// [0, inf). It stops once no c_i moves by more than eps, or after
// maxIter iterations.
//
// Choice: the step on nu is divided by the mean task count of the waiting
// jobs. The paper's steps are for its Fig. 1 numbers; the subgradient of nu
// is a count of machines, so without the scaling a job of many tasks makes
// the fixed step overshoot and the iteration oscillate. With the paper's
// example the scaled steps converge in a few dozen iterations.
//
// Choice: every step shrinks as 1/sqrt(k) at iteration k. §IV-A's update
// uses constant steps eta1, eta2, eta3, and Theorem 2's convergence is for
// the continuous-time dynamics (a Lyapunov function V); in discrete time a
// subgradient method with constant steps only reaches a neighbourhood of
// the dual optimum and can cycle around it when an argmax c_i jumps. The
// diminishing 1/sqrt(k) schedule (steps summing to infinity, their squares
// growing only like log k) is the standard one under which the dual
// subgradient iteration converges; it keeps the paper's eta values as the
// first step.
func (p *P2) SolveGradient(steps GradientSteps, eps float64, maxIter int) (GradientResult, error) {
	if err := p.validate(); err != nil {
		return GradientResult{}, err
	}
	n := len(p.Jobs)
	c := make([]float64, n)
	xi := make([]float64, n)
	h := make([]float64, n)
	meanTasks := 0.0
	for i, j := range p.Jobs {
		c[i], xi[i], h[i] = 1, 0.1, 0.1
		meanTasks += float64(j.Tasks) / float64(n)
	}
	nu := 0.1
	r := float64(p.MaxCopies)
	res := GradientResult{Copies: c}
	for it := 1; it <= maxIter; it++ {
		moved, used := 0.0, 0.0
		for i, j := range p.Jobs {
			m := float64(j.Tasks)
			lo := math.Max(0.5, 1.25/j.Law.Alpha)
			neg := func(x float64) float64 { return p.Cost(j, x) + nu*m*x + xi[i]*(x-r) + h[i]*(1-x) }
			x := goldenMin(neg, lo, 2*r, 1e-7)
			moved = math.Max(moved, math.Abs(x-c[i]))
			c[i] = x
			used += m * x
		}
		k := math.Sqrt(float64(it))
		nu = math.Max(0, nu+steps.Nu/meanTasks/k*(used-float64(p.Idle)))
		for i := range c {
			xi[i] = math.Max(0, xi[i]+steps.Upper/k*(c[i]-r))
			h[i] = math.Max(0, h[i]+steps.Lower/k*(1-c[i]))
		}
		res.Iterations = it
		if it > 1 && moved < eps {
			res.Converged = true
			break
		}
	}
	return res, nil
}

// Round turns a continuous solution into copy counts: each c_i rounded to
// the nearest integer in [1, r]; then, while the machines are exceeded, one
// copy less for the job whose cost rises least per machine freed; then,
// while machines are left, one copy more for the job whose cost falls most
// per machine used, as long as it falls.
func (p *P2) Round(cont []float64) []int {
	out := make([]int, len(cont))
	used := 0
	for i, x := range cont {
		out[i] = min(max(int(math.Round(x)), 1), p.MaxCopies)
		used += out[i] * p.Jobs[i].Tasks
	}
	for used > p.Idle {
		pick, least := -1, math.Inf(1)
		for i, j := range p.Jobs {
			if out[i] <= 1 {
				continue
			}
			d := (p.Cost(j, float64(out[i]-1)) - p.Cost(j, float64(out[i]))) / float64(j.Tasks)
			if d < least {
				pick, least = i, d
			}
		}
		if pick < 0 {
			break
		}
		out[pick]--
		used -= p.Jobs[pick].Tasks
	}
	for {
		pick, most := -1, 0.0
		for i, j := range p.Jobs {
			if out[i] >= p.MaxCopies || used+j.Tasks > p.Idle {
				continue
			}
			d := (p.Cost(j, float64(out[i])) - p.Cost(j, float64(out[i]+1))) / float64(j.Tasks)
			if d > most {
				pick, most = i, d
			}
		}
		if pick < 0 {
			return out
		}
		out[pick]++
		used += p.Jobs[pick].Tasks
	}
}

// Objective is the P2 objective (to minimise) at integer copies c.
func (p *P2) Objective(c []int) float64 {
	s := 0.0
	for i, j := range p.Jobs {
		s += p.Cost(j, float64(c[i]))
	}
	return s
}
