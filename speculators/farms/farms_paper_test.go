package farms

// This file holds tests that check the claims of the FARMS paper's §2, §3.2
// and §3.3 (Fu et al., Parallel Computing 2017) against the real
// Engine running farms over late. Each test restates the sentences it checks
// in our words and ends with the section.

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/late"
)

// TestPaperConvergedStragglers checks §2.2.1's case: every task of a small
// job runs on one node, the node becomes unresponsive, and all the tasks
// stall together. The existing speculator "will not speculate any of those
// tasks since they have relatively the same progress": late alone copies
// none, long after its one-minute rule. farms copies none either until the
// fault analyzer declares the node failed; then it copies all of them,
// 2 + 4 + 2 over three checks.
//
// Reference: §2.2.1, §3.2
func TestPaperConvergedStragglers(t *testing.T) {
	converged := func(h *harness) {
		for i := range 8 {
			h.run(mapTask(i), node(1), 0, 0.3, sec(60)) // then silence
		}
	}
	base := newHarness(t, late.Name, speculators.JobInfo{Maps: 8}, nil)
	converged(base)
	for s := 60.0; s <= 600; s += 30 {
		if ds := base.decide(sec(s)); len(ds) != 0 {
			t.Fatalf("late alone at %gs decided %v, want nothing: the stalled tasks look alike", s, ds)
		}
	}

	h := newHarness(t, Name, speculators.JobInfo{Maps: 8}, nil)
	converged(h)
	if ds := h.decide(sec(190)); len(ds) != 0 {
		t.Fatalf("farms before the failure decided %v, want nothing", ds)
	}
	h.nodeEvent(speculators.NodeFailed, node(1), sec(200))
	var got []speculators.TaskID
	for _, s := range []float64{200, 205, 210, 215} {
		got = append(got, speculated(h.decide(sec(s)))...)
	}
	want(t, "farms copied", got, maps(0, 8), nil)
}

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
	for i := range 4 { // four young maps on n1
		h.run(mapTask(i), node(1), sec(90), 0.2, sec(99))
	}
	h.run(mapTask(4), node(2), sec(0), 0.6, sec(99))
	h.run(mapTask(5), node(2), sec(0), 0.9, sec(99))
	h.complete(mapTask(6), node(2), sec(0), sec(50))
	h.complete(mapTask(7), node(2), sec(0), sec(50))
	h.run(mapTask(8), node(1), sec(0), 0.5, sec(99))
	h.run(mapTask(8), node(3), sec(60), 0.6, sec(99)) // its copy, alive
	h.run(reduceTask(0), node(1), sec(60), 0.1, sec(99))
	h.run(reduceTask(1), node(3), sec(60), 0.1, sec(99))

	if ds := only(h.decide(sec(99)), speculators.Speculate); len(ds) != 0 {
		t.Fatalf("before the failure: %v, want no copy (all maps look alike to late)", ds)
	}
	h.nodeEvent(speculators.NodeFailed, node(1), sec(100))
	ds := h.decide(sec(100))
	wantTasks := append(maps(0, 4), reduceTask(0))
	want(t, "copied", speculated(ds), wantTasks, ds)
	if h.engine.AllowSpeculativeOn(node(1), sec(100)) {
		t.Error("a copy may run on the failed node")
	}
	if !h.engine.AllowSpeculativeOn(node(9), sec(100)) {
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
		onN1 = append(onN1, h.complete(mapTask(i), node(1), sec(0), sec(40)))
	}
	h.complete(mapTask(3), node(2), sec(0), sec(40))
	h.complete(mapTask(4), node(2), sec(0), sec(40))
	h.run(mapTask(5), node(1), sec(40), 0.5, sec(90))
	h.run(reduceTask(0), node(2), sec(30), 0.2, sec(90))
	h.run(reduceTask(1), node(2), sec(30), 0.2, sec(90))

	h.nodeEvent(speculators.NodeFailed, node(1), sec(100))
	ds := h.decide(sec(100))
	want(t, "re-ran", attempts(ds, speculators.Rerun), onN1, ds)
	want(t, "copied", speculated(ds), []speculators.TaskID{mapTask(5)}, ds)

	// The AM applies the first re-run: its output is gone, the map runs again.
	h.end(speculators.AttemptKilled, onN1[0], sec(101))
	h.start(mapTask(0), node(2), sec(102))
	for _, s := range []float64{105, 110, 115} {
		if ds := only(h.decide(sec(s)), speculators.Rerun); len(ds) != 0 {
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
	h.complete(mapTask(0), node(1), sec(0), sec(30))
	h.complete(mapTask(1), node(1), sec(0), sec(30))
	m2 := h.complete(mapTask(2), node(2), sec(0), sec(30))
	h.complete(mapTask(3), node(2), sec(0), sec(30))
	r := h.run(reduceTask(0), node(3), sec(10), 0.2, sec(60))
	if ds := h.decide(sec(60)); len(ds) != 0 {
		t.Fatalf("before any fetch failure: %v", ds)
	}
	h.fetchFailed(r, sec(70), mapTask(2))
	ds := h.decide(sec(71))
	want(t, "re-ran", attempts(ds, speculators.Rerun), []speculators.AttemptID{m2}, ds)
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
	m0 := h.complete(mapTask(0), node(1), sec(0), sec(30))
	m1 := h.complete(mapTask(1), node(2), sec(0), sec(30))
	m2 := h.complete(mapTask(2), node(2), sec(0), sec(30))
	r := h.run(reduceTask(0), node(3), sec(10), 0.2, sec(60))

	// Node failure first, then a fetch failure for the same output.
	h.nodeEvent(speculators.NodeFailed, node(1), sec(100))
	ds := h.decide(sec(100))
	want(t, "node failure re-ran", attempts(ds, speculators.Rerun), []speculators.AttemptID{m0}, ds)
	h.fetchFailed(r, sec(101), mapTask(0))
	ds = h.decide(sec(101))
	want(t, "fetch failure after node failure re-ran", attempts(ds, speculators.Rerun), nil, ds)
	h.end(speculators.AttemptKilled, m0, sec(102)) // applied
	h.fetchFailed(r, sec(103), mapTask(0))
	ds = h.decide(sec(103))
	want(t, "fetch failure after the applied re-run re-ran", attempts(ds, speculators.Rerun), nil, ds)

	// Fetch failure first, then the node holding the output fails.
	h.fetchFailed(r, sec(110), mapTask(1))
	ds = h.decide(sec(110))
	want(t, "fetch failure re-ran", attempts(ds, speculators.Rerun), []speculators.AttemptID{m1}, ds)
	h.nodeEvent(speculators.NodeFailed, node(2), sec(111))
	ds = h.decide(sec(111))
	// m2's output is on n2 too and was never re-run: it is.
	want(t, "node failure after fetch failure re-ran", attempts(ds, speculators.Rerun), []speculators.AttemptID{m2}, ds)
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
	m0 := h.complete(mapTask(0), node(1), sec(0), sec(30))
	h.complete(mapTask(1), node(2), sec(0), sec(30))
	r := h.run(reduceTask(0), node(3), sec(10), 0.2, sec(60))

	var reran []speculators.AttemptID
	for k := range 3 {
		h.fetchFailed(r, sec(float64(70+k)), mapTask(0))
		reran = append(reran, attempts(h.decide(sec(float64(70+k))), speculators.Rerun)...)
	}
	h.nodeEvent(speculators.NodeFailed, node(1), sec(80))
	reran = append(reran, attempts(h.decide(sec(80)), speculators.Rerun)...)
	h.nodeEvent(speculators.NodeResumed, node(1), sec(85))
	h.nodeEvent(speculators.NodeFailed, node(1), sec(90))
	reran = append(reran, attempts(h.decide(sec(90)), speculators.Rerun)...)
	want(t, "re-ran", reran, []speculators.AttemptID{m0}, nil)

	// The AM applies it; the new attempt succeeds on n2 and is then lost.
	h.end(speculators.AttemptKilled, m0, sec(91))
	again := h.complete(mapTask(0), node(2), sec(92), sec(120))
	h.fetchFailed(r, sec(130), mapTask(0))
	ds := h.decide(sec(130))
	want(t, "new loss re-ran", attempts(ds, speculators.Rerun), []speculators.AttemptID{again}, ds)
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
	stalled := func() *harness {
		h := newHarness(t, Name, speculators.JobInfo{Maps: 20}, map[string]string{ParamCheckIntervalMs: "5000"})
		for i := range 20 {
			h.run(mapTask(i), node(1), sec(0), 0.4, sec(90))
		}
		h.nodeEvent(speculators.NodeFailed, node(1), sec(100))
		return h
	}
	h := stalled()
	var sizes []int
	for _, s := range []float64{100, 101, 104, 105, 106, 110, 115, 120} {
		if s == 101 { // the analyzer repeats itself: the same failure
			h.nodeEvent(speculators.NodeFailed, node(1), sec(s))
		}
		sizes = append(sizes, len(speculated(h.decide(sec(s)))))
	}
	want(t, "batches", sizes, []int{2, 0, 0, 4, 0, 8, 6, 0}, nil)

	h = stalled()
	got := speculated(h.decide(sec(100)))
	for i := 2; i < 10; i++ { // the node still runs these
		h.report(speculators.AttemptID{Task: mapTask(i)}, sec(103), 0.5)
	}
	got = append(got, speculated(h.decide(sec(105)))...)
	want(t, "copied", got, append(maps(0, 2), maps(10, 14)...), nil)
	h.nodeEvent(speculators.NodeResumed, node(1), sec(107))
	if ds := speculated(h.decide(sec(110))); len(ds) != 0 {
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
		h.run(mapTask(i), node(1), sec(0), p, sec(90))
	}
	h.nodeEvent(speculators.NodeFailed, node(1), sec(100))
	want(t, "copied", speculated(h.decide(sec(100))), maps(0, 4), nil)
	var copies []speculators.AttemptID
	for i, p := range []float64{0.1, 0.55, 0.4} {
		copies = append(copies, h.run(mapTask(i), node(2), sec(101), p, sec(110)))
	}
	if ds := h.decide(sec(110)); len(ds) != 0 {
		t.Fatalf("node still down: %v", ds)
	}
	h.nodeEvent(speculators.NodeResumed, node(1), sec(112))
	ds := h.decide(sec(112))
	want(t, "killed", attempts(ds, speculators.Kill), copies[:2], ds)
	lateCopy := h.start(mapTask(3), node(2), sec(113))
	ds = h.decide(sec(113))
	want(t, "killed late copy", attempts(ds, speculators.Kill), []speculators.AttemptID{lateCopy}, ds)
	if ds := h.decide(sec(114)); len(only(ds, speculators.Kill)) != 0 {
		t.Fatalf("killed again: %v", ds)
	}

	// A node that resumes and fails again before the next check is down:
	// its copies are kept, and judged at its next resume.
	h = newHarness(t, Name, speculators.JobInfo{Maps: 1}, nil)
	h.run(mapTask(0), node(1), sec(0), 0.5, sec(90))
	h.nodeEvent(speculators.NodeFailed, node(1), sec(100))
	want(t, "copied", speculated(h.decide(sec(100))), maps(0, 1), nil)
	c := h.run(mapTask(0), node(2), sec(101), 0.1, sec(110))
	h.nodeEvent(speculators.NodeResumed, node(1), sec(111))
	h.nodeEvent(speculators.NodeFailed, node(1), sec(111))
	if ds := h.decide(sec(112)); len(ds) != 0 {
		t.Fatalf("node down again: %v", ds)
	}
	h.nodeEvent(speculators.NodeResumed, node(1), sec(120))
	ds = h.decide(sec(120))
	want(t, "killed at the second resume", attempts(ds, speculators.Kill), []speculators.AttemptID{c}, ds)
}
