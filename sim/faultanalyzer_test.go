package sim

import (
	"fmt"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// nodeEvents lists the node events a script observed as "kind node@ms".
func nodeEvents(p *script) []string {
	var out []string
	for _, ev := range p.seen {
		switch ev.Kind {
		case speculators.NodeSuspected, speculators.NodeFailed, speculators.NodeResumed:
			out = append(out, fmt.Sprintf("%s %s@%d", ev.Kind, ev.Node, ev.Time))
		}
	}
	return out
}

// Three nodes: job c's 5 s map runs on n0 (its output stays
// there) and its reduce on n1, job a's map on n1, job b's on n2. n0 and n1
// pause from 20 s to 50 s. With the TWS initial threshold of 10 s, gathered
// every 5 s: suspected at 5 s of silence, failed past 10 s, resumed when
// heard again (idle n0 misses the NodeManager probe at 20 s, 5 s after the
// last answer, so it is suspected at once). Job c has work on both nodes, a on n1 only, b on neither.
// The episodes' real durations (from last heard: 15 s on the idle n0, the
// last report at 18 s on n1) become the nodes' TWS thresholds.
// Reference: FARMS §3.1, §3.3 Fig. 7.
func TestAnalyzerTellsEnginesWithWork(t *testing.T) {
	ns := []Node{{Name: "n0", Slots: 1}, {Name: "n1", Slots: 2}, {Name: "n2", Slots: 1}}
	ns[0].Episodes = []Episode{{Start: 20000, End: 50000, Factor: posInf()}}
	ns[1].Episodes = []Episode{{Start: 20000, End: 50000, Factor: posInf()}}
	cfg := cfgFor(ns)
	cfg.Faults.Analyzer.Detect.Initial = 10000 // the times below follow from a 10 s initial threshold
	jobs := []Job{
		{ID: "c", Maps: works(5000), Reduces: works(100000)},
		{ID: "a", Maps: works(100000)},
		{ID: "b", Maps: works(100000)},
	}
	pc, pa, pb := &script{}, &script{}, &script{}
	k := 0
	policies := []*script{pc, pa, pb}
	s, err := newSim(cfg, jobs, func(info speculators.JobInfo) (*speculators.Engine, error) {
		k++
		return speculators.NewEngine(info, "script", policies[k-1], speculators.Params{})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.loop(); err != nil {
		t.Fatal(err)
	}
	res := s.finish()
	check := func(name string, p *script, want []string) {
		t.Helper()
		got := nodeEvents(p)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("job %s saw %v, want %v", name, got, want)
		}
	}
	check("c", pc, []string{"node-suspected n0@20000", "node-suspected n1@25000", "node-failed n0@30000",
		"node-failed n1@30000", "node-resumed n0@50000", "node-resumed n1@50000"})
	check("a", pa, []string{"node-suspected n1@25000", "node-failed n1@30000", "node-resumed n1@50000"})
	check("b", pb, nil)
	det := s.faults.an.views[0].an
	expectTime(t, "n0 threshold", det.Threshold("n0"), 35000)
	expectTime(t, "n1 threshold", det.Threshold("n1"), 32000)
	expectTime(t, "n2 threshold", det.Threshold("n2"), 10000)
	// A pause is not a failure: a's map resumes and ends 30 s late, no
	// attempt fails, and nothing counts as a node failure.
	expectTime(t, "a's map", res.Jobs[1].TaskFinish[speculators.Map][0], 130000)
	expectInt(t, "failed attempts", res.Jobs[1].FailedAttempts, 0)
	if len(s.nodes[1].fault.failures) != 0 {
		t.Errorf("a pause was recorded as a node failure at %v", s.nodes[1].fault.failures)
	}
}

// A crash is a failure: it is not recorded into the node's history when
// the node comes back, and copies of tasks that ran there are justified
// while a copy of a task on a healthy node is a wrong speculation.
func TestCrashNotRecordedAndWrongSpeculations(t *testing.T) {
	ns := nodes(1, 1, 1)
	ns[0].Episodes = []Episode{{Start: 20000, End: 40000, Crash: true}}
	cfg := cfgFor(ns)
	cfg.Faults.Analyzer.Detect.Initial = 10000
	cfg.Faults.NodeExpiry = 0
	p := &script{steps: []step{speculate(25000, speculators.Map, 0), speculate(25000, speculators.Map, 1)}}
	s, err := newSim(cfg, []Job{{ID: "j", Maps: works(100000, 100000)}}, func(info speculators.JobInfo) (*speculators.Engine, error) {
		return speculators.NewEngine(info, "script", p, speculators.Params{})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.loop(); err != nil {
		t.Fatal(err)
	}
	res := s.finish()
	expectInt(t, "speculative copies", res.Jobs[0].SpeculativeLaunched, 2)
	expectInt(t, "wrong speculations", res.Jobs[0].WrongSpeculations, 1)
	expectTime(t, "n0 threshold", s.faults.an.views[0].an.Threshold("n0"), 10000)
}

// The same inputs give the same result, node events and failures included.
func TestFaultsDeterministic(t *testing.T) {
	run := func() string {
		cfg, jobs := crashSetup(600_000_000_000, 180_000_000_000)
		cfg.Triggers = []Trigger{{Job: "j", MapProgress: 0.2, Node: "n1", Episode: Episode{End: 30000, Factor: posInf()}}}
		p := &script{}
		res := runScript(t, cfg, jobs, p)
		return fmt.Sprintf("%+v %v", res.Jobs, p.seen)
	}
	if a, b := run(), run(); a != b {
		t.Error("two runs of the same input differ")
	}
}

// The analyzer runs only where a node can go silent: a fault-free cluster
// has no analyzer to feed, one with a hang episode has.
func TestAnalyzerOnlyWhereANodeCanGoSilent(t *testing.T) {
	for _, hang := range []bool{false, true} {
		ns := nodes(1, 1)
		if hang {
			ns[1].Episodes = []Episode{{Start: 1000, End: 2000, Factor: posInf()}}
		}
		s, err := newSim(cfgFor(ns), []Job{{ID: "j", Maps: works(5000)}}, func(info speculators.JobInfo) (*speculators.Engine, error) {
			return speculators.NewEngine(info, "script", &script{}, speculators.Params{})
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.faults.an != nil; got != hang {
			t.Errorf("hang episode %v: analyzer running %v", hang, got)
		}
	}
}
