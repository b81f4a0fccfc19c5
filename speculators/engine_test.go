package speculators_test

import (
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// repeater asks for the same things at every Decide: a copy of every
// running map, a kill of every map's attempt 0 that has a copy, and a drop
// of reduce 0.
type repeater struct{}

func (repeater) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	for _, t := range job.Tasks[speculators.Map] {
		if t.RunningAttempts == 1 {
			out = append(out, speculators.Decision{Kind: speculators.Speculate, Task: t.ID, Copies: 1, Reason: "again"})
		}
		if t.RunningAttempts == 2 {
			out = append(out, speculators.Decision{Kind: speculators.Kill, Task: t.ID,
				Attempt: speculators.AttemptID{Task: t.ID}, Reason: "again"})
		}
	}
	return append(out, speculators.Decision{Kind: speculators.Drop, Task: spectest.Reduce(0), Reason: "again"})
}

func repeaterRegistry(t *testing.T) *speculators.Registry {
	return spectest.Registry(t, speculators.Policy{Name: "repeater", Doc: "asks for the same things at every Decide",
		New: func(speculators.Params, speculators.Env) (speculators.Speculator, error) { return repeater{}, nil }})
}

// TestDecideDeduplicates checks the engine's de-duplication (Engine.Decide):
// a decision already returned for a task is not returned again until one of
// the task's attempts starts or ends, for every kind; live and replay see
// the same decisions because the engine, not the bridge, filters them.
func TestDecideDeduplicates(t *testing.T) {
	spectest.RunString(t, `
job policy=repeater maps=2 reduces=1
----

run
start t=0 m0 node=n1
start t=0 m1 node=n2
decide t=1
decide t=2
----
t=1:
speculate m_000000 copies=1: again
speculate m_000001 copies=1: again
drop r_000000: again
t=2 none

# A copy of m0 starts: m0's next decision (a kill) is new, m1's copy is not.
run
start t=3 m0 node=n3 copy
decide t=3
decide t=4
----
t=3:
kill m_000000_0: again
t=4 none

# A progress report is not an attempt starting or ending: nothing again.
# m1's attempt ends: its copy may be asked for again.
run
progress t=5 m0.1 0.5
decide t=5
fail t=6 m1
start t=6 m1 node=n2
decide t=6
----
t=5 none
t=6:
speculate m_000001 copies=1: again
`, repeaterRegistry(t))
}

// TestCopyLedger checks the engine's copy-request ledger (Job.PendingCopies,
// Job.FreeSlots): a Speculate that Decide returns is pending until the
// task's next attempt starts, the task succeeds or nothing of it runs, and
// a task with a copy pending is not asked for again.
func TestCopyLedger(t *testing.T) {
	h := spectest.New(t, repeaterRegistry(t), spectest.Job{Policy: "repeater",
		Info: speculators.JobInfo{ID: "ledger", Maps: 3, Reduces: 1, Slots: 10}})
	job := h.Job()
	want := func(what string, pending, free int, perTask ...int) {
		t.Helper()
		if job.PendingCopies != pending || job.FreeSlots() != free {
			t.Fatalf("%s: pending %d, free %d; want %d and %d", what, job.PendingCopies, job.FreeSlots(), pending, free)
		}
		for i, n := range perTask {
			if got := job.Tasks[speculators.Map][i].PendingCopies; got != n {
				t.Fatalf("%s: m%d has %d copies pending, want %d", what, i, got, n)
			}
		}
	}
	h.Start(spectest.Map(0), "n1", 0)
	m1 := h.Start(spectest.Map(1), "n2", 0)
	h.Start(spectest.Map(2), "n3", 0)
	m2b := h.StartCopy(spectest.Map(2), "n4", 0)
	want("before any Decide", 0, 6, 0, 0, 0)
	h.Decide(spectest.Sec(1)) // copies of m0 and m1; m2 runs twice
	want("after asking for m0 and m1", 2, 4, 1, 1, 0)
	if got := h.Decide(spectest.Sec(2)); len(got) != 0 {
		t.Fatalf("decisions %v with the copies pending, want none", got)
	}
	h.Fail(m2b, spectest.Sec(3)) // m2 runs once again: the repeater asks
	h.Decide(spectest.Sec(3))
	want("after asking for m2", 3, 4, 1, 1, 1)
	h.Fail(m1, spectest.Sec(4)) // nothing of m1 runs: its request is gone
	want("m1 has nothing running", 2, 6, 1, 0, 1)
	h.StartCopy(spectest.Map(0), "n5", spectest.Sec(5)) // m0's copy starts
	want("m0's copy started", 1, 6, 0, 0, 1)
	h.Succeed(speculators.AttemptID{Task: spectest.Map(2)}, spectest.Sec(6))
	want("m2 succeeded", 0, 8, 0, 0, 0)
}

// rerunner asks for a Rerun of attempt 0 of map 0 and a copy of map 1 at
// every Decide; quietRerunner, the same, says it never reruns
// (speculators.NoReruns).
type rerunner struct{}

func (rerunner) Decide(_ *speculators.Job, _ speculators.Time, out []speculators.Decision) []speculators.Decision {
	m0 := speculators.TaskID{Type: speculators.Map}
	return append(out,
		speculators.Decision{Kind: speculators.Rerun, Task: m0, Attempt: speculators.AttemptID{Task: m0}, Reason: "lost"},
		speculators.Decision{Kind: speculators.Speculate, Task: speculators.TaskID{Type: speculators.Map, Index: 1}, Copies: 1, Reason: "slow"})
}

type quietRerunner struct{ rerunner }

func (quietRerunner) NeverReruns() {}

// A policy that declares it never reruns (NoReruns) gets no Rerun through
// Decide, live or in replay, where a driver may have let the attempt it
// names go; every other decision passes, and another policy's Rerun too.
func TestNoRerunsPolicyRerunsNothing(t *testing.T) {
	info := speculators.JobInfo{ID: "j", Maps: 2, Slots: 4}
	for _, tc := range []struct {
		policy speculators.Speculator
		reruns bool
	}{{rerunner{}, true}, {quietRerunner{}, false}} {
		e, err := speculators.NewEngine(info, "rerunner", tc.policy, speculators.Params{})
		if err != nil {
			t.Fatal(err)
		}
		if e.Reruns() != tc.reruns {
			t.Errorf("%T: Reruns() = %v, want %v", tc.policy, e.Reruns(), tc.reruns)
		}
		var kinds []speculators.DecisionKind
		for _, d := range e.Decide(1000) {
			kinds = append(kinds, d.Kind)
		}
		want := []speculators.DecisionKind{speculators.Speculate}
		if tc.reruns {
			want = []speculators.DecisionKind{speculators.Rerun, speculators.Speculate}
		}
		if !slices.Equal(kinds, want) {
			t.Errorf("%T: decided %v, want %v", tc.policy, kinds, want)
		}
	}
}

// deferrer counts its Decides' ticks and defers while no attempt runs
// (speculators.DecideDeferrer); DecidesLeftOut runs Decide at each tick
// handed over, so its log is the ticks of a run that made every Decide.
type deferrer struct{ ticks []speculators.Time }

func (p *deferrer) Decide(_ *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	p.ticks = append(p.ticks, now)
	return out
}

func (p *deferrer) DeferDecides(job *speculators.Job, _ speculators.Time) (bool, int) {
	return job.RunningTasks[speculators.Map] == 0, 1
}

func (p *deferrer) DecidesLeftOut(job *speculators.Job, first, step speculators.Time, n int) {
	for k := range n {
		p.Decide(job, first+speculators.Time(k)*step, nil)
	}
}

// An engine whose policy defers its Decides (DecideDeferrer) hands the
// ticks a driver left out to the policy at their times, once, and
// refuses every other call before they are handed over: the policy would
// see the job with its own state behind the clock.
func TestDeferredDecidesHandedOver(t *testing.T) {
	e, err := speculators.NewEngine(speculators.JobInfo{ID: "j", Maps: 1, Slots: 4}, "deferrer", &deferrer{}, speculators.Params{})
	if err != nil {
		t.Fatal(err)
	}
	p := e.Policy.(*deferrer)
	e.Decide(1000)
	if ok, bucket := e.DeferDecides(); !ok || bucket != 1 {
		t.Fatalf("DeferDecides() = %v, %d, want true, 1", ok, bucket)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Decide with Decides deferred and not handed over did not panic")
			}
		}()
		e.Decide(2000)
	}()
	e.DecidesLeftOut(3, 1000) // the ticks at 2, 3 and 4 s
	e.DecidesLeftOut(5, 1000) // no deferral in force: nothing
	if want := []speculators.Time{1000, 2000, 3000, 4000}; !slices.Equal(p.ticks, want) {
		t.Errorf("Decides at %v, want %v", p.ticks, want)
	}
	if e.Job.Now != 4000 {
		t.Errorf("Job.Now %d after the ticks handed over, want 4000", e.Job.Now)
	}
	if err := e.Observe(&speculators.Event{Kind: speculators.AttemptStarted, Time: 4500,
		Attempt: speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map}}, Node: "n1"}); err != nil {
		t.Fatal(err)
	}
	e.Decide(5000)
	if ok, _ := e.DeferDecides(); ok {
		t.Error("DeferDecides() with an attempt running: true, want false")
	}
}
