package speculators

import (
	"math"
	"math/bits"
	"slices"
)

// RunningStats accumulates count, sum and sum of squares the way Hadoop's
// DataStatistics does, so that mean and standard deviation match Hadoop's
// numerically (population standard deviation).
type RunningStats struct {
	N     int
	Sum   float64
	SumSq float64
}

// Add records one sample.
func (s *RunningStats) Add(x float64) {
	s.N++
	s.Sum += x
	s.SumSq += x * x
}

// Mean is the sample mean, 0 without samples.
func (s *RunningStats) Mean() float64 {
	if s.N == 0 {
		return 0
	}
	return s.Sum / float64(s.N)
}

// Std is the population standard deviation, 0 without samples.
func (s *RunningStats) Std() float64 {
	if s.N == 0 {
		return 0
	}
	m := s.Mean()
	v := s.SumSq/float64(s.N) - m*m
	if v < 0 {
		return 0
	}
	return math.Sqrt(v)
}

// Outlier is mean + sigma standard deviations (DataStatistics.outlier).
func (s *RunningStats) Outlier(sigma float64) float64 { return s.Mean() + sigma*s.Std() }

// Elapsed is how long the attempt has run at now, in ms (never negative).
func (a *Attempt) Elapsed(now Time) Time {
	end := now
	if !a.Running() {
		end = a.Finish
	}
	if end < a.Start {
		return 0
	}
	return end - a.Start
}

// ProgressRate is LATE's progress rate, ProgressScore / T, in progress per
// second, with T the time the attempt has been running at now (LATE §4).
// Using now rather than the last report means an attempt whose reports stop
// (a hung node) is seen to slow down. It is 0 before any time has passed.
func (a *Attempt) ProgressRate(now Time) float64 {
	return ProgressRateAt(a.Progress, a.Elapsed(now))
}

// ProgressRateAt is ProgressRate for an attempt at progress after elapsed
// ms, for a policy that keeps the two in a record of its own.
func ProgressRateAt(progress float64, elapsed Time) float64 {
	if elapsed <= 0 {
		return 0
	}
	return progress / (float64(elapsed) / 1000)
}

// TimeLeft is LATE's estimate of the seconds left, (1 - ProgressScore) /
// ProgressRate (LATE §4). An attempt with no progress yet has +Inf left.
func (a *Attempt) TimeLeft(now Time) float64 {
	return TimeLeftAt(a.Progress, a.ProgressRate(now))
}

// TimeLeftAt is TimeLeft for an attempt at progress moving at rate
// (ProgressRateAt).
func TimeLeftAt(progress, rate float64) float64 {
	if progress >= 1 {
		return 0
	}
	if rate <= 0 {
		return math.Inf(1)
	}
	return (1 - progress) / rate
}

// PhaseTimeLeft estimates the seconds left from the rate of progress since
// the attempt's current phase began: (1 - ProgressScore) / rate, with rate
// the progress made since PhaseStart over the time since. A reduce's score
// moves through copy, sort and reduce thirds at very different speeds
// (LATE §4.2's misestimation); extrapolating from the current phase alone
// sees a reduce that finished its copy and sort quickly and now crawls
// through its reduce phase for what it is. It is TimeLeft for maps, and
// until the current phase has made progress since its first report.
func (a *Attempt) PhaseTimeLeft(now Time) float64 {
	if a.Progress >= 1 {
		return 0
	}
	dp, dt := a.Progress-a.PhaseStartProgress, now-a.PhaseStart
	if a.Phase == PhaseMap || dp <= 0 || dt <= 0 {
		return a.TimeLeft(now)
	}
	return (1 - a.Progress) / (dp / (float64(dt) / 1000))
}

// LeftStaysBelow returns a time up to which PhaseTimeLeft(t) x 1000 (ms)
// stays at most ms for every t from now on, as long as nothing is reported
// (Progress, Phase and PhaseStart as they are): between reports the estimate
// grows linearly with the clock, (1-p)/p x elapsed or (1-p)/dp x time in the
// phase. A pull-based policy uses it to know how long a task cannot qualify
// for a copy (grass and mantri's WantsSlot). An attempt that has finished
// its work (t_rem 0) stays below for ever (math.MaxInt64). ok is false when
// the estimate is +Inf now (no progress: it stays so until a report, which
// the caller must weigh itself) or may change form at the next ms (a report
// at the very instant of the start or of a phase change), or ms is not a
// positive number. The result is rounded down and ms taken 1e-6 lower, so
// that float rounding of the estimate cannot make it late.
func (a *Attempt) LeftStaysBelow(now Time, ms float64) (Time, bool) {
	prog := a.Progress
	if prog >= 1 {
		return math.MaxInt64, true
	}
	if prog <= 0 || !(ms > 0) || math.IsInf(ms, 1) {
		return 0, false
	}
	base, slope := a.Start, (1-prog)/prog
	if dp := prog - a.PhaseStartProgress; a.Phase != PhaseMap && dp > 0 {
		if now <= a.PhaseStart {
			return 0, false
		}
		base, slope = a.PhaseStart, (1-prog)/dp
	} else if now <= a.Start {
		return 0, false
	}
	// slope x (t - base) > ms needs t - base > ms / slope.
	x := math.Floor(ms * (1 - 1e-6) / slope)
	if x >= float64(math.MaxInt64/4) {
		return math.MaxInt64, true
	}
	return base + Time(x), true
}

// LegacyEstimatedRuntime is Hadoop's LegacyTaskRuntimeEstimator estimate of
// an attempt's total run time in ms: time from start to the latest status
// report divided by the progress at that report (floored at 0.0001). It is -1
// until a report has arrived after the start, as in Hadoop.
func (a *Attempt) LegacyEstimatedRuntime() int64 {
	if a.Reports == 0 || a.LastReport <= a.Start {
		return -1
	}
	return int64(float64(a.LastReport-a.Start) / math.Max(0.0001, a.Progress))
}

// MeanRuntime is the mean run time (ms) of the type's completed tasks and
// whether any completed.
func (j *Job) MeanRuntime(ty TaskType) (float64, bool) {
	s := &j.Durations[ty]
	return s.Mean(), s.N > 0
}

// NewAttemptRuntime estimates t_new, the run time in ms of a fresh copy of
// task t: the mean completed run time per input byte of its type times the
// task's input size when sizes are known (GRASS §5.1: durations normalised
// to input size), else the mean completed run time. ok is false when nothing
// of the type has completed yet.
func (j *Job) NewAttemptRuntime(t *Task) (ms float64, ok bool) {
	ty := t.ID.Type
	if norm := &j.Normalized[ty]; t.InputBytes > 0 && norm.N > 0 {
		return norm.Mean() * float64(t.InputBytes), true
	}
	return j.MeanRuntime(ty)
}

// Mean is the arithmetic mean of xs, summed in order; 0 for an empty slice.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Percentile returns the p-th percentile (0..100) of xs by the
// nearest-rank-with-interpolation rule (linear between closest ranks),
// rearranging xs in place. It selects the two ranks it needs (KthSmallest)
// instead of sorting: O(n) rather than O(n log n), which is most of a
// policy's Decide on large jobs (LATE's slow-task threshold). It returns 0
// for an empty slice.
func Percentile(xs []float64, p float64) float64 {
	n := len(xs)
	if n == 0 {
		return 0
	}
	if hasNaN(xs) { // rare: slices.Sort's NaN order, exactly
		slices.Sort(xs)
		switch {
		case p <= 0:
			return xs[0]
		case p >= 100:
			return xs[n-1]
		}
		pos := p / 100 * float64(n-1)
		lo := int(pos)
		if lo+1 >= n {
			return xs[lo]
		}
		return xs[lo] + (pos-float64(lo))*(xs[lo+1]-xs[lo])
	}
	switch {
	case p <= 0:
		return slices.Min(xs)
	case p >= 100:
		return slices.Max(xs)
	}
	pos := p / 100 * float64(n-1)
	lo := int(pos)
	frac := pos - float64(lo)
	at := KthSmallest(xs, lo)
	if lo+1 >= n {
		return at
	}
	// Everything after rank lo is >= xs[lo]; the next rank is their least.
	next := slices.Min(xs[lo+1:])
	return at + frac*(next-at)
}

// PercentileMerged is Percentile of the values of sorted and xs together,
// exactly (the same two ranks, the same interpolation), where sorted is in
// ascending order and holds no NaN. It rearranges xs, not sorted, and costs
// O(len(xs)) plus O(log len(xs) x log len(sorted)) binary searches instead
// of O(len(sorted) + len(xs)): for a value set that changes slowly, such as
// the progress rates of a big job's succeeded tasks (LATE's slow-task
// threshold), kept sorted beside the few values that change every time.
func PercentileMerged(sorted, xs []float64, p float64) float64 {
	ns := len(sorted)
	if ns == 0 {
		return Percentile(xs, p)
	}
	n := ns + len(xs)
	if hasNaN(xs) { // rare: Percentile's NaN rules, on the values together
		return Percentile(append(slices.Clone(sorted), xs...), p)
	}
	switch {
	case p <= 0:
		if len(xs) == 0 {
			return sorted[0]
		}
		return min(sorted[0], slices.Min(xs))
	case p >= 100:
		if len(xs) == 0 {
			return sorted[ns-1]
		}
		return max(sorted[ns-1], slices.Max(xs))
	}
	pos := p / 100 * float64(n-1)
	lo := int(pos)
	frac := pos - float64(lo)
	at := kthOfUnion(sorted, xs, lo)
	if lo+1 >= n {
		return at
	}
	// The next rank: at again when more than lo+1 values are <= at, else
	// the least value above at, in sorted or in xs.
	le := upperBound(sorted, at)
	next, found := 0.0, false
	if le < ns {
		next, found = sorted[le], true
	}
	for _, x := range xs {
		if x <= at {
			le++
		} else if !found || x < next {
			next, found = x, true
		}
	}
	if le > lo+1 {
		next = at
	}
	return at + frac*(next-at)
}

// kthOfUnion is the value at rank k (0-based) of sorted and xs together
// (sorted ascending, no NaN in either), rearranging xs: a selection over
// xs as in KthSmallest (the same partition3), whose every round counts the pivot's rank in
// sorted by binary search and narrows both to the side holding rank k.
func kthOfUnion(sorted, xs []float64, k int) float64 {
	for budget := 2*bits.Len(uint(len(xs))) + 2; ; budget-- {
		switch {
		case len(xs) == 0:
			return sorted[k]
		case len(sorted) == 0:
			return KthSmallest(xs, k)
		case budget == 0: // never quadratic: select over both
			return KthSmallest(append(slices.Clone(sorted), xs...), k)
		}
		pivot := medianOf3(xs[0], xs[len(xs)/2], xs[len(xs)-1])
		lt, gt := partition3(xs, pivot)
		sl := lowerBound(sorted, pivot)
		su := upperBound(sorted, pivot)
		below, equal := lt+sl, gt-lt+su-sl
		switch {
		case k < below:
			xs, sorted = xs[:lt], sorted[:sl]
		case k < below+equal:
			return pivot
		default:
			k -= below + equal
			xs, sorted = xs[gt:], sorted[su:]
		}
	}
}

// lowerBound is the number of values of sorted below x; upperBound the
// number at most x.
func lowerBound(sorted []float64, x float64) int {
	i, _ := slices.BinarySearch(sorted, x)
	return i
}

func upperBound(sorted []float64, x float64) int {
	lo, hi := 0, len(sorted)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if sorted[m] <= x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
