package late

// This file holds tests that check the scenarios and claims of the LATE paper
// (Zaharia, Konwinski, Joseph, Katz, Stoica: "Improving MapReduce Performance
// in Heterogeneous Environments", OSDI'08) against the real Engine. Each test
// restates the sentences it checks in our words and ends with the section.

import (
	"fmt"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// twoPhaseProgress is §4.2's task: its score grows 5%/s for 10 s up to 50%,
// then 1%/s for 50 s, 60 s in all.
func twoPhaseProgress(elapsedSec float64) float64 {
	switch {
	case elapsedSec <= 10:
		return 0.05 * elapsedSec
	case elapsedSec <= 60:
		return 0.5 + 0.01*(elapsedSec-10)
	default:
		return 1
	}
}

// TestPaperTwoPhaseTaskMisestimated checks §4.2's example of how the
// progress-rate heuristic backfires. Two copies T1 and T2 of a task that runs
// at 5%/s up to 50% and then at 1%/s start at 0 and 10 s; at 20 s T1 is at
// 60% (3%/s, 13.3 s left) and T2 at 50% (5%/s, 10 s left), so the heuristic
// says T1 will finish last while in truth T2 does (60 s versus 70 s). LATE
// uses the heuristic as the paper does, so it ranks T1 first and copies it:
// the paper's misestimate, reproduced on purpose.
//
// Reference: §4.2
func TestPaperTwoPhaseTaskMisestimated(t *testing.T) {
	// The example checks at 20 s, before the one-minute rule would allow
	// any evaluation; it is about the estimator, so the rule is off here.
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 8, Slots: 10}, map[string]string{ParamMinRuntimeMs: "0"})
	now := spectest.Sec(20)
	t1 := h.Start(spectest.Map(0), "n1", spectest.Sec(0))
	t2 := h.Start(spectest.Map(1), "n2", spectest.Sec(10))
	h.Status(t1, now, twoPhaseProgress(20))
	h.Status(t2, now, twoPhaseProgress(10))
	// Six other tasks, fast for the job, so that T1 and T2 are both below
	// the 25th percentile of progress rates and only time left separates
	// them.
	for i := 2; i < 8; i++ {
		h.Run(spectest.Map(i), speculators.NodeID(fmt.Sprintf("n%d", i+1)), spectest.Sec(15), 0.1, now)
	}

	a1, a2 := h.Engine.Job.Attempt(t1), h.Engine.Job.Attempt(t2)
	for _, c := range []struct {
		name             string
		a                *speculators.Attempt
		progress, rate   float64
		timeLeft, finish float64
	}{
		{"T1", a1, 0.60, 0.03, 40.0 / 3, 60},
		{"T2", a2, 0.50, 0.05, 10, 70},
	} {
		if !approx(c.a.Progress, c.progress, 1e-9) {
			t.Errorf("%s progress %g, want %g", c.name, c.a.Progress, c.progress)
		}
		if got := c.a.ProgressRate(now); !approx(got, c.rate, 1e-9) {
			t.Errorf("%s progress rate %g/s, want %g/s", c.name, got, c.rate)
		}
		if got := c.a.TimeLeft(now); !approx(got, c.timeLeft, 1e-9) {
			t.Errorf("%s time left %gs, want %gs", c.name, got, c.timeLeft)
		}
		// The truth the estimate misses: each copy needs 60 s.
		start := float64(c.a.Start) / 1000
		if got := start + 60; got != c.finish || twoPhaseProgress(c.finish-start) != 1 {
			t.Errorf("%s true finish %gs, want %gs", c.name, got, c.finish)
		}
	}

	ds := h.Decide(now)
	spectest.WantSpeculated(t, ds, spectest.Map(0))
	if want := "time left 13.3s (progress 0.60 at 0.03/s after 20s, below 25th pct 0.0875/s)"; ds[0].Reason != want {
		t.Errorf("reason %q, want %q", ds[0].Reason, want)
	}
}

// TestPaperTimeLeftNotProgressRate checks §4.1's example: task A runs 5x
// slower than the typical task but is at 90%, task B runs 2x slower but is
// at 10%. B is chosen for speculation first although its progress rate is
// higher, because it will finish later and so hurts the response time more.
//
// Reference: §4.1
func TestPaperTimeLeftNotProgressRate(t *testing.T) {
	const typical = 0.001 // a 1000 s task
	now := spectest.Sec(4500)
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 8, Slots: 10}, nil)
	a := h.Run(spectest.Map(0), "slow1", 0, typical/5, now)                     // 90% after 4500 s
	b := h.Run(spectest.Map(1), "slow2", now-spectest.Sec(200), typical/2, now) // 10% after 200 s
	for i := 2; i < 8; i++ {
		h.Run(spectest.Map(i), speculators.NodeID(fmt.Sprintf("n%d", i)), now-spectest.Sec(500), typical, now)
	}
	ja, jb := h.Engine.Job.Attempt(a), h.Engine.Job.Attempt(b)
	if !approx(ja.Progress, 0.9, 1e-9) || !approx(jb.Progress, 0.1, 1e-9) {
		t.Fatalf("progress A %g B %g, want 0.9 and 0.1", ja.Progress, jb.Progress)
	}
	if ra, rb := ja.ProgressRate(now), jb.ProgressRate(now); !(ra < rb) {
		t.Fatalf("rate A %g not below rate B %g: the example needs A slower", ra, rb)
	}
	if la, lb := ja.TimeLeft(now), jb.TimeLeft(now); !approx(la, 500, 1e-6) || !approx(lb, 1800, 1e-6) {
		t.Fatalf("time left A %gs B %gs, want 500s and 1800s", la, lb)
	}
	// Cap: 10% of 10 slots = one copy, so the order is what is tested.
	spectest.WantSpeculated(t, h.Decide(now), spectest.Map(1))
}

// TestPaperSpeculativeCap checks that no more than SpeculativeCap copies run
// at once, counted as a fraction of the available task slots (10% by
// default): LATE launches copies only while fewer than the cap are running,
// counting copies it asked for that have not started yet, and frees room
// when a copy ends.
//
// Reference: §4
func TestPaperSpeculativeCap(t *testing.T) {
	now := spectest.Sec(1000)
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 30, Slots: 40}, nil) // cap 4
	for i := 0; i < 10; i++ {
		h.Complete(spectest.Map(i), "fast", spectest.Sec(0), spectest.Sec(100))
	}
	for i := 10; i < 20; i++ { // ten stragglers
		h.Run(spectest.Map(i), speculators.NodeID(fmt.Sprintf("s%d", i)), spectest.Sec(100), 0.0001*float64(i-9), now)
	}
	for i := 20; i < 30; i++ {
		h.Run(spectest.Map(i), "fast", now-spectest.Sec(70), 0.01, now)
	}
	// Twenty running attempts leave twenty free slots; the cap allows 4.
	ds := h.Decide(now)
	got := spectest.Speculated(t, ds)
	if want := []speculators.TaskID{spectest.Map(10), spectest.Map(11), spectest.Map(12), spectest.Map(13)}; !slices.Equal(got, want) {
		t.Fatalf("first decide speculated %v, want %v", got, want)
	}
	// Requested but not started copies count: nothing more.
	spectest.WantSpeculated(t, h.Decide(now+1))
	copies := make([]speculators.AttemptID, len(got))
	for i, task := range got {
		copies[i] = h.StartCopy(task, "fast", now+2)
	}
	if n := h.Engine.Job.SpeculativeRunning[speculators.Map]; n != 4 {
		t.Fatalf("speculative running %d, want 4", n)
	}
	spectest.WantSpeculated(t, h.Decide(now+3))
	// One copy ends: exactly one more may start.
	h.Kill(copies[0], now+4)
	if got := spectest.Speculated(t, h.Decide(now+5)); len(got) != 1 {
		t.Fatalf("after a copy ended speculated %v, want one task", got)
	}

	// A larger cap allows more at once.
	h2 := spectest.For(t, Policy(), speculators.JobInfo{Maps: 30, Slots: 40}, map[string]string{ParamSpeculativeCap: "0.15"})
	for i := 0; i < 10; i++ {
		h2.Complete(spectest.Map(i), "fast", spectest.Sec(0), spectest.Sec(100))
	}
	for i := 10; i < 20; i++ {
		h2.Run(spectest.Map(i), speculators.NodeID(fmt.Sprintf("s%d", i)), spectest.Sec(100), 0.0001*float64(i-9), now)
	}
	for i := 20; i < 30; i++ {
		h2.Run(spectest.Map(i), "fast", now-spectest.Sec(70), 0.01, now)
	}
	// Eight stragglers are below the 25th percentile; the cap allows 6.
	if got := spectest.Speculated(t, h2.Decide(now)); len(got) != 6 {
		t.Fatalf("cap 0.15 of 40 slots speculated %d tasks, want 6", len(got))
	}
}

// TestPaperSlowTaskThresholdSparesFastTasks checks that a task must progress
// slower than SlowTaskThreshold (the 25th percentile of the category's
// progress rates) to be copied: this "prevents needless speculation when
// only fast tasks are running", such as the last tasks of a job that all run
// faster than its typical task. A slow one among them is still copied.
//
// Reference: §4, §5.4.2
func TestPaperSlowTaskThresholdSparesFastTasks(t *testing.T) {
	now := spectest.Sec(1000)
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 17, Slots: 100}, nil)
	for i := 0; i < 12; i++ { // twelve tasks that took 200 s: 0.005/s
		h.Complete(spectest.Map(i), "n1", spectest.Sec(float64(10*i)), spectest.Sec(float64(10*i+200)))
	}
	// The last four run faster than every completed task, at different
	// rates: the slowest of them is still fast for the job.
	for i, rate := range []float64{0.006, 0.007, 0.008, 0.009} {
		h.Run(spectest.Map(12+i), "n2", now-spectest.Sec(100), rate, now)
	}
	spectest.WantSpeculated(t, h.Decide(now))

	// A genuinely slow task among them is copied, and only it.
	h.Run(spectest.Map(16), "n3", now-spectest.Sec(100), 0.0025, now)
	spectest.WantSpeculated(t, h.Decide(now), spectest.Map(16))
}

// TestPaperSlowNodeThreshold checks that copies are not launched on nodes
// whose total work (the sum of progress scores of succeeded and in-progress
// tasks on the node) is below SlowNodeThreshold, the 25th percentile of the
// nodes' totals: with eight nodes that did 1.5 to 8.5 tasks' worth of work
// (n3 partly in progress) the two slowest are refused and the rest allowed.
// Failed attempts add no work. Nodes the fault analyzer reports suspect or
// down are refused too.
//
// Reference: §4, §5.4.3
func TestPaperSlowNodeThreshold(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 60, Slots: 100}, nil)
	now := spectest.Sec(1000)
	task := 0
	for k := 1; k <= 8; k++ {
		node := speculators.NodeID(fmt.Sprintf("n%d", k))
		succeeded := k
		if k == 3 { // n3 does part of its work in progress: 2 + 0.9 + 0.5
			succeeded = 2
			h.Run(spectest.Map(task), node, spectest.Sec(500), 0.0018, now)
			task++
		}
		for range succeeded {
			h.Complete(spectest.Map(task), node, spectest.Sec(0), spectest.Sec(100))
			task++
		}
		h.Run(spectest.Map(task), node, spectest.Sec(500), 0.001, now) // +0.5 in progress
		task++
	}
	// A failed attempt on n1 is work that does not count.
	failed := h.Run(spectest.Map(task), "n1", spectest.Sec(500), 0.0018, spectest.Sec(900))
	h.Fail(failed, spectest.Sec(900))

	allowed := func() []speculators.NodeID {
		var out []speculators.NodeID
		for k := 1; k <= 9; k++ {
			node := speculators.NodeID(fmt.Sprintf("n%d", k))
			if h.Engine.AllowSpeculativeOn(node, now) {
				out = append(out, node)
			}
		}
		return out
	}
	// Totals 1.5, 2.5, 3.4, 4.5 .. 8.5: the 25th percentile is
	// 2.5 + 0.75*(3.4-2.5) = 3.175, so n1 and n2 are below it. Were
	// in-progress work not counted, n2 and n3 would tie at 2 and only n1
	// would be refused.
	// n9 never ran anything of this job: no evidence, allowed.
	if got, want := allowed(), []speculators.NodeID{"n3", "n4", "n5", "n6", "n7", "n8", "n9"}; !slices.Equal(got, want) {
		t.Fatalf("allowed %v, want %v", got, want)
	}
	if got := h.Policy().(*policy).nodeTotals[h.Policy().(*policy).nodeIx["n1"]]; !approx(got, 1.5, 1e-9) {
		t.Errorf("n1 total work %g, want 1.5 (its failed attempt counts nothing)", got)
	}
	h.Observe(speculators.Event{Kind: speculators.NodeSuspected, Time: now, Node: "n8"})
	h.Observe(speculators.Event{Kind: speculators.NodeFailed, Time: now, Node: "n9"})
	if got, want := allowed(), []speculators.NodeID{"n3", "n4", "n5", "n6", "n7"}; !slices.Equal(got, want) {
		t.Fatalf("after n8 suspected and n9 down allowed %v, want %v", got, want)
	}
	h.Observe(speculators.Event{Kind: speculators.NodeResumed, Time: now, Node: "n8"})
	if !h.Engine.AllowSpeculativeOn("n8", now) {
		t.Fatal("n8 refused after it resumed")
	}
	// n2 takes on a task; once it is 90% done n2 has done 3.4 tasks' worth
	// and is no longer among the slowest quarter (threshold now 3.4).
	more := h.Start(spectest.Map(task+1), "n2", now)
	if h.Engine.AllowSpeculativeOn("n2", now) {
		t.Fatal("n2 allowed before its new task progressed")
	}
	h.Status(more, now+spectest.Sec(10), 0.9)
	if got, want := allowed(), []speculators.NodeID{"n2", "n3", "n4", "n5", "n6", "n7", "n8"}; !slices.Equal(got, want) {
		t.Fatalf("after n2 progressed allowed %v, want %v", got, want)
	}
}

// TestPaperOneMinuteRule checks that, like Hadoop, LATE waits until a task
// has run for one minute before evaluating it for speculation, however
// hopeless it looks before that.
//
// Reference: §4 (and §2.1 for Hadoop's rule)
func TestPaperOneMinuteRule(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 5, Slots: 10}, nil)
	for i := 0; i < 4; i++ {
		h.Complete(spectest.Map(i), "n1", 0, spectest.Sec(30))
	}
	straggler := h.Start(spectest.Map(4), "n2", spectest.Sec(30))
	h.Status(straggler, spectest.Sec(40), 0.01)
	spectest.WantSpeculated(t, h.Decide(spectest.Sec(30)+59_999))
	spectest.WantSpeculated(t, h.Decide(spectest.Sec(30)+60_000), spectest.Map(4))
}

// TestPaperOneCopyPerTask checks that LATE ranks only running tasks that are
// not already being speculated, so a task has at most one copy at a time:
// not while the copy is requested, not while it runs (even after the
// original is gone), and again only once the copy has ended without the task
// finishing.
//
// Reference: §4 ("Rank currently running tasks that are not currently being
// speculated"; §5.4.3 "we allow only one speculative copy of each task to
// run at any time")
func TestPaperOneCopyPerTask(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 6, Slots: 100}, map[string]string{ParamSpeculativeCap: "0.5"})
	for i := 0; i < 5; i++ {
		h.Complete(spectest.Map(i), "n1", 0, spectest.Sec(50))
	}
	orig := h.Run(spectest.Map(5), "n2", 0, 0.001, spectest.Sec(100))
	spectest.WantSpeculated(t, h.Decide(spectest.Sec(100)), spectest.Map(5))
	spectest.WantSpeculated(t, h.Decide(spectest.Sec(101))) // requested, not started
	cp := h.StartCopy(spectest.Map(5), "n3", spectest.Sec(102))
	h.Status(cp, spectest.Sec(110), 0.0001)
	spectest.WantSpeculated(t, h.Decide(spectest.Sec(200))) // two running attempts
	h.Kill(cp, spectest.Sec(201))
	spectest.WantSpeculated(t, h.Decide(spectest.Sec(202)), spectest.Map(5)) // copy ended: again
	cp2 := h.StartCopy(spectest.Map(5), "n3", spectest.Sec(203))
	h.Fail(orig, spectest.Sec(204)) // the copy is now the only attempt
	h.Status(cp2, spectest.Sec(300), 0.01)
	spectest.WantSpeculated(t, h.Decide(spectest.Sec(400)))
}

// TestPaperLongestTimeLeftFirst checks LATE's primary insight: it always
// copies the task it thinks will finish farthest into the future, ranking
// the slow tasks by estimated time left (1 - ProgressScore) / ProgressRate,
// longest first, and a task that has made no progress at all first of all.
//
// Reference: §4
func TestPaperLongestTimeLeftFirst(t *testing.T) {
	now := spectest.Sec(10000)
	setup := func(slots int) *spectest.Harness {
		h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 35, Slots: slots}, nil)
		for i := 0; i < 30; i++ {
			h.Complete(spectest.Map(i), "n1", 0, spectest.Sec(100)) // 0.01/s
		}
		// Five slow tasks, all below the 25th percentile (0.01/s).
		h.Run(spectest.Map(30), "n2", now-spectest.Sec(500), 0.001, now)   // 0.5, 500 s left
		h.Run(spectest.Map(31), "n2", now-spectest.Sec(100), 0.002, now)   // 0.2, 400 s left
		h.Run(spectest.Map(32), "n2", now-spectest.Sec(200), 0.0005, now)  // 0.1, 1800 s left
		h.Run(spectest.Map(33), "n2", now-spectest.Sec(8000), 0.0001, now) // 0.8, 2000 s left
		h.Run(spectest.Map(34), "n2", now-spectest.Sec(120), 0, now)       // nothing: unbounded
		return h
	}
	spectest.WantSpeculated(t, setup(10).Decide(now), spectest.Map(34)) // cap 1
	ds := setup(50).Decide(now)                                         // cap 5
	spectest.WantSpeculated(t, ds, spectest.Map(34), spectest.Map(33), spectest.Map(32), spectest.Map(30), spectest.Map(31))
	if want := "time left unbounded (progress 0.00 at 0/s after 120s, below 25th pct 0.01/s)"; ds[0].Reason != want {
		t.Errorf("reason %q, want %q", ds[0].Reason, want)
	}
	if want := "time left 2000s (progress 0.80 at 0.0001/s after 8000s, below 25th pct 0.01/s)"; ds[1].Reason != want {
		t.Errorf("reason %q, want %q", ds[1].Reason, want)
	}
}
