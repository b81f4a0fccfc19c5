package hadoop

// This file holds tests which verify that the behaviour of Hadoop 3's
// DefaultSpeculator with the LegacyTaskRuntimeEstimator is reproduced. Each
// test focuses on one rule of DefaultSpeculator.java / StartEndTimesBase.java,
// drives an Engine through real events with a controlled clock, and ends its
// doc comment with the method or key it checks.
//
// Unless a test says otherwise, completed maps ran 10 s each, so the mean a
// replacement attempt is expected to take (estimatedNewAttemptRuntime) is
// 10 s, and the LegacyTaskRuntimeEstimator estimates an attempt's run time as
// (time of its latest report - start) / progress at that report.

import (
	"fmt"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

const runtime = 10_000 // ms each completed task ran

// TestScanCadenceAfterNoSpeculation: a scan that launched nothing is
// followed by the next one no sooner than retry-after-no-speculate (1 s)
// later; calls to Decide in between change nothing.
// Reference: DefaultSpeculator.serviceStart, mapreduce.job.speculative.retry-after-no-speculate
func TestScanCadenceAfterNoSpeculation(t *testing.T) {
	h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_test", Maps: 100, Reduces: 0}, nil)
	h.Completed("node1", 0, runtime, spectest.Maps(0, 4)...) // 4% done: no threshold yet
	h.Running(spectest.Map(10), "node1", 0, 10_000, 0.1)     // estimated 100 s
	h.WantNone(10_000, "scan at 10s with 4% of maps done")
	h.Completed("node1", 500, runtime, spectest.Map(4)) // 5% done at 10.5 s
	for _, now := range []speculators.Time{10_500, 10_999} {
		if got := h.Speculated(now); len(got) != 0 {
			t.Fatalf("Decide at %dms, before the next scan is due at 11000ms: got %v", now, got)
		}
	}
	if got := h.Speculated(11_000); !slices.Equal(got, spectest.Tasks(spectest.Map(10))) {
		t.Fatalf("scan at 11s: got %v, want [m_000010]", got)
	}
}

// The rule after a scan that launched a speculation (retry-after-speculate)
// is testdata/scan_cadence.txt.

// TestCaps: a type may have allowed = max(minimum-allowed-tasks,
// speculative-cap-total-tasks x its tasks), raised to
// speculative-cap-running-tasks x its running tasks, speculations at once;
// a new one is launched only while fewer than allowed are speculating.
// Parameters are set by name and by Hadoop key.
// Reference: DefaultSpeculator.maybeScheduleASpeculation, mapreduce.job.speculative.minimum-allowed-tasks,
// mapreduce.job.speculative.speculative-cap-total-tasks, mapreduce.job.speculative.speculative-cap-running-tasks
func TestCaps(t *testing.T) {
	// 40 maps: 5 done, k speculating (two running attempts), one slow
	// candidate (m_000039), the rest running on schedule. 35 running tasks.
	cases := []struct {
		name        string
		overrides   map[string]string
		speculating int
		want        bool
	}{
		{"defaults: allowed max(10, 0.4, 3.5)=10, 10 speculating", nil, 10, false},
		{"defaults: 9 speculating", nil, 9, true},
		{"min 2: allowed max(2, 0.4, 3.5)=3, 3 speculating", map[string]string{"minimum-allowed-tasks": "2"}, 3, false},
		{"min 2: 2 speculating", map[string]string{"minimum-allowed-tasks": "2"}, 2, true},
		{"running cap 0.2 by key: allowed max(2, 0.4, 7)=7, 7 speculating",
			map[string]string{"minimum-allowed-tasks": "2", "mapreduce.job.speculative.speculative-cap-running-tasks": "0.2"}, 7, false},
		{"running cap 0.2 by key: 6 speculating",
			map[string]string{"minimum-allowed-tasks": "2", "mapreduce.job.speculative.speculative-cap-running-tasks": "0.2"}, 6, true},
		{"total cap 0.25 by key: allowed max(0, 10, 0)=10, 10 speculating",
			map[string]string{"mapreduce.job.speculative.minimum-allowed-tasks": "0", "speculative-cap-running-tasks": "0",
				"mapreduce.job.speculative.speculative-cap-total-tasks": "0.25"}, 10, false},
		{"total cap 0.25 by key: 9 speculating",
			map[string]string{"mapreduce.job.speculative.minimum-allowed-tasks": "0", "speculative-cap-running-tasks": "0",
				"mapreduce.job.speculative.speculative-cap-total-tasks": "0.25"}, 9, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_test", Maps: 40, Reduces: 0}, c.overrides)
			h.Completed("node1", 0, runtime, spectest.Maps(0, 5)...)
			for i := 5; i < 39; i++ {
				if i < 5+c.speculating {
					h.Running(spectest.Map(i), "node1", 0, 10_000, 0.1)
					h.StartAttempt(speculators.AttemptID{Task: spectest.Map(i), N: 1}, "node1", 5_000, true)
					h.Status(speculators.AttemptID{Task: spectest.Map(i), N: 1}, 10_000, 0.1)
				} else {
					h.Running(spectest.Map(i), "node1", 0, 10_000, 0.9) // estimated end 11.1 s: too late to speculate
				}
			}
			h.Running(spectest.Map(39), "node1", 0, 10_000, 0.1)
			got := h.Speculated(10_000)
			if c.want != (len(got) == 1) || (c.want && got[0] != spectest.Map(39)) {
				t.Fatalf("got %v, want speculation of m_000039: %v", got, c.want)
			}
		})
	}
}

// TestOneSpeculationPerTypePerScan: a scan launches at most one map and
// one reduce speculation, however many tasks qualify.
// Reference: DefaultSpeculator.computeSpeculations
func TestOneSpeculationPerTypePerScan(t *testing.T) {
	h := halfDone(t, 20)
	h.Running(spectest.Map(10), "node1", 0, 10_000, 0.1)
	h.Running(spectest.Map(11), "node1", 0, 10_000, 0.05)
	h.Running(spectest.Map(12), "node1", 0, 10_000, 0.1)
	h.Running(spectest.Reduce(10), "node1", 0, 10_000, 0.2)
	h.Running(spectest.Reduce(11), "node1", 0, 10_000, 0.05)
	if got := h.Speculated(10_000); !slices.Equal(got, spectest.Tasks(spectest.Map(11), spectest.Reduce(11))) {
		t.Fatalf("got %v, want [m_000011 r_000011]", got)
	}
}

// TestFivePercentRule: nothing of a type is speculated until at least one
// task and at least 5% (a Java float compare) of the type's tasks have
// completed; then the scan proceeds.
// Reference: StartEndTimesBase.thresholdRuntime (MINIMUM_COMPLETE_NUMBER_TO_SPECULATE, MINIMUM_COMPLETE_PROPORTION_TO_SPECULATE)
func TestFivePercentRule(t *testing.T) {
	t.Run("4 of 100 then 5 of 100", func(t *testing.T) {
		h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_test", Maps: 100, Reduces: 0}, nil)
		h.Completed("node1", 0, runtime, spectest.Maps(0, 4)...)
		h.Running(spectest.Map(50), "node1", 0, 10_000, 0.01)
		h.WantNone(10_000, "4% done")
		if v := verdict(h, spectest.Map(50), 10_000); v != onSchedule {
			t.Fatalf("4%% done: verdict %d, want ON_SCHEDULE", v)
		}
		h.Completed("node1", 1_000, runtime, spectest.Map(4))
		if got := h.Speculated(11_000); !slices.Equal(got, spectest.Tasks(spectest.Map(50))) {
			t.Fatalf("5%% done: got %v, want [m_000050]", got)
		}
	})
	t.Run("nothing completed", func(t *testing.T) {
		h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_test", Maps: 10, Reduces: 0}, nil)
		h.Running(spectest.Map(0), "node1", 0, 10_000, 0.01) // estimated 1000 s; a replacement "takes" the mean, 0
		h.WantNone(10_000, "no map done")
	})
	t.Run("1 of 20 is exactly 5%", func(t *testing.T) {
		h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_test", Maps: 20, Reduces: 0}, nil)
		h.Completed("node1", 0, runtime, spectest.Map(0))
		h.Running(spectest.Map(1), "node1", 0, 10_000, 0.01)
		if got := h.Speculated(10_000); !slices.Equal(got, spectest.Tasks(spectest.Map(1))) {
			t.Fatalf("got %v, want [m_000001]", got)
		}
	})
}

// TestContainerNeedsSkipType: while the AM still waits for containers of a
// type, the scan skips that type; the other type is scanned as usual.
// Reference: DefaultSpeculator.maybeScheduleASpeculation (containerNeeds > 0)
func TestContainerNeedsSkipType(t *testing.T) {
	h := halfDone(t, 20)
	h.Running(spectest.Map(10), "node1", 0, 10_000, 0.1)
	h.Running(spectest.Reduce(10), "node1", 0, 10_000, 0.1)
	h.Needs(speculators.Map, 3, h.Job().Now)
	if got := h.Speculated(10_000); !slices.Equal(got, spectest.Tasks(spectest.Reduce(10))) {
		t.Fatalf("maps waiting for containers: got %v, want [r_000010]", got)
	}
	h.Needs(speculators.Map, 0, h.Job().Now)
	if got := h.Speculated(25_000); !slices.Equal(got, spectest.Tasks(spectest.Map(10))) {
		t.Fatalf("no container needs: got %v, want [m_000010]", got)
	}
}

// TestLargestValueWins: the task whose running attempt is estimated to
// finish latest after a replacement would is chosen; among equal values the
// lowest task index wins (our deterministic stand-in for HashMap order).
// Reference: DefaultSpeculator.maybeScheduleASpeculation (bestSpeculationValue)
func TestLargestValueWins(t *testing.T) {
	h := halfDone(t, 0)
	h.Running(spectest.Map(10), "node1", 0, 10_000, 0.2)  // end 50 s
	h.Running(spectest.Map(11), "node1", 0, 10_000, 0.1)  // end 100 s (99,999 ms: 10,000 / (double) 0.1f)
	h.Running(spectest.Map(12), "node1", 0, 10_000, 0.1)  // the same, a tie
	h.Running(spectest.Map(13), "node1", 0, 10_000, 0.25) // end 40 s
	if v11, v13 := verdict(h, spectest.Map(11), 10_000), verdict(h, spectest.Map(13), 10_000); v11 != 79_999 || v13 != 20_000 {
		t.Fatalf("values: m11 %d, m13 %d; want 79999 and 20000 (estimated end - replacement end, in Java float progress)", v11, v13)
	}
	if got := h.Speculated(10_000); !slices.Equal(got, spectest.Tasks(spectest.Map(11))) {
		t.Fatalf("got %v, want [m_000011]", got)
	}
}

// TestNoSpeculationWithTwoRunningAttempts: a task with more than one
// running attempt is ALREADY_SPECULATING and never speculated again, however
// slow; so is a task whose requested copy has not started yet (Hadoop
// creates the copy at once, as a STARTING attempt).
// Reference: DefaultSpeculator.speculationValue (ALREADY_SPECULATING)
func TestNoSpeculationWithTwoRunningAttempts(t *testing.T) {
	h := halfDone(t, 0)
	h.Running(spectest.Map(10), "node1", 0, 10_000, 0.01)
	h.StartAttempt(speculators.AttemptID{Task: spectest.Map(10), N: 1}, "node1", 5_000, true)
	h.Status(speculators.AttemptID{Task: spectest.Map(10), N: 1}, 10_000, 0.01)
	h.WantNone(10_000, "only a task with two attempts is slow")
	if v := verdict(h, spectest.Map(10), 11_000); v != alreadySpeculating {
		t.Fatalf("verdict %d, want ALREADY_SPECULATING", v)
	}

	h.Running(spectest.Map(11), "node1", 0, 11_000, 0.2) // end 55 s
	if got := h.Speculated(11_000); !slices.Equal(got, spectest.Tasks(spectest.Map(11))) {
		t.Fatalf("got %v, want [m_000011]", got)
	}
	// 15 s later m_000011 is slower still but its copy has not started.
	h.Status(speculators.AttemptID{Task: spectest.Map(11), N: 0}, 26_000, 0.21) // end 123.8 s
	if v := verdict(h, spectest.Map(11), 26_000); v != alreadySpeculating {
		t.Fatalf("copy requested, not started: verdict %d, want ALREADY_SPECULATING", v)
	}
	h.WantNone(26_000, "")
}

// TestProgressIsGood: an attempt whose estimated end (start + estimated
// run time at its latest report) is already past is PROGRESS_IS_GOOD and is
// not speculated, even when its reports have stopped; an attempt with no
// report yet has estimate -1 and is PROGRESS_IS_GOOD too.
// Reference: DefaultSpeculator.speculationValue (PROGRESS_IS_GOOD), LegacyTaskRuntimeEstimator.updateAttempt
func TestProgressIsGood(t *testing.T) {
	h := halfDone(t, 0)
	h.Running(spectest.Map(10), "node1", 10_000, 15_000, 0.5) // estimated end 20 s, then silent
	h.Start(spectest.Map(11), "node1", 10_000)                // never reports
	for _, m := range []speculators.TaskID{spectest.Map(10), spectest.Map(11)} {
		if v := verdict(h, m, 24_000); v != progressIsGood {
			t.Fatalf("%s: verdict %d, want PROGRESS_IS_GOOD", m, v)
		}
	}
	h.WantNone(24_000, "")
}

// TestTooLateToSpeculate: when a replacement started now would end no
// earlier than the running attempt's estimated end, the task is
// TOO_LATE_TO_SPECULATE; one millisecond earlier it is worth 1 ms.
// Reference: DefaultSpeculator.speculationValue (TOO_LATE_TO_SPECULATE)
func TestTooLateToSpeculate(t *testing.T) {
	h := halfDone(t, 0)
	h.Running(spectest.Map(10), "node1", 0, 10_000, 0.25) // estimated end 40 s (0.25 is exact in a Java float)
	if v := verdict(h, spectest.Map(10), 29_999); v != 1 {
		t.Fatalf("at 29.999s: verdict %d, want 1", v)
	}
	if v := verdict(h, spectest.Map(10), 30_000); v != tooLateToSpeculate {
		t.Fatalf("at 30s: verdict %d, want TOO_LATE_TO_SPECULATE", v)
	}
	h.WantNone(30_000, "")
}

// TestSimulatedHeartbeat: when an attempt's estimate and progress have not
// changed for more than 9 s (three missed heartbeats), the scan simulates a
// heartbeat with the same progress at the current time. The estimator then
// re-estimates from that report time, so a stalled attempt's estimated end
// moves out and, from the next scan on, it can be speculated.
// Reference: DefaultSpeculator.speculationValue (MAX_WAITTING_TIME_FOR_HEARTBEAT, notHeartbeatedInAWhile)
func TestSimulatedHeartbeat(t *testing.T) {
	h := halfDone(t, 0)
	h.Running(spectest.Map(10), "node1", 10_000, 15_000, 0.5) // estimate 10 s, end 20 s; then silent
	// First scan at 16 s starts the watch. At 26 s, 10 s > 9 s unchanged:
	// a heartbeat is simulated; the estimate becomes (26-10)/0.5 = 32 s.
	for now := speculators.Time(16_000); now <= 26_000; now += 1_000 {
		h.WantNone(now, fmt.Sprintf("at %dms", now))
	}
	if v := verdict(h, spectest.Map(10), 27_000); v != (10_000+32_000)-(27_000+10_000) {
		t.Fatalf("after the simulated heartbeat: verdict %d, want 5000", v)
	}
	if got := h.Speculated(27_000); !slices.Equal(got, spectest.Tasks(spectest.Map(10))) {
		t.Fatalf("at 27s: got %v, want [m_000010]", got)
	}
}

// TestSimulatedHeartbeatOfSilentAttempt: an attempt that never reported
// has no estimate (PROGRESS_IS_GOOD); the simulated heartbeat gives it one
// at progress 0, elapsed / 0.0001, so the speculator acts before the task
// timeout would.
// Reference: DefaultSpeculator.speculationValue, LegacyTaskRuntimeEstimator.updateAttempt
func TestSimulatedHeartbeatOfSilentAttempt(t *testing.T) {
	h := halfDone(t, 0)
	h.Start(spectest.Map(10), "node1", 10_000)
	for now := speculators.Time(16_000); now <= 26_000; now += 1_000 {
		h.WantNone(now, fmt.Sprintf("at %dms", now))
	}
	elapsed, floor := 16_000.0, 0.0001 // float64 at run time, as Java's (long)(elapsed / max(0.0001, 0))
	want := int64(elapsed/floor) + 10_000 - (27_000 + 10_000)
	if v := verdict(h, spectest.Map(10), 27_000); v != want {
		t.Fatalf("verdict %d, want %d", v, want)
	}
	if got := h.Speculated(27_000); !slices.Equal(got, spectest.Tasks(spectest.Map(10))) {
		t.Fatalf("at 27s: got %v, want [m_000010]", got)
	}
	// A real report replaces the simulated one in the estimate.
	h.Status(speculators.AttemptID{Task: spectest.Map(10), N: 0}, 28_000, 0.9)
	if v := verdict(h, spectest.Map(10), 28_000); v != tooLateToSpeculate {
		t.Fatalf("after a real report: verdict %d, want TOO_LATE_TO_SPECULATE", v)
	}
}

// TestEstimateInJavaFloatProgress: LegacyTaskRuntimeEstimator divides by the
// progress Hadoop reports, a Java float widened to double. Two tasks whose
// estimates are equal in real numbers (60 s) differ by 1 ms in Hadoop when
// one's progress rounds up as a float (0.236 at 14.16 s: 59,999 ms) and the
// other's is exact (0.25 at 15 s: 60,000 ms), so Hadoop picks the second, not
// the lower index. Found by java-shim's HadoopPolicyConformanceTest.
// Reference: LegacyTaskRuntimeEstimator.updateAttempt, TaskAttemptStatus.progress
func TestEstimateInJavaFloatProgress(t *testing.T) {
	h := halfDone(t, 0)
	h.Running(spectest.Map(10), "node1", 0, 14_160, 0.236)
	h.Running(spectest.Map(11), "node1", 0, 15_000, 0.25)
	if v10, v11 := verdict(h, spectest.Map(10), 15_000), verdict(h, spectest.Map(11), 15_000); v10 != 34_999 || v11 != 35_000 {
		t.Fatalf("values: m10 %d, m11 %d; want 34999 and 35000", v10, v11)
	}
	if got := h.Speculated(15_000); !slices.Equal(got, spectest.Tasks(spectest.Map(11))) {
		t.Fatalf("got %v, want [m_000011]", got)
	}
}

// halfDone is the tests' job: 20 maps and reduces (none when reduces is 0),
// the first 10 of each completed on node1 in runtime from time 0.
func halfDone(t *testing.T, reduces int) *spectest.Harness {
	h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_test", Maps: 20, Reduces: reduces}, nil)
	h.Completed("node1", 0, runtime, spectest.Maps(0, 10)...)
	if reduces > 0 {
		h.Completed("node1", 0, runtime, spectest.Reduces(0, 10)...)
	}
	return h
}
