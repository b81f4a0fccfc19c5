// Package hadoop is the policy "hadoop": Hadoop 3's DefaultSpeculator driven
// by the LegacyTaskRuntimeEstimator, the speculator a stock MapReduce job
// runs and the one the java shim falls back to. It reproduces the
// decisions of DefaultSpeculator.computeSpeculations (Hadoop 3.x trunk):
// the scan cadence, the caps, one map and one reduce speculation per scan,
// the container-needs skip, the 5% gate and speculationValue's verdicts,
// including the simulated heartbeat for attempts whose statistics have not
// changed for 9 s.
//
// Where Java leaves an order to a HashMap (the tasks of a type), this
// package iterates tasks by index, so among equal speculation values the
// task with the lowest index wins. Attempts of a task are visited in start
// order, as TaskImpl's LinkedHashMap does.
//
// Like every policy it must not start goroutines, do I/O, read the wall
// clock or depend on map iteration order; all it knows comes from the Job
// and the times it is given.
package hadoop

import (
	"fmt"

	"github.com/specbridge/specbridge/speculators"
)

// Name is the policy's registry name.
const Name = "hadoop"

const keyPrefix = "mapreduce.job.speculative."

// Parameter names, as the Hadoop keys without keyPrefix.
const (
	ParamRetryAfterNoSpeculate = "retry-after-no-speculate"
	ParamRetryAfterSpeculate   = "retry-after-speculate"
	ParamMinimumAllowedTasks   = "minimum-allowed-tasks"
	ParamCapTotalTasks         = "speculative-cap-total-tasks"
	ParamCapRunningTasks       = "speculative-cap-running-tasks"
	ParamSlowTaskThreshold     = "slowtaskthreshold"
)

// Constants Hadoop does not make configurable.
const (
	// minimumCompleteNumber and minimumCompleteProportion gate
	// thresholdRuntime (StartEndTimesBase.MINIMUM_COMPLETE_NUMBER_TO_SPECULATE
	// and MINIMUM_COMPLETE_PROPORTION_TO_SPECULATE, a Java float).
	minimumCompleteNumber     = 1
	minimumCompleteProportion = float32(0.05)
	// maxWaitForHeartbeat is DefaultSpeculator.MAX_WAITTING_TIME_FOR_HEARTBEAT:
	// three missed 3 s heartbeats.
	maxWaitForHeartbeat speculators.Time = 9 * 1000
)

// Policy registers the policy; each parameter takes its Hadoop key,
// keyPrefix + name, as an alias.
var Policy = speculators.Declare(Name, "Hadoop 3 DefaultSpeculator with LegacyTaskRuntimeEstimator (mapreduce.job.speculative.*)", func(b *speculators.Binder, s *policy) {
	b.Int64(&s.retryAfterNoSpeculate, ParamRetryAfterNoSpeculate, 1000, speculators.NonNegative,
		"ms to wait after a scan that launched nothing before the next scan (MRJobConfig.SPECULATIVE_RETRY_AFTER_NO_SPECULATE)")
	b.Int64(&s.retryAfterSpeculate, ParamRetryAfterSpeculate, 15000, speculators.NonNegative,
		"ms to wait after a scan that launched a speculation before the next scan (MRJobConfig.SPECULATIVE_RETRY_AFTER_SPECULATE)")
	b.Int(&s.minimumAllowed, ParamMinimumAllowedTasks, 10, speculators.NonNegative,
		"speculations of a type always allowed at once, whatever the caps (MRJobConfig.SPECULATIVE_MINIMUM_ALLOWED_TASKS)")
	b.Float(&s.capTotal, ParamCapTotalTasks, 0.01, speculators.NonNegative,
		"speculations allowed at once as a fraction of the type's tasks (MRJobConfig.SPECULATIVECAP_TOTAL_TASKS)")
	b.Float(&s.capRunning, ParamCapRunningTasks, 0.1, speculators.NonNegative,
		"speculations allowed at once as a fraction of the type's running tasks (MRJobConfig.SPECULATIVECAP_RUNNING_TASKS)")
	b.Float(&s.slowTaskThreshold, ParamSlowTaskThreshold, 1.0, speculators.Valid{},
		"standard deviations above the mean completed run time for StartEndTimesBase.thresholdRuntime; Hadoop 3's DefaultSpeculator only tests that threshold for 'not enough data', so it appears in reasons but does not change decisions (MRJobConfig.SPECULATIVE_SLOWTASK_THRESHOLD)")
	b.HadoopKeys(keyPrefix)
})

// policy is the DefaultSpeculator's state for one job.
type policy struct {
	retryAfterNoSpeculate speculators.Time
	retryAfterSpeculate   speculators.Time
	minimumAllowed        int
	capTotal              float64
	capRunning            float64
	slowTaskThreshold     float64

	// scanned is false until the first scan; nextScan is the earliest time
	// of the next one (the background thread's sleep).
	scanned  bool
	nextScan speculators.Time
	// tasks holds per-task state, indexed like Job.Tasks.
	tasks [speculators.NumTaskTypes][]taskState
	// Which tasks a scan must visit (scan.go): bit i of running[type] is
	// set while task i has a running attempt (Observe), of requested while
	// its copyRequested is, of mayHave once its mayHaveSpeculated is
	// (mayHaveCount counts those).
	running, requested, mayHave [speculators.NumTaskTypes]speculators.TaskSet
	mayHaveCount                [speculators.NumTaskTypes]int
}

// taskState is what DefaultSpeculator and its estimator remember per task.
type taskState struct {
	// mayHaveSpeculated: this policy asked for a copy of the task at least
	// once (DefaultSpeculator.mayHaveSpeculated).
	mayHaveSpeculated bool
	// copyRequested and attemptsAtRequest model the copy Hadoop creates the
	// moment it speculates: until a new attempt shows up in the Job (or the
	// task completes) the copy counts as a STARTING attempt.
	copyRequested     bool
	attemptsAtRequest int
	watch             heartbeatWatch
}

// Decide runs a scan when one is due (DefaultSpeculator's background
// thread): first at the first call, then retry-after-no-speculate after a
// scan that launched nothing, or retry-after-speculate after one that did.
func (s *policy) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	if s.scanned && now < s.nextScan {
		return out
	}
	s.fit(job)
	before := len(out)
	out = s.scanType(job, speculators.Map, now, out)
	out = s.scanType(job, speculators.Reduce, now, out)
	s.scanned = true
	if len(out) > before {
		s.nextScan = now + s.retryAfterSpeculate
	} else {
		s.nextScan = now + s.retryAfterNoSpeculate
	}
	return out
}

// fit sizes the per-task state to the job.
func (s *policy) fit(job *speculators.Job) {
	for ty := range s.tasks {
		if n := len(job.Tasks[ty]); len(s.tasks[ty]) != n {
			s.tasks[ty] = make([]taskState, n)
			s.running[ty], s.requested[ty], s.mayHave[ty] = speculators.NewTaskSet(n), speculators.NewTaskSet(n), speculators.NewTaskSet(n)
			s.mayHaveCount[ty] = 0
			for i, t := range job.Tasks[ty] {
				s.running[ty].Set(i, t.RunningAttempts > 0)
			}
		}
	}
}

// NeverReruns: it only copies tasks (speculators.NoReruns).
func (*policy) NeverReruns() {}

// Observe keeps the running bits: an attempt starting or ending may change
// whether its task has one running.
func (s *policy) Observe(job *speculators.Job, ev *speculators.Event) {
	if !ev.Kind.Lifecycle() {
		return
	}
	s.fit(job)
	if t := job.Task(ev.Attempt.Task); t != nil {
		s.running[t.ID.Type].Set(int(t.ID.Index), t.RunningAttempts > 0)
	}
}

// scanType is DefaultSpeculator.maybeScheduleASpeculation for one job and
// one type: at most one speculation, the task with the largest positive
// speculation value, if the caps allow one more.
func (s *policy) scanType(job *speculators.Job, ty speculators.TaskType, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	if job.ContainerNeeds[ty] > 0 {
		return out // the type is still waiting for containers
	}
	tasks := job.Tasks[ty]
	states := s.tasks[ty]
	allowed := int(max(float64(s.minimumAllowed), s.capTotal*float64(len(tasks))))
	sc := scan{
		now:        now,
		gateOpen:   thresholdKnown(job, ty),
		newRuntime: int64(job.Durations[ty].Mean()), // estimatedNewAttemptRuntime: (long) mean
	}
	speculating, running := 0, 0
	best, bestValue, bestRun := -1, int64(-1), int64(0)
	visit := func(i int) {
		value, run := sc.speculationValue(tasks[i], &states[i])
		if !states[i].copyRequested {
			s.requested[ty].Set(i, false)
		}
		if value == alreadySpeculating {
			speculating++
		}
		if value != notRunning {
			running++
		}
		if value > bestValue {
			best, bestValue, bestRun = i, value, run
		}
	}
	// DefaultSpeculator visits every task; only these can give a verdict
	// other than the one known without looking (speculationValue): with
	// the gate closed, a task never speculated is ON_SCHEDULE (and counts
	// as running for the cap); with it open, a task with nothing running
	// and no copy asked for is NOT_RUNNING. Both leave no trace, so the
	// scan visits the others, in index order, and counts the rest.
	if !sc.gateOpen {
		running += len(tasks) - s.mayHaveCount[ty]
		s.mayHave[ty].Each(nil, visit)
	} else {
		s.running[ty].Each(s.requested[ty], visit)
	}
	allowed = int(max(float64(allowed), s.capRunning*float64(running)))
	if best < 0 || allowed <= speculating {
		return out
	}
	t, st := tasks[best], &states[best]
	if !st.mayHaveSpeculated {
		st.mayHaveSpeculated = true
		s.mayHave[ty].Set(best, true)
		s.mayHaveCount[ty]++
	}
	st.copyRequested, st.attemptsAtRequest = true, len(t.Attempts)
	s.requested[ty].Set(best, true)
	return append(out, speculators.Decision{
		Kind: speculators.Speculate, Task: t.ID, Copies: 1,
		Reason: s.reason(job, ty, bestValue, bestRun, sc.newRuntime, speculating, allowed),
	})
}

func (s *policy) reason(job *speculators.Job, ty speculators.TaskType, value, estimatedRun, newRuntime int64, speculating, allowed int) string {
	d := &job.Durations[ty]
	return fmt.Sprintf("estimated end %.1fs after replacement end (estimated run %.1fs; mean of %d %ss %.1fs, threshold mean+%gσ %.1fs; %d of %d allowed speculating)",
		seconds(value), seconds(estimatedRun), d.N, ty, seconds(newRuntime), s.slowTaskThreshold,
		d.Outlier(float64(float32(s.slowTaskThreshold)))/1000, speculating, allowed)
}

func seconds(ms int64) float64 { return float64(ms) / 1000 }

// thresholdKnown reports whether StartEndTimesBase.thresholdRuntime would
// return a finite threshold: at least one task and at least 5% of the
// type's tasks completed (compared in Java float arithmetic).
func thresholdKnown(job *speculators.Job, ty speculators.TaskType) bool {
	done, total := job.Completed[ty], job.TotalTasks(ty)
	if done < minimumCompleteNumber || total == 0 {
		return false
	}
	return float32(done)/float32(total) >= minimumCompleteProportion
}
