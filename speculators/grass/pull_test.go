package grass

import (
	"strings"
	"testing"
)

// The paper's worked examples hold when GS and RAS choose per slot
// (ChooseForSlot, the simulator's pull model), as they do when Decide asks
// for copies: Figure 1 at deadlines 6 and 3, and Figure 2 at 40% and 20%
// error. In pull mode Decide asks for no copies.
//
// Reference: §3.1.1, §3.1.2, Figures 1-2, Pseudocode 1-2
func TestPaperFiguresPull(t *testing.T) {
	pull := func(j job) job { j.pull = true; return j }
	gs := newDriver(t, NameGS, pull(figure1(6)), nil, nil)
	gs.run(6)
	ras := newDriver(t, NameRAS, pull(figure1(6)), nil, nil)
	ras.run(6)
	if g, r := gs.doneBy(6), ras.doneBy(6); g != 7 || r != 8 {
		t.Errorf("figure 1, deadline 6: GS %d, RAS %d; want 7 and 8\nGS %v\nRAS %v", g, r, gs.log, ras.log)
	}
	if strings.Contains(strings.Join(gs.log, ";"), "speculate") || len(ras.log) == 0 || ras.log[0] != "t=1 speculate m_000000" {
		t.Errorf("figure 1: GS %v (want no copy), RAS %v (want a copy of T1 at 1)", gs.log, ras.log)
	}
	gs = newDriver(t, NameGS, pull(figure1(3)), nil, nil)
	gs.run(3)
	ras = newDriver(t, NameRAS, pull(figure1(3)), nil, nil)
	ras.run(3)
	if g, r := gs.doneBy(3), ras.doneBy(3); g != 3 || r != 2 {
		t.Errorf("figure 1, deadline 3: GS %d, RAS %d; want 3 and 2", g, r)
	}
	for _, c := range []struct {
		err     float64
		need    int
		gs, ras float64
	}{{0.4, 4, 10, 11}, {0.2, 5, 12, 11}} {
		gs := newDriver(t, NameGS, pull(figure2(c.err)), nil, nil)
		gs.run(0)
		ras := newDriver(t, NameRAS, pull(figure2(c.err)), nil, nil)
		ras.run(0)
		if g, r := gs.timeTo(c.need), ras.timeTo(c.need); g != c.gs || r != c.ras {
			t.Errorf("figure 2, error %g: GS %g, RAS %g; want %g and %g\nGS %v\nRAS %v", c.err, g, r, c.gs, c.ras, gs.log, ras.log)
		}
		if len(gs.log) == 0 || gs.log[0] != "t=5 speculate m_000002" {
			t.Errorf("figure 2, error %g: GS %v, want a copy of T3 at 5", c.err, gs.log)
		}
	}
}

// In pull mode the early-wave rule still holds (at most two attempts of a
// task while originals wait), and RAS copies less than GS early (Guideline
// 1) and in the final wave (Guideline 2) on ten-wave Pareto jobs.
//
// Reference: §3.2, Guidelines 1-2; Appendix A
func TestPullGuidelines(t *testing.T) {
	var gsEarly, rasEarly, gsLate, rasLate int
	for seed := uint64(1); seed <= 20; seed++ {
		j := paretoJob(seed, 40, 4)
		j.pull = true
		g := newDriver(t, NameGS, j, nil, nil)
		g.run(0)
		r := newDriver(t, NameRAS, j, nil, nil)
		r.run(0)
		if r.earlyMax > 2 || g.earlyMax > 2 {
			t.Errorf("seed %d: %d (RAS) and %d (GS) attempts of a task in an early wave, want <= 2", seed, r.earlyMax, g.earlyMax)
		}
		gsEarly, rasEarly = gsEarly+g.earlyCopies, rasEarly+r.earlyCopies
		gsLate, rasLate = gsLate+g.lateCopies, rasLate+r.lateCopies
	}
	if rasEarly == 0 || rasEarly >= gsEarly || rasLate >= gsLate {
		t.Errorf("copies early GS %d, RAS %d; late GS %d, RAS %d: want RAS > 0 and fewer than GS in both", gsEarly, rasEarly, gsLate, rasLate)
	}
}
