package grass

import (
	"math"
	"slices"

	"github.com/specbridge/specbridge/speculators"
)

// quietUntil returns a time up to which (and at now itself) no running task
// can be in Γ as long as nothing but the clock moves: no event of the job
// and no Decide that changes what Γ reads (both change p.ver, which ends the
// quiet time at once). With GS it also requires that T holds no original
// (every original is a member of GS's Γ), so that Γ is empty and WantsSlot's
// answer is no. It returns now when it cannot tell, and WantsSlot then
// computes Γ. The scheduler asks
// every pull-based job at every scheduling round, and most rounds differ from
// the job's previous one only by the clock; this keeps those from costing a
// scan of the job's tasks each (issue 31).
//
// Why the bound holds. Between events, the only inputs of Γ that move are
// the clock's: t_rem of each running attempt, t_new (through the running
// tasks counted in it, estimators.censor) and a deadline's time left. We
// bound each from the side that would let a copy into Γ:
//
//   - t_new is never below tnewFloor's bound (per input byte, times the
//     task's input, or in ms). A t_new that comes from
//     earlier jobs (the prior, before the job's first completion of the
//     type) changes when another job learns; the answers used are noted and
//     WantsSlot trusts the quiet time only while none of them has fallen or
//     changed between known and unknown (priorHolds).
//   - A running attempt that has not reported progress counts in t_rem as
//     max(0, t_new - elapsed), never above t_new, so its task is in neither
//     GS's nor RAS's Γ until a report.
//   - t_rem is the minimum over the task's running attempts, so it is at most
//     the estimate of any one attempt that has reported progress, which grows
//     linearly with the clock between reports (Attempt.PhaseTimeLeft:
//     (1-p)/p x elapsed, or the current phase's (1-p)/dp x time in phase).
//   - GS takes a copy into Γ only when t_new < t_rem, RAS only when
//     c x t_rem - (c+1) x t_new > 0 with c running attempts; so a task whose
//     every measured attempt's t_rem stays at most the lower bound of t_new
//     (times (c+1)/c for RAS) cannot enter Γ before the time that attempt's
//     line reaches it. Pruning (Pseudocode 1 line 6, Pseudocode 2's earliest
//     tasks) only removes members and is ignored, which can only shorten the
//     bound.
//   - Eligibility (a measured attempt, no copy pending, at most two copies in
//     early waves), the task sets and the algorithm in force change only at
//     events or Decides.
//   - An original in T is a member of GS's Γ and may come back from the
//     pruning as the clock moves; GS with any original left gets no quiet
//     time on a deadline- or error-bound job. On an exact job nothing is
//     pruned, and a copy goes before every original (first on a tie) only
//     once its t_rem exceeds their t_new, each at least its floor
//     (blocking). RAS's Γ holds running tasks only.
//
// Float rounding is covered by taking the bound 1e-6 lower than computed,
// and the time rounded down to the ms (Attempt.LeftStaysBelow).
func (p *policy) quietUntil(job *speculators.Job, now speculators.Time) speculators.Time {
	const never = speculators.Time(math.MaxInt64)
	until := never
	e := &p.est
	p.quiet.priors = p.quiet.priors[:0]
	original := p.hasOriginal(job)
	// blocking: with GS on an exact job, every original in T is in Γ and
	// goes first on a tie, so a copy is Γ.first() only once its t_rem (its
	// key, highest first) exceeds every original's t_new; blocking is the
	// highest lower bound of those, over the types whose every task has a
	// t_new (a completion), the others left out (which only lowers it).
	var blocking float64
	var floorNorm, floorDur [speculators.NumTaskTypes]float64
	var floorDone [speculators.NumTaskTypes]bool
	floor := func(ty int) (float64, float64) {
		if !floorDone[ty] {
			floorNorm[ty], floorDur[ty] = e.tnewFloor(job, speculators.TaskType(ty), now)
			floorDone[ty] = true
		}
		return floorNorm[ty], floorDur[ty]
	}
	if original && p.useGS {
		if job.Deadline > 0 || job.ErrorBound > 0 {
			return now // pruning may give an original back to Γ as the clock moves
		}
		for ty := range job.Tasks {
			if e.durN[ty] == 0 {
				continue
			}
			lbNorm, lbDur := floor(ty)
			open := job.Open[ty]
			for i := open.Next(0); i >= 0; i = open.Next(i + 1) {
				t := job.Tasks[ty][i]
				if t.Done() || t.Dropped || t.RunningAttempts > 0 {
					continue
				}
				lb := lbDur
				if t.InputBytes > 0 && e.normN[ty] > 0 {
					lb = lbNorm * float64(t.InputBytes)
				}
				blocking = max(blocking, lb)
			}
		}
	}
	early := original || job.ContainerNeeds[speculators.Map]+job.ContainerNeeds[speculators.Reduce] > 0
	for ty := range job.Tasks {
		mapType := speculators.TaskType(ty) == speculators.Map
		if (mapType && p.ended) || job.RunningTasks[ty] == 0 {
			continue // being dropped, or nothing running: no copy in Γ
		}
		lbNorm, lbDur := floor(ty)
		// The running tasks (RAS's Γ has no originals, and GS has none
		// left here).
		live := job.Live[ty]
		for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
			t := job.Tasks[ty][i]
			if t.Done() || t.Dropped || t.RunningAttempts == 0 || (mapType && p.dropped[t.ID.Index]) {
				continue
			}
			var lb float64
			switch {
			case t.InputBytes > 0 && e.normN[ty] > 0:
				lb = lbNorm * float64(t.InputBytes)
			case e.durN[ty] > 0:
				lb = lbDur
			case e.prior == nil:
				continue // t_new unknown until a completion: not in T
			default:
				// t_new from earlier jobs: WantsSlot checks that it has not
				// fallen (or become known) before trusting the bound.
				v, ok := p.quietPrior(speculators.TaskType(ty), t.InputBytes)
				if !ok {
					continue // unknown: not in T while it stays so
				}
				lb = v
			}
			if t.PendingCopies > 0 {
				continue // not eligible until the ledger settles (an event)
			}
			c := 0
			for _, a := range t.Attempts {
				if a.Running() {
					c++
				}
			}
			if early && c >= 2 {
				continue // at most two copies in early waves
			}
			thr := max(lb, blocking)
			if !p.useGS {
				thr = lb * float64(c+1) / float64(c)
			}
			if !(thr > 0) || math.IsInf(thr, 1) {
				return now
			}
			at, ok := taskQuiet(t, now, thr)
			if !ok {
				return now
			}
			until = min(until, at)
		}
	}
	if until <= now {
		return now
	}
	return until
}

// tnewFloor bounds from below, for every time from now until the job's next
// event, the mean that t_new is made of for type ty: per input byte (norm)
// and in ms (dur), 0 where the type has no completion. The running tasks
// censor counts have each run longer than the completions' mean m, and
// their extrapolated durations (elapsed + t_rem, as elapsed / p) only grow
// with the clock; a running task not counted yet may join later at a
// duration above m, which can only pull the mean down towards m; one whose
// estimate has TimeLeft's form (a map, or a phase without progress yet)
// joins at elapsed / p > m / p, its progress p fixed until its next report.
// So the bound is the least mean of the completions, the counted tasks'
// durations now and any of the tasks that could still join, each at m / p
// (or m): those below the mean, lowest first. A reduce whose phase
// began at now changes its formula at the next ms (Attempt.PhaseTimeLeft)
// and counts m. Without ParamTnewRunning, t_new is the completions' mean.
func (e *estimators) tnewFloor(job *speculators.Job, ty speculators.TaskType, now speculators.Time) (norm, dur float64) {
	var sum, n [2]float64 // [0] per byte, [1] ms
	var m [2]float64
	if e.normN[ty] > 0 {
		sum[0], n[0] = e.normSum[ty], float64(e.normN[ty])
		m[0] = sum[0] / n[0]
	}
	if e.durN[ty] > 0 {
		sum[1], n[1] = e.durSum[ty], float64(e.durN[ty])
		m[1] = sum[1] / n[1]
	}
	if e.running && job.RunningTasks[ty] > 0 {
		live := job.Live[ty]
		for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
			t := job.Tasks[ty][i]
			if t.RunningAttempts == 0 || t.Done() {
				continue
			}
			k, size := 1, 1.0
			if t.InputBytes > 0 {
				k, size = 0, float64(t.InputBytes)
			}
			if n[k] == 0 {
				continue // censor counts nothing of this kind
			}
			var oldest *speculators.Attempt
			for _, a := range t.Attempts {
				if a.Running() && (oldest == nil || a.Start < oldest.Start) {
					oldest = a
				}
			}
			if oldest == nil || oldest.Progress <= 0 {
				continue // t_rem unknown until a report: never counted before it
			}
			elapsed := float64(now - oldest.Start)
			left := oldest.PhaseTimeLeft(now) * 1000
			counted := elapsed > m[k]*size && left >= 0 && !math.IsInf(left, 1)
			edge := oldest.Phase != speculators.PhaseMap && oldest.Progress > oldest.PhaseStartProgress && now <= oldest.PhaseStart
			switch {
			case counted && !edge:
				sum[k] += (elapsed + left) / size
				n[k]++
			case !edge && (oldest.Phase == speculators.PhaseMap || oldest.Progress <= oldest.PhaseStartProgress):
				// Joins once elapsed > m x size, at elapsed / p from
				// then on (Attempt.TimeLeft's form).
				e.joins[k] = append(e.joins[k], m[k]/oldest.Progress)
			default:
				e.joins[k] = append(e.joins[k], m[k])
			}
		}
	}
	// The lowest mean the tasks that may join can make: those below the
	// mean pull it down, the lowest first; the others only raise it.
	for k := range e.joins {
		if len(e.joins[k]) == 0 {
			continue
		}
		slices.Sort(e.joins[k])
		for _, v := range e.joins[k] {
			if v*n[k] >= sum[k] {
				break
			}
			sum[k] += v
			n[k]++
		}
		e.joins[k] = e.joins[k][:0]
	}
	if n[0] > 0 {
		norm = sum[0] / n[0]
	}
	if n[1] > 0 {
		dur = sum[1] / n[1]
	}
	return norm, dur
}

// taskQuiet is the time up to which running task t's t_rem stays at most
// thr (ms), judged from its attempts that have reported progress (t_rem is
// their minimum, so each bounds it; the latest bound is kept); never when
// one of them has finished its work (t_rem 0) or one has not reported (see
// quietUntil). ok is false when an attempt's estimate may change form as
// the clock moves (Attempt.LeftStaysBelow).
func taskQuiet(t *speculators.Task, now speculators.Time, thr float64) (speculators.Time, bool) {
	const never = speculators.Time(math.MaxInt64)
	at, measured := speculators.Time(math.MinInt64), false
	for _, a := range t.Attempts {
		if !a.Running() {
			continue
		}
		if a.Progress <= 0 {
			// Not reported yet: trem counts it max(0, t_new - elapsed),
			// never above t_new, which keeps the task out of GS's Γ
			// (t_new < t_rem) and RAS's (t_rem > (c+1)/c t_new) until
			// a report.
			return never, true
		}
		ta, ok := a.LeftStaysBelow(now, thr)
		if !ok {
			return 0, false
		}
		if ta == never {
			return never, true // t_rem 0 from now on
		}
		if !measured || ta > at {
			at, measured = ta, true
		}
	}
	if !measured {
		return never, true
	}
	return at, true
}

// priorSeen is one t_new from earlier jobs that a quiet time was computed
// with (quietPrior): the prior's answer for a task type and input size.
type priorSeen struct {
	ty    speculators.TaskType
	bytes int64
	ms    float64
	ok    bool
}

// maxPriorSeen bounds the answers a quiet time may rest on; a job whose
// running tasks need more distinct ones gets no quiet time.
const maxPriorSeen = 4

// quietPrior asks the prior for t_new of a task of type ty and input size
// bytes and notes the answer for priorHolds.
func (p *policy) quietPrior(ty speculators.TaskType, bytes int64) (float64, bool) {
	q := &p.quiet
	for _, s := range q.priors {
		if s.ty == ty && s.bytes == bytes {
			return s.ms, s.ok
		}
	}
	ms, ok := p.est.prior.PriorRuntime(ty, bytes)
	q.priors = append(q.priors, priorSeen{ty: ty, bytes: bytes, ms: ms, ok: ok})
	return ms, ok
}

// priorHolds reports whether every t_new from earlier jobs the quiet time
// rests on is still known as it was and no lower: a higher t_new only
// lengthens the time before a copy could join Γ.
func (p *policy) priorHolds() bool {
	q := &p.quiet
	if len(q.priors) > maxPriorSeen {
		return false
	}
	for _, s := range q.priors {
		ms, ok := p.est.prior.PriorRuntime(s.ty, s.bytes)
		if ok != s.ok || (ok && ms < s.ms) {
			return false
		}
	}
	return true
}
