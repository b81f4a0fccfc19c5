package srquant

import (
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

func mapAttempt(i, n int32) speculators.AttemptID {
	return speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: i}, N: n}
}

func observe(t *testing.T, e *speculators.Engine, evs ...speculators.Event) {
	t.Helper()
	for i := range evs {
		if err := e.Observe(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
}

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
	reg := spectest.Registry(t, Policy())
	e, err := reg.NewEngine(speculators.JobInfo{ID: "j", Maps: 10, Deadline: 300000}, Name, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := int32(0); i < 10; i++ {
		observe(t, e, speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: mapAttempt(i, 0), Node: "n1"})
	}
	for i := int32(0); i < 10; i++ {
		p := 0.8
		if i == 9 {
			p = 0.2
		}
		observe(t, e, speculators.Event{Kind: speculators.AttemptStatus, Time: 119000, Attempt: mapAttempt(i, 0), Progress: p})
	}
	if ds := e.Decide(119000); len(ds) != 0 {
		t.Fatalf("before tau_est: %v", ds)
	}
	ds := append([]speculators.Decision(nil), e.Decide(120000)...)
	want, _ := Model{N: 10, TMin: 150, Beta: 1.7, D: 300, TauEst: 120, TauKill: 200, Phi: 0.2}.Choose(4, 0.1, 0.0001)
	if len(ds) != 2 || ds[0].Kind != speculators.Speculate || !ds[0].Resume || ds[0].From != mapAttempt(9, 0) ||
		ds[0].Copies != want+1 || ds[1].Kind != speculators.Kill || ds[1].Attempt != mapAttempt(9, 0) {
		t.Fatalf("at tau_est: %v; want speculate m_000009 x%d resuming from m_000009_0, then kill it", ds, want+1)
	}
	if want < 1 {
		t.Errorf("Algorithm 1 chose r = %d; this straggler (R(0) = 0.19) should get more", want)
	}
	if !strings.Contains(ds[0].Reason, "live Hadoop cannot resume") {
		t.Errorf("reason does not say what live Hadoop does: %q", ds[0].Reason)
	}
	observe(t, e, speculators.Event{Kind: speculators.AttemptKilled, Time: 120000, Attempt: mapAttempt(9, 0)})
	for n := int32(1); n <= int32(want+1); n++ {
		observe(t, e, speculators.Event{Kind: speculators.AttemptStarted, Time: 121000, Attempt: mapAttempt(9, n), Node: "n2", Speculative: true})
		observe(t, e, speculators.Event{Kind: speculators.AttemptStatus, Time: 199000, Attempt: mapAttempt(9, n), Progress: 0.2 + 0.1*float64(n)})
	}
	if ds := e.Decide(199000); len(ds) != 0 {
		t.Fatalf("before tau_kill: %v", ds)
	}
	ds = e.Decide(200000)
	if len(ds) != want {
		t.Fatalf("at tau_kill: %d decisions %v, want %d kills", len(ds), ds, want)
	}
	for k, d := range ds {
		if d.Kind != speculators.Kill || d.Attempt != mapAttempt(9, int32(k+1)) {
			t.Errorf("at tau_kill: %v, want kill m_000009_%d (m_000009_%d has the most progress)", d, k+1, want+1)
		}
	}
	if ds := e.Decide(300000); len(ds) != 0 {
		t.Errorf("after tau_kill: %v", ds)
	}
}

// TestNoDeadlineNoSpeculation: without a deadline nothing straggles.
func TestNoDeadlineNoSpeculation(t *testing.T) {
	reg := spectest.Registry(t, Policy())
	e, err := reg.NewEngine(speculators.JobInfo{ID: "j", Maps: 1}, Name, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	observe(t, e, speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: mapAttempt(0, 0), Node: "n1"},
		speculators.Event{Kind: speculators.AttemptStatus, Time: 119000, Attempt: mapAttempt(0, 0), Progress: 0.01})
	if ds := e.Decide(130000); len(ds) != 0 {
		t.Errorf("job without deadline: %v", ds)
	}
}

func TestBadParametersAreRefused(t *testing.T) {
	reg := spectest.Registry(t, Policy())
	for _, o := range []map[string]string{{"tau-kill-s": "100"}, {"beta": "1"}, {"r-max": "-1"}, {"r-min": "1"}} {
		if _, _, err := reg.New(Name, o, 1); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
}
