package analyzer

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

func attempt(tt speculators.TaskType, task, n int32) speculators.AttemptID {
	return speculators.AttemptID{Task: speculators.TaskID{Type: tt, Index: task}, N: n}
}

func started(a speculators.AttemptID, node string, at Time) *speculators.Event {
	return &speculators.Event{Kind: speculators.AttemptStarted, Time: at, Attempt: a, Node: speculators.NodeID(node), Container: "container_" + a.String()}
}

func status(a speculators.AttemptID, at Time) *speculators.Event {
	return &speculators.Event{Kind: speculators.AttemptStatus, Time: at, Attempt: a, Progress: 0.5}
}

func ended(kind speculators.EventKind, a speculators.AttemptID, at Time) *speculators.Event {
	return &speculators.Event{Kind: kind, Time: at, Attempt: a}
}

// testConfig fixes what the tests' arithmetic assumes, whatever the
// defaults become: TWS, L = 5, b = 2, a 10 s initial threshold, a 3 s
// floor, a 6 s gap, suspicion at half the threshold.
func testConfig() Config {
	c := DefaultConfig()
	c.Detector, c.Detect.Window, c.Detect.Base, c.Detect.Initial, c.Detect.Floor = "tws", 5, 2, 10_000, 3_000
	c.Gap, c.SuspectFraction = 6_000, 0.5
	return c
}

func newAnalyzer(t *testing.T) *Analyzer {
	t.Helper()
	a, err := New(testConfig(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// run advances a from `from` to `to` (ms): every 3 s each attempt in alive
// reports, every 5 s the analyzer gathers; it returns the notices.
func run(a *Analyzer, from, to Time, alive map[string][]speculators.AttemptID) []Notice {
	var out []Notice
	for now := from; now <= to; now += 1000 {
		if now%3000 == 0 {
			for job, ids := range alive {
				for _, id := range ids {
					a.Observe(job, status(id, now), now)
				}
			}
		}
		if now%5000 == 0 {
			out = append(out, a.Tick(now)...)
		}
	}
	return out
}

func kinds(ns []Notice) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Job+" "+n.Event.Kind.String()+" "+string(n.Event.Node))
	}
	return out
}

// A node whose attempts stop reporting is suspected at half its threshold,
// failed past it, and resumed when heard again; the episode's real length
// joins its history and becomes its next threshold (FAS, Fig. 7).
// Reference: FARMS §3.3, Fig. 7 and eq. (1).
func TestEpisodeSuspectFailResumeFeedsHistory(t *testing.T) {
	a := newAnalyzer(t)
	m0, m1 := attempt(speculators.Map, 0, 0), attempt(speculators.Map, 1, 0)
	a.Observe("J1", started(m0, "n1", 0), 0)
	a.Observe("J1", started(m1, "n2", 0), 0)
	both := map[string][]speculators.AttemptID{"J1": {m0, m1}}
	if got := run(a, 0, 30_000, both); len(got) != 0 {
		t.Fatalf("healthy cluster: notices %v", kinds(got))
	}
	onlyN2 := map[string][]speculators.AttemptID{"J1": {m1}}
	// n1 last heard at 30 s. At 35 s silent 5 s <= gap 6 s; at 40 s silent
	// 10 s: episode, suspected (>= 5 s) but not failed (not > 10 s); at 45 s
	// failed.
	got := run(a, 31_000, 40_000, onlyN2)
	if want := []string{"J1 node-suspected n1"}; !reflect.DeepEqual(kinds(got), want) {
		t.Fatalf("at 40 s: %v, want %v", kinds(got), want)
	}
	got = run(a, 41_000, 60_000, onlyN2)
	if want := []string{"J1 node-failed n1"}; !reflect.DeepEqual(kinds(got), want) {
		t.Fatalf("40..60 s: %v, want %v", kinds(got), want)
	}
	// n1 reports again at 63 s; the gather at 65 s closes the episode.
	got = run(a, 61_000, 65_000, both)
	if want := []string{"J1 node-resumed n1"}; !reflect.DeepEqual(kinds(got), want) {
		t.Fatalf("resume: %v, want %v", kinds(got), want)
	}
	nr := a.State().Nodes["n1"]
	if nr.Open != nil || len(nr.Episodes) != 1 {
		t.Fatalf("n1 record: %+v", nr)
	}
	ep := nr.Episodes[0]
	if ep.From != 30_000 || ep.To != 63_000 || ep.Duration != 33_000 || ep.Suspected != 40_000 || ep.Failed != 45_000 ||
		ep.Threshold != 10_000 || !ep.Recorded || !reflect.DeepEqual(ep.Told, []string{"J1"}) {
		t.Errorf("episode %+v", ep)
	}
	if th := a.Threshold("n1"); th != 33_000 {
		t.Errorf("threshold after one 33 s episode = %d, want 33000", th)
	}
	if th := a.Threshold("n2"); th != 10_000 {
		t.Errorf("n2 (no history) threshold = %d, want the initial 10000", th)
	}
	if err := a.Err(); err != nil {
		t.Fatal(err)
	}
}

// oneEpisode is an analyzer whose node n1 has had one episode: job J's map
// there reports until 30 s, is silent from 30 s and heard again at 51 s
// (21 s), and reports on to 60 s. alive is what keeps the map reporting.
func oneEpisode(t *testing.T) (*Analyzer, map[string][]speculators.AttemptID) {
	t.Helper()
	a := newAnalyzer(t)
	m0 := attempt(speculators.Map, 0, 0)
	a.Observe("J", started(m0, "n1", 0), 0)
	alive := map[string][]speculators.AttemptID{"J": {m0}}
	run(a, 0, 30_000, alive)
	run(a, 31_000, 50_000, nil) // silent from 30 s
	run(a, 51_000, 60_000, alive)
	return a, alive
}

// Two episodes, 21 s then 33 s, weigh b^(L-1) and b^L: (32*33 + 16*21) / 48
// = 29 s; the node silent 26 s is then suspected but not failed, silent 31 s
// it fails.
// Reference: FARMS §3.3.1, eq. (1).
func TestTWSThresholdFromHistory(t *testing.T) {
	a, alive := oneEpisode(t)
	run(a, 61_000, 90_000, nil) // silent from 60 s
	run(a, 91_000, 100_000, alive)
	// Second: 60 s .. 93 s = 33 s (reports fall on multiples of 3 s).
	h := a.State().Nodes["n1"].History
	if !reflect.DeepEqual(h, []Time{21_000, 33_000}) {
		t.Fatalf("history %v", h)
	}
	want := Time((32*33_000 + 16*21_000) / 48)
	if th := a.Threshold("n1"); th != want {
		t.Fatalf("threshold %d, want %d", th, want)
	}
	got := run(a, 101_000, 125_000, nil) // silent from 99 s
	if want := []string{"J node-suspected n1"}; !reflect.DeepEqual(kinds(got), want) {
		t.Fatalf("silent 26 s under a %d ms threshold: %v", a.Threshold("n1"), kinds(got))
	}
	got = run(a, 126_000, 130_000, nil)
	if want := []string{"J node-failed n1"}; !reflect.DeepEqual(kinds(got), want) {
		t.Fatalf("silent 31 s: %v", kinds(got))
	}
}

// Only jobs with work on the node hear about it: a running attempt there,
// or a completed map whose output is stored there. A finished job, a job
// whose only work there was a reduce that succeeded, a job whose map there
// was later lost, and a job elsewhere hear nothing.
// Reference: FARMS §3.1 ("publishes ... to the AppMasters affected").
func TestPublishOnlyToJobsWithWork(t *testing.T) {
	a := newAnalyzer(t)
	run1, out2, red4, lost6, else3, done5 := attempt(speculators.Map, 0, 0), attempt(speculators.Map, 1, 0),
		attempt(speculators.Reduce, 0, 0), attempt(speculators.Map, 3, 0), attempt(speculators.Map, 2, 0), attempt(speculators.Map, 4, 0)
	a.Observe("J1", started(run1, "n1", 0), 0)
	a.Observe("J1", status(run1, 0), 0) // reporting, then silent
	a.Observe("J2", started(out2, "n1", 0), 0)
	a.Observe("J2", ended(speculators.AttemptSucceeded, out2, 1000), 1000)
	a.Observe("J3", started(else3, "n2", 0), 0)
	a.Observe("J4", started(red4, "n1", 0), 0)
	a.Observe("J4", ended(speculators.AttemptSucceeded, red4, 1000), 1000)
	a.Observe("J5", started(done5, "n1", 0), 0)
	a.EndJob("J5", 2000)
	a.Observe("J6", started(lost6, "n1", 0), 0)
	a.Observe("J6", ended(speculators.AttemptSucceeded, lost6, 1000), 1000)
	a.Observe("J6", ended(speculators.AttemptKilled, lost6, 2000), 2000) // output lost
	got := run(a, 3000, 20_000, map[string][]speculators.AttemptID{"J3": {else3}})
	want := []string{"J1 node-suspected n1", "J2 node-suspected n1", "J1 node-failed n1", "J2 node-failed n1"}
	if !reflect.DeepEqual(kinds(got), want) {
		t.Fatalf("notices %v, want %v", kinds(got), want)
	}
	if outs := a.State().MapOutputs("J2"); !reflect.DeepEqual(outs, map[string]speculators.NodeID{"m_000001": "n1"}) {
		t.Errorf("J2 map outputs %v", outs)
	}
	if outs := a.State().MapOutputs("J6"); len(outs) != 0 {
		t.Errorf("J6's lost map output still listed: %v", outs)
	}
}

// A node with nothing running is judged by the gatherer's probes; an NM
// that restarted during the episode makes it a failure, which does not join
// the history.
func TestProbesAndRestartedNodes(t *testing.T) {
	a := newAnalyzer(t)
	ok := func(now Time, started int64, up bool) {
		a.Probe(now, []NodeProbe{{Node: "h", NM: "h:1", OK: up, StartedAt: started}, {Node: "h", NM: "h:2", OK: true, StartedAt: 7}})
	}
	for now := Time(0); now <= 10_000; now += 5000 {
		ok(now, 1, true)
		if got := a.Tick(now); len(got) != 0 {
			t.Fatalf("healthy: %v", kinds(got))
		}
	}
	for now := Time(15_000); now <= 30_000; now += 5000 {
		ok(now, 1, false) // one of the host's two NMs does not answer
		a.Tick(now)
	}
	if nr := a.State().Nodes["h"]; nr == nil || nr.Open == nil || nr.Open.From != 10_000 || nr.Open.Failed == 0 {
		t.Fatalf("host with a silent NM: %+v", nr)
	}
	ok(35_000, 2, true) // back, restarted
	a.Tick(35_000)
	nr := a.State().Nodes["h"]
	if nr.Open != nil || len(nr.Episodes) != 1 || !nr.Episodes[0].Restarted || nr.Episodes[0].Recorded || len(nr.History) != 0 {
		t.Fatalf("restarted node: %+v", nr)
	}
	// A pause without restart joins the history.
	for now := Time(40_000); now <= 55_000; now += 5000 {
		ok(now, 2, now < 45_000)
		a.Tick(now)
	}
	ok(60_000, 2, true)
	a.Tick(60_000)
	if h := a.State().Nodes["h"].History; !reflect.DeepEqual(h, []Time{20_000}) {
		t.Fatalf("history after a 40..60 s pause: %v", h)
	}
}

// Job-level records: attempt -> node and container, states, job end; the
// records replay into the same state (what the store relies on).
func TestRecordsReplayToTheSameState(t *testing.T) {
	a := newAnalyzer(t)
	m0, m0b, r0 := attempt(speculators.Map, 0, 0), attempt(speculators.Map, 0, 1), attempt(speculators.Reduce, 0, 0)
	a.Observe("J", started(m0, "n1", 100), 100)
	spec := started(m0b, "n2", 200)
	spec.Speculative = true
	a.Observe("J", spec, 200)
	a.Observe("J", ended(speculators.AttemptSucceeded, m0b, 300), 300)
	a.Observe("J", ended(speculators.AttemptKilled, m0, 301), 301)
	a.Observe("J", started(r0, "n1", 400), 400)
	run(a, 1000, 30_000, nil)
	a.Observe("J", ended(speculators.AttemptSucceeded, r0, 31_000), 31_000)
	a.EndJob("J", 32_000)
	recs := a.Drain()
	j := a.State().Jobs["J"]
	if j.Ended != 32_000 || len(j.Attempts) != 3 {
		t.Fatalf("job record %+v", j)
	}
	if at := j.Attempts["m_000000_1"]; at.Node != "n2" || at.Container != "container_m_000000_1" || !at.Speculative || at.State != "SUCCEEDED" || at.Started != 200 {
		t.Errorf("speculative attempt %+v", at)
	}
	st := NewState()
	for i := range recs {
		if err := st.Apply(&recs[i], a.limits()); err != nil {
			t.Fatal(err)
		}
	}
	if !sameJSON(t, st, a.State()) {
		t.Error("replayed records differ from the live state")
	}
	if len(a.Drain()) != 0 {
		t.Error("Drain twice returned records")
	}
}

func sameJSON(t *testing.T, x, y any) bool {
	t.Helper()
	bx, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	by, err := json.Marshal(y)
	if err != nil {
		t.Fatal(err)
	}
	if string(bx) != string(by) {
		t.Logf("got  %s\nwant %s", bx, by)
		return false
	}
	return true
}

// A restored analyzer keeps thresholds, the open episode and who was told:
// the resumed notice after a restart reaches the job told before it.
func TestRestoreCarriesOn(t *testing.T) {
	a, alive := oneEpisode(t)
	run(a, 61_000, 80_000, nil) // failed again, episode open
	r := restore(t, a, 85_000)
	if r.Threshold("n1") != a.Threshold("n1") {
		t.Fatalf("threshold %d after restore, %d before", r.Threshold("n1"), a.Threshold("n1"))
	}
	// Until J's session is back, its silence is no evidence: the node is
	// left as it is.
	if got := r.Tick(85_000); len(got) != 0 || r.State().Nodes["n1"].Open == nil {
		t.Fatalf("restored analyzer, J not reconnected: %v, n1 %+v", kinds(got), r.State().Nodes["n1"])
	}
	// History [21 s]: silent 20 s at 80 s was below the threshold; once J
	// reconnects, its attempt on n1 stays as silent as it was, and the
	// restored analyzer carries on and fails the node at 85 s (25 s).
	r.Attach("J", 85_000)
	if got := r.Tick(85_000); !reflect.DeepEqual(kinds(got), []string{"J node-failed n1"}) {
		t.Fatalf("restored analyzer's first tick: %v", kinds(got))
	}
	got := run(r, 86_000, 90_000, alive)
	if want := []string{"J node-resumed n1"}; !reflect.DeepEqual(kinds(got), want) {
		t.Fatalf("after restore: %v, want %v", kinds(got), want)
	}
}

// Two NodeManagers on one host (a mini cluster) named host:port are two
// nodes: when one stops, its attempt falls silent and that NM alone is
// declared failed; the copy started on its sibling reports on and does not
// look like the failed node answering again. Named by host they are one
// node, and the copy's reports resume it (why host:port is the default).
func TestSiblingNodeManagersAreSeparateNodes(t *testing.T) {
	for _, tc := range []struct {
		key          string
		nm1, nm2     string
		wantResumed  bool
		wantFailedAt string
	}{
		{"host-port", "localhost:41001", "localhost:41002", false, "localhost:41001"},
		{"host", "localhost", "localhost", true, "localhost"},
	} {
		t.Run(tc.key, func(t *testing.T) {
			a := newAnalyzer(t)
			m0, m1, m0b := attempt(speculators.Map, 0, 0), attempt(speculators.Map, 1, 0), attempt(speculators.Map, 0, 1)
			a.Observe("J1", started(m0, tc.nm1, 0), 0)
			a.Observe("J1", started(m1, tc.nm1, 0), 0)
			probe := func(now Time, nm1Up bool) {
				a.Probe(now, []NodeProbe{{Node: speculators.NodeID(tc.nm1), NM: "localhost:41001", OK: nm1Up, StartedAt: 1},
					{Node: speculators.NodeID(tc.nm2), NM: "localhost:41002", OK: true, StartedAt: 1}})
			}
			probe(0, true)
			if got := run(a, 0, 30_000, map[string][]speculators.AttemptID{"J1": {m0, m1}}); len(got) != 0 {
				t.Fatalf("healthy: %v", kinds(got))
			}
			// At 30 s the first NM stops: its attempts fall silent.
			var got []Notice
			for now := Time(31_000); now <= 60_000; now += 1000 {
				if now == 50_000 { // the policy's copy starts on the sibling NM
					a.Observe("J1", started(m0b, tc.nm2, now), now)
				}
				if now%3000 == 0 && now > 50_000 {
					a.Observe("J1", status(m0b, now), now)
				}
				if now%5000 == 0 {
					probe(now, false)
					got = append(got, a.Tick(now)...)
				}
			}
			ks := kinds(got)
			failed, resumed := false, false
			for _, k := range ks {
				failed = failed || k == "J1 node-failed "+tc.wantFailedAt
				resumed = resumed || k == "J1 node-resumed "+tc.wantFailedAt
			}
			if !failed || resumed != tc.wantResumed {
				t.Fatalf("notices %v: want node-failed %s, resumed %v", ks, tc.wantFailedAt, tc.wantResumed)
			}
		})
	}
}

// An attempt whose JVM is still starting has not reported yet: its silence
// says nothing about its node. With no prober the node is taken as heard
// until StartGrace after the start, so a node that dies while its attempts
// start is still caught; with probes, they judge it until the first report.
func TestStartingAttemptsAreNotSilence(t *testing.T) {
	a := newAnalyzer(t) // 10 s threshold, 6 s gap, 30 s start grace
	m0 := attempt(speculators.Map, 0, 0)
	a.Observe("J1", started(m0, "n1", 0), 0)
	got := run(a, 1000, 35_000, nil) // never reports
	if ks := kinds(got); len(ks) != 0 {
		t.Fatalf("within the start grace: %v", ks)
	}
	// Taken as heard at 30 s: at 40 s silent 10 s, past the 6 s gap and half
	// the threshold (suspected); at 45 s past the 10 s threshold (failed).
	got = run(a, 36_000, 45_000, nil)
	if want := []string{"J1 node-suspected n1", "J1 node-failed n1"}; !reflect.DeepEqual(kinds(got), want) {
		t.Fatalf("past the start grace: %v, want %v", kinds(got), want)
	}

	// Probed: the NM's answers judge the node until the attempt reports.
	b := newAnalyzer(t)
	b.Observe("J1", started(m0, "n1", 0), 0)
	for now := Time(5000); now <= 20_000; now += 5000 {
		b.Probe(now, []NodeProbe{{Node: "n1", NM: "n1", OK: true, StartedAt: 1}})
		if ks := kinds(b.Tick(now)); len(ks) != 0 {
			t.Fatalf("probed healthy, not yet reporting, at %d: %v", now, ks)
		}
	}
	var ks []string
	for now := Time(25_000); now <= 45_000; now += 5000 { // the NM stops answering
		b.Probe(now, []NodeProbe{{Node: "n1", NM: "n1", OK: false, StartedAt: 1}})
		ks = append(ks, kinds(b.Tick(now))...)
	}
	if want := []string{"J1 node-suspected n1", "J1 node-failed n1"}; !reflect.DeepEqual(ks, want) {
		t.Fatalf("probes failing: %v, want %v", ks, want)
	}
	// Once it reports, its reports decide again: the node is back.
	b.Observe("J1", status(m0, 46_000), 46_000)
	if want := []string{"J1 node-resumed n1"}; !reflect.DeepEqual(kinds(b.Tick(50_000)), want) {
		t.Fatalf("after a report: want %v", want)
	}
}

// attemptName writes what AttemptID.String writes.
func TestAttemptNameIsString(t *testing.T) {
	for _, id := range []speculators.AttemptID{attempt(speculators.Map, 0, 0), attempt(speculators.Reduce, 3, 12),
		attempt(speculators.Map, 123456, 1), attempt(speculators.Map, 1234567, 2), attempt(speculators.Reduce, -1, 0)} {
		if got, want := attemptName(id), id.String(); got != want {
			t.Errorf("attemptName(%+v) = %q, want %q", id, got, want)
		}
		if id.Task.Index >= 0 {
			back, err := ParseAttempt(attemptName(id))
			if err != nil || back != id {
				t.Errorf("ParseAttempt(%q) = %+v, %v, want %+v", attemptName(id), back, err, id)
			}
		}
	}
}
