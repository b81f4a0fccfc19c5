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
//   - t_new is never below floor's bound (per input byte, times the
//     task's input, or in ms). A t_new that comes from
//     earlier jobs (the prior, before the job's first completion of the
//     type) changes when another job learns; the answers used, less
//     priorSlack, are noted and WantsSlot trusts the quiet time only while
//     no answer has fallen below what was noted or changed between known
//     and unknown (priorHolds).
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
//
// Kept per task. A status report changes one task, and a job of n running
// tasks has about n/3 of them a second; computing every task's time again
// after each would cost n^2/3 task visits a second (issue 31). So each
// task's time (and its part in t_new's floor) is kept (quietTask) and
// computed again only after an event of that task, when the threshold it
// was computed for is above the one now (a fallen floor), or when it has
// passed; the floor's sums are kept the same way (quietRefresh). A pass
// then costs a few comparisons a task.
func (p *policy) quietUntil(job *speculators.Job, now speculators.Time) speculators.Time {
	const never = speculators.Time(math.MaxInt64)
	e := &p.est
	q := &p.quiet
	q.priors = q.priors[:0]
	q.failed, q.failedOK = q.failed[:0], false
	original := p.hasOriginal(job)
	if original && p.useGS && (job.Deadline > 0 || job.ErrorBound > 0) {
		q.last.ok = false
		return now // pruning may give an original back to Γ as the clock moves
	}
	// The tasks whose time does not hold are noted (failed) for
	// gammaPartial, where the rest are provably out of Γ. With GS and
	// originals left (an exact job), a task whose time was computed for a
	// threshold above its own t_new's lower bound (the originals' bound
	// was higher) may be in Γ behind the originals: it is noted too, and
	// gammaPartial takes every original. Not for an error-bound job,
	// which gammaPartial leaves to a full pass.
	collect := job.Deadline > 0 || job.ErrorBound == 0
	var b quietBounds
	b.early = original || job.ContainerNeeds[speculators.Map]+job.ContainerNeeds[speculators.Reduce] > 0
	touched := p.quietRefresh(job, now) && p.quietPriorsHold()
	if touched {
		// The prior's answers the kept times rest on, as noted: any bound
		// read below from a noted answer rests on it too (quietPrior).
		q.priors = append(q.priors, q.last.priors...)
	}
	for ty := range job.Tasks {
		q.promote(e, job, ty, now)
		b.floorNorm[ty], b.floorDur[ty] = q.floor(e, ty)
	}
	b.blocking = p.quietBlocking(job, original, &b)
	if touched {
		if p.quietHolds(&b) {
			// A kept time may rest on the originals' bound: which do is
			// known only from a full pass. Where the last pass's earliest
			// time has passed, quietTouched also visits the tasks whose
			// kept time has.
			return p.quietTouched(job, &b, now, collect && b.blocking == 0)
		}
		// A full pass reads the prior afresh, as before any kept time.
		q.priors = q.priors[:0]
		b.blocking = p.quietBlocking(job, original, &b)
	}
	until, head := never, math.Inf(1)
	failed := false
	for ty := range job.Tasks {
		mapType := speculators.TaskType(ty) == speculators.Map
		if (mapType && p.ended) || job.RunningTasks[ty] == 0 {
			continue // being dropped, or nothing running: no copy in Γ
		}
		// The running tasks (RAS's Γ has no originals, and GS has none
		// left here).
		live := job.Live[ty]
		for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
			t := job.Tasks[ty][i]
			thr, lb, how := p.quietThr(job, t, &b)
			if how == quietSkip {
				continue
			}
			if how == quietFail {
				q.last.ok = false
				q.failedOK = false
				return now
			}
			at, ok := p.quietAt(t, thr, now)
			if !ok {
				failed = true // no quiet time, whatever is noted
				if !q.fail(t, collect) {
					q.last.ok = false
					return now
				}
				continue
			}
			until = min(until, at)
			k := q.tasks[ty][i].thr
			head = min(head, thr/k)
			if collect && p.useGS && !(k <= lb) {
				// Out of Γ's first place only behind the originals.
				if len(q.failed) < maxQuietFailed {
					q.failed = append(q.failed, t.ID)
				} else {
					collect, q.failedOK = false, false
				}
			}
		}
	}
	if failed || until <= now {
		q.last.ok = false
		if failed && q.failedOK {
			// Every other task's time holds: the next pass after events
			// of a few tasks visits those and the ones noted here only.
			q.last = quietLast{ok: true, bounds: b, gs: p.useGS, until: until, head: head,
				priors: append(q.last.priors[:0], q.priors...), failed: append(q.last.failed[:0], q.failed...)}
		}
		return now
	}
	q.last = quietLast{ok: true, bounds: b, gs: p.useGS, until: until, head: head,
		priors: append(q.last.priors[:0], q.priors...), failed: q.last.failed[:0]}
	return until
}

// quietBlocking is the originals' bound: with GS on an exact job, every
// original in T is in Γ and goes first on a tie, so a copy is Γ.first()
// only once its t_rem (its key, highest first) exceeds every original's
// t_new; blocking is the highest lower bound of those: the floor of each
// type with a completion (b's floors), and for a type whose t_new still
// comes from earlier jobs the prior's answer for one of its originals
// (priorBlocking). 0 without originals or with RAS.
func (p *policy) quietBlocking(job *speculators.Job, original bool, b *quietBounds) float64 {
	e := &p.est
	var blocking float64
	if !original || !p.useGS {
		return 0
	}
	for ty := range job.Tasks {
		if e.durN[ty] == 0 {
			blocking = max(blocking, p.priorBlocking(job, speculators.TaskType(ty)))
			continue
		}
		for t := range waiting(job, ty) {
			if t.Done() || t.Dropped || t.RunningAttempts > 0 {
				continue
			}
			lb := b.floorDur[ty]
			if t.InputBytes > 0 && e.normN[ty] > 0 {
				lb = b.floorNorm[ty] * float64(t.InputBytes)
			}
			blocking = max(blocking, lb)
		}
	}
	return blocking
}

// quietBounds is what every task's threshold in quietUntil is made of:
// t_new's floor per type (per input byte and in ms), the originals' bound
// (blocking) and the early waves.
type quietBounds struct {
	floorNorm, floorDur [speculators.NumTaskTypes]float64
	blocking            float64
	early               bool
}

// quietLast is the latest full pass of quietUntil, for the passes after
// events of a few tasks only (quietTouched): its bounds, algorithm and
// time, and head, the least ratio over the tasks it counted of the
// threshold it judged them by to the one their kept time was computed for
// (at least 1).
type quietLast struct {
	ok     bool
	bounds quietBounds
	gs     bool
	until  speculators.Time
	head   float64
	priors []priorSeen // the prior's answers the kept times rest on
	// failed: the tasks whose time did not hold at the pass (or, with
	// GS, may be in Γ behind the originals), all noted (quiet.failed);
	// until is then the least time of the others, and the next pass
	// visits these again.
	failed []speculators.TaskID
}

// quietHolds reports whether every task's kept time still holds, until it
// passes, after events of a few tasks only, as quietLast left them
// (quietPriorsHold has checked the prior's answers): the same early waves
// and algorithm, the
// originals' bound no lower, and each floor no lower than the last pass's
// divided by head, so that every task's threshold now is at least the one
// its time was computed for (a threshold is max(floor x size, blocking),
// or floor x size x (c+1)/c, both growing with the floor and blocking; or
// the prior's answer as noted).
func (p *policy) quietHolds(b *quietBounds) bool {
	q := &p.quiet
	l := &q.last
	if b.early != l.bounds.early || p.useGS != l.gs || !(b.blocking >= l.bounds.blocking) {
		return false
	}
	for ty := range b.floorNorm {
		if !(b.floorNorm[ty]*l.head >= l.bounds.floorNorm[ty]*(1+1e-12)) || !(b.floorDur[ty]*l.head >= l.bounds.floorDur[ty]*(1+1e-12)) {
			return false
		}
	}
	return true
}

// quietPriorsHold reports whether the last full pass holds as far as the
// prior goes: it succeeded, and every answer of the prior its times rest
// on is still known as it was and no lower (priorHolds' test).
func (p *policy) quietPriorsHold() bool {
	l := &p.quiet.last
	if !l.ok || len(l.priors) > maxPriorSeen || len(l.priors) > 0 && p.est.prior == nil {
		return false
	}
	for _, s := range l.priors {
		ms, ok := p.est.prior.PriorRuntime(s.ty, s.bytes)
		if ok != s.ok || (ok && !(ms >= s.ms)) {
			return false
		}
	}
	return true
}

// quietTouched is quietUntil's pass over the tasks with events since the
// last one (quietRefresh's touched) when every other task's kept time
// holds (quietHolds): the least of the last pass's time and theirs.
// Each touched task's threshold by the last full pass's bounds lowers head,
// so that quietHolds keeps judging every kept time by those bounds.
//
// When the last pass's time has passed, it also visits the tasks whose
// kept time has, found by a look at each running task's kept time alone
// (expired), and takes the least of the others' kept times: what a full
// pass would find, as quietHolds shows every threshold now at least the
// one each kept time was computed for, so a full pass's quietAt would
// return those times as kept. A full pass reads each task and its
// thresholds; after the earliest kept time passed it was 2 in 3 of the
// full passes on xulau/sca-sda under gs (issue 31).
func (p *policy) quietTouched(job *speculators.Job, b *quietBounds, now speculators.Time, collect bool) speculators.Time {
	q := &p.quiet
	l := &q.last
	until := l.until
	q.visit = append(q.visit[:0], q.touched...)
	if now >= until {
		until = p.expired(job, now)
	}
	// A touched task's t_new from the prior is taken as the last pass
	// noted it (quietUntil put those answers back in q.priors, and
	// quietPrior returns a noted answer), so that its time rests on what
	// quietPriorsHold checks; a new answer joins the list.
	defer func() { l.priors = append(l.priors[:0], q.priors...) }()
	// The tasks touched since, and those whose time did not hold at the
	// last pass (l.failed: their kept times are none, so each is judged
	// afresh).
	q.visit = append(q.visit, l.failed...)
	failed := false
	for _, id := range q.visit {
		t := job.Tasks[id.Type][id.Index]
		if (id.Type == speculators.Map && p.ended) || !inSet(job.Live[id.Type], int(id.Index)) {
			continue
		}
		thr, _, how := p.quietThr(job, t, b)
		if how == quietSkip {
			continue
		}
		if how == quietFail {
			l.ok = false
			q.failedOK = false
			return now
		}
		at, ok := p.quietAt(t, thr, now)
		if !ok {
			failed = true // no quiet time, whatever is noted
			if !q.fail(t, collect) {
				l.ok = false
				return now
			}
			continue
		}
		until = min(until, at)
		thrL, _, _ := p.quietThr(job, t, &l.bounds)
		if r := thrL / q.tasks[id.Type][id.Index].thr; !(r > 0) {
			l.ok = false // no bound by the last pass's floors: a full pass next
		} else if r < l.head {
			l.head = r
		}
	}
	l.until = until
	l.failed = append(l.failed[:0], q.failed...)
	if failed {
		return now
	}
	return until
}

// expired appends to quiet.visit the running tasks whose kept time has
// passed at now and returns the least kept time of the others. A task
// without a kept time (thr 0) had an event since (touched), did not hold
// at the last pass (failed), both visited anyway, or was passed over
// (quietSkip) and stays so until an event.
//
// It reads the earliest kept times (quietTime.early) where they tell, and
// passes over every running task otherwise, finding them again.
func (p *policy) expired(job *speculators.Job, now speculators.Time) speculators.Time {
	q := &p.quiet
	from := len(q.visit)
	if until, ok := p.expiredEarly(job, now); ok {
		if testEarly != nil {
			testEarly(p, job, now, until, q.visit[from:])
		}
		return until
	}
	q.early, q.earlyMax, q.earlyOK = q.early[:0], math.MaxInt64, true
	var until speculators.Time
	q.visit, until = p.scanExpired(job, now, q.visit, true)
	return until
}

// testEarly, when set (tests), sees every answer of expired from the
// earliest kept times: the least kept time and the tasks visited.
var testEarly func(p *policy, job *speculators.Job, now, until speculators.Time, visit []speculators.TaskID)

// scanExpired is expired's pass over every running task: it appends to
// visit the tasks whose kept time has passed at now and returns it with
// the least kept time of the others, noting each kept time (noteEarly)
// when note is set.
func (p *policy) scanExpired(job *speculators.Job, now speculators.Time, visit []speculators.TaskID, note bool) ([]speculators.TaskID, speculators.Time) {
	q := &p.quiet
	until := speculators.Time(math.MaxInt64)
	for ty := range job.Tasks {
		if speculators.TaskType(ty) == speculators.Map && p.ended {
			continue
		}
		kept := q.tasks[ty]
		live := job.Live[ty]
		for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
			k := &kept[i]
			if k.thr == 0 {
				continue
			}
			if k.at > now {
				until = min(until, k.at)
			} else {
				visit = append(visit, job.Tasks[ty][i].ID)
			}
			if note {
				// A passed time too, kept until quietAt sets another
				// (the task may be passed over: quietSkip).
				q.noteEarly(job.Tasks[ty][i].ID, k.at)
			}
		}
	}
	return visit, until
}

// setKept keeps time at, computed for threshold thr, as task id's (k).
func (q *quietTime) setKept(k *quietTask, id speculators.TaskID, at speculators.Time, thr float64) {
	k.at, k.thr = at, thr
	q.noteEarly(id, at)
}

// earlyTime is a running task's kept time as quietAt set it, an entry of
// quietTime.early.
type earlyTime struct {
	at speculators.Time
	id speculators.TaskID
}

// maxEarly is how many of the earliest kept times quietTime.early holds. A
// variable so that a test can make it small.
var maxEarly = 8

// noteEarly notes that task id's kept time is now at (quietAt, expired):
// where it lies before earlyMax it joins early, whose latest entry, when
// early is full, leaves it and becomes earlyMax. So every running task
// with a kept time either has it in early or has it at earlyMax or later;
// an entry whose task's kept time has since changed or ended is left in
// place and passed over by expiredEarly.
func (q *quietTime) noteEarly(id speculators.TaskID, at speculators.Time) {
	if !q.earlyOK || at >= q.earlyMax {
		return
	}
	i := len(q.early)
	if i == maxEarly {
		i--
		q.earlyMax = q.early[i].at
		if at >= q.earlyMax {
			return
		}
	} else {
		q.early = append(q.early, earlyTime{})
	}
	for ; i > 0 && q.early[i-1].at > at; i-- {
		q.early[i] = q.early[i-1]
	}
	q.early[i] = earlyTime{at: at, id: id}
}

// expiredEarly is expired's answer from the earliest kept times alone
// (noteEarly), when they tell: now lies before earlyMax, so that every
// kept time that has passed is in early, and early holds a current kept
// time that has not (or no kept time lies outside it). A passed time stays
// in early until quietAt sets the task another: a task passed over
// (quietSkip) keeps it, and expired visits it again. The tasks appended
// to quiet.visit are in expired's order (by type, then index), each once.
// On xulau/ese under gs a pass over every running task (64 on average)
// found 1.3 kept times passed (issue 31).
func (p *policy) expiredEarly(job *speculators.Job, now speculators.Time) (speculators.Time, bool) {
	q := &p.quiet
	if !q.earlyOK || now >= q.earlyMax {
		return 0, false
	}
	from := len(q.visit)
	until := speculators.Time(math.MaxInt64)
	n := 0
	for _, e := range q.early {
		ty, i := e.id.Type, int(e.id.Index)
		if i >= len(q.tasks[ty]) || !inSet(job.Live[ty], i) {
			continue // ended since (its next kept time is noted anew)
		}
		if k := &q.tasks[ty][i]; k.thr == 0 || k.at != e.at {
			continue // changed since
		}
		q.early[n] = e
		n++
		if ty == speculators.Map && p.ended {
			continue
		}
		if e.at <= now {
			q.visit = append(q.visit, e.id)
		} else {
			until = min(until, e.at)
		}
	}
	q.early = q.early[:n]
	if until == math.MaxInt64 && q.earlyMax != math.MaxInt64 {
		q.visit = q.visit[:from]
		return 0, false
	}
	if len(q.visit)-from > 1 {
		slices.SortFunc(q.visit[from:], cmpTaskID)
		q.visit = q.visit[:from+len(slices.Compact(q.visit[from:]))]
	}
	return until, true
}

// maxQuietFailed is how many tasks whose quiet time does not hold
// gammaPartial takes. Γ from the noted tasks costs censor's pass and their
// entries, never more than Γ afresh, so the bound only keeps the lists
// from growing without end; on xulau/large-jobs under gs a bound of 16
// sent 9,500 of 35,000 computations of Γ to a full pass (issue 31). A
// variable so that a test can make it small.
var maxQuietFailed = 1 << 16

// fail notes running task t, whose quiet time does not hold at now, for
// gammaPartial when collect is set, and reports whether the pass should go
// on to note the others (false: Γ is computed afresh).
func (q *quietTime) fail(t *speculators.Task, collect bool) bool {
	if !collect || len(q.failed) >= maxQuietFailed {
		q.failedOK = false
		return false
	}
	q.failed = append(q.failed, t.ID)
	q.failedOK = true
	return true
}

// What quietThr found of a running task.
const (
	quietOK      = iota
	quietSkip    // not in Γ while nothing but the clock moves
	quietFail    // no threshold to judge it by: no quiet time
	quietByPrior // its t_new is the prior's (read and noted)
)

// quietThr is the threshold running task t's t_rem must stay under for it
// to stay out of Γ (see quietUntil): t_new's lower bound by b's floors
// (times (c+1)/c for RAS, at least blocking for GS), and that lower bound
// (lb).
func (p *policy) quietThr(job *speculators.Job, t *speculators.Task, b *quietBounds) (thr, lb float64, how int) {
	e := &p.est
	ty := t.ID.Type
	if t.Done() || t.Dropped || t.RunningAttempts == 0 || (ty == speculators.Map && p.dropped[t.ID.Index]) {
		return 0, 0, quietSkip
	}
	how = quietOK
	switch {
	case t.InputBytes > 0 && e.normN[ty] > 0:
		lb = b.floorNorm[ty] * float64(t.InputBytes)
	case e.durN[ty] > 0:
		lb = b.floorDur[ty]
	case e.prior == nil:
		return 0, 0, quietSkip // t_new unknown until a completion: not in T
	default:
		// t_new from earlier jobs: WantsSlot checks that it has not
		// fallen (or become known) before trusting the bound.
		v, ok := p.quietPrior(ty, t.InputBytes)
		if !ok {
			return 0, 0, quietSkip // unknown: not in T while it stays so
		}
		lb, how = v, quietByPrior
	}
	if t.PendingCopies > 0 {
		return 0, 0, quietSkip // not eligible until the ledger settles (an event)
	}
	if p.waitsOnMaps(t) {
		return 0, 0, quietSkip // not eligible until a report or a map's end (events)
	}
	// Γ's trem counts the running attempts the same way.
	c := t.RunningAttempts
	if b.early && c >= 2 {
		return 0, 0, quietSkip // at most two copies in early waves
	}
	thr = max(lb, b.blocking)
	if !p.useGS {
		thr = lb * float64(c+1) / float64(c)
	}
	if !(thr > 0) || math.IsInf(thr, 1) {
		return thr, lb, quietFail
	}
	return thr, lb, how
}

// quietAt is the time up to which running task t's t_rem stays at most
// thr: its kept time while that holds (no event of the task since, as
// quietRefresh zeroes its threshold, and a threshold no lower than the one
// it was computed for), else computed again. ok is false when the task may
// join Γ now.
func (p *policy) quietAt(t *speculators.Task, thr float64, now speculators.Time) (speculators.Time, bool) {
	k := &p.quiet.tasks[t.ID.Type][t.ID.Index]
	if k.thr == 0 || thr < k.thr || k.at <= now {
		// Computed for a threshold a little below thr, the time stands
		// while the floor falls by less than that (quietSlack); where that
		// time is already past, for thr.
		lo := thr * (1 - quietSlack)
		at, ok := taskQuiet(t, now, lo)
		if ok && at <= now {
			lo = thr
			at, ok = taskQuiet(t, now, lo)
		}
		if !ok || at <= now {
			k.thr = 0
			return now, false
		}
		p.quiet.setKept(k, t.ID, at, lo)
	}
	return k.at, true
}

// quietSlack is how far (1%) below its threshold a task's time is computed, so
// that the small falls of t_new's floor that most reports and completions
// bring do not make every task's time be computed again; the time, for a
// lower threshold, is only earlier.
const quietSlack = 1e-2

// priorBlocking is a lower bound of the highest t_new of type ty's
// originals in T when that t_new comes from earlier jobs (no completion of
// the type yet): the prior's answer for the first original in index order,
// as candidates builds T (a task whose t_new is unknown ends the type's
// part of T). 0 when there is none or the prior does not know. The answers
// read are noted for priorHolds, like every t_new from the prior a quiet
// time rests on.
//
// When every task of the type has the same input size every task asks the
// prior the same question, so the running tasks before the first original
// need no visit: the question is asked once, when any task is left, and
// the first original is found among the tasks without a running attempt
// (waiting). Before a job's first completion its running maps were each
// visited at every pass (6% of gs's replay of xulau/large-jobs, issue 31).
func (p *policy) priorBlocking(job *speculators.Job, ty speculators.TaskType) float64 {
	if p.est.prior == nil || (ty == speculators.Map && p.ended) {
		return 0
	}
	skip := func(t *speculators.Task) bool {
		return t.Done() || t.Dropped || (ty == speculators.Map && p.dropped[t.ID.Index])
	}
	open := job.Open[ty]
	if bytes, same := p.sameInput(job, ty); same {
		for i := open.Next(0); i >= 0; i = open.Next(i + 1) {
			if skip(job.Tasks[ty][i]) {
				continue
			}
			v, ok := p.quietPrior(ty, bytes)
			if !ok {
				return 0
			}
			for t := range waiting(job, int(ty)) {
				if !skip(t) && t.RunningAttempts == 0 {
					return v
				}
			}
			return 0
		}
		return 0
	}
	for i := open.Next(0); i >= 0; i = open.Next(i + 1) {
		t := job.Tasks[ty][i]
		if skip(t) {
			continue
		}
		v, ok := p.quietPrior(ty, t.InputBytes)
		if !ok {
			return 0
		}
		if t.RunningAttempts == 0 {
			return v
		}
	}
	return 0
}

// sameInput reports whether every task of type ty has the same input size
// (bytes), noted per task count (tasks' sizes are fixed when the job is
// made).
func (p *policy) sameInput(job *speculators.Job, ty speculators.TaskType) (bytes int64, same bool) {
	u := &p.uniform[ty]
	if tasks := job.Tasks[ty]; u.n != len(tasks) {
		u.n, u.same = len(tasks), len(tasks) > 0
		for _, t := range tasks {
			if t.InputBytes != tasks[0].InputBytes {
				u.same = false
				break
			}
		}
		if u.same {
			u.bytes = tasks[0].InputBytes
		}
	}
	return u.bytes, u.same
}

// quietTask is one task's part in the quiet time, kept between WantsSlot's
// passes (quietUntil) until an event of the task: the time up to which its
// t_rem stays at most thr, and its part in t_new's floor (floor): none,
// counted at val, or may join at val (per input byte when k is 0, in ms
// when 1) from join on.
type quietTask struct {
	at   speculators.Time
	thr  float64 // 0: at not computed
	part uint8
	k    uint8
	val  float64
	join speculators.Time // partJoins: the first instant it may count
}

// The parts a running task has in t_new's floor.
const (
	partNone uint8 = iota
	partCounted
	partJoins
)

// quietFloor is one type's and kind's (per byte, ms) running tasks' part in
// t_new's floor: the sum and count of the counted ones' values, and the
// least value of those that may join (how many there are: joins).
type quietFloor struct {
	sum   float64
	n     int
	joins int
	vmin  float64
	// vmax is at least the largest counted value (kept, as vmin, until
	// none is counted): a counted task's own t_new leaves its own value
	// out, and the mean without the largest is the least of those.
	vmax float64
	// maxStart and maxSize are at least the latest start of a counted
	// task's oldest attempt and the largest size of a counted task (kept
	// until none is counted; partsHold).
	maxStart speculators.Time
	maxSize  float64
	// next is at most the earliest join of a joiner (MaxInt64: none;
	// kept, as vmin, until a promote pass finds it again).
	next speculators.Time
}

// quietRefresh brings the tasks' parts in the quiet time up to date: every
// running task's after a change that may reach them all (a completion moves
// the completions' mean; a Decide that drops or switches; an event the
// policy cannot pin on one task), else only those of the tasks with an
// event since the last pass (noteQuiet). After a completion the other
// tasks keep their times: a time depends only on the task's own attempts
// and the threshold it was computed for, and quietUntil computes it again
// where the threshold now is lower. What else quietUntil reads (the
// early waves, the ledger, the algorithm in force) it reads afresh at each
// pass; a task's kept time stands for any threshold at or above the one it
// was computed for.
//
// Why a part kept from an earlier pass still bounds t_new from below:
// between the task's events its counted duration (elapsed plus t_rem) only
// grows with the clock, one that may join joins at its value or above, and
// the floor is monotone in each (floor).
func (p *policy) quietRefresh(job *speculators.Job, now speculators.Time) (touched bool) {
	q := &p.quiet
	e := &p.est
	for ty := range job.Tasks {
		if len(q.tasks[ty]) != len(job.Tasks[ty]) {
			q.all = true
		}
		if q.normN[ty] != e.normN[ty] || q.durN[ty] != e.durN[ty] {
			q.parts = true
		}
	}
	var fell uint8
	if q.built && !q.all && (!q.parts || q.partsHold(e, now, &fell)) {
		q.parts = false
		if fell != 0 {
			q.rejoin(e, job, fell, now)
		}
		q.noteMeans(e)
		for _, id := range q.dirty {
			t := job.Tasks[id.Type][id.Index]
			k := &q.tasks[id.Type][id.Index]
			q.drop(id.Type, k)
			q.part(e, t, k, now)
			k.thr = 0
		}
		q.dirty, q.touched = q.touched[:0], q.dirty
		return true
	}
	// Every part again. After a completion (parts) each task keeps its
	// time, which depends only on its own attempts and the threshold it
	// was computed for, unless it had an event since (dirty).
	keep := q.built && !q.all
	for ty := range job.Tasks {
		q.tasks[ty] = speculators.Grow(q.tasks[ty], len(job.Tasks[ty]))
		q.normN[ty], q.durN[ty] = e.normN[ty], e.durN[ty]
		for k := range q.floors[ty] {
			q.floors[ty][k] = quietFloor{vmin: math.Inf(1), next: math.MaxInt64}
		}
		kept := q.tasks[ty]
		if keep {
			for i := range kept {
				kept[i].part = partNone
			}
		} else {
			clear(kept)
			q.earlyOK = false // found again at expired's next pass
		}
		live := job.Live[ty]
		for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
			q.part(e, job.Tasks[ty][i], &kept[i], now)
		}
	}
	if keep {
		for _, id := range q.dirty {
			q.tasks[id.Type][id.Index].thr = 0
		}
	}
	q.dirty = q.dirty[:0]
	q.all, q.parts, q.built = false, false, true
	q.noteMeans(e)
	return false
}

// noteMeans notes the completions' means the parts are computed with from
// now on (partsHold).
func (q *quietTime) noteMeans(e *estimators) {
	for ty := range q.means {
		q.normN[ty], q.durN[ty] = e.normN[ty], e.durN[ty]
		q.means[ty] = [2]float64{}
		if e.normN[ty] > 0 {
			q.means[ty][0] = e.normSum[ty] / float64(e.normN[ty])
		}
		if e.durN[ty] > 0 {
			q.means[ty][1] = e.durSum[ty] / float64(e.durN[ty])
		}
	}
}

// partsHold reports whether every task's part kept in t_new's floor still
// bounds it from below after completions (the completions' mean m moved),
// so that only the parts of the tasks with an event need computing again,
// and, in fell, the types and kinds (bit 2 x type + kind) whose joiners'
// parts must be computed again first (rejoin). It holds where no kind got
// its first completion (its tasks have no part yet), and every counted
// task is still counted:
//
//   - A joiner's value (m/p, or m) was computed with an m no higher than
//     the one now, so it is at most what the task joins at; where m fell
//     below the one noted at the last refresh (a refresh notes the m every
//     kept part was computed with, so no kept part saw a higher one), the
//     kind's joiners are marked in fell.
//   - A counted task's value does not read m, and m falling keeps it
//     counted (elapsed only grows, m x size only fell).
//   - A counted task stays counted while its oldest attempt's elapsed
//     time exceeds m x its size; each kind keeps the latest start and the
//     largest size over its counted tasks (as vmax, an upper bound kept
//     until none is counted), and (now - latest start) > m x largest size
//     (with a margin of 1e-6 against rounding) gives it for all of them
//     from now until the next completion. Its value kept is then what it
//     was, a lower bound of its counted duration as between any events.
//
// In a wave that started together completions come in order of length,
// so m mostly rises and the tasks left have all run longer than the last
// completion (issue 31: the parts of every running task were computed
// again after each completion).
func (q *quietTime) partsHold(e *estimators, now speculators.Time, fell *uint8) bool {
	for ty := range q.means {
		for kind := range 2 {
			sum, n, was := e.normSum[ty], e.normN[ty], q.normN[ty]
			if kind == 1 {
				sum, n, was = e.durSum[ty], e.durN[ty], q.durN[ty]
			}
			if n == was {
				continue
			}
			if was == 0 {
				return false // the kind's first completion: parts to compute
			}
			m := sum / float64(n)
			if m < q.means[ty][kind] {
				*fell |= 1 << (2*ty + kind)
			} else if !(m >= q.means[ty][kind]) {
				return false // NaN
			}
			f := &q.floors[ty][kind]
			if f.n > 0 && !(float64(now-f.maxStart) > m*f.maxSize*(1+1e-6)) {
				return false
			}
		}
	}
	return true
}

// rejoin computes again at now the parts of the joiners of each type and
// kind marked in fell (partsHold: their completions' mean fell), with the
// mean as it is now. A joiner's value (m/p, or m) and its join time
// (start + m x size) read m, and one computed with a higher m would no
// longer bound what it joins at; a counted task's part reads no m and
// stays. Before, a fall sent the refresh to every running task's part and
// the next pass to every task's time: 62,000 of ras's 86,000 refreshes of
// every part on xulau/ese (issue 31). The tasks keep their times, which
// read no m, as after any refresh.
func (q *quietTime) rejoin(e *estimators, job *speculators.Job, fell uint8, now speculators.Time) {
	if testRejoin != nil {
		testRejoin()
	}
	for ty := range job.Tasks {
		kinds := fell >> (2 * ty) & 3
		if kinds == 0 {
			continue
		}
		kept := q.tasks[ty]
		live := job.Live[ty]
		for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
			if k := &kept[i]; k.part == partJoins && kinds&(1<<k.k) != 0 {
				q.drop(speculators.TaskType(ty), k)
				q.part(e, job.Tasks[ty][i], k, now)
			}
		}
	}
}

// testRejoin, when set (tests), is called at each rejoin.
var testRejoin func()

// noteQuiet records what an observed event changes for the quiet time: the
// task whose attempt it is about (a success also moves the completions'
// mean, which every task's part in t_new's floor reads: parts), or, for
// any other event, everything.
func (p *policy) noteQuiet(job *speculators.Job, ev *speculators.Event) {
	q := &p.quiet
	if !q.built || q.all {
		return
	}
	switch ev.Kind {
	case speculators.AttemptStarted, speculators.AttemptStatus, speculators.AttemptFailed, speculators.AttemptKilled, speculators.AttemptSucceeded:
		if t := job.Task(ev.Attempt.Task); t != nil && len(q.dirty) < 64+len(job.Tasks[t.ID.Type])/4 {
			q.dirty = append(q.dirty, t.ID)
			if ev.Kind == speculators.AttemptSucceeded {
				q.parts = true
			}
			return
		}
	}
	q.all = true
}

// part computes running task t's part in t_new's floor at now into k, and
// adds it to the type's sums (see floor).
func (q *quietTime) part(e *estimators, t *speculators.Task, k *quietTask, now speculators.Time) {
	k.part = partNone
	ty := t.ID.Type
	if !e.running || t.RunningAttempts == 0 || t.Done() {
		return
	}
	kind, size := 1, 1.0
	if t.InputBytes > 0 {
		kind, size = 0, float64(t.InputBytes)
	}
	var m float64
	if kind == 0 {
		if e.normN[ty] == 0 {
			return // censor counts nothing of this kind
		}
		m = e.normSum[ty] / float64(e.normN[ty])
	} else {
		if e.durN[ty] == 0 {
			return
		}
		m = e.durSum[ty] / float64(e.durN[ty])
	}
	var oldest *speculators.Attempt
	for _, a := range t.Attempts {
		if a.Running() && (oldest == nil || a.Start < oldest.Start) {
			oldest = a
		}
	}
	if oldest == nil || oldest.Progress <= 0 {
		return // t_rem unknown until a report: never counted before it
	}
	elapsed := float64(now - oldest.Start)
	var left float64
	counted := elapsed > m*size
	if counted { // t_rem only for a task that has outrun the mean
		left = oldest.PhaseTimeLeft(now) * 1000
		counted = left >= 0 && !math.IsInf(left, 1)
	}
	edge := oldest.Phase != speculators.PhaseMap && oldest.Progress > oldest.PhaseStartProgress && now <= oldest.PhaseStart
	k.k = uint8(kind)
	f := &q.floors[ty][kind]
	switch {
	case counted && !edge:
		k.part, k.val = partCounted, (elapsed+left)/size
		if f.n == 0 {
			f.maxStart, f.maxSize = oldest.Start, size
		} else {
			f.maxStart, f.maxSize = max(f.maxStart, oldest.Start), max(f.maxSize, size)
		}
		f.sum += k.val
		f.n++
		f.vmax = max(f.vmax, k.val)
		return
	case !edge && (oldest.Phase == speculators.PhaseMap || oldest.Progress <= oldest.PhaseStartProgress):
		// Joins once elapsed > m x size, at elapsed / p from then on
		// (Attempt.TimeLeft's form).
		k.part, k.val = partJoins, m/oldest.Progress
	default:
		k.part, k.val = partJoins, m
	}
	// censor counts it only once float64(now - start) > m x size (m no
	// lower: partsHold), so not before start + floor(m x size); one past
	// that already (a phase begun at now) may count at once.
	k.join = oldest.Start + math.MaxInt64/4
	if lim := m * size; lim < float64(math.MaxInt64/4) {
		k.join = oldest.Start + speculators.Time(math.Floor(lim))
	}
	f.joins++
	f.vmin = min(f.vmin, k.val)
	f.next = min(f.next, k.join)
}

// promote computes again the parts of type ty's joiners whose join has
// come (at now), when one may have: the floor takes a joiner in at vmin,
// the least value any joiner may bring, while a task that counts brings
// its own duration, and one that does not yet brings m / p with the
// completions' mean m as it is now (it rises with the completions, which
// leave the parts kept: partsHold). A part computed at now bounds the
// task's from below until its next event as any part does, and the task's
// kept time reads only its own attempts, so it stays. The pass also
// finds each kind's least joiner value, earliest join and largest counted
// value again (kept bounds, which only loosen between passes).
func (q *quietTime) promote(e *estimators, job *speculators.Job, ty int, now speculators.Time) {
	fs := &q.floors[ty]
	if (fs[0].joins == 0 || now < fs[0].next) && (fs[1].joins == 0 || now < fs[1].next) {
		return
	}
	kept := q.tasks[ty]
	var vmin, vmax [2]float64
	var next [2]speculators.Time
	for k := range fs {
		vmin[k], next[k] = math.Inf(1), math.MaxInt64
	}
	live := job.Live[ty]
	for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
		k := &kept[i]
		if k.part == partJoins && k.join <= now {
			q.drop(speculators.TaskType(ty), k)
			q.part(e, job.Tasks[ty][i], k, now)
		}
		switch k.part {
		case partJoins:
			vmin[k.k] = min(vmin[k.k], k.val)
			next[k.k] = min(next[k.k], k.join)
		case partCounted:
			vmax[k.k] = max(vmax[k.k], k.val)
		}
	}
	for k := range fs {
		f := &fs[k]
		if f.joins > 0 {
			f.vmin, f.next = vmin[k], next[k]
		} else {
			f.vmin, f.next = math.Inf(1), math.MaxInt64
		}
		if f.n > 0 {
			f.vmax = vmax[k]
		}
	}
}

// drop takes task part k out of type ty's sums.
func (q *quietTime) drop(ty speculators.TaskType, k *quietTask) {
	f := &q.floors[ty][k.k]
	switch k.part {
	case partCounted:
		f.sum -= k.val
		if f.n--; f.n == 0 {
			f.vmax = 0
		}
	case partJoins:
		// vmin stays (a lower value only lowers the floor) until no
		// joiner is left.
		if f.joins--; f.joins == 0 {
			f.vmin = math.Inf(1)
		}
	}
	k.part = partNone
}

// floor bounds from below, for every time from now until the job's next
// event, the mean that t_new is made of for type ty: per input byte (norm)
// and in ms (dur), 0 where the type has no completion. The running tasks
// censor counts have each run longer than the completions' mean m, and
// their extrapolated durations (elapsed + t_rem, as elapsed / p) only grow
// with the clock; a running task not counted yet may join later at a
// duration above m, which can only pull the mean down towards m; one whose
// estimate has TimeLeft's form (a map, or a phase without progress yet)
// joins at elapsed / p > m / p, its progress p fixed until its next report.
// A reduce whose phase began at now changes its formula at the next ms
// (Attempt.PhaseTimeLeft) and may join at m. So t_new is at least the mean
// of the completions, the counted tasks' durations as kept (quietTask) and
// the values the joiners that have joined by then brought, each at least
// the least value a joiner may join at (vmin); with k of the joins joiners
// in at vmin below the mean, the more the lower, so the mean with all of
// them in at vmin bounds every case. (Before, the floor was vmin itself
// wherever a joiner was left, near the completions' mean, while t_new
// stood at about twice that on xulau/sca-sda under gs: a copy whose t_rem
// passed the floor had Γ computed at every scheduling round to find it
// out, issue 31.) A counted task's own t_new
// leaves its own value out (estimate.go), so the floor is also at most the
// mean without the largest counted value (vmax bounds that value from
// above) and never below the completions' mean, which every counted value
// exceeds. Without ParamTnewRunning, t_new
// is the completions' mean. The sums kept by adding and taking away may be
// off in their last bits; the bound is taken 1e-9 lower.
func (q *quietTime) floor(e *estimators, ty int) (norm, dur float64) {
	mean := func(sum float64, n int, f *quietFloor) float64 {
		if n == 0 {
			return 0
		}
		// Joiners: each of the f.joins tasks that may join brings a
		// value of at least vmin, and one below the mean pulls it down,
		// the more the more join: at least the mean with all of them in
		// at vmin.
		joined := func(s float64, c int) float64 {
			if v := s / float64(c); f.joins == 0 || !(f.vmin < v) {
				return v
			}
			return (s + float64(f.joins)*f.vmin) / float64(c+f.joins)
		}
		v := joined(sum+f.sum, n+f.n)
		if f.n > 0 {
			// A counted task's own t_new leaves its value out: at least
			// the mean without the largest (vmax bounds it from above),
			// and at least the completions' mean, below every counted
			// value and every joiner's.
			ex := max(joined(sum+f.sum-f.vmax, n+f.n-1), sum/float64(n))
			v = min(v, ex)
		}
		return v * (1 - 1e-9)
	}
	return mean(e.normSum[ty], e.normN[ty], &q.floors[ty][0]), mean(e.durSum[ty], e.durN[ty], &q.floors[ty][1])
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
// with (quietPrior: the prior's answer less priorSlack) or a computation
// of Γ read (gammaCache: the answer itself), for a task type and input
// size.
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
// bytes and notes the answer for priorHolds: a lower bound of it, the
// answer less priorSlack, so that the quiet time resting on it stands while
// the prior falls by less than that. The prior moves at every task any job
// completes (a median of earlier jobs' run times); with the answer itself
// every small fall ended every quiet time resting on it, and on
// xulau/load-0.75 under gs (small jobs, most of their life before their
// first completion) that sent 157,000 of 382,000 quiet bound passes to a
// pass over every running task (issue 31).
func (p *policy) quietPrior(ty speculators.TaskType, bytes int64) (float64, bool) {
	q := &p.quiet
	for _, s := range q.priors {
		if s.ty == ty && s.bytes == bytes {
			return s.ms, s.ok
		}
	}
	ms, ok := p.est.prior.PriorRuntime(ty, bytes)
	ms *= 1 - priorSlack
	q.priors = append(q.priors, priorSeen{ty: ty, bytes: bytes, ms: ms, ok: ok})
	return ms, ok
}

// priorSlack is how far (0.1%) below the prior's answer quietPrior takes
// t_new's lower bound. A wider one keeps more quiet times but makes more
// tasks fail them (their t_rem within it of t_new): on xulau/load-0.75
// under gs, 2% was 10% slower than none, 0.5% about even, 0.1% about 5%
// faster.
const priorSlack = 1e-3

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

// partialQuiet is a time up to which WantsSlot's no at now, found by Γ
// from the tasks whose quiet time ran out (gammaPartial: Γ is empty, or an
// original comes first), stays no while nothing but the clock moves; now
// when it cannot tell. On an exact job (no pruning):
//
//   - Every other running task stays out of Γ (or behind the originals)
//     until the least of their kept times, as the pass that noted the
//     failed ones found it (quietLast.until).
//   - Until a running task that censor did not count at now may count
//     (joinAt), t_new only grows: the counted tasks' extrapolated durations
//     grow with the clock (elapsed / p, or time in phase x (1-p) / dp), the
//     completions' mean stays, and a counted task's own t_new leaves out
//     its own value (floor's argument, with the count fixed).
//   - So a noted task stays out of Γ's first place while its t_rem stays at
//     most its t_new at now (GS: a copy is a member only once t_new < t_rem,
//     and goes before an original only once its t_rem exceeds that
//     original's t_new, which also only grows; RAS: while t_rem stays at
//     most (c+1)/c x t_new, the saving is not positive), and a task not
//     eligible or not in T stays so until an event.
//   - The prior's answers Γ read are noted with the quiet time's
//     (priorHolds: a higher answer only raises t_new).
//
// Float rounding: t_new at a later instant is the same sums over larger
// values, which rounding keeps at least as large but for a task's own part
// taken out (a few ulp), and taskQuiet takes the threshold 1e-6 lower.
//
// Without it, a job whose failed tasks' t_rem lies between t_new's floor
// and t_new had Γ computed again at every scheduling round until its next
// event (issue 31: about a quarter of gammaPartial's computations on
// xulau/sca-sda under gs, over a third under grass on xulau/ese).
func (p *policy) partialQuiet(job *speculators.Job, now speculators.Time) speculators.Time {
	q, g := &p.quiet, &p.gamma
	if job.Deadline > 0 || job.ErrorBound > 0 || !q.last.ok || g.priorsOver || !g.partial {
		return now
	}
	for _, s := range g.priors {
		if len(q.priors) >= maxPriorSeen {
			return now
		}
		q.priors = append(q.priors, s)
	}
	var origMax float64
	for _, c := range g.t {
		if !c.running {
			origMax = max(origMax, c.tnew)
		}
	}
	until := q.last.until
	for _, c := range g.t {
		if !c.running || !c.eligible {
			continue
		}
		thr := max(c.tnew, origMax)
		if !p.useGS {
			thr = c.tnew * float64(c.c+1) / float64(c.c)
		}
		at, ok := taskQuiet(c.task, now, thr)
		if !ok || at <= now {
			return now
		}
		until = min(until, at)
	}
	if until <= now {
		return now
	}
	return min(until, p.joinAt(job, now))
}

// joinAt is the first instant after now at which a running task that the
// censor at now (gammaPartial's) did not count in t_new may count; now
// when one may count at the next ms, or a counted task's estimate may
// change form then (a report at the very instant of its phase change).
func (p *policy) joinAt(job *speculators.Job, now speculators.Time) speculators.Time {
	e := &p.est
	at := speculators.Time(math.MaxInt64)
	if !e.running {
		return at // t_new is the completions' mean
	}
	for ty := range job.Tasks {
		if job.RunningTasks[ty] == 0 {
			continue // censor did not visit it; nothing to count
		}
		outs, gen := e.outs[ty], e.outGen[ty]
		live := job.Live[ty]
		for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
			if o := &outs[i]; o.gen == gen && float64(now-o.start) <= o.lim {
				// Out while float64(t - start) <= lim.
				if o.lim < float64(math.MaxInt64/4) {
					at = min(at, o.start+speculators.Time(math.Floor(o.lim))+1)
				}
				continue
			}
			t := job.Tasks[ty][i]
			var oldest *speculators.Attempt
			for _, a := range t.Attempts {
				if a.Running() && (oldest == nil || a.Start < oldest.Start) {
					oldest = a
				}
			}
			if oldest == nil {
				return now
			}
			if _, k := e.ownOf(t); k != partOut {
				if oldest.Phase != speculators.PhaseMap && oldest.Progress > oldest.PhaseStartProgress && now <= oldest.PhaseStart {
					return now // PhaseTimeLeft takes the phase's form at the next ms
				}
				continue
			}
			if oldest.Progress > 0 {
				return now
			}
			// No report yet: t_rem unknown, not counted until an event.
		}
	}
	return at
}
