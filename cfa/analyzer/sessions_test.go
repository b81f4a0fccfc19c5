package analyzer

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// restore round-trips a's state through JSON (what the store keeps) and
// starts a new analyzer on it at now: a restart.
func restore(t *testing.T, a *Analyzer, now Time) *Analyzer {
	t.Helper()
	b, err := json.Marshal(a.State())
	if err != nil {
		t.Fatal(err)
	}
	st := NewState()
	if err := json.Unmarshal(b, st); err != nil {
		t.Fatal(err)
	}
	r, err := New(testConfig(), st, now)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// After a restart, jobs whose AMs never reconnect stop reporting; their
// silence is not evidence about their nodes, so those nodes are neither
// suspected nor failed during the bridge's grace period (here 2 minutes),
// and neither are they once the only job on a node goes away without
// ending. A job that comes back gets a full gap to report, and its silence
// counts again from then on.
func TestAbsentJobsDoNotSilenceNodes(t *testing.T) {
	a := newAnalyzer(t)
	m0 := attempt(speculators.Map, 0, 0)
	for job, node := range map[string]string{"J1": "n1", "J2": "n2", "J3": "n3"} {
		a.Attach(job, 0)
		a.Observe(job, started(m0, node, 0), 0)
	}
	all := map[string][]speculators.AttemptID{"J1": {m0}, "J2": {m0}, "J3": {m0}}
	if got := run(a, 0, 30_000, all); len(got) != 0 {
		t.Fatalf("healthy cluster: %v", kinds(got))
	}

	// Restart at 31 s: only J1's AM reconnects.
	r := restore(t, a, 31_000)
	r.Attach("J1", 31_000)
	j1 := map[string][]speculators.AttemptID{"J1": {m0}}
	if got := run(r, 31_000, 151_000, j1); len(got) != 0 {
		t.Fatalf("absent jobs J2, J3 made their nodes look silent: %v", kinds(got))
	}
	for _, n := range []speculators.NodeID{"n2", "n3"} {
		if nr := r.State().Nodes[n]; nr != nil && (nr.Open != nil || len(nr.Episodes) > 0) {
			t.Errorf("%s has episodes while only an absent job runs there: %+v", n, nr)
		}
	}

	// J1's session goes too (no end: the grace period runs): nothing.
	r.Detach("J1", 152_000, 0)
	if got := run(r, 152_000, 212_000, nil); len(got) != 0 {
		t.Fatalf("after J1's session went: %v", kinds(got))
	}

	// J1 is back at 213 s, its clock restarted there: at 215 s silent 2 s,
	// at 220 s silent 7 s > 6 s, suspected (>= 5 s); failed at 225 s.
	r.Attach("J1", 213_000)
	got := run(r, 213_000, 225_000, nil)
	if want := []string{"J1 node-suspected n1", "J1 node-failed n1"}; !reflect.DeepEqual(kinds(got), want) {
		t.Fatalf("J1 back and silent: %v, want %v", kinds(got), want)
	}
	if ep := r.State().Nodes["n1"].Open; ep == nil || ep.From != 213_000 || ep.Suspected != 220_000 || ep.Failed != 225_000 {
		t.Fatalf("n1 episode %+v, want from 213 s, suspected 220 s, failed 225 s", ep)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
}

// Jobs that connect after a node was declared, or reconnect with a new
// session (a new engine), are told at the next round; a job already told
// in its current session is not told twice; a failed node is announced as
// failed only, never downgraded to suspected; a job's repeated attempt
// start (a resync's snapshot) does not end the episode; jobs that joined
// the episode late join its Told and hear it resume.
func TestLateJobsAreToldOfDeclaredNodes(t *testing.T) {
	a := newAnalyzer(t)
	m0, m1 := attempt(speculators.Map, 0, 0), attempt(speculators.Map, 1, 0)
	a.Attach("J1", 0)
	a.Observe("J1", started(m0, "n1", 0), 0)
	a.Observe("J1", started(m1, "n2", 0), 0)
	// J2's map ran on n1 and succeeded: its output is work on n1. Its
	// session is gone from 25 s.
	a.Attach("J2", 0)
	a.Observe("J2", started(m0, "n1", 0), 0)
	a.Observe("J2", ended(speculators.AttemptSucceeded, m0, 20_000), 20_000)
	run(a, 0, 24_000, map[string][]speculators.AttemptID{"J1": {m0, m1}})
	a.Detach("J2", 25_000, 0)
	run(a, 25_000, 30_000, map[string][]speculators.AttemptID{"J1": {m0, m1}})
	// J3 subscribes, goes, and a late event of it (a remote sidecar's
	// last flush) puts an attempt on n1 while it is away.
	a.Attach("J3", 30_000)
	a.Detach("J3", 30_000, 0)

	onlyN2 := map[string][]speculators.AttemptID{"J1": {m1}}
	got := run(a, 31_000, 45_000, onlyN2)
	// J2 is told too (it has work there), though nobody listens.
	want := []string{"J1 node-suspected n1", "J2 node-suspected n1", "J1 node-failed n1", "J2 node-failed n1"}
	if !reflect.DeepEqual(kinds(got), want) {
		t.Fatalf("declaration: %v, want %v", kinds(got), want)
	}
	a.Observe("J3", started(m0, "n1", 46_000), 46_000)

	// J2 reconnects, J1 reconnects (its old session goes after the new
	// one took over), J3 comes back; J1's AM resyncs, repeating its
	// attempt starts. The round at 50 s tells all three, failed only.
	a.Attach("J2", 47_000)
	a.Attach("J1", 47_000)
	a.Detach("J1", 47_500, 0)
	a.Attach("J3", 48_000)
	a.Observe("J1", started(m0, "n1", 0), 48_000)
	a.Observe("J1", started(m1, "n2", 0), 48_000)
	got = run(a, 46_000, 55_000, onlyN2)
	want = []string{"J1 node-failed n1", "J2 node-failed n1", "J3 node-failed n1"}
	if !reflect.DeepEqual(kinds(got), want) {
		t.Fatalf("after reconnecting: %v, want %v", kinds(got), want)
	}
	ep := a.State().Nodes["n1"].Open
	if ep == nil || !reflect.DeepEqual(ep.Told, []string{"J1", "J2", "J3"}) {
		t.Fatalf("n1 episode %+v, want open with J1, J2, J3 told", ep)
	}
	// Heard again at 57 s (J1's m0 reports): every job told hears it.
	got = run(a, 56_000, 60_000, map[string][]speculators.AttemptID{"J1": {m0, m1}})
	want = []string{"J1 node-resumed n1", "J2 node-resumed n1", "J3 node-resumed n1"}
	if !reflect.DeepEqual(kinds(got), want) {
		t.Fatalf("resume: %v, want %v", kinds(got), want)
	}
	// The node-told record replays to the same state.
	st := NewState()
	recs := a.Drain()
	for i := range recs {
		if err := st.Apply(&recs[i], a.limits()); err != nil {
			t.Fatal(err)
		}
	}
	if !sameJSON(t, st, a.State()) {
		t.Error("replayed records differ from the live state")
	}
	if err := a.Err(); err != nil {
		t.Fatal(err)
	}
}

// A job first seen through a resync (its starts Restated) while a node is
// failed: its attempt there is no sign of life of the node, which stays
// failed, and the job is told. Taken as a fresh start, the attempt would
// have had the node heard for StartGrace and resumed.
func TestRestatedStartsAreNotSignsOfLife(t *testing.T) {
	for _, restated := range []bool{true, false} {
		a := newAnalyzer(t)
		m0 := attempt(speculators.Map, 0, 0)
		a.Attach("J1", 0)
		a.Observe("J1", started(m0, "n1", 0), 0)
		a.Observe("J1", status(m0, 0), 0) // reports once, then is silent
		got := run(a, 1_000, 20_000, nil)
		if want := []string{"J1 node-suspected n1", "J1 node-failed n1"}; !reflect.DeepEqual(kinds(got), want) {
			t.Fatalf("declaration: %v, want %v", kinds(got), want)
		}
		a.Detach("J1", 21_000, 0) // J1's AM is gone
		a.Attach("J2", 22_000)
		ev := started(attempt(speculators.Map, 3, 0), "n1", 2_000)
		ev.Restated = restated
		a.Observe("J2", ev, 22_000)
		got = run(a, 23_000, 90_000, nil)
		nr := a.State().Nodes["n1"]
		if restated {
			if want := []string{"J2 node-failed n1"}; !reflect.DeepEqual(kinds(got), want) || nr.Open == nil {
				t.Fatalf("restated: %v, episode %+v; want %v and n1 still failed", kinds(got), nr.Open, want)
			}
		} else if len(got) == 0 || kinds(got)[0] != "J1 node-resumed n1" {
			// The contrast, what Restated prevents: the start has the node
			// heard, and it "resumes" (to fail again once the grace ends).
			t.Fatalf("as a fresh start: %v; want n1 resumed first", kinds(got))
		}
	}
}
