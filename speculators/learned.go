package speculators

import (
	"fmt"
	"math"
)

// What policies learn across jobs. The engine is a pure state machine, so a
// policy that learns from one job for the next (GRASS's samples and its
// t_new prior, NSDI'14 §4 and §5.1) does not keep that knowledge itself: it
// hands it out as part of its output, the way etcd raft's Ready carries the
// entries its caller must persist, and the driver (sim/replay, bridge/serve)
// keeps it — in memory, or on disk through store/grassamples. What a policy
// needs from earlier jobs comes back in as a read-only Prior given at
// construction (Env.Prior). The driver decides which snapshot a policy sees:
// a replay gives every policy run the same one, so no policy's results
// depend on which ran before it.

// Learned is what a policy learned since it was last asked (Engine.Learned):
// knowledge for later jobs, for the driver to keep.
type Learned struct {
	// Runtimes are completed tasks' run times, the prior of t_new for later
	// jobs (GRASS §5.1; see grass's estimators).
	Runtimes []RuntimeRecord
	// Samples are GRASS's samples of finished perturbed jobs (§4.2).
	Samples []Sample
	// Tails are finished jobs' fitted map-time spreads (auto's rule v5).
	Tails []TailFit
}

// Empty reports whether l carries nothing.
func (l Learned) Empty() bool {
	return len(l.Runtimes) == 0 && len(l.Samples) == 0 && len(l.Tails) == 0
}

// TailFit is one finished job's map-time spread, fitted as its maps
// finished: Sigma is a lognormal's sigma estimated from the job's original
// map attempts (auto's rule v5, which carries it to later jobs), Maps how
// many maps the fit read. Slow is the share of the nodes that ran the
// job's maps whose maps took at least 1.5 times the job's median (auto's
// rule v6: node-speed spread; 0 in fits written before it).
//
// Rule v8 adds two things. Copied and CopyWins count the job's maps that
// had a speculative copy and those a copy won (the map record's). A job with
// reduces also hands out a second record when its last reduce succeeds, a
// reduce record: Maps 0, Reduces the reduce attempts it read, and
// ReduceSlow the share of the nodes that ran its reduces on which they took
// at least twice the job's median reduce (nodes slow on reduces only are
// invisible to Slow). Readers of the map fields skip reduce records.
type TailFit struct {
	Maps  int
	Sigma float64
	Slow  float64

	Copied, CopyWins int
	Reduces          int
	ReduceSlow       float64
	// ReduceSigma (rule v9) is a reduce record's reduce-time spread, fitted
	// as Sigma is for maps from the job's original reduce attempts (0 in
	// records written before it).
	ReduceSigma float64
	// Upper (rule v17) is a map record's upper-half spread: (q90 - q50) /
	// z(0.9) of its original maps' log times, an original a copy beat or
	// still running read at its time over its progress (0: none, or a
	// record written before it). A lognormal's halves are alike; a flat
	// wide law's upper half is about half its lower half.
	Upper float64
	// Lost and LostPaced (rule v38) are a map record's copies that lost to
	// their originals (killed after the original succeeded) read at a
	// progress of at least 0.1, and how many of them ran within 1.25x of
	// their original's pace (0: none, or a record written before them).
	Lost, LostPaced int
	// ReduceRatio (rule v39) is a reduce record's median reduce time after
	// its job's last map ended (finish minus the later of its start and
	// that end) over the job's median map run time, both of original
	// attempts that succeeded (0: none, or a record written before it). A
	// job of fewer reduces than a reduce record needs writes a record of
	// this ratio alone (RatioOnly).
	ReduceRatio float64
	// Deadline, in a deadline record (auto's rule v41), is the absolute
	// deadline of a job with a deadline that auto was given: every other
	// field is zero. It is handed out when the job is built (or given its
	// deadline later, live), not when it ends, so that a job placed while
	// that deadline lies ahead knows a deadline job races it. Readers of
	// map and reduce records skip it (IsDeadline); stores keep it in
	// memory only (it speaks of jobs running now).
	Deadline Time
	// Mark is what a deadline record's moment is (MarkDeadline,
	// MarkBoundAhead, MarkOutputLost, MarkBoundCopies, MarkBoundSpread, MarkReducesBuilt, MarkNodeFailed, MarkNodeResumed); zero in map and reduce records.
	Mark DeadlineMark
}

// DeadlineMark is the kind of a deadline record (TailFit.Deadline set):
// each of auto's rules reads only its own kind.
type DeadlineMark uint8

// New marks go at the end: the grass store keeps a window for each mark by
// its value (grass.tailKind).
const (
	// MarkDeadline (auto's rule v41): Deadline is the absolute deadline
	// of a job with a deadline.
	MarkDeadline DeadlineMark = iota
	// MarkBoundAhead (auto's rule v44): a job with an error bound (no
	// deadline) that auto was given was still short of its bound when
	// the record was handed out: Deadline is a few seconds after that
	// moment, and the job hands out a new record while it stays short of
	// its bound.
	MarkBoundAhead
	// MarkOutputLost (auto's rule v51): a job auto ran lost a completed
	// map's output (a succeeded map attempt failed or killed afterwards)
	// that a reducer had reported it could not fetch, at Deadline: the
	// cluster's failures take outputs with them (crashes, restarts), not
	// hangs that come back holding them.
	MarkOutputLost
	// MarkBoundCopies (auto's rule v52): a bound-copy record. A job with an
	// error bound (and no deadline) that auto ran reached its bound at
	// Deadline, and of its maps done by then Copied had had a speculative
	// copy, CopyWins of them won by a copy; every other field is zero.
	MarkBoundCopies
	// MarkBoundSpread (auto's rule v56): a bound-spread record. A job with
	// an error bound (and no deadline) that auto ran reached its bound at
	// Deadline; Maps, Sigma and Upper are FitTail's reading of its
	// original maps then (rule v5's spread and rule v17's upper half, a
	// running map at its time so far); every other field is zero. An
	// error-bound job drops its last maps and so never hands out a map
	// record.
	MarkBoundSpread
	// MarkReducesBuilt (auto's rule v65): a job with reduces was built
	// (handed to auto) at Deadline; every other field is zero. A map-only
	// job placed after none knows only map-only jobs have come.
	MarkReducesBuilt
	// MarkReducePool (auto's rule v67): a job auto ran on Hadoop 1 slot
	// pools had its first task placed at Deadline while its reduce pool
	// was Sigma busy (ClusterView.ReduceSlots less ReduceIdle, over
	// ReduceSlots: 0 to 1); every other field is zero.
	MarkReducePool
	// MarkNodeFailed (auto's rule v69): the fault analyzer declared a
	// node failed (NodeFailed) at Deadline, told to a job auto ran; every
	// other field is zero.
	MarkNodeFailed
	// MarkNodeResumed (auto's rule v69): the fault analyzer reported a
	// node back (NodeResumed) at Deadline, told to a job auto ran; every
	// other field is zero.
	MarkNodeResumed
)

// IsDeadline reports whether f is a deadline record (rule v41).
func (f TailFit) IsDeadline() bool { return f.Deadline != 0 }

// MaxReduceRatio bounds a usable TailFit's ReduceRatio: a reduce of a year
// after maps of a millisecond, so a larger one is a damaged record.
const MaxReduceRatio = 365 * 24 * 3600 * 1000.0

// RatioOnlyReduces is the fewest reduce times of a reduce record that
// carries more than a ReduceRatio (auto's reduceMinTimes): a reduce record
// of fewer, with a ReduceRatio, carries that ratio alone (rule v39).
const RatioOnlyReduces = 6

// RatioOnly reports whether f is a reduce record of a ReduceRatio alone
// (rule v39): readers of the other reduce fields skip it.
func (f TailFit) RatioOnly() bool {
	return f.IsReduce() && f.ReduceRatio > 0 && f.Reduces < RatioOnlyReduces
}

// IsReduce reports whether f is a reduce record (rule v8).
func (f TailFit) IsReduce() bool { return f.Maps == 0 && f.Deadline == 0 }

// MaxTailSigma bounds a usable TailFit's Sigma: wider than any fit of run
// times between 1 ms and a year can be (ln of a year in ms over z(0.9) is
// 18.9), so a larger one is a damaged record.
const MaxTailSigma = 20.0

// Valid reports whether a fit read from outside is usable: a map record
// with a job's count of maps (1 to MaxJobTasks), a spread in [0,
// MaxTailSigma], a slow share in [0, 1] (neither NaN) and 0 <= CopyWins <=
// Copied <= MaxJobTasks, no reduce fields; or a reduce record with Reduces in 1 to
// MaxJobTasks, ReduceSlow in [0, 1] and no map fields.
func (f TailFit) Valid() bool {
	if f.IsDeadline() && f.Mark == MarkBoundCopies {
		return f.Deadline > 0 && f.Copied > 0 && f.Copied <= MaxJobTasks && f.CopyWins >= 0 && f.CopyWins <= f.Copied &&
			f == TailFit{Deadline: f.Deadline, Mark: MarkBoundCopies, Copied: f.Copied, CopyWins: f.CopyWins}
	}
	if f.IsDeadline() && f.Mark == MarkBoundSpread {
		return f.Deadline > 0 && f.Maps > 0 && f.Maps <= MaxJobTasks && f.Sigma >= 0 && f.Sigma <= MaxTailSigma && f.Upper >= 0 && f.Upper <= MaxTailSigma &&
			f == TailFit{Deadline: f.Deadline, Mark: MarkBoundSpread, Maps: f.Maps, Sigma: f.Sigma, Upper: f.Upper}
	}
	if f.IsDeadline() && f.Mark == MarkReducePool {
		return f.Deadline > 0 && f.Sigma >= 0 && f.Sigma <= 1 && f == TailFit{Deadline: f.Deadline, Mark: MarkReducePool, Sigma: f.Sigma}
	}
	if f.IsDeadline() {
		return f.Deadline > 0 && (f.Mark <= MarkOutputLost || f.Mark == MarkReducesBuilt || f.Mark == MarkNodeFailed || f.Mark == MarkNodeResumed) && f == TailFit{Deadline: f.Deadline, Mark: f.Mark}
	}
	if f.Mark != MarkDeadline {
		return false
	}
	if f.IsReduce() {
		if f.ReduceRatio < 0 || !(f.ReduceRatio <= MaxReduceRatio) ||
			f.RatioOnly() && (f.ReduceSlow != 0 || f.ReduceSigma != 0 || f.Copied != 0) {
			return false
		}
		return f.Reduces > 0 && f.Reduces <= MaxJobTasks && f.ReduceSlow >= 0 && f.ReduceSlow <= 1 &&
			f.ReduceSigma >= 0 && f.ReduceSigma <= MaxTailSigma && f.Sigma == 0 && f.Slow == 0 && f.Upper == 0 && f.Lost == 0 && f.LostPaced == 0 &&
			f.CopyWins >= 0 && f.CopyWins <= f.Copied && f.Copied <= MaxJobTasks
	}
	return f.Maps > 0 && f.Maps <= MaxJobTasks && f.Sigma >= 0 && f.Sigma <= MaxTailSigma && f.Slow >= 0 && f.Slow <= 1 &&
		f.Upper >= 0 && f.Upper <= MaxTailSigma && f.LostPaced >= 0 && f.LostPaced <= f.Lost && f.Lost <= MaxJobTasks &&
		f.CopyWins >= 0 && f.CopyWins <= f.Copied && f.Copied <= MaxJobTasks && f.Reduces == 0 && f.ReduceSlow == 0 && f.ReduceSigma == 0 && f.ReduceRatio == 0
}

// TailPrior is implemented by a Prior that keeps finished jobs' TailFits
// (grass.MemoryStore, grassamples.Store): TailFits returns the most recent
// ones, oldest first; callers must not modify the slice.
type TailPrior interface {
	TailFits() []TailFit
}

// Teacher is implemented by policies that learn across jobs. TakeLearned
// appends to l what the policy learned since its last call and forgets it.
type Teacher interface {
	TakeLearned(l *Learned)
}

// IdleDecider is implemented by a policy whose Decide is at times known
// to return nothing and change nothing any later call reads: DecideIdle
// reports whether it is so for the job as it is now, and Engine.SkipDecide
// then lets a driver leave Decide out. A yes must hold until the job's
// next event (the engine keeps it until Observe), whatever else the
// engine is asked meanwhile. A simulator ticks every job each
// second, queued ones too, and with a long queue those calls were most of
// the tick (on xulau/ese under gs, 15% of the replay; issue 31).
type IdleDecider interface {
	DecideIdle(job *Job) bool
}

// DecideDeferrer is implemented by a policy whose Decide, on a job with no
// event since, returns nothing at every tick for a while yet changes state
// of its own that a later call reads, so that it cannot be declared idle
// (IdleDecider), but can bring that state up to date later in one call:
// GRASS's learner on a job waiting in a loaded cluster's queue adds the
// job's share in use to its utilisation sum at every Decide (the mean of n
// equal values, summed with rounding, needs each of the n additions) and
// checks at each whether to switch (on xulau/ese, 3.57 million of grass's
// 4.0 million Decides; issue 31).
//
// DeferDecides is asked right after a Decide at now that returned nothing
// (Engine.DeferDecides). A yes promises that every Decide at a later tick,
// until the job's next event, would return nothing, and that what each
// changes depends on nothing but the job as it is, the tick's time and the
// prior's samples of one size bucket at that tick (Prior.Samples(bucket);
// bucket -1: none). A driver may then leave those Decides out and hand
// them over later: DecidesLeftOut runs them, n ticks at first, first+step,
// ..., in order, as each would have run, bit for bit (Job.Now is already
// the last tick's: a Decide made up takes its time from first and step,
// not from the job). Other calls
// (WantsSlot, ChooseForSlot, JobPriority, Observe) come only after it (the
// engine checks), and the driver hands the ticks over before it keeps a
// sample of that bucket into the prior the policy reads, and before it
// keeps the prior's first run time of 0 ms (Learned.Runtimes), whatever
// the bucket: a median of run times that were all above 0 is above 0, one
// with a 0 ms run time may not be (GRASS's map length of a job waiting
// for its first map).
type DecideDeferrer interface {
	DeferDecides(job *Job, now Time) (ok bool, bucket int)
	DecidesLeftOut(job *Job, first, step Time, n int)
}

// LearnedPending is implemented by a Teacher that can tell cheaply whether
// it has learned anything since its last TakeLearned: when HasLearned is
// false, Engine.Learned returns nothing without asking TakeLearned. The
// driver asks after every event, and most events teach nothing (on
// xulau/sca-sda under gs, the calls were 4% of the replay; issue 31).
type LearnedPending interface {
	HasLearned() bool
}

// Prior is the read-only knowledge of earlier jobs a policy is built with
// (Env.Prior). Implementations shared by concurrent engines must be safe for
// concurrent reads; neither method may touch a disk (both are called from
// Decide).
type Prior interface {
	// Samples returns the samples of one size bucket in the order they were
	// kept; callers must not modify the slice.
	Samples(bucket int) []Sample
	// PriorRuntime is the estimate of a new task's run time in ms from
	// earlier jobs' completions, and whether there is one.
	PriorRuntime(ty TaskType, inputBytes int64) (float64, bool)
}

// PriorTaskMean is the cross-job prior's estimate of a job's mean task
// time, for a job that has no a-priori one (JobInfo.TaskMillis 0): the
// prior's run time for its maps at their mean known input size, or for its
// reduces in a job without maps. Live the sidecar hands it to the job's
// engine under `serve --task-mean-from-prior`, and a replay under `replay
// --task-mean-from-prior` hands it alike, from what the replay's earlier
// jobs taught (Xu and Lau, Optimization for Speculative Execution in Big
// Data Processing Clusters, §III, take a task's expected time from prior
// trace data and the size of its input). ok is false when the prior knows
// none, or only a value no policy can use (0, infinite).
func PriorTaskMean(prior Prior, info JobInfo) (ms float64, ok bool) {
	if prior == nil {
		return 0, false
	}
	ty, sizes := Map, info.MapInputBytes
	if info.Maps == 0 && info.Reduces > 0 {
		ty, sizes = Reduce, info.ReduceInputBytes
	}
	ms, ok = prior.PriorRuntime(ty, meanKnownBytes(sizes))
	if !ok || !(ms > 0) || math.IsInf(ms, 0) {
		return 0, false
	}
	return ms, true
}

// meanKnownBytes is the mean of the known (positive) sizes, 0 when none is.
func meanKnownBytes(sizes []int64) int64 {
	n, sum := 0, 0.0
	for _, b := range sizes {
		if b > 0 {
			n++
			sum += float64(b)
		}
	}
	if n == 0 {
		return 0
	}
	return int64(sum / float64(n))
}

// RuntimeRecord is one completed task of an earlier job: its type, run time
// in ms and input size in bytes (0: unknown).
type RuntimeRecord struct {
	Type       TaskType
	Ms         float64
	InputBytes int64
}

// Sample kinds and algorithms (GRASS §4.1-4.2).
const (
	SampleDeadline = "deadline"
	SampleError    = "error"
	SampleGS       = "gs"
	SampleRAS      = "ras"
)

// Sample is one earlier job's performance, run with GS or with RAS all
// through (GRASS, NSDI'14 §4.1-4.2), keyed by the three factors of §4.1
// (the bound, cluster utilisation and estimation accuracy) and by its size
// bucket (§4.2, §6.1).
//
// Curve describes how the job did over its final stretch of work, so that a
// later job can estimate the effect of switching to GS at any remaining
// amount of work w: Curve[i] is the value at w = (i+1) x CurveStep waves.
// For deadline jobs w is time before the deadline in median task lengths and
// the value is the input tasks completed in that final time, in waves (tasks
// / slots); for error-bound jobs w is the final needed input tasks in waves
// and the value is the time they took, in median task lengths. Waves and
// median task lengths make jobs of different sizes and speeds comparable.
type Sample struct {
	Bucket      int       `json:"bucket"`
	Kind        string    `json:"kind"`
	Algorithm   string    `json:"algorithm"`
	Bound       float64   `json:"bound"` // error: epsilon; deadline: slack over the ideal duration (§6.1)
	Utilisation float64   `json:"utilisation"`
	Accuracy    float64   `json:"accuracy"` // mean of t_rem and t_new accuracies (§5.1), 0..1
	Tasks       int       `json:"tasks"`
	CurveStep   float64   `json:"curve_step"`
	Curve       []float64 `json:"curve"`
}

// Validate reports what is wrong with a sample read from outside.
func (s *Sample) Validate() error {
	switch {
	case s.Bucket < 0 || s.Bucket > 2:
		return fmt.Errorf("bucket %d: want 0, 1 or 2", s.Bucket)
	case s.Kind != SampleDeadline && s.Kind != SampleError:
		return fmt.Errorf("kind %q: want %q or %q", s.Kind, SampleDeadline, SampleError)
	case s.Algorithm != SampleGS && s.Algorithm != SampleRAS:
		return fmt.Errorf("algorithm %q: want %q or %q", s.Algorithm, SampleGS, SampleRAS)
	case !(s.CurveStep > 0):
		return fmt.Errorf("curve_step %g: want > 0", s.CurveStep)
	case s.Bound != s.Bound || s.Utilisation != s.Utilisation || s.Accuracy != s.Accuracy:
		return fmt.Errorf("bound, utilisation and accuracy must be numbers")
	}
	for i, v := range s.Curve {
		if v != v || v < 0 {
			return fmt.Errorf("curve[%d] = %g: want a number >= 0", i, v)
		}
	}
	return nil
}
