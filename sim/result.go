package sim

import "github.com/specbridge/specbridge/speculators"

// Result is what one run produced.
type Result struct {
	// Jobs in the order they were given to Run.
	Jobs []JobResult
	// Makespan is the last job's finish minus the first job's submit (ms).
	Makespan speculators.Time
	// End is the virtual time the run stopped at.
	End speculators.Time
	// Events counts the simulation events processed (stale timer events
	// that were superseded are not counted).
	Events int64
	// Unfinished counts jobs not done when the run stopped (Horizon or a
	// stall).
	Unfinished int
	// Decisions holds every decision in the order made, if
	// Config.RecordDecisions.
	Decisions []TimedDecision
	// Running samples the containers in use over [0, End], if
	// Config.RunningSamples > 0 (series.go).
	Running []RunningSample
}

// TimedDecision is one decision an engine made, when, and whether the
// simulator could apply it.
type TimedDecision struct {
	Time     speculators.Time
	Job      string
	Decision speculators.Decision
	// Applied is false when the decision named something that no longer
	// allowed it (a copy of a finished task, a kill of an ended attempt).
	Applied bool
}

// JobResult is one job's outcome.
type JobResult struct {
	ID     string
	Submit speculators.Time
	// Start is when the job's first attempt was launched, -1 if none was.
	Start speculators.Time
	// Finish is when the last needed task completed, -1 if it did not.
	Finish        speculators.Time
	Maps, Reduces int
	// Attempts counts attempts launched, originals included.
	Attempts int
	// ContainerMs sums every attempt's run time (end - start).
	ContainerMs int64
	// WastedContainerMs sums the run time of attempts whose work the job
	// did not use: killed (race losers, Kill and Drop decisions, reduce
	// preemption), failed, and succeeded maps whose output a Rerun
	// declared lost.
	WastedContainerMs int64
	// SpeculativeLaunched counts speculative copies launched, clones
	// included; SpeculativeWon those that were the first to finish their
	// task. ClonesLaunched counts the copies among them that a cloning
	// policy (speculators.Cloner) started at the same instant as their
	// original; the rest were started on detection.
	SpeculativeLaunched, SpeculativeWon int
	ClonesLaunched                      int
	// KilledAttempts counts running attempts killed (race losers, Kill,
	// Drop, reduce preemption); FailedAttempts those that timed out.
	KilledAttempts, FailedAttempts int
	// FailedTask names the task whose failures failed the job (MaxAttempts),
	// "" for a job that did not fail.
	FailedTask string
	// Killed: the job was killed at Job.KillAt.
	Killed bool
	// PreemptedReduces counts reduces killed to free containers for the
	// job's waiting maps (also counted in KilledAttempts).
	PreemptedReduces int
	// RerunMaps counts Rerun decisions applied; DroppedTasks Drop decisions
	// and tasks dropped when a bound was met (Job.EnforceBounds).
	RerunMaps, DroppedTasks int
	// WrongSpeculations counts speculative copies not justified by a node
	// failure (see countWrongSpeculations). FetchFailures counts the
	// fetch-failure reports reduces sent (one per map per report);
	// FetchFailureReruns the maps the AM ran again after too many of them;
	// ExpiryReruns the completed maps run again because their node was
	// declared LOST (faults.go).
	WrongSpeculations, FetchFailures, FetchFailureReruns, ExpiryReruns int
	// TaskFinish is each task's completion time by type and index (the
	// time its output became final), -1 for a task never done.
	TaskFinish [speculators.NumTaskTypes][]speculators.Time
}

// Failed reports whether the job ended FAILED (Job.MaxAttempts).
func (r *JobResult) Failed() bool { return r.FailedTask != "" }

// Duration is Finish - Submit, or -1 for an unfinished job.
func (r *JobResult) Duration() speculators.Time {
	if r.Finish < 0 {
		return -1
	}
	return r.Finish - r.Submit
}
