package sca

import (
	"math"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/xulau"
)

// paperExample is the P2 instance of Xu and Lau §IV-A's Fig. 1: four waiting
// jobs of 10, 20, 5 and 10 tasks, 100 idle machines, Pareto tail index 2
// with scales mu = 1, 2, 1, 2 (means 2, 4, 2, 4), at most r = 8 copies,
// gamma = 0.01 (§IV-C).
func paperExample() xulau.P2 {
	return xulau.P2{
		Jobs: []xulau.WaitingJob{
			{Tasks: 10, Law: xulau.Pareto{Mu: 1, Alpha: 2}},
			{Tasks: 20, Law: xulau.Pareto{Mu: 2, Alpha: 2}},
			{Tasks: 5, Law: xulau.Pareto{Mu: 1, Alpha: 2}},
			{Tasks: 10, Law: xulau.Pareto{Mu: 2, Alpha: 2}},
		},
		Idle: 100, MaxCopies: 8, Gamma: 0.01,
	}
}

// TestPaperP2ExactIsOptimal checks the exact integer search against every
// one of the 8^4 copy vectors of the paper's example: none within the 100
// machines has a lower objective.
// Reference: Xu and Lau, §IV-A (P2) and Fig. 1.
func TestPaperP2ExactIsOptimal(t *testing.T) {
	p := paperExample()
	got, err := p.SolveExact()
	if err != nil {
		t.Fatal(err)
	}
	best, bestC := math.Inf(1), []int(nil)
	c := make([]int, 4)
	var walk func(k int)
	walk = func(k int) {
		if k == len(c) {
			used := 0
			for i, x := range c {
				used += x * p.Jobs[i].Tasks
			}
			if v := p.Objective(c); used <= p.Idle && v < best {
				best, bestC = v, append([]int(nil), c...)
			}
			return
		}
		for x := 1; x <= p.MaxCopies; x++ {
			c[k] = x
			walk(k + 1)
		}
	}
	walk(0)
	if math.Abs(p.Objective(got)-best) > 1e-12 {
		t.Fatalf("exact search %v (objective %.6f), brute force %v (%.6f)", got, p.Objective(got), bestC, best)
	}
	used := 0
	for i, x := range got {
		used += x * p.Jobs[i].Tasks
	}
	if used > p.Idle {
		t.Fatalf("exact search %v uses %d machines of %d", got, used, p.Idle)
	}
	t.Logf("P2 on the paper's example: copies %v, %d machines, objective %.4f", got, used, best)
}

// TestPaperP2GradientAgreesWithExact runs the paper's gradient projection
// (step sizes 0.2, 0.3, 0.4) on the same example: it converges, its
// continuous solution fills the 100 machines, and rounded it is the exact
// integer optimum.
// Reference: Xu and Lau, §IV-A (gradient projection, Theorem 2) and Fig. 1.
func TestPaperP2GradientAgreesWithExact(t *testing.T) {
	p := paperExample()
	res, err := p.SolveGradient(xulau.PaperSteps, 1e-6, 20000)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Converged {
		t.Fatalf("gradient projection did not converge in %d iterations: %v", res.Iterations, res.Copies)
	}
	used := 0.0
	for i, x := range res.Copies {
		if x < 1-1e-3 || x > float64(p.MaxCopies)+1e-3 {
			t.Errorf("job %d: continuous copies %.3f outside [1, r]", i, x)
		}
		used += x * float64(p.Jobs[i].Tasks)
	}
	if math.Abs(used-float64(p.Idle)) > 1 {
		t.Errorf("continuous solution uses %.2f machines; the budget of %d binds at the optimum", used, p.Idle)
	}
	exact, err := p.SolveExact()
	if err != nil {
		t.Fatal(err)
	}
	rounded := p.Round(res.Copies)
	for i := range exact {
		if rounded[i] != exact[i] {
			t.Fatalf("rounded gradient solution %v (from %.3f) differs from the exact optimum %v", rounded, res.Copies, exact)
		}
	}
	t.Logf("gradient projection: %d iterations, c = %.3f, rounded %v = exact", res.Iterations, res.Copies, rounded)
}

// TestPaperAlgorithm1OneCopyWhenBusy: when the waiting jobs do not fit the
// idle machines with one copy each (sum m >= N(l)), SCA does not solve P2
// and gives one copy; when they fit, the job gets the P2 copies.
// Reference: Xu and Lau, §IV-B, Algorithm 1 lines 6-15.
func TestPaperAlgorithm1OneCopyWhenBusy(t *testing.T) {
	waiting := []speculators.JobSize{{Tasks: 10, TaskMillis: 2000, TailIndex: 2}, {Tasks: 20, TaskMillis: 4000, TailIndex: 2},
		{Tasks: 5, TaskMillis: 2000, TailIndex: 2}, {Tasks: 10, TaskMillis: 4000, TailIndex: 2}}
	if c := Clones(waiting, 45, 8, 0.01, 2); c != 1 {
		t.Errorf("45 tasks on 45 idle machines: %d copies, want 1 (sum m >= N(l))", c)
	}
	p := paperExample()
	exact, _ := p.SolveExact()
	if c := Clones(waiting, 100, 8, 0.01, 2); c != exact[0] {
		t.Errorf("100 idle machines: first job gets %d copies, want P2's %d", c, exact[0])
	}
}
