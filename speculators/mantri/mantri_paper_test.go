package mantri

// Tests of Mantri's rules as the GRASS (NSDI'14 §5-6) and SCA (Xu and Lau,
// §II) papers state them, driven through the real Engine. Each ends with the
// section it checks.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// The duplicate rule's examples are in testdata/duplicate.txt.

// defaults runs the worked examples with the policy's own parameters: an
// attempt's t_rem counts from its first progress report.
var defaults map[string]string

func node(i int) speculators.NodeID { return speculators.NodeID(fmt.Sprintf("n%d", i)) }

// slowTail completes maps 0-3 in 10, 14, 16 and 18 s and has maps 4 and 5
// running at 20 s with 22 and 30 s left.
func slowTail(h *spectest.Harness) {
	for i, d := range []float64{10, 14, 16, 18} {
		h.Complete(spectest.Map(i), node(i), 0, spectest.Sec(d))
	}
	h.Running(spectest.Map(4), node(4), 0, spectest.Sec(20), 20.0/42)
	h.Running(spectest.Map(5), node(5), 0, spectest.Sec(20), 20.0/50)
}

func kinds(ds []speculators.Decision) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Kind.String()+" "+d.Task.String())
	}
	return strings.Join(out, ", ")
}

// TestPaperRestartExcessiveRemainingTime checks that Mantri "may terminate a
// task which shows an excessively large remaining-time-to-finish": while a
// task waits for a slot, a map whose t_rem exceeds E[t_new] (14.5 s) plus
// Delta (3 s) is killed so that it restarts, at most gamma = 3 times; a map
// with t_rem 16 s is left alone.
//
// Reference: SCA paper §II (Mantri); Mantri OSDI'10 §5.1
func TestPaperRestartExcessiveRemainingTime(t *testing.T) {
	// Map 6 never starts: a task waits.
	h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_mantri", Maps: 7, Slots: 6}, defaults)
	for i, d := range []float64{10, 14, 16, 18} {
		h.Complete(spectest.Map(i), node(i), 0, spectest.Sec(d))
	}
	// Progress at 20 s that leaves 16 s and 30 s by extrapolation.
	steady := h.Running(spectest.Map(4), node(4), 0, spectest.Sec(20), 20.0/36)
	a := h.Running(spectest.Map(5), node(5), 0, spectest.Sec(20), 20.0/50)
	now := 20.0
	for restart := 1; restart <= 4; restart++ {
		ds := h.Decide(spectest.Sec(now))
		if restart == 4 {
			if strings.Contains(kinds(ds), "kill") {
				t.Fatalf("fourth restart: %v; want at most 3", ds)
			}
			break
		}
		if len(ds) != 1 || ds[0].Kind != speculators.Kill || ds[0].Attempt != a {
			t.Fatalf("restart %d: decisions %v, want kill of %s", restart, ds, a)
		}
		h.Kill(a, spectest.Sec(now))
		// The AM reruns the task; the new attempt is as slow.
		a = h.Start(spectest.Map(5), "n9", spectest.Sec(now))
		h.Status(a, spectest.Sec(now+10), 10.0/40)
		now += 10
		h.Status(steady, spectest.Sec(now), now/(now+16))
	}
}

// TestPaperAtMostOneCopyPerTask checks the single-copy form of the rule,
// P(t_rem > 2 t_new) > delta, as GRASS §6 and the SCA paper §II state it: a
// task gets one duplicate in its life. With the copy running, or after the
// copy was killed and the original still lags, it gets no second one; and
// many slots offered at one instant (pull form) give one copy, not one per
// slot.
//
// Reference: SCA paper §II (Mantri), GRASS §6; Mantri OSDI'10 §5.1
func TestPaperAtMostOneCopyPerTask(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_mantri", Maps: 6, Slots: 10}, defaults)
	slowTail(h)
	if got := kinds(h.Decide(spectest.Sec(20))); got != "speculate m_000005" {
		t.Fatalf("decisions %q, want a copy of m_000005", got)
	}
	c := h.StartCopy(spectest.Map(5), "n9", spectest.Sec(20))
	h.Status(c, spectest.Sec(30), 0.1)
	if got := h.Decide(spectest.Sec(30)); strings.Contains(kinds(got), "speculate m_000005") {
		t.Fatalf("decisions %v with the copy running; want no second copy", got)
	}
	h.Kill(c, spectest.Sec(31))
	if got := h.Decide(spectest.Sec(40)); strings.Contains(kinds(got), "speculate m_000005") {
		t.Fatalf("decisions %v after the task's one copy; want none", got)
	}

	p := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_mantri", Maps: 6, Slots: 10}, defaults)
	slowTail(p)
	p.Engine.OfferSlots()
	picked := 0
	for slot := 0; slot < 5; slot++ {
		free := speculators.NodeID(fmt.Sprintf("free%d", slot))
		id, isCopy, ok := p.Engine.ChooseForSlot(free, spectest.Sec(20))
		if !ok {
			break
		}
		if !isCopy || id != spectest.Map(5) {
			t.Fatalf("slot %d: chose %v (copy %v), want a copy of m_000005", slot, id, isCopy)
		}
		picked++
		p.StartCopy(id, free, spectest.Sec(20))
	}
	if picked != 1 {
		t.Fatalf("%d copies of m_000005 over five slots at one instant, want 1", picked)
	}
}

// TestPaperRestartOnlyWhenItSaves checks that a restart, which throws the
// work done away, happens only when it is likely to finish sooner: t_rem
// beyond E[t_new] + Delta is not enough when most fresh copies would take
// longer than t_rem - Delta (a heavy tail pulls the mean up), nor when the
// attempt is too young for its t_rem to be trusted.
//
// Reference: Mantri OSDI'10 §5.1 (restart when a fresh copy has a better
// than even chance to finish sooner); SCA paper §II
func TestPaperRestartOnlyWhenItSaves(t *testing.T) {
	// Completed maps 5, 5, 40, 40, 40 s: E[t_new] = 26 s but the median is
	// 40 s. A map with 32 s left (> 26 + 3) would most likely lose by
	// restarting. Map 6 never starts: a task waits.
	h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_mantri", Maps: 7, Slots: 7}, defaults)
	for i, d := range []float64{5, 5, 40, 40, 40} {
		h.Complete(spectest.Map(i), node(i), 0, spectest.Sec(d))
	}
	h.Running(spectest.Map(5), node(5), 0, spectest.Sec(20), 20.0/52)
	if got := h.Decide(spectest.Sec(20)); strings.Contains(kinds(got), "kill") {
		t.Fatalf("decisions %v: restarted although 3 of 5 fresh copies take longer", got)
	}

}

// TestPaperActOnFirstReport checks that Mantri acts on a task's estimate as
// soon as the task has reported progress, with no waiting period: the last
// map, 3 s
// old whose first report extrapolates to 42 s left (completed maps took 10,
// 14, 16 and 18 s, so P(t_new < 21 s) = 1 > delta) is duplicated at that
// report, but not before it has reported at all; and with min-reports = 2,
// a floor of two report intervals, only at its second report.
//
// Reference: Mantri OSDI'10 §5.1 (decisions at each progress report); SCA
// paper §II and GRASS §5.1 (the rule P(t_rem > 2 t_new) > delta, no delay)
func TestPaperActOnFirstReport(t *testing.T) {
	setup := func(params map[string]string) (*spectest.Harness, speculators.AttemptID) {
		h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_mantri", Maps: 5, Slots: 10}, params)
		for i, d := range []float64{10, 14, 16, 18} {
			h.Complete(spectest.Map(i), node(i), 0, spectest.Sec(d))
		}
		return h, h.Start(spectest.Map(4), node(4), spectest.Sec(18))
	}
	h, a := setup(nil)
	if got := kinds(h.Decide(spectest.Sec(20))); got != "" {
		t.Fatalf("decisions %q before any report, want none", got)
	}
	h.Status(a, spectest.Sec(21), 3.0/45)
	if got := kinds(h.Decide(spectest.Sec(21))); got != "speculate m_000004" {
		t.Fatalf("decisions %q at the first report (3 s old, 42 s left), want a copy of m_000004", got)
	}

	two, b := setup(map[string]string{"min-reports": "2"})
	two.Status(b, spectest.Sec(21), 3.0/45)
	if got := kinds(two.Decide(spectest.Sec(21))); got != "" {
		t.Fatalf("min-reports=2: decisions %q after one report, want none", got)
	}
	two.Status(b, spectest.Sec(24), 6.0/48)
	if got := kinds(two.Decide(spectest.Sec(24))); got != "speculate m_000004" {
		t.Fatalf("min-reports=2: decisions %q at the second report, want a copy of m_000004", got)
	}
}
