package sim

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// A replayed history's originals go to their recorded nodes (Task.Node):
// map 0 was recorded on n3, which hangs 5 s in. Placed round robin it would
// run on n0 and the hang would cost the job nothing; on n3 it goes silent,
// times out (30 s after its last report) and runs again elsewhere, so the
// job's time holds the hang. A recorded node that is busy does not hold its
// original back (map 2's n1 is taken by map 1, recorded there too), and a
// name not in the cluster is ignored.
func TestRecordedOriginalsGoToTheirRecordedNode(t *testing.T) {
	run := func(pin bool) (*Result, *script) {
		ns := nodes(1, 1, 1, 1)
		ns[3].Episodes = []Episode{{Start: 5000, End: 1 << 40, Factor: posInf()}}
		cfg := cfgFor(ns)
		ms := works(10000, 10000, 10000)
		if pin {
			ms[0].Node, ms[1].Node, ms[2].Node = "n3", "n1", "n1"
		}
		p := &script{}
		return runScript(t, cfg, []Job{{ID: "j", Maps: ms}}, p), p
	}
	nodeOf := func(p *script, ti, n int32) speculators.NodeID {
		id := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: ti}, N: n}
		evs := seenOf(p, speculators.AttemptStarted, id)
		if len(evs) != 1 {
			t.Fatalf("attempt %v started %d times", id, len(evs))
		}
		return evs[0].Node
	}
	free, fp := run(false)
	if got := nodeOf(fp, 0, 0); got == "n3" {
		t.Fatalf("without recorded nodes map 0 ran on n3: the test needs another placement")
	}
	pinned, pp := run(true)
	if got := nodeOf(pp, 0, 0); got != "n3" {
		t.Errorf("map 0's original ran on %s, want its recorded n3", got)
	}
	if got := nodeOf(pp, 1, 0); got != "n1" {
		t.Errorf("map 1's original ran on %s, want its recorded n1", got)
	}
	if got := nodeOf(pp, 2, 0); got == "n1" || got == "n3" {
		t.Errorf("map 2's original ran on %s: its recorded n1 was busy, n3 hung", got)
	}
	if got := nodeOf(pp, 0, 1); got == "n3" {
		t.Errorf("map 0's retry ran on the hung n3")
	}
	fd, pd := free.Jobs[0].Duration(), pinned.Jobs[0].Duration()
	if fd > 15000 {
		t.Errorf("without recorded nodes the job took %d ms, want the 10 s of its maps and start-up", fd)
	}
	// The hang: silent from 5 s, timed out 30 s after its last report, then
	// 10 s more on another node.
	if pd < 40000 {
		t.Errorf("with map 0 on the hung n3 the job took %d ms, want at least 40 s (the hang, the timeout, the retry)", pd)
	}
}
