package hadooplegacy

// This file holds tests which verify that the Hadoop 0.20 speculation rule,
// as LATE (OSDI 2008) describes it, is reproduced. Each test quotes the rule
// in our words and ends with the section of the LATE paper it checks.

import (
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

var (
	m = spectest.Map
	r = spectest.Reduce
)

// The progress-gap rule's examples are testdata/progress_gap.txt.

// TestMinimumRuntime: a task must have run for at least one minute before
// it can be marked a straggler, however far behind it is.
// Reference: LATE §2.1
func TestMinimumRuntime(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 10}, nil)
	h.AllRunning("node1", 0, 60_000, 0.8, spectest.Maps(0, 9)...)
	h.Running(m(9), "node1", 10_000, 60_000, 0.05)
	h.WantNone(69_999, "after 59.999 s")
	if got := h.Speculated(70_000); !slices.Equal(got, []speculators.TaskID{m(9)}) {
		t.Fatalf("after 60 s: got %v, want [m_000009]", got)
	}

	h = spectest.For(t, Policy(), speculators.JobInfo{Maps: 10}, map[string]string{"min-runtime-ms": "30000"})
	h.AllRunning("node1", 0, 40_000, 0.8, spectest.Maps(0, 9)...)
	h.Running(m(9), "node1", 10_000, 40_000, 0.05)
	if got := h.Speculated(40_000); !slices.Equal(got, []speculators.TaskID{m(9)}) {
		t.Fatalf("min-runtime-ms 30000, after 30 s: got %v, want [m_000009]", got)
	}
}

// TestAtMostOneCopy: the scheduler ensures "at most one speculative copy of
// each task is running at a time": none while the copy it asked for has
// not started, none while it runs; once a copy has ended and the task
// still straggles, another (as Hadoop 0.20's MAX_TASK_EXECS = 1 allows),
// whether the ended copy was this policy's or launched elsewhere.
// Reference: LATE §2.1
func TestAtMostOneCopy(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 10}, nil)
	h.AllRunning("node1", 0, 70_000, 0.9, spectest.Maps(0, 8)...)
	h.Running(m(8), "node1", 0, 70_000, 0.1)
	h.Running(m(9), "node1", 0, 70_000, 0.1)
	h.StartAttempt(speculators.AttemptID{Task: m(9), N: 1}, "node1", 65_000, true) // a copy launched elsewhere
	h.Kill(speculators.AttemptID{Task: m(9), N: 1}, 69_000)
	if got := h.Speculated(70_000); !slices.Equal(got, []speculators.TaskID{m(8), m(9)}) {
		t.Fatalf("got %v, want [m_000008 m_000009] (m_000009's copy ended)", got)
	}
	h.StartAttempt(speculators.AttemptID{Task: m(9), N: 2}, "node2", 70_500, true)
	if got := h.Speculated(71_000); len(got) != 0 {
		t.Fatalf("copy asked for, not started: got %v", got)
	}
	h.StartAttempt(speculators.AttemptID{Task: m(8), N: 1}, "node1", 72_000, true)
	if got := h.Speculated(73_000); len(got) != 0 {
		t.Fatalf("copy running: got %v", got)
	}
	h.Fail(speculators.AttemptID{Task: m(8), N: 1}, 74_000)
	if got := h.Speculated(75_000); !slices.Equal(got, []speculators.TaskID{m(8)}) {
		t.Fatalf("copy failed, the task still straggles: got %v, want [m_000008]", got)
	}
}

// TestEquallySlow: all tasks beyond the threshold are "equally slow"; with
// no data locality to break ties, the lowest task index goes first, not the
// slowest task. With one free container only m_000002 gets a copy, though
// m_000005 is further behind.
// Reference: LATE §2.1
func TestEquallySlow(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 10, Slots: 11}, nil) // 10 running, 1 free
	for i := 0; i < 10; i++ {
		p := 0.8
		switch i {
		case 2:
			p = 0.1
		case 5:
			p = 0.01
		}
		h.Running(m(i), "node1", 0, 70_000, p)
	}
	if got := h.Speculated(70_000); !slices.Equal(got, []speculators.TaskID{m(2)}) {
		t.Fatalf("one free container: got %v, want [m_000002]", got)
	}

	h = spectest.For(t, Policy(), speculators.JobInfo{Maps: 10}, nil) // capacity unknown
	for i := 0; i < 10; i++ {
		p := 0.8
		if i == 2 || i == 5 || i == 7 {
			p = 0.3 - float64(i)/100
		}
		h.Running(m(i), "node1", 0, 70_000, p)
	}
	if got := h.Speculated(70_000); !slices.Equal(got, []speculators.TaskID{m(2), m(5), m(7)}) {
		t.Fatalf("no capacity limit: got %v, want [m_000002 m_000005 m_000007]", got)
	}
}

// TestFreeCapacity: copies are handed out only for free containers: the
// job's slots less running attempts, containers the AM waits for, and
// copies asked for that have not started.
// Reference: LATE §2.1 ("when a node has an empty task slot")
func TestFreeCapacity(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 10, Slots: 13}, nil)
	for i := 0; i < 10; i++ {
		p := 0.8
		if i >= 5 {
			p = 0.1
		}
		h.Running(m(i), "node1", 0, 70_000, p)
	}
	ev := speculators.Event{Kind: speculators.ContainerNeeds, Time: 70_000, TaskType: speculators.Map, Count: 1}
	if err := h.Engine.Observe(&ev); err != nil {
		t.Fatal(err)
	}
	if got := h.Speculated(70_000); !slices.Equal(got, []speculators.TaskID{m(5), m(6)}) {
		t.Fatalf("13 slots, 10 running, 1 needed: got %v, want [m_000005 m_000006]", got)
	}
	if got := h.Speculated(71_000); len(got) != 0 {
		t.Fatalf("two copies pending: got %v", got)
	}
	h.StartAttempt(speculators.AttemptID{Task: m(5), N: 1}, "node1", 72_000, true)
	h.StartAttempt(speculators.AttemptID{Task: m(6), N: 1}, "node1", 72_000, true)
	h.Succeed(speculators.AttemptID{Task: m(0), N: 0}, 72_000)
	if got := h.Speculated(73_000); !slices.Equal(got, []speculators.TaskID{m(7)}) {
		t.Fatalf("one container freed: got %v, want [m_000007]", got)
	}
}

// TestReducersInCopyPhase: soon after the first reducers finish the copy
// phase their progress jumps from 1/3 to 1; once about 30% have finished
// the average is about 0.3·1 + 0.7·1/3, and every reducer still in the
// copy phase falls 0.2 behind it and is speculated, though none is slower
// than the others.
// Reference: LATE §3.2 (Assumption 4)
func TestReducersInCopyPhase(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{Reduces: 10}, nil)
	copying := speculators.ReduceProgress(speculators.PhaseShuffle, 0.9) // 0.3
	h.AllRunning("node1", 0, 90_000, copying, spectest.Reduces(0, 10)...)
	h.WantNone(90_000, "all reducers copying")
	for i := 0; i < 3; i++ {
		h.Succeed(speculators.AttemptID{Task: r(i), N: 0}, 100_000)
	}
	var want []speculators.TaskID
	for i := 3; i < 10; i++ {
		want = append(want, r(i))
	}
	if got := h.Speculated(100_000); !slices.Equal(got, want) {
		t.Fatalf("3 of 10 reducers done: got %v, want all 7 still copying %v", got, want)
	}
}

// TestAverageOverAllTasks: the category's average progress score is taken
// over all its tasks, as Hadoop 0.20's job status kept it, so tasks not yet
// started count 0. With 10 of 20 maps pending, nine at 0.5 and one at 0.2,
// the average is 0.235 and no map is 0.2 behind; once the others start at
// 0.5 it is 0.485 and m_000009 is a straggler.
// Reference: LATE §2.1 ("the average progress score of each category of tasks")
func TestAverageOverAllTasks(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: 20}, nil)
	h.AllRunning("node1", 0, 70_000, 0.5, spectest.Maps(0, 9)...)
	h.Running(m(9), "node1", 0, 70_000, 0.2)
	h.WantNone(70_000, "half the maps pending")
	h.AllRunning("node1", 0, 71_000, 0.5, spectest.Maps(10, 20)...)
	if got := h.Speculated(71_000); !slices.Equal(got, []speculators.TaskID{m(9)}) {
		t.Fatalf("all maps running: got %v, want [m_000009]", got)
	}
}
