package srquant

import (
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// TestSpeculativeResumeDecisions drives SRQuant through §III's mechanism: ten
// maps start at 0 with a deadline of 300 s; at tau_est = 120 s nine are at
// 80% (estimate 150 s) and map 9 at 20% (estimate 600 s > 300 s). Map 9 is
// a straggler: SRQuant asks for r+1 attempts resuming from its offset and
// kills it, r being Algorithm 1's choice for N = 10, D = 300 s, phi = 0.2
// and, with no map done yet, beta = 1.7 and tmin = the smallest estimate,
// 150 s. At tau_kill = 200 s it keeps the resumed attempt with the most
// progress and kills the others.
// Reference: SRQuant/LASER paper §III (Fig. 2), §IV-A Algorithm 1, §V-A.
func TestSpeculativeResumeDecisions(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{ID: "j", Maps: 10, Deadline: 300000, Resume: true}, nil)
	nineAndAStraggler(h)
	h.WantNone(119000, "before tau_est")
	straggler := speculators.AttemptID{Task: spectest.Map(9)}
	ds := h.Decide(120000)
	want, _ := Model{N: 10, TMin: 150, Beta: 1.7, D: 300, TauEst: 120, TauKill: 200, Phi: 0.2}.Choose(4, 0.1, 0.0001)
	if len(ds) != 2 || ds[0].Kind != speculators.Speculate || !ds[0].Resume || ds[0].From != straggler ||
		ds[0].Copies != want+1 || ds[1].Kind != speculators.Kill || ds[1].Attempt != straggler {
		t.Fatalf("at tau_est: %v; want speculate m_000009 x%d resuming from m_000009_0, then kill it", ds, want+1)
	}
	if want < 1 {
		t.Errorf("Algorithm 1 chose r = %d; this straggler (R(0) = 0.19) should get more", want)
	}
	if !strings.Contains(ds[0].Reason, "resume from offset 20%") {
		t.Errorf("reason does not say where the copies resume: %q", ds[0].Reason)
	}
	h.Kill(straggler, 120000)
	for n := 1; n <= want+1; n++ {
		a := h.StartCopy(spectest.Map(9), "n2", 121000)
		h.Status(a, 199000, 0.2+0.1*float64(n))
	}
	h.WantNone(199000, "before tau_kill")
	ds = h.Decide(200000)
	if len(ds) != want {
		t.Fatalf("at tau_kill: %d decisions %v, want %d kills", len(ds), ds, want)
	}
	for k, d := range ds {
		if d.Kind != speculators.Kill || d.Attempt != (speculators.AttemptID{Task: spectest.Map(9), N: int32(k + 1)}) {
			t.Errorf("at tau_kill: %v, want kill m_000009_%d (m_000009_%d has the most progress)", d, k+1, want+1)
		}
	}
	h.WantNone(300000, "after tau_kill")
}

// nineAndAStraggler starts ten maps at 0 and reports them at 119 s: nine at
// 80%, map 9 at 20%.
func nineAndAStraggler(h *spectest.Harness) {
	for i := range 10 {
		h.Start(spectest.Map(i), "n1", 0)
	}
	for i := range 10 {
		p := 0.8
		if i == 9 {
			p = 0.2
		}
		h.Status(speculators.AttemptID{Task: spectest.Map(i)}, 119000, p)
	}
}

// TestNoDeadlineNoSpeculation: without a deadline nothing straggles.
func TestNoDeadlineNoSpeculation(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{ID: "j", Maps: 1}, nil)
	h.Status(h.Start(spectest.Map(0), "n1", 0), 119000, 0.01)
	h.WantNone(130000, "job without deadline")
}

func TestBadParametersAreRefused(t *testing.T) {
	reg := spectest.Registry(t, Policy())
	for _, o := range []map[string]string{{"tau-kill-s": "100"}, {"beta": "1"}, {"r-max": "-1"}, {"r-min": "1"},
		{"r-max": "2000000000"}, // weighing every r in 0..r_max stalled each decision
	} {
		if _, _, err := reg.New(Name, o, 1); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
}

// TestLiveCopiesStartFromZero: the straggler of TestSpeculativeResumeDecisions
// where copies cannot resume (live Hadoop, or a history replay that predicts
// it: JobInfo.Resume false). The decision asks for no resume, its reason
// says the copies start from zero, and r is Algorithm 1's choice for
// phi = 0 (the straggler's 20% is thrown away), not for phi = 0.2.
func TestLiveCopiesStartFromZero(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{ID: "j", Maps: 10, Deadline: 300000}, nil)
	nineAndAStraggler(h)
	ds := h.Decide(120000)
	m := Model{N: 10, TMin: 150, Beta: 1.7, D: 300, TauEst: 120, TauKill: 200}
	want, _ := m.Choose(4, 0.1, 0.0001)
	if len(ds) != 2 || ds[0].Kind != speculators.Speculate || ds[0].Resume || ds[0].Copies != want+1 ||
		ds[1].Kind != speculators.Kill {
		t.Fatalf("at tau_est: %v; want speculate m_000009 x%d from zero (no resume), then kill the straggler", ds, want+1)
	}
	if !strings.Contains(ds[0].Reason, "start from zero") || !strings.Contains(ds[1].Reason, "fresh attempts") {
		t.Errorf("reasons do not say the copies start from zero: %q / %q", ds[0].Reason, ds[1].Reason)
	}
	// The offset matters to the choice: R(r) at phi = 0 is below R(r) at
	// phi = 0.2 for every r, so the policy must not use the resumed one.
	m.Phi = 0.2
	for r := 0; r <= 4; r++ {
		if zero := (Model{N: 10, TMin: 150, Beta: 1.7, D: 300, TauEst: 120, TauKill: 200}).PoCD(r); zero >= m.PoCD(r) {
			t.Errorf("R(%d) at phi 0 = %.4f, not below R(%d) at phi 0.2 = %.4f", r, zero, r, m.PoCD(r))
		}
	}
	t.Logf("r at phi 0: %d; decisions: %v", want, ds)
}
