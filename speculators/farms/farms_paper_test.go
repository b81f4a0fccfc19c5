package farms

// This file holds tests that check the claims of the FARMS paper's §2, §3.2
// and §3.3 (Fu et al., Parallel Computing 2017) against the real
// Engine running farms over late. Each test restates the sentences it checks
// in our words and ends with the section.

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// §2.2.1's converged stragglers are testdata/converged_stragglers.txt.

// TestPaperFailureAwareCandidates checks §3.2's failure awareness: "when a
// failed node is detected, FARMS can list all the affected tasks as its
// speculation candidates" — every task with a running attempt on the node,
// at once, even ones that ran only 10 s (below the base's one-minute rule)
// and a reduce. Tasks on healthy nodes, done tasks, and a task that already
// has a copy running on a healthy node are not candidates. With a batch
// large enough, one Decide copies them all; and no copy may land on the
// failed node.
//
// Reference: §3.2
func TestPaperFailureAwareCandidates(t *testing.T) {
	h := newHarness(t, Name, speculators.JobInfo{Maps: 9, Reduces: 2}, map[string]string{ParamInitialTasks: "100"})
	// four young maps on n1
	h.AllRunning(node(1), spectest.Sec(90), spectest.Sec(99), 0.2, spectest.Maps(0, 4)...)
	h.Running(spectest.Map(4), node(2), spectest.Sec(0), spectest.Sec(99), 0.6)
	h.Running(spectest.Map(5), node(2), spectest.Sec(0), spectest.Sec(99), 0.9)
	h.Complete(spectest.Map(6), node(2), spectest.Sec(0), spectest.Sec(50))
	h.Complete(spectest.Map(7), node(2), spectest.Sec(0), spectest.Sec(50))
	h.Running(spectest.Map(8), node(1), spectest.Sec(0), spectest.Sec(99), 0.5)
	h.Running(spectest.Map(8), node(3), spectest.Sec(60), spectest.Sec(99), 0.6) // its copy, alive
	h.Running(spectest.Reduce(0), node(1), spectest.Sec(60), spectest.Sec(99), 0.1)
	h.Running(spectest.Reduce(1), node(3), spectest.Sec(60), spectest.Sec(99), 0.1)

	if ds := spectest.Only(h.Decide(spectest.Sec(99)), speculators.Speculate); len(ds) != 0 {
		t.Fatalf("before the failure: %v, want no copy (all maps look alike to late)", ds)
	}
	h.Node(speculators.NodeFailed, node(1), spectest.Sec(100))
	ds := h.Decide(spectest.Sec(100))
	wantTasks := append(spectest.Maps(0, 4), spectest.Reduce(0))
	spectest.Want(t, "copied", spectest.SpeculatedTasks(ds), wantTasks, ds)
	if h.Engine.AllowSpeculativeOn(node(1), spectest.Sec(100)) {
		t.Error("a copy may run on the failed node")
	}
	if !h.Engine.AllowSpeculativeOn(node(9), spectest.Sec(100)) {
		t.Error("a copy may not run on a fresh healthy node")
	}
}

// TestPaperRetrospectiveRerun checks §2.2.2 and §3.2's retrospective
// speculation: "we continue to list the completed tasks in the speculation
// candidates ... that are associated with a failed node". When n1 fails, the
// three maps that completed there are re-run (Rerun naming their succeeded
// attempts) and the map running there is copied; the maps completed on n2
// are not touched, and nothing is re-run again at later checks.
//
// Reference: §2.2.2, §3.2
func TestPaperRetrospectiveRerun(t *testing.T) {
	h := newHarness(t, Name, speculators.JobInfo{Maps: 6, Reduces: 2}, nil)
	var onN1 []speculators.AttemptID
	for i := range 3 {
		onN1 = append(onN1, h.Complete(spectest.Map(i), node(1), spectest.Sec(0), spectest.Sec(40)))
	}
	h.Complete(spectest.Map(3), node(2), spectest.Sec(0), spectest.Sec(40))
	h.Complete(spectest.Map(4), node(2), spectest.Sec(0), spectest.Sec(40))
	h.Running(spectest.Map(5), node(1), spectest.Sec(40), spectest.Sec(90), 0.5)
	h.Running(spectest.Reduce(0), node(2), spectest.Sec(30), spectest.Sec(90), 0.2)
	h.Running(spectest.Reduce(1), node(2), spectest.Sec(30), spectest.Sec(90), 0.2)

	h.Node(speculators.NodeFailed, node(1), spectest.Sec(100))
	ds := h.Decide(spectest.Sec(100))
	spectest.Want(t, "re-ran", spectest.Attempts(ds, speculators.Rerun), onN1, ds)
	spectest.Want(t, "copied", spectest.SpeculatedTasks(ds), []speculators.TaskID{spectest.Map(5)}, ds)

	// The AM applies the first re-run: its output is gone, the map runs again.
	h.End(speculators.AttemptKilled, onN1[0], spectest.Sec(101))
	h.Start(spectest.Map(0), node(2), spectest.Sec(102))
	for _, s := range []float64{105, 110, 115} {
		if ds := spectest.Only(h.Decide(spectest.Sec(s)), speculators.Rerun); len(ds) != 0 {
			t.Fatalf("at %gs re-ran again: %v", s, ds)
		}
	}
}

// TestPaperFetchFailureRerunsOneMap checks §3.2's finer-grained trigger: "if
// a single fetch failure is notified by YARN, we speculate that particular
// completed task". One reduce reports once that it could not fetch m2's
// output: m2 alone is re-run, not m3 whose output is on the same node, and
// no fault-analyzer event is needed.
//
// Reference: §3.2
func TestPaperFetchFailureRerunsOneMap(t *testing.T) {
	h := newHarness(t, Name, speculators.JobInfo{Maps: 4, Reduces: 1}, nil)
	h.Complete(spectest.Map(0), node(1), spectest.Sec(0), spectest.Sec(30))
	h.Complete(spectest.Map(1), node(1), spectest.Sec(0), spectest.Sec(30))
	m2 := h.Complete(spectest.Map(2), node(2), spectest.Sec(0), spectest.Sec(30))
	h.Complete(spectest.Map(3), node(2), spectest.Sec(0), spectest.Sec(30))
	r := h.Running(spectest.Reduce(0), node(3), spectest.Sec(10), spectest.Sec(60), 0.2)
	if ds := h.Decide(spectest.Sec(60)); len(ds) != 0 {
		t.Fatalf("before any fetch failure: %v", ds)
	}
	h.FetchFailed(r, spectest.Sec(70), 0.1, spectest.Map(2))
	ds := h.Decide(spectest.Sec(71))
	spectest.Want(t, "re-ran", spectest.Attempts(ds, speculators.Rerun), []speculators.AttemptID{m2}, ds)
	if len(ds) != 1 {
		t.Fatalf("decisions %v, want the one re-run", ds)
	}
}

// TestPaperCausesExcludeEachOther checks §3.2: "the speculation triggered by
// unresponsive node and the speculation triggered by intermediate file fetch
// failure are mutually excluded. When one task is speculated by either way, it
// will not be speculated again by another cause." Both orders, with the AM
// not yet having applied the first re-run (the hardest case), and after it
// has.
//
// Reference: §3.2
func TestPaperCausesExcludeEachOther(t *testing.T) {
	h := newHarness(t, Name, speculators.JobInfo{Maps: 3, Reduces: 1}, nil)
	m0 := h.Complete(spectest.Map(0), node(1), spectest.Sec(0), spectest.Sec(30))
	m1 := h.Complete(spectest.Map(1), node(2), spectest.Sec(0), spectest.Sec(30))
	m2 := h.Complete(spectest.Map(2), node(2), spectest.Sec(0), spectest.Sec(30))
	r := h.Running(spectest.Reduce(0), node(3), spectest.Sec(10), spectest.Sec(60), 0.2)

	// Node failure first, then a fetch failure for the same output.
	h.Node(speculators.NodeFailed, node(1), spectest.Sec(100))
	ds := h.Decide(spectest.Sec(100))
	spectest.Want(t, "node failure re-ran", spectest.Attempts(ds, speculators.Rerun), []speculators.AttemptID{m0}, ds)
	h.FetchFailed(r, spectest.Sec(101), 0.1, spectest.Map(0))
	ds = h.Decide(spectest.Sec(101))
	spectest.Want(t, "fetch failure after node failure re-ran", spectest.Attempts(ds, speculators.Rerun), nil, ds)
	h.End(speculators.AttemptKilled, m0, spectest.Sec(102)) // applied
	h.FetchFailed(r, spectest.Sec(103), 0.1, spectest.Map(0))
	ds = h.Decide(spectest.Sec(103))
	spectest.Want(t, "fetch failure after the applied re-run re-ran", spectest.Attempts(ds, speculators.Rerun), nil, ds)

	// Fetch failure first, then the node holding the output fails.
	h.FetchFailed(r, spectest.Sec(110), 0.1, spectest.Map(1))
	ds = h.Decide(spectest.Sec(110))
	spectest.Want(t, "fetch failure re-ran", spectest.Attempts(ds, speculators.Rerun), []speculators.AttemptID{m1}, ds)
	h.Node(speculators.NodeFailed, node(2), spectest.Sec(111))
	ds = h.Decide(spectest.Sec(111))
	// m2's output is on n2 too and was never re-run: it is.
	spectest.Want(t, "node failure after fetch failure re-ran", spectest.Attempts(ds, speculators.Rerun), []speculators.AttemptID{m2}, ds)
}

// TestPaperNeverRerunTwiceForOneLoss checks that one lost output is re-run
// once: repeated fetch-failure reports, and the node failing, resuming and
// failing again before the AM applied the re-run, add nothing. When the
// re-run's own output is later reported lost, that is a new loss and is
// re-run.
//
// Reference: §3.2
func TestPaperNeverRerunTwiceForOneLoss(t *testing.T) {
	h := newHarness(t, Name, speculators.JobInfo{Maps: 2, Reduces: 1}, nil)
	m0 := h.Complete(spectest.Map(0), node(1), spectest.Sec(0), spectest.Sec(30))
	h.Complete(spectest.Map(1), node(2), spectest.Sec(0), spectest.Sec(30))
	r := h.Running(spectest.Reduce(0), node(3), spectest.Sec(10), spectest.Sec(60), 0.2)

	var reran []speculators.AttemptID
	for k := range 3 {
		h.FetchFailed(r, spectest.Sec(float64(70+k)), 0.1, spectest.Map(0))
		reran = append(reran, spectest.Attempts(h.Decide(spectest.Sec(float64(70+k))), speculators.Rerun)...)
	}
	h.Node(speculators.NodeFailed, node(1), spectest.Sec(80))
	reran = append(reran, spectest.Attempts(h.Decide(spectest.Sec(80)), speculators.Rerun)...)
	h.Node(speculators.NodeResumed, node(1), spectest.Sec(85))
	h.Node(speculators.NodeFailed, node(1), spectest.Sec(90))
	reran = append(reran, spectest.Attempts(h.Decide(spectest.Sec(90)), speculators.Rerun)...)
	spectest.Want(t, "re-ran", reran, []speculators.AttemptID{m0}, nil)

	// The AM applies it; the new attempt succeeds on n2 and is then lost.
	h.End(speculators.AttemptKilled, m0, spectest.Sec(91))
	again := h.Complete(spectest.Map(0), node(2), spectest.Sec(92), spectest.Sec(120))
	h.FetchFailed(r, spectest.Sec(130), 0.1, spectest.Map(0))
	ds := h.Decide(spectest.Sec(130))
	spectest.Want(t, "new loss re-ran", spectest.Attempts(ds, speculators.Rerun), []speculators.AttemptID{again}, ds)
}

// TestPaperMultiplicativeSpeculation checks §3.2: "upon the detection of an
// unresponsive node, the number of tasks to speculate increases in
// exponential order ... if one node is unresponsive, we first speculate 2
// tasks. We monitor the progress of the problematic tasks and if they remain
// slow or unresponsive, we speculate another 4 tasks." Twenty stalled maps:
// 2, then 4, then 8, then the last 6, one batch per 5 s check and nothing in
// between; a repeated NodeFailed for the same episode changes nothing. The
// growth is "contingent on the liveness of the corresponding
// node": tasks that progress after the failure are not copied, and once the
// node resumes no further batch comes.
//
// Reference: §3.2, §3.3
func TestPaperMultiplicativeSpeculation(t *testing.T) {
	stalled := func() *spectest.Harness {
		h := newHarness(t, Name, speculators.JobInfo{Maps: 20}, map[string]string{ParamCheckIntervalMs: "5000"})
		h.AllRunning(node(1), spectest.Sec(0), spectest.Sec(90), 0.4, spectest.Maps(0, 20)...)
		h.Node(speculators.NodeFailed, node(1), spectest.Sec(100))
		return h
	}
	h := stalled()
	var sizes []int
	for _, s := range []float64{100, 101, 104, 105, 106, 110, 115, 120} {
		if s == 101 { // the analyzer repeats itself: the same failure
			h.Node(speculators.NodeFailed, node(1), spectest.Sec(s))
		}
		sizes = append(sizes, len(spectest.SpeculatedTasks(h.Decide(spectest.Sec(s)))))
	}
	spectest.Want(t, "batches", sizes, []int{2, 0, 0, 4, 0, 8, 6, 0}, nil)

	h = stalled()
	got := spectest.SpeculatedTasks(h.Decide(spectest.Sec(100)))
	for i := 2; i < 10; i++ { // the node still runs these
		h.Status(speculators.AttemptID{Task: spectest.Map(i)}, spectest.Sec(103), 0.5)
	}
	got = append(got, spectest.SpeculatedTasks(h.Decide(spectest.Sec(105)))...)
	spectest.Want(t, "copied", got, append(spectest.Maps(0, 2), spectest.Maps(10, 14)...), nil)
	h.Node(speculators.NodeResumed, node(1), spectest.Sec(107))
	if ds := spectest.SpeculatedTasks(h.Decide(spectest.Sec(110))); len(ds) != 0 {
		t.Fatalf("after the node resumed copied %v", ds)
	}
}

// TestPaperKillCopiesOnEarlyResume checks the FAS feedback of §3.3.2 and
// Fig. 7: "if the node resumed soon, we issue kill to the speculative tasks",
// while "if the original node is resumed too late, the speculative tasks can
// still help". Copies that do not lead their original by more than 0.1 are
// killed (m0, m1); a copy well ahead is kept (m2); a copy that starts after
// the resume is killed when it starts (m3). Nothing is killed while the node
// stays down, or when it fails again before its resume was acted on.
//
// Reference: §3.3.2
func TestPaperKillCopiesOnEarlyResume(t *testing.T) {
	h := newHarness(t, Name, speculators.JobInfo{Maps: 4}, map[string]string{ParamInitialTasks: "4"})
	for i, p := range []float64{0.5, 0.5, 0.2, 0.5} {
		h.Running(spectest.Map(i), node(1), spectest.Sec(0), spectest.Sec(90), p)
	}
	h.Node(speculators.NodeFailed, node(1), spectest.Sec(100))
	spectest.Want(t, "copied", spectest.SpeculatedTasks(h.Decide(spectest.Sec(100))), spectest.Maps(0, 4), nil)
	var copies []speculators.AttemptID
	for i, p := range []float64{0.1, 0.55, 0.4} {
		copies = append(copies, h.Running(spectest.Map(i), node(2), spectest.Sec(101), spectest.Sec(110), p))
	}
	if ds := h.Decide(spectest.Sec(110)); len(ds) != 0 {
		t.Fatalf("node still down: %v", ds)
	}
	h.Node(speculators.NodeResumed, node(1), spectest.Sec(112))
	ds := h.Decide(spectest.Sec(112))
	spectest.Want(t, "killed", spectest.Attempts(ds, speculators.Kill), copies[:2], ds)
	lateCopy := h.Start(spectest.Map(3), node(2), spectest.Sec(113))
	ds = h.Decide(spectest.Sec(113))
	spectest.Want(t, "killed late copy", spectest.Attempts(ds, speculators.Kill), []speculators.AttemptID{lateCopy}, ds)
	if ds := h.Decide(spectest.Sec(114)); len(spectest.Only(ds, speculators.Kill)) != 0 {
		t.Fatalf("killed again: %v", ds)
	}

	// A node that resumes and fails again before the next check is down:
	// its copies are kept, and judged at its next resume.
	h = newHarness(t, Name, speculators.JobInfo{Maps: 1}, nil)
	h.Running(spectest.Map(0), node(1), spectest.Sec(0), spectest.Sec(90), 0.5)
	h.Node(speculators.NodeFailed, node(1), spectest.Sec(100))
	spectest.Want(t, "copied", spectest.SpeculatedTasks(h.Decide(spectest.Sec(100))), spectest.Maps(0, 1), nil)
	c := h.Running(spectest.Map(0), node(2), spectest.Sec(101), spectest.Sec(110), 0.1)
	h.Node(speculators.NodeResumed, node(1), spectest.Sec(111))
	h.Node(speculators.NodeFailed, node(1), spectest.Sec(111))
	if ds := h.Decide(spectest.Sec(112)); len(ds) != 0 {
		t.Fatalf("node down again: %v", ds)
	}
	h.Node(speculators.NodeResumed, node(1), spectest.Sec(120))
	ds = h.Decide(spectest.Sec(120))
	spectest.Want(t, "killed at the second resume", spectest.Attempts(ds, speculators.Kill), []speculators.AttemptID{c}, ds)
}
