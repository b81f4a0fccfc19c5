package farms

// Tests of tws, the FARMS failure layer reduced to the Temporal Window
// Smoothing detector's decisions (§3.3): copy every task of a node declared
// failed, once; no batches, no re-runs; kill the copies if the node resumes
// early.

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
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
	if d, ok := h.Engine.Policy.(interface{ Detector() string }); !ok || d.Detector() != "tws" || h.Engine.Params.String(ParamDetector) != "tws" {
		t.Fatalf("tws policy does not name the tws detector")
	}
	h.AllRunning(node(1), spectest.Sec(0), spectest.Sec(90), 0.4, spectest.Maps(0, 20)...)
	if ds := h.Decide(spectest.Sec(99)); len(ds) != 0 {
		t.Fatalf("before the failure: %v", ds)
	}
	h.Node(speculators.NodeFailed, node(1), spectest.Sec(100))
	ds := h.Decide(spectest.Sec(100))
	spectest.Want(t, "copied", spectest.SpeculatedTasks(ds), spectest.Maps(0, 20), ds)
	for _, s := range []float64{105, 110, 200} {
		if ds := h.Decide(spectest.Sec(s)); len(ds) != 0 {
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
	h.Complete(spectest.Map(0), node(1), spectest.Sec(0), spectest.Sec(30))
	h.Complete(spectest.Map(1), node(2), spectest.Sec(0), spectest.Sec(30))
	h.Running(spectest.Map(2), node(1), spectest.Sec(0), spectest.Sec(60), 0.3)
	r := h.Running(spectest.Reduce(0), node(3), spectest.Sec(10), spectest.Sec(60), 0.2)
	h.FetchFailed(r, spectest.Sec(70), 0.1, spectest.Map(1))
	h.Node(speculators.NodeFailed, node(1), spectest.Sec(100))
	ds := h.Decide(spectest.Sec(100))
	spectest.Want(t, "re-ran", spectest.Attempts(ds, speculators.Rerun), nil, ds)
	spectest.Want(t, "copied", spectest.SpeculatedTasks(ds), []speculators.TaskID{spectest.Map(2)}, ds)
}

// TestTWSKillCopiesOnEarlyResume checks that tws keeps FAS's feedback
// (Fig. 7): when the node resumes soon, its copies that are not ahead are
// killed.
//
// Reference: §3.3.2
func TestTWSKillCopiesOnEarlyResume(t *testing.T) {
	h := newHarness(t, TWSName, speculators.JobInfo{Maps: 2}, nil)
	h.Running(spectest.Map(0), node(1), spectest.Sec(0), spectest.Sec(90), 0.5)
	h.Running(spectest.Map(1), node(1), spectest.Sec(0), spectest.Sec(90), 0.1)
	h.Node(speculators.NodeFailed, node(1), spectest.Sec(100))
	spectest.Want(t, "copied", spectest.SpeculatedTasks(h.Decide(spectest.Sec(100))), spectest.Maps(0, 2), nil)
	c0 := h.Running(spectest.Map(0), node(2), spectest.Sec(101), spectest.Sec(105), 0.2)
	h.Running(spectest.Map(1), node(2), spectest.Sec(101), spectest.Sec(105), 0.3) // leads by 0.2: kept
	h.Node(speculators.NodeResumed, node(1), spectest.Sec(106))
	ds := h.Decide(spectest.Sec(106))
	spectest.Want(t, "killed", spectest.Attempts(ds, speculators.Kill), []speculators.AttemptID{c0}, ds)
}
