package grass

import (
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// The paper's worked examples hold when GS and RAS choose per slot
// (ChooseForSlot, the simulator's pull model), as they do when Decide asks
// for copies: Figure 1 at deadlines 6 and 3, and Figure 2 at 40% and 20%
// error. In pull mode Decide asks for no copies.
//
// Reference: §3.1.1, §3.1.2, Figures 1-2, Pseudocode 1-2
func TestPaperFiguresPull(t *testing.T) {
	pull := func(j job) job { j.pull = true; return j }
	gs := newDriver(t, NameGS, pull(figure1(6)), paperEstimate, nil)
	gs.run(6)
	ras := newDriver(t, NameRAS, pull(figure1(6)), paperEstimate, nil)
	ras.run(6)
	if g, r := gs.doneBy(6), ras.doneBy(6); g != 7 || r != 8 {
		t.Errorf("figure 1, deadline 6: GS %d, RAS %d; want 7 and 8\nGS %v\nRAS %v", g, r, gs.log, ras.log)
	}
	if strings.Contains(strings.Join(gs.log, ";"), "speculate") || len(ras.log) == 0 || ras.log[0] != "t=1 speculate m_000000" {
		t.Errorf("figure 1: GS %v (want no copy), RAS %v (want a copy of T1 at 1)", gs.log, ras.log)
	}
	gs = newDriver(t, NameGS, pull(figure1(3)), paperEstimate, nil)
	gs.run(3)
	ras = newDriver(t, NameRAS, pull(figure1(3)), paperEstimate, nil)
	ras.run(3)
	if g, r := gs.doneBy(3), ras.doneBy(3); g != 3 || r != 2 {
		t.Errorf("figure 1, deadline 3: GS %d, RAS %d; want 3 and 2", g, r)
	}
	for _, c := range []struct {
		err     float64
		need    int
		gs, ras float64
	}{{0.4, 4, 10, 11}, {0.2, 5, 12, 11}} {
		gs := newDriver(t, NameGS, pull(figure2(c.err)), paperEstimate, nil)
		gs.run(0)
		ras := newDriver(t, NameRAS, pull(figure2(c.err)), paperEstimate, nil)
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

// A one-wave job can copy a straggler before any of its own maps has
// finished when earlier jobs' run times are in the store (RuntimePrior gives
// t_new, estimate.go), and a copy just started counts as t_new left, so the
// next slot at the same instant does not copy the same task again (trem).
// Without a prior, t_new is unknown until the job's first completion and
// nothing is copied.
//
// Reference: §3.1 Pseudocode 1, §5.1 (t_new, t_rem)
func TestPriorAndFreshCopyPull(t *testing.T) {
	j := job{input: []float64{1, 1}, original: []float64{1, 10}, first: []int{0, 1}, slots: 4, deadline: 3, pull: true}
	for _, name := range []string{NameGS, NameRAS} {
		store := NewMemoryStore()
		for i := 0; i < 3; i++ {
			store.AddRuntime(speculators.Map, unit, unit) // a unit of input took a unit
		}
		d := newDriver(t, name, j, nil, store)
		d.engine.OfferSlots()
		d.now = ms(0.25)
		d.report()
		id, isCopy, ok := d.engine.ChooseForSlot("free", d.now)
		if !ok || !isCopy || id.Index != 1 {
			t.Fatalf("%s with a prior at 0.25: chose %v (copy %v, ok %v), want a copy of the straggler m_000001", name, id, isCopy, ok)
		}
		d.copyLaunched(1)
		if id, isCopy, ok := d.engine.ChooseForSlot("free", d.now); ok {
			t.Errorf("%s: after copying m_000001 chose %v (copy %v) at the same instant, want nothing: its fresh copy has t_new left", name, id, isCopy)
		}

		d = newDriver(t, name, j, nil, nil)
		d.engine.OfferSlots()
		d.now = ms(0.25)
		d.report()
		if id, isCopy, ok := d.engine.ChooseForSlot("free", d.now); ok {
			t.Errorf("%s without a prior chose %v (copy %v) before any completion, want nothing: t_new unknown", name, id, isCopy)
		}
	}
}
