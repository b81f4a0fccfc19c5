package grass

import (
	"math"
	"math/bits"

	"github.com/specbridge/specbridge/speculators"
)

// estimators are §5.1's t_rem and t_new and their running accuracy.
//
// t_new: the mean of the job's completed durations of the task's type,
// normalised to input size when sizes are known, times the task's input
// (Job.NewAttemptRuntime), refreshed on every completion, with the running
// tasks that have already outrun that mean counted too (below). The
// paper samples from the log of durations; for a ranking a point estimate is
// needed, and the mean is the expectation of that sample. The sums are kept
// here incrementally (catching up on Job.NormalizedRuntimes and
// CompletedRuntimes) so that a Decide over 10,000 tasks stays O(tasks).
// Output sizes are not used: a map's output is unknown until it ends.
//
// Running tasks in t_new (censor; parameter t-new-running, default on).
// The log of completed durations holds only the tasks that have finished,
// and while a wave runs those are its short ones: with §3.2's Pareto tail
// (beta = 1.259) the mean of a first wave's completions is well under the
// mean task, the E[tau] that Appendix A takes t_new to be. RAS then prices a
// copy too cheaply (its saving c t_rem - (c+1) t_new) and copies tasks whose
// copy costs more slot time than it saves, and in a multi-wave job every such
// copy delays the originals behind it. So a running task that has already
// run longer than the mean of the completions (it is known to be longer)
// counts too, once, its duration its oldest running attempt's elapsed time
// plus that attempt's t_rem (the same extrapolation from progress as t_rem,
// §5.1); younger running tasks, and tasks whose attempts have not reported
// progress, do not count. Our choice, a departure from §5.1's "log of
// completed tasks", measured on the bundled scenarios (5 seeds): on large
// deadline-bound jobs 0.725 under ras and 0.721 under grass, against 0.691
// and 0.689 with completions alone (late 0.707); time to error bound 86.9 s
// against 89.1 s under grass; exact jobs 122.9 s against 120.5 s. Counting
// every running task at its extrapolated duration instead did about as well
// on large jobs (0.731, 0.728) and worse on exact jobs (125.3 s). The
// paper's worked examples (Figures 1-2) give t_new from completions alone;
// with the parameter off, the estimate is §5.1's.
//
// A task's own extrapolation is left out of its own t_new. t_new prices a
// new copy of the task; counting the task's own extrapolated duration in it
// made a straggler's copy look as slow as the straggler, most of all in a
// small job, where one straggler among four maps lifted every t_new by a
// quarter of its own length. Live, that kept grass from copying the one
// straggler of a 60 s deadline job (its t_new rose past the time left, so
// Pseudocode 1's pruning dropped it), where the replay, deciding at the
// instant of the first completion, had copied it (docs/live-bench.md). So a
// running task counts in every other task's t_new and not in its own (the
// mean of the completions and of the other counted tasks). On the bundled
// GRASS scenarios (5 seeds) this moved nothing beyond the noise: deadline
// accuracy 0.830 / 0.827 / 0.835 under gs / ras / grass (0.824 / 0.828 /
// 0.833 with the task's own part), on the large deadline jobs 0.715 / 0.724
// / 0.723 (0.679 / 0.725 / 0.721); time to error bound 87.1 s under grass
// (86.9 s); exact jobs 131.0 / 125.2 / 122.9 s (131.6 / 125.9 / 122.9 s).
// Figure 2's T3 is copied at 5 as with §5.1's estimate.
//
// t_new before the job's first completion of the type. §5.1 logs "durations
// of all completed tasks of a job"; before one has completed the log is
// empty, and a job whose tasks all run in one wave (most small jobs) would
// get no copy until its first task ends, which with a deadline of 1.02-1.2x
// the median task (§6.1) is too late for any copy to finish. GRASS already
// keeps what earlier jobs did (its samples, §4); we keep their completed
// tasks too (the policy hands each first success out in
// speculators.Learned, and the driver keeps it for later jobs' Prior) and, until the job has a
// completion of its own, take t_new from them: the median run time per input
// byte of earlier tasks of the type whose input lies in the same power-of-two
// size range as this task's, times its input (MemoryStore.PriorRuntime).
// Within a job the
// inputs are alike and the mean is used as above; across jobs input sizes
// differ by orders of magnitude and a fixed per-task cost makes run time per
// byte of a small task many times that of a full block, so like is compared
// with like, and the median keeps a few huge stragglers of earlier jobs from
// ruling every copy out by the deadline (Pseudocode 1 line 6): with the
// class's mean instead, grass's deadline accuracy on grass-deadline.yaml
// (5 seeds) was 0.825 against 0.849, and with the mean over all sizes,
// which prices a full block as dozens of small maps, copies of one-wave
// jobs were pruned outright. Our choice:
// the paper does not say what GRASS does before a job's first completion.
// Without a Prior, t_new stays unknown until then.
//
// t_rem: extrapolated from progress (§5.1: "we extrapolate the remaining
// duration of the task based on the time elapsed thus far"): elapsed x
// (1-p)/p for maps, Attempt.TimeLeft. §5.1's progress is the fraction of
// input read, which for a map is its score; a reduce's score runs through
// copy, sort and reduce thirds at very different speeds, and elapsed x
// (1-p)/p then takes a reduce that copied and sorted fast and crawls through
// its reduce phase for nearly done. So reduces extrapolate from the rate of
// their current phase (Attempt.PhaseTimeLeft). Unknown (+Inf) before the
// first report with progress > 0.
//
// Accuracy (§5.1: "when a task completes, we update the accuracy using the
// estimated and actual durations"): for t_new, each completion compares the
// estimate made just before it with the actual run time; for t_rem, the last
// estimate a Decide made for the task with the time the task actually took
// from then. Each comparison scores 1 - |estimate - actual| / actual, floored
// at 0, and the accuracy is the running mean of the scores (1 before any).
type estimators struct {
	normSum, durSum [speculators.NumTaskTypes]float64
	normN, durN     [speculators.NumTaskTypes]int

	// predRem/predAt: the latest t_rem (ms) a Decide computed for a task
	// and when; predAt < 0 means none.
	predRem [speculators.NumTaskTypes][]float64
	predAt  [speculators.NumTaskTypes][]speculators.Time

	accNew, accRem speculators.RunningStats

	// prior is earlier jobs' completions (nil: none); see t_new above.
	prior speculators.Prior

	// runNorm and runDur are the running tasks' extrapolated durations
	// (per input byte, and in ms for tasks of unknown input), summed over
	// runNormN and runDurN tasks, as of the latest censor.
	runNorm, runDur   [speculators.NumTaskTypes]float64
	runNormN, runDurN [speculators.NumTaskTypes]int
	// running: count running tasks in t_new (ParamTnewRunning).
	running bool

	// own is each task's part in censor's sums as of the censor numbered
	// ownGen (a part of an older censor does not count), so that tnew can
	// leave a task's own part out of its own t_new (see "A task's own
	// extrapolation" above).
	own    [speculators.NumTaskTypes][]taskPart
	ownGen uint32

	// outs is, per task, what censor found when the task did not count
	// because its oldest running attempt had not outrun the completions'
	// mean (or its type had no completion): that attempt's start and the
	// elapsed time past which it may count (outLim). An entry holds while
	// its gen is the type's outGen: a completion of the type (outFor) or
	// an event of no one task moves outGen, and an event that starts or
	// ends one of the task's attempts clears the entry (noteOut). censor
	// then passes over the task with one comparison, the same one
	// censorPart makes, without reading the task or its attempts.
	outs   [speculators.NumTaskTypes][]outLim
	outGen [speculators.NumTaskTypes]uint32
	outFor [speculators.NumTaskTypes][2]int

	// outSet is, per type, a set of tasks whose entry in outs holds at
	// every instant up to outEnd while outSetGen is the type's outGen
	// (outsKept): censor passes over them without a look at their entries.
	// Of gs's 45.5 million visits of running tasks in censor on xulau/ese,
	// 41.2 million found the task out, 40.9 million of them at a censor
	// where every entry out at the last one still held (issue 31).
	outSet    [speculators.NumTaskTypes]speculators.TaskSet
	outSetGen [speculators.NumTaskTypes]uint32
	outEnd    [speculators.NumTaskTypes]speculators.Time

	// scan is set while candidates scans the job's tasks: nothing changes
	// the prior then, so the latest PriorRuntime answer (priorTy,
	// priorBytes: priorMs, priorOK) is reused for a task of the same type
	// and input size instead of asking the store (a lock and a median) for
	// every task at every slot offer.
	scan, priorValid, priorOK bool
	priorTy                   speculators.TaskType
	priorBytes                int64
	priorMs                   float64

	// keep, when set, records what a scan read that Γ's update must find
	// unchanged (gammaCache): each task's part in censor and the prior's
	// answers.
	keep *gammaCache
}

// censor sums the extrapolated durations of the running tasks that count in
// t_new (see "Running tasks in t_new" above): a task whose oldest running
// attempt has run longer than the t_new the completions alone give it
// counts, at that attempt's elapsed time plus its t_rem, once the attempt
// has reported progress. Decide and ChooseForSlot call it (candidates)
// before reading t_new.
func (e *estimators) censor(job *speculators.Job, now speculators.Time) {
	if e.ownGen++; e.ownGen == 0 { // wrapped: no part may look current
		for ty := range e.own {
			clear(e.own[ty])
		}
		e.ownGen = 1
	}
	for ty := range job.Tasks {
		e.runNorm[ty], e.runDur[ty], e.runNormN[ty], e.runDurN[ty] = 0, 0, 0, 0
		if !e.running || job.RunningTasks[ty] == 0 {
			continue
		}
		e.own[ty] = speculators.Grow(e.own[ty], len(job.Tasks[ty]))
		outs, gen := e.outsOf(job, ty)
		set := e.outsKept(ty, gen, now)
		// The tasks with a running attempt, in index order (Job.Live),
		// but those of set, each out as censorPart would find it.
		live := job.Live[ty]
		for w, word := range live {
			if w < len(set) {
				word &^= set[w]
			}
			for ; word != 0; word &= word - 1 {
				i := w*64 + bits.TrailingZeros64(word)
				if o := &outs[i]; o.gen == gen && float64(now-o.start) <= o.lim {
					e.keepOut(ty, i, o)
					continue // out, as censorPart would find it
				}
				t := job.Tasks[ty][i]
				v, k, o := e.censorPartLim(t, now)
				if o.gen != 0 {
					o.gen = gen
					outs[i] = o
					e.keepOut(ty, i, &outs[i])
				}
				if e.keep != nil {
					e.keep.notePart(t, v, k)
				}
				if k != partOut {
					e.own[ty][i] = taskPart{serial: e.ownGen, kind: k, v: v}
				}
				switch k {
				case partNorm:
					e.runNorm[ty] += v
					e.runNormN[ty]++
				case partDur:
					e.runDur[ty] += v
					e.runDurN[ty]++
				}
			}
		}
	}
}

// outsKept is type ty's outSet for a censor at now with the type's entries
// at gen (outsOf): as kept, when gen is the one it was kept for and no
// member's entry can have stopped holding by now (outEnd), else emptied.
func (e *estimators) outsKept(ty int, gen uint32, now speculators.Time) speculators.TaskSet {
	e.outSet[ty] = speculators.Grow(e.outSet[ty], (len(e.outs[ty])+63)/64)
	if e.outSetGen[ty] != gen || now > e.outEnd[ty] {
		clear(e.outSet[ty])
		e.outSetGen[ty], e.outEnd[ty] = gen, math.MaxInt64
	}
	return e.outSet[ty]
}

// keepOut adds task i of type ty, whose entry o holds at the censor, to
// outSet, and lowers outEnd to the last instant the entry holds at: while
// float64(t - start) <= lim, which t <= start + floor(lim) gives (times are
// whole ms, exact in a float64 below 2^53). A limit too large to add to a
// time leaves the task out of the set, visited as before.
func (e *estimators) keepOut(ty, i int, o *outLim) {
	if !(o.lim < 1<<50) {
		return
	}
	e.outSet[ty].Set(i, true)
	e.outEnd[ty] = min(e.outEnd[ty], o.start+speculators.Time(math.Floor(o.lim)))
}

// The kinds of a running task's part in censor's sums: none, per input
// byte, in ms.
const (
	partOut uint8 = iota
	partNorm
	partDur
)

// taskPart is a task's part in censor's sums (its kind and value) as the
// censor numbered serial computed it: the latest censor's, for a task's own
// t_new (estimators.own), or a full pass's, for Γ's update (gammaCache).
type taskPart struct {
	serial uint32
	kind   uint8
	v      float64
}

// setOwn records task t's part in the sums as the latest censor's, for a
// caller that checked it against what it is now (gammaUpdate).
func (e *estimators) setOwn(t *speculators.Task, v float64, kind uint8) {
	ty, i := t.ID.Type, int(t.ID.Index)
	if kind == partOut {
		if i < len(e.own[ty]) {
			e.own[ty][i] = taskPart{}
		}
		return
	}
	e.own[ty] = speculators.Grow(e.own[ty], i+1)
	e.own[ty][i] = taskPart{serial: e.ownGen, kind: kind, v: v}
}

// ownOf is task t's own part in the latest censor's sums (kind partOut:
// none).
func (e *estimators) ownOf(t *speculators.Task) (float64, uint8) {
	ty, i := t.ID.Type, int(t.ID.Index)
	if i >= len(e.own[ty]) || e.own[ty][i].serial != e.ownGen {
		return 0, partOut
	}
	o := e.own[ty][i]
	return o.v, o.kind
}

// censorPart is running task t's part in censor's sums at now: the value
// it adds and to which sum (partOut: it does not count). Only censor's
// scan and gammaUpdate's check call it, so both read the same arithmetic.
func (e *estimators) censorPart(t *speculators.Task, now speculators.Time) (float64, uint8) {
	v, k, _ := e.censorPartLim(t, now)
	return v, k
}

// outLim is a running task's entry in estimators.outs: it does not count
// in censor's sums while float64(now - start) <= lim (lim +Inf: its type
// has no completion of its kind). gen 0: no entry.
type outLim struct {
	start speculators.Time
	lim   float64
	gen   uint32
}

// censorPartLim is censorPart, and where t is out because its oldest
// running attempt has not outrun the mean (or no completion gives one),
// that attempt's start and the limit (gen 1; else 0), for estimators.outs.
func (e *estimators) censorPartLim(t *speculators.Task, now speculators.Time) (float64, uint8, outLim) {
	ty := t.ID.Type
	if t.RunningAttempts == 0 || t.Done() {
		return 0, partOut, outLim{}
	}
	var oldest *speculators.Attempt
	for _, a := range t.Attempts {
		if a.Running() && (oldest == nil || a.Start < oldest.Start) {
			oldest = a
		}
	}
	elapsed := float64(now - oldest.Start)
	var lim float64
	switch {
	case t.InputBytes > 0 && e.normN[ty] > 0:
		lim = e.normSum[ty] / float64(e.normN[ty]) * float64(t.InputBytes)
	case t.InputBytes <= 0 && e.durN[ty] > 0:
		lim = e.durSum[ty] / float64(e.durN[ty])
	default:
		// No completion of the type: t_new is the prior's.
		return 0, partOut, outLim{start: oldest.Start, lim: math.Inf(1), gen: 1}
	}
	if elapsed <= lim {
		return 0, partOut, outLim{start: oldest.Start, lim: lim, gen: 1}
	}
	left := oldest.PhaseTimeLeft(now) * 1000
	if !(left >= 0) || math.IsInf(left, 1) {
		return 0, partOut, outLim{}
	}
	d := elapsed + left
	if t.InputBytes > 0 {
		return d / float64(t.InputBytes), partNorm, outLim{}
	}
	return d, partDur, outLim{}
}

// outsOf is type ty's entries in outs, sized to the job's tasks, and the
// generation they hold at: a new one when the type's completions moved
// since (every limit reads their mean).
func (e *estimators) outsOf(job *speculators.Job, ty int) ([]outLim, uint32) {
	e.outs[ty] = speculators.Grow(e.outs[ty], len(job.Tasks[ty]))
	if n := [2]int{e.normN[ty], e.durN[ty]}; n != e.outFor[ty] || e.outGen[ty] == 0 {
		e.outFor[ty] = n
		e.newOutGen(ty)
	}
	return e.outs[ty], e.outGen[ty]
}

// newOutGen ends type ty's entries in outs.
func (e *estimators) newOutGen(ty int) {
	if e.outGen[ty]++; e.outGen[ty] == 0 { // wrapped: no entry may look current
		clear(e.outs[ty])
		e.outGen[ty] = 1
		e.outSetGen[ty] = 0 // nor the set
	}
}

// noteOut ends what an observed event may change in outs: the entry of the
// task one of whose attempts started or ended (its oldest running attempt),
// or every entry for an event of no one task. A status report changes no
// attempt's start or state.
func (e *estimators) noteOut(job *speculators.Job, ev *speculators.Event) {
	switch ev.Kind {
	case speculators.AttemptStatus:
		return
	case speculators.AttemptStarted, speculators.AttemptSucceeded, speculators.AttemptFailed, speculators.AttemptKilled:
		if t := job.Task(ev.Attempt.Task); t != nil {
			if ty, i := t.ID.Type, int(t.ID.Index); i < len(e.outs[ty]) {
				e.outs[ty][i] = outLim{}
				if i/64 < len(e.outSet[ty]) {
					e.outSet[ty].Set(i, false)
				}
			}
			return
		}
	}
	for ty := range e.outs {
		e.newOutGen(ty)
	}
}

// priorRecord is what a task's first success teaches later jobs' prior
// (ok false: ev is not that success).
func priorRecord(t *speculators.Task, ev *speculators.Event) (speculators.RuntimeRecord, bool) {
	if t.Succeeded == nil || t.Succeeded.ID != ev.Attempt || t.Finish != ev.Time {
		return speculators.RuntimeRecord{}, false
	}
	return speculators.RuntimeRecord{Type: t.ID.Type, Ms: float64(ev.Time - t.Succeeded.Start), InputBytes: t.InputBytes}, true
}

func (e *estimators) size(job *speculators.Job) {
	for ty := range job.Tasks {
		n := len(job.Tasks[ty])
		for len(e.predRem[ty]) < n {
			e.predRem[ty] = append(e.predRem[ty], 0)
			e.predAt[ty] = append(e.predAt[ty], -1)
		}
	}
}

// sync folds completions the engine recorded since the last call into the
// sums, scoring t_new's accuracy on each before it joins the estimate.
func (e *estimators) sync(job *speculators.Job) {
	for ty := range job.Tasks {
		for _, x := range job.NormalizedRuntimes[ty][e.normN[ty]:] {
			if e.normN[ty] > 0 {
				e.accNew.Add(score(e.normSum[ty]/float64(e.normN[ty]), x))
			}
			e.normSum[ty] += x
			e.normN[ty]++
		}
		for _, x := range job.CompletedRuntimes[ty][e.durN[ty]:] {
			if e.normN[ty] == 0 && e.durN[ty] > 0 {
				e.accNew.Add(score(e.durSum[ty]/float64(e.durN[ty]), x))
			}
			e.durSum[ty] += x
			e.durN[ty]++
		}
	}
}

// normMean and durMean are t_new per input byte and in ms: completed and
// running tasks (censor) together.
func (e *estimators) normMean(ty speculators.TaskType) float64 {
	return (e.normSum[ty] + e.runNorm[ty]) / float64(e.normN[ty]+e.runNormN[ty])
}

func (e *estimators) durMean(ty speculators.TaskType) float64 {
	return (e.durSum[ty] + e.runDur[ty]) / float64(e.durN[ty]+e.runDurN[ty])
}

// tnew is t_new in ms for task t and whether it is known. A running task
// that counts in censor's sums is left out of its own t_new (see "A task's
// own extrapolation" above).
func (e *estimators) tnew(t *speculators.Task) (float64, bool) {
	ty := t.ID.Type
	v, k := 0.0, partOut
	if e.running {
		v, k = e.ownOf(t)
	}
	if t.InputBytes > 0 && e.normN[ty] > 0 {
		if k == partNorm {
			return (e.normSum[ty] + e.runNorm[ty] - v) / float64(e.normN[ty]+e.runNormN[ty]-1) * float64(t.InputBytes), true
		}
		return e.normMean(ty) * float64(t.InputBytes), true
	}
	if e.durN[ty] > 0 {
		if k == partDur {
			return (e.durSum[ty] + e.runDur[ty] - v) / float64(e.durN[ty]+e.runDurN[ty]-1), true
		}
		return e.durMean(ty), true
	}
	if e.prior == nil {
		return 0, false
	}
	if !e.scan {
		return e.prior.PriorRuntime(ty, t.InputBytes)
	}
	if !e.priorValid || e.priorTy != ty || e.priorBytes != t.InputBytes {
		e.priorMs, e.priorOK = e.prior.PriorRuntime(ty, t.InputBytes)
		e.priorTy, e.priorBytes, e.priorValid = ty, t.InputBytes, true
		if e.keep != nil {
			e.keep.notePrior(ty, t.InputBytes, e.priorMs, e.priorOK)
		}
	}
	return e.priorMs, e.priorOK
}

// trem is t_rem in ms of task t at now: the minimum over its running
// attempts (Pseudocode 2's caption); c is the number of running attempts
// (the engine's count, Task.RunningAttempts, which quietUntil reads too) and
// measured whether any of them has reported progress. An attempt that has
// not reported progress yet (one just started) is a fresh attempt whose
// expected time left is tnew minus its run time so far, at least 0. Without
// that term (an unknown +Inf, which the minimum skips) a task copied a moment
// ago would look as slow as before, and GS or RAS would pick it again at the
// next free slot, piling copies onto one task at one instant; with it, a
// fresh copy makes GS's t_new < t_rem and RAS's saving false until progress
// shows the copy is slow too. Our choice: §5.1 extrapolates from progress
// and says nothing of attempts without any. With tnew unknown (ok false)
// such an attempt counts +Inf, as before.
func trem(t *speculators.Task, now speculators.Time, tnew float64, ok bool) (ms float64, c int, measured bool) {
	ms = math.Inf(1)
	for _, a := range t.Attempts {
		if !a.Running() {
			continue
		}
		left := a.PhaseTimeLeft(now) * 1000
		if !math.IsInf(left, 1) {
			measured = true
		} else if ok {
			left = math.Max(0, tnew-float64(now-a.Start))
		}
		if left < ms {
			ms = left
		}
	}
	return ms, t.RunningAttempts, measured
}

// remember records the t_rem a Decide computed, for the accuracy score.
func (e *estimators) remember(t *speculators.Task, ms float64, now speculators.Time) {
	if math.IsInf(ms, 0) {
		return
	}
	e.predRem[t.ID.Type][t.ID.Index] = ms
	e.predAt[t.ID.Type][t.ID.Index] = now
}

// observeSuccess scores t_rem when task t has just succeeded.
func (e *estimators) observeSuccess(job *speculators.Job, t *speculators.Task, ev *speculators.Event) {
	if t.Succeeded == nil || t.Succeeded.ID != ev.Attempt || t.Finish != ev.Time {
		return
	}
	at := &e.predAt[t.ID.Type][t.ID.Index]
	if *at < 0 || ev.Time <= *at {
		return
	}
	e.accRem.Add(score(e.predRem[t.ID.Type][t.ID.Index], float64(ev.Time-*at)))
	*at = -1
}

// accuracy is the estimators' mean accuracy, 0..1 (1 before any score).
func (e *estimators) accuracy() float64 {
	n, sum := 0, 0.0
	for _, s := range []*speculators.RunningStats{&e.accNew, &e.accRem} {
		if s.N > 0 {
			n++
			sum += s.Mean()
		}
	}
	if n == 0 {
		return 1
	}
	return sum / float64(n)
}

// score is 1 - |estimate - actual| / actual, in [0, 1].
func score(estimate, actual float64) float64 {
	if actual <= 0 {
		return 0
	}
	s := 1 - math.Abs(estimate-actual)/actual
	if s < 0 || s != s {
		return 0
	}
	return s
}
