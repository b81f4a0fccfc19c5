package hadoop

import (
	"math"

	"github.com/specbridge/specbridge/speculators"
)

// speculationValue's verdicts for tasks that must not be speculated. All
// are negative; a task worth speculating has a value >= 0 (in practice > 0,
// since TOO_LATE_TO_SPECULATE takes the zero case).
const (
	onSchedule         = math.MinInt64
	alreadySpeculating = math.MinInt64 + 1
	tooNew             = math.MinInt64 + 2
	progressIsGood     = math.MinInt64 + 3
	notRunning         = math.MinInt64 + 4
	tooLateToSpeculate = math.MinInt64 + 5
)

// scan is what one type's scan shares between its tasks.
type scan struct {
	now speculators.Time
	// gateOpen: thresholdRuntime is finite (the 5% rule passed).
	gateOpen bool
	// newRuntime is estimatedNewAttemptRuntime, the truncated mean of the
	// type's completed run times, in ms.
	newRuntime int64
}

// speculationValue is DefaultSpeculator.speculationValue for task t: how
// much earlier (ms) a copy started now would finish than the running
// attempt, or one of the negative verdicts. It also returns the running
// attempt's estimated run time. As in Hadoop it has a side effect: the
// 9-second heartbeat bookkeeping of the task's first running attempt.
//
// Hadoop 3 computes thresholdRuntime (mean + slowtaskthreshold σ) but only
// tests whether it is "unknown"; it never compares it with the estimate,
// so neither does this. For a task this policy has speculated
// (mayHaveSpeculated) the gate is tested last instead of first, which lets
// ALREADY_SPECULATING and NOT_RUNNING take precedence for the caps.
func (sc *scan) speculationValue(t *speculators.Task, st *taskState) (value, estimatedRun int64) {
	if !st.mayHaveSpeculated && !sc.gateOpen {
		return onSchedule, 0
	}
	if t.RunningAttempts == 0 && !st.copyRequested {
		// What the loop below finds without reading the attempts: most
		// tasks of a big job are done or waiting at any scan.
		return notRunning, 0
	}
	running := 0
	result := int64(math.MinInt64)
	for _, a := range t.Attempts {
		if !a.Running() {
			continue
		}
		if running++; running > 1 {
			return alreadySpeculating, 0
		}
		estimatedRun = st.watch.estimatedRuntime(a)
		if a.Start > sc.now {
			return tooNew, 0 // a scan that ran before the start was recorded
		}
		end := a.Start + estimatedRun
		replacementEnd := sc.now + sc.newRuntime
		st.watch.observe(a, estimatedRun, sc.now)
		if end < sc.now {
			return progressIsGood, estimatedRun
		}
		if replacementEnd >= end {
			return tooLateToSpeculate, estimatedRun
		}
		result = end - replacementEnd
	}
	if st.copyRequested {
		if len(t.Attempts) > st.attemptsAtRequest || t.Done() {
			st.copyRequested = false
		} else {
			// The copy Hadoop created when it speculated is a STARTING
			// attempt, visited after the original; it has no enrolled
			// start yet, which Hadoop reads as TOO_NEW.
			if running++; running > 1 {
				return alreadySpeculating, 0
			}
			return tooNew, 0
		}
	}
	if running == 0 {
		return notRunning, 0
	}
	if !sc.gateOpen {
		return onSchedule, 0
	}
	return result, estimatedRun
}

// heartbeatWatch is DefaultSpeculator's TaskAttemptHistoryStatistics for the
// task's first running attempt, plus the one thing its simulated heartbeat
// changes in LegacyTaskRuntimeEstimator: the time of the latest report the
// estimator has seen.
type heartbeatWatch struct {
	set           bool
	attempt       int32 // the watched attempt's number
	estimate      int64
	progress      float32 // TaskAttemptHistoryStatistics.progress, a Java float
	lastHeartbeat speculators.Time
	// simulated: a heartbeat was simulated at simulatedAt, when the
	// attempt had received reportsAtSimulation real reports. A real report
	// after it makes the real report the latest again.
	simulated           bool
	simulatedAt         speculators.Time
	reportsAtSimulation int
}

// estimatedRuntime is LegacyTaskRuntimeEstimator.estimatedRuntime: elapsed
// time at the latest report over the progress then. The latest report is
// the attempt's real one unless a heartbeat was simulated since, in which
// case it is the simulation time with the same progress; so an attempt
// whose reports stop sees its estimate grow at every simulated heartbeat.
func (w *heartbeatWatch) estimatedRuntime(a *speculators.Attempt) int64 {
	if w.set && w.simulated && w.attempt == a.ID.N && a.Reports == w.reportsAtSimulation {
		sim := *a // a value copy: one formula, the estimator's, for both cases
		sim.LastReport = w.simulatedAt
		sim.Reports++
		return legacyEstimatedRuntime(&sim)
	}
	return legacyEstimatedRuntime(a)
}

// legacyEstimatedRuntime is LegacyTaskRuntimeEstimator.updateAttempt's
// estimate, (time of the latest report - start) / max(0.0001, progress),
// -1 before the first report, computed as Java computes it: the progress
// is a Java float (TaskAttemptStatus.progress) widened to double.
// Dividing by the float64 progress instead, as Attempt.LegacyEstimatedRuntime
// does, gives 1 ms more whenever the float rounds the progress up and the
// quotient is about whole: progress 0.236 reported 14,160 ms into a 60 s
// attempt is 59,999 ms to Hadoop and 60,000 ms in float64, which picks the
// other of two tasks with equal estimates (found by the java-shim's
// HadoopPolicyConformanceTest).
func legacyEstimatedRuntime(a *speculators.Attempt) int64 {
	if a.Reports == 0 || a.LastReport <= a.Start {
		return -1
	}
	return int64(float64(a.LastReport-a.Start) / math.Max(0.0001, float64(javaFloat(a.Progress))))
}

// javaFloat is the progress as Hadoop holds it, a Java float.
func javaFloat(progress float64) float32 { return float32(progress) }

// observe is the bookkeeping speculationValue does for a running attempt:
// remember its estimate and progress; when both are unchanged for more
// than 9 s since they last changed (or since the last simulated heartbeat),
// simulate a heartbeat now. The new estimate shows from the next scan on,
// as in Hadoop, where the simulated status is processed after the value of
// this scan has been computed.
func (w *heartbeatWatch) observe(a *speculators.Attempt, estimate int64, now speculators.Time) {
	if !w.set || w.attempt != a.ID.N {
		*w = heartbeatWatch{set: true, attempt: a.ID.N, estimate: estimate, progress: javaFloat(a.Progress), lastHeartbeat: now}
		return
	}
	if estimate != w.estimate || javaFloat(a.Progress) != w.progress {
		w.estimate, w.progress, w.lastHeartbeat = estimate, javaFloat(a.Progress), now
		return
	}
	if now-w.lastHeartbeat > maxWaitForHeartbeat {
		w.lastHeartbeat = now
		w.simulated, w.simulatedAt, w.reportsAtSimulation = true, now, a.Reports
	}
}
