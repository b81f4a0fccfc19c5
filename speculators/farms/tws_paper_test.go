package farms

// Tests of tws, the FARMS failure layer reduced to the Temporal Window
// Smoothing detector's decisions (§3.3): copy every task of a node declared
// failed, once; no batches, no re-runs; kill the copies if the node resumes
// early.

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// TestTWSCopiesEveryAffectedTaskOnce checks that when the analyzer (with
// TWS) declares a node failed, "the tasks on that node will be added to the
// list of speculation candidates": all twenty stalled tasks of a converged
// job are copied at the first check, none again at later checks, and with no
// failure nothing is copied (the tasks look alike to the base policy).
//
// Reference: §3.3, §2.2.1
func TestTWSCopiesEveryAffectedTaskOnce(t *testing.T) {
	h := newHarness(t, TWSName, speculators.JobInfo{Maps: 20}, nil)
	if d, ok := h.engine.Policy.(interface{ Detector() string }); !ok || d.Detector() != "tws" || h.engine.Params.String(ParamDetector) != "tws" {
		t.Fatalf("tws policy does not name the tws detector")
	}
	for i := range 20 {
		h.run(mapTask(i), node(1), sec(0), 0.4, sec(90))
	}
	if ds := h.decide(sec(99)); len(ds) != 0 {
		t.Fatalf("before the failure: %v", ds)
	}
	h.nodeEvent(speculators.NodeFailed, node(1), sec(100))
	ds := h.decide(sec(100))
	want(t, "copied", speculated(ds), maps(0, 20), ds)
	for _, s := range []float64{105, 110, 200} {
		if ds := h.decide(sec(s)); len(ds) != 0 {
			t.Fatalf("at %gs: %v, want nothing more", s, ds)
		}
	}
}

// TestTWSNoRetrospectiveRerun checks that tws, unlike farms, never re-runs a
// completed map: not when the node holding its output fails, not when a
// reducer reports a fetch failure. Lost outputs are left to Hadoop.
//
// Reference: §3.2 (what tws leaves out), §3.3
func TestTWSNoRetrospectiveRerun(t *testing.T) {
	h := newHarness(t, TWSName, speculators.JobInfo{Maps: 3, Reduces: 1}, nil)
	h.complete(mapTask(0), node(1), sec(0), sec(30))
	h.complete(mapTask(1), node(2), sec(0), sec(30))
	h.run(mapTask(2), node(1), sec(0), 0.3, sec(60))
	r := h.run(reduceTask(0), node(3), sec(10), 0.2, sec(60))
	h.fetchFailed(r, sec(70), mapTask(1))
	h.nodeEvent(speculators.NodeFailed, node(1), sec(100))
	ds := h.decide(sec(100))
	want(t, "re-ran", attempts(ds, speculators.Rerun), nil, ds)
	want(t, "copied", speculated(ds), []speculators.TaskID{mapTask(2)}, ds)
}

// TestTWSKillCopiesOnEarlyResume checks that tws keeps FAS's feedback
// (Fig. 7): when the node resumes soon, its copies that are not ahead are
// killed.
//
// Reference: §3.3.2
func TestTWSKillCopiesOnEarlyResume(t *testing.T) {
	h := newHarness(t, TWSName, speculators.JobInfo{Maps: 2}, nil)
	h.run(mapTask(0), node(1), sec(0), 0.5, sec(90))
	h.run(mapTask(1), node(1), sec(0), 0.1, sec(90))
	h.nodeEvent(speculators.NodeFailed, node(1), sec(100))
	want(t, "copied", speculated(h.decide(sec(100))), maps(0, 2), nil)
	c0 := h.run(mapTask(0), node(2), sec(101), 0.2, sec(105))
	h.run(mapTask(1), node(2), sec(101), 0.3, sec(105)) // leads by 0.2: kept
	h.nodeEvent(speculators.NodeResumed, node(1), sec(106))
	ds := h.decide(sec(106))
	want(t, "killed", attempts(ds, speculators.Kill), []speculators.AttemptID{c0}, ds)
}
