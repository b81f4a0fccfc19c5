package xulau

import (
	"math"
	"testing"
)

// TestPaperCutoffLoad checks lambda_U of §III on the paper's own setup: for
// Pareto alpha = 2 the delay without copies (eq. (1)) is infinite, so the
// cutoff is Theorem 1's bound omega < (2 alpha - 1)/(4 (alpha - 1)) = 3/4,
// and with M = 3000 machines, E[m] = 50.5 tasks (U(1,100)) and E[s] = 2.5
// units (U(1,4)) lambda_U = 0.75 x 3000 / (50.5 x 2.5) = 17.82 jobs per
// unit: the paper's SCA/SDA load (lambda = 6) is below it and its ESE loads
// (30, 40) above it, as §IV-§VI use them. For alpha = 3 the cutoff is where
// eq. (3) meets eq. (1), below Theorem 1's 5/8, and the curves order as eq.
// (4) says on either side.
// Reference: Xu and Lau, §III-B, eqs. (1)-(5) and Theorem 1.
func TestPaperCutoffLoad(t *testing.T) {
	if got := CutoffOmega(2); got != 0.75 {
		t.Errorf("omega_U(alpha 2) = %v, want Theorem 1's 3/4", got)
	}
	lu := CutoffLambda(2, 3000, 50.5, 2.5)
	if math.Abs(lu-17.82) > 0.01 {
		t.Errorf("lambda_U = %.3f, want 17.82 (0.75 x 3000 / (50.5 x 2.5))", lu)
	}
	if !(6 < lu && lu < 30) {
		t.Errorf("lambda_U %.2f does not separate the paper's SCA/SDA load 6 from its ESE loads 30 and 40", lu)
	}
	w := CutoffOmega(3)
	if !(w > 0 && w < CloneBound(3)) {
		t.Fatalf("omega_U(alpha 3) = %v, want in (0, 5/8)", w)
	}
	if !(DelayTwoCopies(w*0.99, 3) < DelayNoCopies(w*0.99, 3)) || !(DelayTwoCopies(math.Min(w*1.01, 0.62), 3) > DelayNoCopies(math.Min(w*1.01, 0.62), 3)) {
		t.Errorf("at alpha 3, eq. (3) is not below eq. (1) just under omega_U = %v and above just over it", w)
	}
	// At no load two copies take E[s'] = 2 (alpha-1)/(2 alpha - 1) E[s]
	// (§III: E[s']/E[s] = (alpha-1)/(alpha - 1/r), r = 2).
	if got, want := DelayTwoCopies(0, 3), 4.0/5; math.Abs(got-want) > 1e-12 {
		t.Errorf("eq. (3) at omega 0, alpha 3: %v, want %v", got, want)
	}
	t.Logf("omega_U: alpha 2 %.3f, alpha 3 %.3f, alpha 4 %.3f", CutoffOmega(2), CutoffOmega(3), CutoffOmega(4))
}
