package late

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// TestCategoriesRankedSeparately checks that maps and reduces have their own
// SlowTaskThreshold: reduces that all run slower than the maps are not slow
// for their category, a straggling reduce is, and the eligible tasks of both
// categories share the cap, longest time left first.
func TestCategoriesRankedSeparately(t *testing.T) {
	now := spectest.Sec(2000)
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 9, Reduces: 9, Slots: 100}, map[string]string{ParamSpeculativeCap: "0.5"})
	for i := 0; i < 8; i++ {
		h.Complete(spectest.Map(i), "n1", 0, spectest.Sec(100)) // maps: 0.01/s
	}
	for i := 0; i < 8; i++ { // reduces: all at 0.001/s
		h.Run(spectest.Reduce(i), "n2", spectest.Sec(1000), 0.001, now)
	}
	spectest.WantSpeculated(t, h.Decide(now))

	h.Run(spectest.Reduce(8), "n3", spectest.Sec(1500), 0.0005, now) // 0.25, 1500 s left
	h.Run(spectest.Map(8), "n3", spectest.Sec(1900), 0.002, now)     // 0.2, 400 s left
	spectest.WantSpeculated(t, h.Decide(now), spectest.Reduce(8), spectest.Map(8))
}

// TestSlotsUnknown checks the fallbacks when the job's slots are unknown:
// the cap is a fraction of the running attempts and each Decide launches at
// most one copy.
func TestSlotsUnknown(t *testing.T) {
	now := spectest.Sec(1000)
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 40}, nil)
	for i := 0; i < 20; i++ {
		h.Complete(spectest.Map(i), "n1", 0, spectest.Sec(100))
	}
	for i := 20; i < 40; i++ { // twenty running, all slow: cap 2
		h.Run(spectest.Map(i), "n2", spectest.Sec(100), 0.00004*float64(i-19), now)
	}
	spectest.WantSpeculated(t, h.Decide(now), spectest.Map(20))
	spectest.WantSpeculated(t, h.Decide(now+1), spectest.Map(21))
	spectest.WantSpeculated(t, h.Decide(now+2))
}

// TestFreeSlotsLimitLaunches checks that a Decide launches no more copies
// than there are free slots, after the containers the AM still needs for
// its own tasks, even when the cap has room.
func TestFreeSlotsLimitLaunches(t *testing.T) {
	now := spectest.Sec(1000)
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 30, Slots: 22}, map[string]string{ParamSpeculativeCap: "0.5"}) // cap 11
	for i := 0; i < 10; i++ {
		h.Complete(spectest.Map(i), "n1", 0, spectest.Sec(100))
	}
	for i := 10; i < 30; i++ { // twenty running: two free slots
		h.Run(spectest.Map(i), "n2", spectest.Sec(100), 0.00004*float64(i-9), now)
	}
	h.Observe(speculators.Event{Kind: speculators.ContainerNeeds, Time: now, TaskType: speculators.Reduce, Count: 1})
	spectest.WantSpeculated(t, h.Decide(now), spectest.Map(10))
	spectest.WantSpeculated(t, h.Decide(now+1))
	h.Observe(speculators.Event{Kind: speculators.ContainerNeeds, Time: now + 2, TaskType: speculators.Reduce, Count: 0})
	spectest.WantSpeculated(t, h.Decide(now+3), spectest.Map(11))
}

// TestZeroCapDisables checks that speculative-cap 0 never speculates.
func TestZeroCapDisables(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 5, Slots: 100}, map[string]string{ParamSpeculativeCap: "0"})
	for i := 0; i < 4; i++ {
		h.Complete(spectest.Map(i), "n1", 0, spectest.Sec(30))
	}
	h.Run(spectest.Map(4), "n2", 0, 0.0001, spectest.Sec(500))
	spectest.WantSpeculated(t, h.Decide(spectest.Sec(500)))
}

// TestCopyStartedUnflagged checks that the attempt a request produces is
// taken as the copy even when the AM does not flag it speculative, and that
// the task may be copied again once that attempt ends.
func TestCopyStartedUnflagged(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 6, Slots: 100}, map[string]string{ParamSpeculativeCap: "0.5"})
	for i := 0; i < 5; i++ {
		h.Complete(spectest.Map(i), "n1", 0, spectest.Sec(50))
	}
	h.Run(spectest.Map(5), "n2", 0, 0.001, spectest.Sec(100))
	spectest.WantSpeculated(t, h.Decide(spectest.Sec(100)), spectest.Map(5))
	cp := h.Start(spectest.Map(5), "n3", spectest.Sec(101))
	if m := h.Policy().(*policy).marks[speculators.Map][5]; m.state != markCopyRunning || m.copy != cp.N || h.Job().PendingCopies != 0 {
		t.Fatalf("mark %+v pending %d after the copy started", m, h.Job().PendingCopies)
	}
	h.Fail(cp, spectest.Sec(150))
	spectest.WantSpeculated(t, h.Decide(spectest.Sec(160)), spectest.Map(5))
	// The task succeeds before the copy starts: the request is dropped.
	h.Succeed(speculators.AttemptID{Task: spectest.Map(5), N: 0}, spectest.Sec(170))
	if m := h.Policy().(*policy).marks[speculators.Map][5]; m.state != markNone || h.Job().PendingCopies != 0 {
		t.Fatalf("mark %+v pending %d after the task succeeded", m, h.Job().PendingCopies)
	}
}

// TestSameEventsSameDecisions checks determinism: two engines fed the same
// events decide the same, reasons included.
func TestSameEventsSameDecisions(t *testing.T) {
	build := func() []speculators.Decision {
		h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 200, Reduces: 20, Slots: 300}, nil)
		for i := 0; i < 200; i++ {
			node := speculators.NodeID(fmt.Sprintf("n%d", i%17))
			h.Run(spectest.Map(i), node, spectest.Sec(float64(i%13)), 0.0005+0.00005*float64(i%29), spectest.Sec(500))
		}
		for i := 0; i < 20; i++ {
			h.Run(spectest.Reduce(i), "r", spectest.Sec(100), 0.0003*float64(i%7+1), spectest.Sec(500))
		}
		return h.Decide(spectest.Sec(500))
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

func approx(a, b, tol float64) bool { return a-b <= tol && b-a <= tol }
