package late

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// TestCategoriesRankedSeparately checks that maps and reduces have their own
// SlowTaskThreshold: reduces that all run slower than the maps are not slow
// for their category, a straggling reduce is, and the eligible tasks of both
// categories share the cap, longest time left first.
func TestCategoriesRankedSeparately(t *testing.T) {
	now := sec(2000)
	h := newHarness(t, speculators.JobInfo{Maps: 9, Reduces: 9, Slots: 100}, map[string]string{ParamSpeculativeCap: "0.5"})
	for i := 0; i < 8; i++ {
		h.complete(mapTask(i), "n1", 0, sec(100)) // maps: 0.01/s
	}
	for i := 0; i < 8; i++ { // reduces: all at 0.001/s
		h.run(reduceTask(i), "n2", sec(1000), 0.001, now)
	}
	wantSpeculated(t, h.decide(now))

	h.run(reduceTask(8), "n3", sec(1500), 0.0005, now) // 0.25, 1500 s left
	h.run(mapTask(8), "n3", sec(1900), 0.002, now)     // 0.2, 400 s left
	wantSpeculated(t, h.decide(now), reduceTask(8), mapTask(8))
}

// TestSlotsUnknown checks the fallbacks when the job's slots are unknown:
// the cap is a fraction of the running attempts and each Decide launches at
// most one copy.
func TestSlotsUnknown(t *testing.T) {
	now := sec(1000)
	h := newHarness(t, speculators.JobInfo{Maps: 40}, nil)
	for i := 0; i < 20; i++ {
		h.complete(mapTask(i), "n1", 0, sec(100))
	}
	for i := 20; i < 40; i++ { // twenty running, all slow: cap 2
		h.run(mapTask(i), "n2", sec(100), 0.00004*float64(i-19), now)
	}
	wantSpeculated(t, h.decide(now), mapTask(20))
	wantSpeculated(t, h.decide(now+1), mapTask(21))
	wantSpeculated(t, h.decide(now+2))
}

// TestFreeSlotsLimitLaunches checks that a Decide launches no more copies
// than there are free slots, after the containers the AM still needs for
// its own tasks, even when the cap has room.
func TestFreeSlotsLimitLaunches(t *testing.T) {
	now := sec(1000)
	h := newHarness(t, speculators.JobInfo{Maps: 30, Slots: 22}, map[string]string{ParamSpeculativeCap: "0.5"}) // cap 11
	for i := 0; i < 10; i++ {
		h.complete(mapTask(i), "n1", 0, sec(100))
	}
	for i := 10; i < 30; i++ { // twenty running: two free slots
		h.run(mapTask(i), "n2", sec(100), 0.00004*float64(i-9), now)
	}
	h.observe(speculators.Event{Kind: speculators.ContainerNeeds, Time: now, TaskType: speculators.Reduce, Count: 1})
	wantSpeculated(t, h.decide(now), mapTask(10))
	wantSpeculated(t, h.decide(now+1))
	h.observe(speculators.Event{Kind: speculators.ContainerNeeds, Time: now + 2, TaskType: speculators.Reduce, Count: 0})
	wantSpeculated(t, h.decide(now+3), mapTask(11))
}

// TestZeroCapDisables checks that speculative-cap 0 never speculates.
func TestZeroCapDisables(t *testing.T) {
	h := newHarness(t, speculators.JobInfo{Maps: 5, Slots: 100}, map[string]string{ParamSpeculativeCap: "0"})
	for i := 0; i < 4; i++ {
		h.complete(mapTask(i), "n1", 0, sec(30))
	}
	h.run(mapTask(4), "n2", 0, 0.0001, sec(500))
	wantSpeculated(t, h.decide(sec(500)))
}

// TestCopyStartedUnflagged checks that the attempt a request produces is
// taken as the copy even when the AM does not flag it speculative, and that
// the task may be copied again once that attempt ends.
func TestCopyStartedUnflagged(t *testing.T) {
	h := newHarness(t, speculators.JobInfo{Maps: 6, Slots: 100}, map[string]string{ParamSpeculativeCap: "0.5"})
	for i := 0; i < 5; i++ {
		h.complete(mapTask(i), "n1", 0, sec(50))
	}
	h.run(mapTask(5), "n2", 0, 0.001, sec(100))
	wantSpeculated(t, h.decide(sec(100)), mapTask(5))
	cp := h.start(mapTask(5), "n3", sec(101))
	if m := h.policy.marks[speculators.Map][5]; m.state != markCopyRunning || m.copy != cp.N || h.policy.pending != 0 {
		t.Fatalf("mark %+v pending %d after the copy started", m, h.policy.pending)
	}
	h.fail(cp, sec(150))
	wantSpeculated(t, h.decide(sec(160)), mapTask(5))
	// The task succeeds before the copy starts: the request is dropped.
	h.succeed(speculators.AttemptID{Task: mapTask(5), N: 0}, sec(170))
	if m := h.policy.marks[speculators.Map][5]; m.state != markNone || h.policy.pending != 0 {
		t.Fatalf("mark %+v pending %d after the task succeeded", m, h.policy.pending)
	}
}

// TestSameEventsSameDecisions checks determinism: two engines fed the same
// events decide the same, reasons included.
func TestSameEventsSameDecisions(t *testing.T) {
	build := func() []speculators.Decision {
		h := newHarness(t, speculators.JobInfo{Maps: 200, Reduces: 20, Slots: 300}, nil)
		for i := 0; i < 200; i++ {
			node := speculators.NodeID(fmt.Sprintf("n%d", i%17))
			h.run(mapTask(i), node, sec(float64(i%13)), 0.0005+0.00005*float64(i%29), sec(500))
		}
		for i := 0; i < 20; i++ {
			h.run(reduceTask(i), "r", sec(100), 0.0003*float64(i%7+1), sec(500))
		}
		return h.decide(sec(500))
	}
	a, b := build(), build()
	if len(a) == 0 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("decisions differ or are empty:\n%v\n%v", a, b)
	}
}

func TestOrdinal(t *testing.T) {
	for pct, want := range map[float64]string{1: "1st", 2: "2nd", 3: "3rd", 11: "11th", 12: "12th", 21: "21st", 25: "25th", 12.5: "12.5th", 100: "100th"} {
		if got := ordinal(pct); got != want {
			t.Errorf("ordinal(%g) = %q, want %q", pct, got, want)
		}
	}
}

// TestLongestFirstMatchesSort checks the bounded selection against a full
// sort for every k.
func TestLongestFirstMatchesSort(t *testing.T) {
	var all []candidate
	tasks := make([]speculators.Task, 64)
	for i := range tasks {
		tasks[i].ID = speculators.TaskID{Type: speculators.TaskType(i % 2), Index: int32(i)}
		left := float64((i * 37) % 11) // ties on purpose
		if i%13 == 0 {
			left = math.Inf(1)
		}
		all = append(all, candidate{task: &tasks[i], timeLeft: left})
	}
	want := slices.Clone(all)
	slices.SortFunc(want, byTimeLeft)
	for k := 1; k <= len(all)+1; k++ {
		got := longestFirst(slices.Clone(all), k)
		n := min(k, len(all))
		if len(got) != n {
			t.Fatalf("k=%d: %d candidates, want %d", k, len(got), n)
		}
		for i := range got {
			if got[i].task != want[i].task {
				t.Fatalf("k=%d: position %d is %s, want %s", k, i, got[i].task.ID, want[i].task.ID)
			}
		}
	}
}
