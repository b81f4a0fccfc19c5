package mantri

// Tests of Mantri's rules as the GRASS (NSDI'14 §5-6) and SCA (Xu and Lau,
// §II) papers state them, driven through the real Engine. Each ends with the
// section it checks.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

type harness struct {
	t      *testing.T
	engine *speculators.Engine
	next   map[speculators.TaskID]int32
}

func newHarness(t *testing.T, maps, slots int, overrides map[string]string) *harness {
	t.Helper()
	r := speculators.NewRegistry()
	if err := r.Add(Policy()); err != nil {
		t.Fatal(err)
	}
	e, err := r.NewEngine(speculators.JobInfo{ID: "job_mantri", Maps: maps, Slots: slots}, Name, overrides, 1)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, engine: e, next: map[speculators.TaskID]int32{}}
}

// observed10s lets attempts of the worked examples, which are 20 s old,
// be trusted (the default min-observe-ms is 30 s).
var observed10s = map[string]string{ParamMinObserve: "10000"}

func mapTask(i int) speculators.TaskID {
	return speculators.TaskID{Type: speculators.Map, Index: int32(i)}
}

func sec(s float64) speculators.Time { return speculators.Time(s * 1000) }

func (h *harness) observe(ev speculators.Event) {
	h.t.Helper()
	if err := h.engine.Observe(&ev); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) start(task speculators.TaskID, at speculators.Time) speculators.AttemptID {
	id := speculators.AttemptID{Task: task, N: h.next[task]}
	h.next[task]++
	h.observe(speculators.Event{Kind: speculators.AttemptStarted, Time: at, Attempt: id, Node: speculators.NodeID(fmt.Sprintf("n%d", task.Index))})
	return id
}

// complete runs map i from 0 for d seconds.
func (h *harness) complete(i int, d float64) {
	a := h.start(mapTask(i), 0)
	h.observe(speculators.Event{Kind: speculators.AttemptSucceeded, Time: sec(d), Attempt: a})
}

// runWithLeft starts map i at 0 and reports at now the progress that leaves
// it left seconds by extrapolation.
func (h *harness) runWithLeft(i int, now, left float64) speculators.AttemptID {
	a := h.start(mapTask(i), 0)
	h.observe(speculators.Event{Kind: speculators.AttemptStatus, Time: sec(now), Attempt: a, Progress: now / (now + left)})
	return a
}

func (h *harness) decide(now float64) []speculators.Decision {
	return slices.Clone(h.engine.Decide(sec(now)))
}

// slowTail completes maps 0-3 in 10, 14, 16 and 18 s and has maps 4 and 5
// running at 20 s with 22 and 30 s left.
func (h *harness) slowTail() {
	for i, d := range []float64{10, 14, 16, 18} {
		h.complete(i, d)
	}
	h.runWithLeft(4, 20, 22)
	h.runWithLeft(5, 20, 30)
}

func kinds(ds []speculators.Decision) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Kind.String()+" "+d.Task.String())
	}
	return strings.Join(out, ", ")
}

// TestPaperDuplicateWhenLikelyToSaveResources checks the rule "a duplicate
// is scheduled if P(t_rem > 2 t_new) > delta ... where the default value of
// delta = .25 ... when there are available machines". The job's completed
// maps took 10, 14, 16 and 18 s, the distribution of t_new. A map with
// t_rem 22 s has P(t_new < 11 s) = 1/4, not above delta: no copy. One with
// t_rem 30 s has P(t_new < 15 s) = 2/4: copied. No task waits, so nothing
// is restarted.
//
// Reference: SCA paper §II (Mantri), GRASS §6 baseline
func TestPaperDuplicateWhenLikelyToSaveResources(t *testing.T) {
	h := newHarness(t, 6, 10, observed10s)
	h.slowTail()
	ds := h.decide(20)
	if got := kinds(ds); got != "speculate m_000005" {
		t.Fatalf("decisions %q, want only a copy of m_000005\n%v", got, ds)
	}
	if !strings.Contains(ds[0].Reason, "= 0.50 > delta 0.25") {
		t.Errorf("reason %q does not state P and delta", ds[0].Reason)
	}
	if got := h.decide(21); len(got) != 0 {
		t.Errorf("second decide %v: the copy is already asked for", got)
	}
}

// TestPaperDuplicateNeedsAFreeSlot checks that Mantri duplicates "when there
// are available machines": the same map, on a job whose slots are all busy,
// is not copied.
//
// Reference: SCA paper §II (Mantri)
func TestPaperDuplicateNeedsAFreeSlot(t *testing.T) {
	h := newHarness(t, 6, 2, observed10s)
	h.slowTail()
	if got := h.decide(20); len(got) != 0 {
		t.Fatalf("decisions %v with no free slot", got)
	}
}

// TestPaperRestartExcessiveRemainingTime checks that Mantri "may terminate a
// task which shows an excessively large remaining-time-to-finish": while a
// task waits for a slot, a map whose t_rem exceeds E[t_new] (14.5 s) plus
// Delta (3 s) is killed so that it restarts, at most gamma = 3 times; a map
// with t_rem 16 s is left alone.
//
// Reference: SCA paper §II (Mantri); Mantri OSDI'10 §5.1
func TestPaperRestartExcessiveRemainingTime(t *testing.T) {
	h := newHarness(t, 7, 6, observed10s) // map 6 never starts: a task waits
	for i, d := range []float64{10, 14, 16, 18} {
		h.complete(i, d)
	}
	steady := h.runWithLeft(4, 20, 16)
	a := h.runWithLeft(5, 20, 30)
	now := 20.0
	for restart := 1; restart <= 4; restart++ {
		ds := h.decide(now)
		if restart == 4 {
			if strings.Contains(kinds(ds), "kill") {
				t.Fatalf("fourth restart: %v; want at most 3", ds)
			}
			break
		}
		if len(ds) != 1 || ds[0].Kind != speculators.Kill || ds[0].Attempt != a {
			t.Fatalf("restart %d: decisions %v, want kill of %s", restart, ds, a)
		}
		h.observe(speculators.Event{Kind: speculators.AttemptKilled, Time: sec(now), Attempt: a})
		// The AM reruns the task; the new attempt is as slow.
		a = speculators.AttemptID{Task: mapTask(5), N: h.next[mapTask(5)]}
		h.next[mapTask(5)]++
		h.observe(speculators.Event{Kind: speculators.AttemptStarted, Time: sec(now), Attempt: a, Node: "n9"})
		h.observe(speculators.Event{Kind: speculators.AttemptStatus, Time: sec(now + 10), Attempt: a, Progress: 10.0 / 40})
		now += 10
		h.observe(speculators.Event{Kind: speculators.AttemptStatus, Time: sec(now), Attempt: steady, Progress: now / (now + 16)})
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
	h := newHarness(t, 6, 10, observed10s)
	h.slowTail()
	if got := kinds(h.decide(20)); got != "speculate m_000005" {
		t.Fatalf("decisions %q, want a copy of m_000005", got)
	}
	task := mapTask(5)
	copyID := speculators.AttemptID{Task: task, N: h.next[task]}
	h.next[task]++
	h.observe(speculators.Event{Kind: speculators.AttemptStarted, Time: sec(20), Attempt: copyID, Node: "n9", Speculative: true})
	h.observe(speculators.Event{Kind: speculators.AttemptStatus, Time: sec(30), Attempt: copyID, Progress: 0.1})
	if got := h.decide(30); strings.Contains(kinds(got), "speculate m_000005") {
		t.Fatalf("decisions %v with the copy running; want no second copy", got)
	}
	h.observe(speculators.Event{Kind: speculators.AttemptKilled, Time: sec(31), Attempt: copyID})
	if got := h.decide(40); strings.Contains(kinds(got), "speculate m_000005") {
		t.Fatalf("decisions %v after the task's one copy; want none", got)
	}

	p := newHarness(t, 6, 10, observed10s)
	p.slowTail()
	picked := 0
	for slot := 0; slot < 5; slot++ {
		id, isCopy, ok := p.engine.ChooseForSlot(speculators.NodeID(fmt.Sprintf("free%d", slot)), sec(20))
		if !ok {
			break
		}
		if !isCopy || id != mapTask(5) {
			t.Fatalf("slot %d: chose %v (copy %v), want a copy of m_000005", slot, id, isCopy)
		}
		picked++
		a := speculators.AttemptID{Task: id, N: p.next[id]}
		p.next[id]++
		p.observe(speculators.Event{Kind: speculators.AttemptStarted, Time: sec(20), Attempt: a, Node: speculators.NodeID(fmt.Sprintf("free%d", slot)), Speculative: true})
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
	// restarting.
	h := newHarness(t, 7, 7, observed10s) // map 6 never starts: a task waits
	for i, d := range []float64{5, 5, 40, 40, 40} {
		h.complete(i, d)
	}
	h.runWithLeft(5, 20, 32)
	if got := h.decide(20); strings.Contains(kinds(got), "kill") {
		t.Fatalf("decisions %v: restarted although 3 of 5 fresh copies take longer", got)
	}

	// Completed maps 10, 14, 16, 18 s; a map 20 s old extrapolates to 240 s
	// left: younger than the default min-observe-ms (30 s), its estimate is
	// not trusted. At 35 s with the same rate it is restarted.
	y := newHarness(t, 7, 1, nil) // no free slot: no duplicate instead

	for i, d := range []float64{10, 14, 16, 18} {
		y.complete(i, d)
	}
	a := y.start(mapTask(5), 0)
	y.observe(speculators.Event{Kind: speculators.AttemptStatus, Time: sec(20), Attempt: a, Progress: 20.0 / 260})
	if got := y.decide(20); strings.Contains(kinds(got), "kill") {
		t.Fatalf("decisions %v: restarted a 20 s old attempt", got)
	}
	y.observe(speculators.Event{Kind: speculators.AttemptStatus, Time: sec(35), Attempt: a, Progress: 35.0 / 455})
	if got := kinds(y.decide(35)); got != "kill m_000005" {
		t.Fatalf("decisions %q at 35 s, want the restart of m_000005", got)
	}
}
