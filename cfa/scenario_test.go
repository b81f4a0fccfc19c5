package cfa

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/internal/testclock"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// fakeClock is the injected clock of the Service tests, set in the
// scenario's time.
type fakeClock struct{ testclock.Clock }

func (c *fakeClock) set(ms analyzer.Time) { c.Set(time.UnixMilli(base + ms)) }

// base is the scenario's epoch (ms): times in the script are offsets.
const base = 1_795_000_000_000

// scenario drives a Service through a two-job run on three nodes, second
// by second from `from` to `to` (s): attempts report every 3 s unless
// their node is silent, the analyzer gathers every 5 s.
//
//	0 s   J1 m0 on n1, m1 on n2; J2 m0 on n1
//	20 s  J1 m1 succeeds (its output stays on n2); J1 r0 starts on n3
//	31-60 n1 silent: episode, suspected, failed; heard again at 63 s
//	70 s  J2 m0 succeeds; 75 s J2 ends
//	81-95 n3 silent: heard again at 96 s
//	110 s J1 m0 and r0 succeed; 115 s J1 ends
func scenario(t *testing.T, s *Service, clock *fakeClock, from, to int) {
	t.Helper()
	m := func(i int32) speculators.AttemptID { return attempt(speculators.Map, i, 0) }
	r0 := attempt(speculators.Reduce, 0, 0)
	type run struct {
		job  string
		id   speculators.AttemptID
		node string
	}
	running := func(sec int) []run {
		var out []run
		if sec < 110 {
			out = append(out, run{"J1", m(0), "n1"})
		}
		if sec < 20 {
			out = append(out, run{"J1", m(1), "n2"})
		}
		if sec < 70 {
			out = append(out, run{"J2", m(0), "n1"})
		}
		if sec >= 20 && sec < 110 {
			out = append(out, run{"J1", r0, "n3"})
		}
		return out
	}
	silent := func(node string, sec int) bool {
		return node == "n1" && sec > 30 && sec < 63 || node == "n3" && sec > 80 && sec < 96
	}
	for sec := from; sec <= to; sec++ {
		ms := analyzer.Time(sec) * 1000
		clock.set(ms)
		ev := func(job string, e speculators.Event) { e.Time = ms; s.Observe(job, e) }
		switch sec {
		case 0:
			ev("J1", *started(m(0), "n1", ms))
			ev("J1", *started(m(1), "n2", ms))
			ev("J2", *started(m(0), "n1", ms))
		case 20:
			ev("J1", *ended(speculators.AttemptSucceeded, m(1), ms))
			ev("J1", *started(r0, "n3", ms))
		case 70:
			ev("J2", *ended(speculators.AttemptSucceeded, m(0), ms))
		case 75:
			s.EndJob("J2")
		case 110:
			ev("J1", *ended(speculators.AttemptSucceeded, m(0), ms))
			ev("J1", *ended(speculators.AttemptSucceeded, r0, ms))
		case 115:
			s.EndJob("J1")
		}
		if sec%3 == 0 {
			for _, r := range running(sec) {
				if !silent(r.node, sec) {
					ev(r.job, *status(r.id, ms))
				}
			}
		}
		if sec%5 == 0 {
			if err := s.Tick(context.Background()); err != nil {
				t.Fatalf("tick at %d s: %v", sec, err)
			}
		}
	}
}

// checkScenarioEnd checks the facts the whole scenario must leave.
func checkScenarioEnd(t *testing.T, st *analyzer.State) {
	t.Helper()
	n1, n3 := st.Nodes["n1"], st.Nodes["n3"]
	if n1 == nil || len(n1.Episodes) != 1 || n1.Open != nil {
		t.Fatalf("n1: %+v", n1)
	}
	if e := n1.Episodes[0]; e.From != base+30_000 || e.To != base+63_000 || e.Failed == 0 || !e.Recorded ||
		len(e.Told) != 2 || e.Told[0] != "J1" || e.Told[1] != "J2" {
		t.Errorf("n1 episode %+v", e)
	}
	if n3 == nil || len(n3.Episodes) != 1 || n3.Episodes[0].From != base+78_000 || n3.Episodes[0].To != base+96_000 {
		t.Errorf("n3: %+v", n3)
	}
	if len(n1.History) != 1 || n1.History[0] != 33_000 {
		t.Errorf("n1 history %v", n1.History)
	}
	j1 := st.Jobs["J1"]
	if j1 == nil || j1.Ended != 115_000+base || len(j1.Attempts) != 3 || j1.Attempts["m_000001_0"].Node != "n2" ||
		j1.Attempts["r_000000_0"].State != "SUCCEEDED" {
		t.Errorf("J1 %+v", j1)
	}
	if outs := st.MapOutputs("J1"); len(outs) != 2 || outs["m_000001"] != "n2" || outs["m_000000"] != "n1" {
		t.Errorf("J1 map outputs %v", outs)
	}
}

// reopenAtEnd closes s, which has run the whole scenario, opens its store
// again with cfg and checks that the reopened service holds the same state,
// the scenario's end (checkScenarioEnd); when says when, for the error.
func reopenAtEnd(t *testing.T, s *Service, cfg ServiceConfig, when string) *Service {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	final := stateJSON(t, s)
	again := mustService(t, cfg)
	if got := stateJSON(t, again); got != final {
		t.Fatalf("%s the state differs:\n got  %s\n want %s", when, got, final)
	}
	var st analyzer.State
	if err := json.Unmarshal([]byte(final), &st); err != nil {
		t.Fatal(err)
	}
	checkScenarioEnd(t, &st)
	return again
}

func stateJSON(t *testing.T, s *Service) string {
	t.Helper()
	var b []byte
	var err error
	s.View(func(st *analyzer.State, _ func(speculators.NodeID) analyzer.Time) { b, err = json.Marshal(st) })
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// collector subscribes a job and records what it hears.
type collector struct {
	mu  sync.Mutex
	got []string
}

func (c *collector) deliver(job string) func(speculators.Event) {
	return func(ev speculators.Event) {
		c.mu.Lock()
		c.got = append(c.got, job+" "+ev.Kind.String()+" "+string(ev.Node))
		c.mu.Unlock()
	}
}

func (c *collector) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.got...)
}

// crashAndRestart runs the scenario to `at` s on a service over store
// (on HDFS: reached with hc),
// abandons it without Close (a crash: only what Tick committed is
// durable), opens a new service on the same store, checks that it holds
// every record the first had acknowledged, and runs the rest of the
// scenario on it. It returns the final state and the notices delivered.
func crashAndRestart(t *testing.T, store string, hc *hdfs.Config, at int, snapshotEvery int) (*Service, []string) {
	t.Helper()
	clock := &fakeClock{}
	clock.set(0)
	cfg := ServiceConfig{Analyzer: testConfig(), Store: store, HDFS: hc, Now: clock.Now}
	first := mustService(t, cfg)
	first.store.SnapshotEvery = snapshotEvery
	var heard collector
	first.Subscribe("J1", heard.deliver("J1"))
	first.Subscribe("J2", heard.deliver("J2"))
	scenario(t, first, clock, 0, at)
	acked := stateJSON(t, first) // `at` is a multiple of 5: Tick just committed everything
	if first.store != nil {
		if c, ok := first.store.dir.(interface{ Close() error }); ok {
			defer c.Close() // the crashed process's connection, closed only at the end
		}
	}

	crash(first)
	second, err := NewService(cfg)
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	second.store.SnapshotEvery = snapshotEvery
	if got := stateJSON(t, second); got != acked {
		t.Fatalf("after restart the state differs from the acknowledged one:\n got  %s\n want %s", got, acked)
	}
	second.Subscribe("J1", heard.deliver("J1"))
	second.Subscribe("J2", heard.deliver("J2"))
	scenario(t, second, clock, at+1, 130)
	third := reopenAtEnd(t, second, cfg, "after a clean stop")
	return third, heard.list()
}

// crash leaves s as a killed process would: nothing more committed, no
// snapshot, and its directory lock released (the kernel drops a dead
// process's flock; a lease would expire).
func crash(s *Service) { _ = s.unlock() }
