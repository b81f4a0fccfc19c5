package ese

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/xulau"
)

// TestPaperCloneCountByHand checks eq. (29) on a case worked by hand: one
// task, Pareto mu = 1 and alpha = 2, gamma = 0.1. With c copies the task
// takes E[min] = 2c/(2c-1) and costs E[t] + gamma c E[min]:
// c=1: 2 + 0.2 = 2.2; c=2: 4/3 + 0.2667 = 1.6; c=3: 1.2 + 0.36 = 1.56;
// c=4: 8/7 + 0.4571 = 1.6. So c* = 3; with room for 2 copies only, 2.
// Reference: Xu and Lau, §VI-A eq. (29) (U = -E[t] as in §IV-A).
func TestPaperCloneCountByHand(t *testing.T) {
	law := xulau.Pareto{Mu: 1, Alpha: 2}
	if c := xulau.CloneCount(1, law, 0.1, 8, 100); c != 3 {
		t.Errorf("c* = %d, want 3", c)
	}
	if c := xulau.CloneCount(1, law, 0.1, 8, 2); c != 2 {
		t.Errorf("c* with 2 idle machines = %d, want 2", c)
	}
	if c := xulau.CloneCount(1, law, 0.1, 2, 100); c != 2 {
		t.Errorf("c* with r = 2 = %d, want 2", c)
	}
}

// TestPaperSmallJobRule: only a job with m < eta N(l)/|chi(l)| tasks and a
// task-time scale below xi units is cloned; xi bounds the Pareto scale Mu
// (E[x]/2 at alpha = 2) by default and E[x] itself with xi-scale=mean.
// Reference: Xu and Lau, §VI-A, Algorithm 2 line 17.
func TestPaperSmallJobRule(t *testing.T) {
	p := &policy{sigma: 1.7, eta: 0.1, xi: 1, unit: 10, gamma: 0.01, maxCopies: 8, alpha: 2, xiScale: "pareto"}
	small := speculators.JobSize{Tasks: 4, TaskMillis: 8000, TailIndex: 2}
	view := speculators.ClusterView{Idle: 1000, Slots: 3000, Waiting: []speculators.JobSize{small, {Tasks: 50}}}
	if c := p.Clones(view); c < 2 {
		t.Errorf("4 tasks < 0.1 x 1000/2 and Mu 4 s < 10 s: %d copies, want clones", c)
	}
	view.Idle = 60 // 0.1 x 60 / 2 = 3 tasks
	if c := p.Clones(view); c != 1 {
		t.Errorf("4 tasks >= 0.1 x 60/2: %d copies, want 1", c)
	}
	view.Idle = 1000
	// The paper's smallest E[x], 1.5 units: Mu 0.75 units < xi, cloned.
	view.Waiting[0].TaskMillis = 15000
	if c := p.Clones(view); c < 2 {
		t.Errorf("E[x] 1.5 units, Mu 0.75 units < xi: %d copies, want clones", c)
	}
	view.Waiting[0].TaskMillis = 24000 // Mu 1.2 units
	if c := p.Clones(view); c != 1 {
		t.Errorf("Mu 1.2 units >= xi: %d copies, want 1", c)
	}
	// The literal reading: E[x] 1.5 units >= xi, no job of U(1, 4) is small.
	p.xiScale = "mean"
	view.Waiting[0].TaskMillis = 15000
	if c := p.Clones(view); c != 1 {
		t.Errorf("xi-scale=mean, E[x] 1.5 units >= xi: %d copies, want 1", c)
	}
}

// TestPaperFig4Shape simulates the model behind Fig. 4: a task's time x is
// Pareto with mean 1, it is looked at once at a time uniform over its run,
// and it gets one backup if the time it has left exceeds sigma; the backup
// draws a fresh time and the first copy to finish ends both. E[R]/E[x]
// against sigma is lowest near 1.7 for alpha = 2 and near 2 for alpha 3, 4
// and 5, and at its minimum it is below never backing up (1). The same
// draws serve every sigma, so the curve is smooth. 100 000 tasks per tail
// index.
// Reference: Xu and Lau, §VI-B eqs. (30)-(33) and Fig. 4.
func TestPaperFig4Shape(t *testing.T) {
	const n = 100_000
	for _, tc := range []struct {
		alpha  float64
		lo, hi float64
	}{{2, 1.5, 1.9}, {3, 1.75, 2.2}, {4, 1.75, 2.2}, {5, 1.75, 2.2}} {
		law, _ := xulau.ParetoWithMean(1, tc.alpha)
		r := rand.New(rand.NewPCG(7, uint64(tc.alpha)))
		x, ask, fresh := make([]float64, n), make([]float64, n), make([]float64, n)
		draw := func() float64 { return law.Mu * math.Pow(1-r.Float64(), -1/tc.alpha) }
		for i := range x {
			x[i], fresh[i] = draw(), draw()
			ask[i] = r.Float64() * x[i]
		}
		cost := func(sigma float64) float64 {
			s := 0.0
			for i := range x {
				if left := x[i] - ask[i]; left > sigma {
					s += ask[i] + 2*math.Min(left, fresh[i])
				} else {
					s += x[i]
				}
			}
			return s / n
		}
		best, bestSigma := math.Inf(1), 0.0
		for sigma := 0.5; sigma <= 6; sigma += 0.05 {
			if v := cost(sigma); v < best {
				best, bestSigma = v, sigma
			}
		}
		if bestSigma < tc.lo || bestSigma > tc.hi {
			t.Errorf("alpha %g: simulated E[R]/E[x] is lowest at sigma %.2f, want in [%.2f, %.2f]", tc.alpha, bestSigma, tc.lo, tc.hi)
		}
		if an := xulau.BackupSigma(tc.alpha); math.Abs(an-bestSigma) > 0.25 {
			t.Errorf("alpha %g: simulated minimum at %.2f, analysis (eqs. 30-33) at %.3f", tc.alpha, bestSigma, an)
		}
		if never := cost(math.Inf(1)); !(best < never) {
			t.Errorf("alpha %g: minimum %.4f not below never backing up %.4f", tc.alpha, best, never)
		}
		t.Logf("alpha %g: simulated min E[R]/E[x] %.4f at sigma %.2f; analytic sigma %.3f", tc.alpha, best, bestSigma, xulau.BackupSigma(tc.alpha))
	}
}

// TestPaperFig4SigmaMinimum checks the analytic minimiser of a task's
// expected resource under the backup rule (eqs. (30)-(33)) against the
// paper's reading of Fig. 4: for alpha = 2 the minimum is at sigma = 1.7,
// the value §VI-C then uses.
// Reference: Xu and Lau, §VI-B, Fig. 4 and §VI-C ("choose sigma to be 1.7").
func TestPaperFig4SigmaMinimum(t *testing.T) {
	if got := xulau.BackupSigma(2); math.Abs(got-1.7) > 0.05 {
		t.Errorf("sigma minimising eq. (33) at alpha 2 = %.3f, want 1.7 (Fig. 4)", got)
	}
}

// TestPaperCloneCountOnPaperParameters checks eq. (29) with §VI-C's own
// parameters: gamma = 0.01, r = 8, alpha = 2, and the smallest job of the
// setup, E[x] = 1.5 units (mu = 0.75), one task. With c copies the task
// takes E[min] = mu 2c/(2c-1) and the objective is E[min] (1 + gamma c):
// c=1 1.5150, c=2 1.0200, c=3 0.9270, c=4 0.8914, c=5 0.8750, c=6 0.8673,
// c=7 0.8642, c=8 0.8640 (worked by hand), so c* = r = 8: at gamma = 0.01
// the resource term hardly counts and a small job gets every copy it may.
// With 5 idle machines it gets 5.
// Reference: Xu and Lau, §VI-A eq. (29) and §VI-C (gamma, r as in §IV-C).
func TestPaperCloneCountOnPaperParameters(t *testing.T) {
	law := xulau.Pareto{Mu: 7500, Alpha: 2} // ms: one unit is 10 s
	if c := xulau.CloneCount(1, law, 0.01, 8, 3000); c != 8 {
		t.Errorf("c* = %d, want 8", c)
	}
	if c := xulau.CloneCount(1, law, 0.01, 8, 5); c != 5 {
		t.Errorf("c* with 5 idle machines = %d, want 5", c)
	}
}
