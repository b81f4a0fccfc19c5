// Package mantri is Mantri's speculator (Ananthanarayanan et al., "Reining
// in the Outliers in Map-Reduce Clusters using Mantri", OSDI'10), the second
// baseline of GRASS (NSDI'14 §5-6) and the baseline of SCA/ESE (Xu and Lau,
// "Optimization for Speculative Execution in Big Data Processing Clusters",
// §II): when a slot is free, duplicate a task if
// P(t_rem > 2 t_new) > delta (0.25), so that a copy is launched only when
// the total resource use is expected to fall; and kill and restart a task
// whose remaining time is excessive.
//
// The policy reads the job state the engine folds from events and keeps its
// own: outstanding copy requests, restart counts and the sorted completed
// durations behind its estimate of P. It must not start goroutines, perform
// I/O, read the wall clock, use randomness or depend on Go map iteration
// order; it does not place copies.
//
// Choices where the papers are vague:
//
//   - P(t_rem > 2 t_new). t_rem is a point estimate extrapolated from
//     progress as GRASS §5.1 and Mantri do, from the current phase's rate
//     (Attempt.PhaseTimeLeft: elapsed x (1-p)/p for maps; for reduces the
//     copy and sort thirds would otherwise hide a slow reduce phase).
//     t_new is a random variable whose distribution is the job's empirical
//     distribution of completed run times of the task's type, normalised to
//     input size and scaled to the task's input when sizes are known (GRASS
//     §5.1's "sampling from the log"). P is then the fraction of those scaled
//     durations below t_rem / 2. With c copies running, the rule is
//     Mantri's general form P(c t_rem > (c+1) t_new) > delta, which is the
//     paper's rule at c = 1.
//   - One extra copy per task. GRASS §6 and the SCA paper §II state the
//     rule for a single copy, P(t_rem > 2 t_new) > delta, and Mantri's own
//     paper (§5.1) caps the copies of a task. We allow a duplicate only of a
//     task with exactly one running attempt that has had fewer than
//     max-copies (default 1) speculative copies in its life. Without the
//     cap, every slot offered at one instant went to the same task (its P
//     stays the highest) and the general form P(c t_rem > (c+1) t_new)
//     kept copying it: tens of thousands of copies on heavy-tailed jobs.
//   - Kill and restart. The library's papers say only that Mantri "may
//     terminate a task which shows an excessively large remaining time". We
//     take the rule of Mantri's own paper (§5.1, its Figure 7, stated here
//     from that paper, which is not among our source papers): while tasks are
//     waiting for slots, kill a task and restart it when t_rem > E[t_new] +
//     Delta, Delta being the progress-report period, and restart a task at
//     most gamma = 3 times so inaccurate estimates cannot thrash it. Only a
//     task with a single running attempt that was never duplicated is
//     restarted (a duplicated task is already being raced). "Waiting" is the
//     AM needing containers or any task not yet started. Live, Hadoop
//     reruns a task whose only attempt is killed; the simulator does the
//     same.
//   - A restart only when it saves time. A restart throws away the work
//     done, so it must be likely to finish sooner, not merely on average:
//     besides t_rem > E[t_new] + Delta we ask that more than half of the
//     t_new sample finish within t_rem - Delta (Mantri §5.1: a restart when
//     there is a better than even chance that it finishes sooner).
//   - When t_rem is trusted. Mantri acts on the estimates its progress
//     reports give, re-evaluated at every report (Mantri §5.1; GRASS §5.1
//     and the SCA paper §II state the rule with no waiting period). So an
//     attempt's t_rem counts as soon as it has sent min-reports status
//     reports (default 1): the floor is a number of the job's own progress
//     reports, so it scales with the report interval the job uses
//     (mapreduce.task.progress-report.interval, 3 s in Hadoop; Delta above
//     is the same period), not a constant. An earlier version trusted t_rem
//     only after 30 s of running (min-observe-ms), a rule Mantri does not
//     have, which on the Xu and Lau workloads (tasks of 10-40 s) held most
//     duplicates back until the task was nearly done (issue 26). A reduce
//     still copying while the job's maps run is neither restarted nor
//     duplicated: its copy rate is bounded by the maps, and a fresh attempt
//     would wait for them too (Mantri §5.1 estimates a reduce's t_rem from
//     the data it has read, which such a reduce cannot read faster).
//   - Cap on kills per task. A task is killed at most max-restarts times by
//     this policy over its life; kills of losing copies when a task
//     succeeds are the AM's, not restarts.
//   - Pull. Mantri decides "once a computing node becomes available" (SCA
//     §II) whether to run a duplicate there, and does so while tasks still
//     wait for slots (Mantri's algorithm duplicates in that case too, then
//     starts the waiting task otherwise). So in the simulator, which offers
//     each free slot to the job's policy (speculators.SlotChooser), the
//     duplicate rule runs per slot offer: the running task with the highest
//     P (then the longest t_rem) whose P exceeds delta gets a copy there,
//     else the slot goes to the waiting originals; restarts stay in Decide.
//     Live, the push form below runs instead.
//   - Free slots (push form, live): JobInfo.Slots minus running attempts, containers the AM
//     still needs and copies asked for and not started (one per Decide when
//     Slots is unknown). Copies go to the highest P first, then the longest
//     t_rem.
package mantri

import (
	"fmt"
	"math"
	"slices"

	"github.com/specbridge/specbridge/speculators"
)

// Name is the policy's registry name.
const Name = "mantri"

// Policy registers Mantri with its papers' defaults.
var Policy = speculators.Declare(Name, "Mantri: duplicate when P(t_rem > 2 t_new) > delta and a slot is free; kill and restart tasks with excessive t_rem (Ananthanarayanan et al. OSDI'10; GRASS §6, SCA §II)", func(b *speculators.Binder, p *policy) {
	b.Float(&p.delta, "delta", 0.25, speculators.Below(0, 1, "a probability"),
		"delta: duplicate when P(t_rem > 2 t_new) exceeds it (SCA paper §II: \"the default value of delta = .25\")")
	b.Int(&p.maxRestarts, "max-restarts", 3, speculators.NonNegative,
		"gamma: most kill-and-restarts of one task (Mantri OSDI'10 §5.1, 3); 0 disables restarts")
	var margin int64
	b.Int64(&margin, "restart-margin-ms", 3000, speculators.NonNegative,
		"Delta in ms: restart when t_rem > E[t_new] + Delta (Mantri §5.1: the progress-report period; Hadoop attempts report every 3 s)")
	p.margin = float64(margin)
	b.Int(&p.maxCopies, "max-copies", 1, speculators.NonNegative,
		"most speculative copies of one task over its life (GRASS §6, SCA §II: one duplicate, P(t_rem > 2 t_new)); 0 disables duplicates")
	b.Int(&p.minReports, "min-reports", 1, speculators.AtLeast(1),
		"status reports an attempt must have sent before its t_rem can justify a restart or a copy (Mantri §5.1 acts on each progress report; the floor is this many of the job's report intervals, 3 s each in Hadoop)")
})

type policy struct {
	delta       float64
	maxRestarts int
	margin      float64
	maxCopies   int
	minReports  int

	// tasks[type][index]: the kills it made (restarts). Copies asked for
	// and not started are the engine's ledger (Job.PendingCopies).
	tasks speculators.PerTask[taskState]

	// sorted normalised (ms/byte) and raw (ms) completed durations, and how
	// many of the job's lists they hold.
	norm, dur   [speculators.NumTaskTypes][]float64
	normN, durN [speculators.NumTaskTypes]int

	cands []cand
	// pull: the simulator offers this job's free slots to ChooseForSlot,
	// so Decide only restarts.
	pull bool
	// dups are the duplicate candidates of the latest ChooseForSlot in
	// byPriority order, kept while no event or Decide has changed what
	// they derive from (ver) and the clock has not moved: a scheduler
	// offers many slots at one instant.
	dups     []cand
	dupValid bool
	dupVer   uint64
	dupNow   speculators.Time
	ver      uint64 // events observed plus Decides
	// quietFrom..quietUntil: WantsSlot's latest no and how long it holds
	// while ver stays quietVer (quiet).
	quietValid            bool
	quietVer              uint64
	quietFrom, quietUntil speculators.Time
}

type cand struct {
	task    *speculators.Task
	attempt *speculators.Attempt
	p       float64
	trem    float64
}

type taskState struct {
	restarts int
}

// Observe notes that the job's state has changed (ver).
func (p *policy) Observe(job *speculators.Job, ev *speculators.Event) {
	p.ver++
}

// sync inserts new completions into the sorted duration lists.
func (p *policy) sync(job *speculators.Job) {
	for ty := range job.Tasks {
		for _, x := range job.NormalizedRuntimes[ty][p.normN[ty]:] {
			i, _ := slices.BinarySearch(p.norm[ty], x)
			p.norm[ty] = slices.Insert(p.norm[ty], i, x)
			p.normN[ty]++
		}
		for _, x := range job.CompletedRuntimes[ty][p.durN[ty]:] {
			i, _ := slices.BinarySearch(p.dur[ty], x)
			p.dur[ty] = slices.Insert(p.dur[ty], i, x)
			p.durN[ty]++
		}
	}
}

// newCopy returns the sorted sample of t_new for task t and its scale: t_new
// values are sample x scale; normalised says the sample is per input byte.
// ok is false before any completion of the type.
func (p *policy) newCopy(t *speculators.Task) (sample []float64, scale float64, normalised, ok bool) {
	ty := t.ID.Type
	if t.InputBytes > 0 && len(p.norm[ty]) > 0 {
		return p.norm[ty], float64(t.InputBytes), true, true
	}
	return p.dur[ty], 1, false, len(p.dur[ty]) > 0
}

// probFaster is P(t_new < x) under the empirical distribution: the share of
// the sorted sample strictly below x/scale (a binary search; the values are
// durations, never NaN, so plain < orders them as slices.BinarySearch would).
func probFaster(sample []float64, scale, x float64) float64 {
	target := x / scale
	lo, hi := 0, len(sample)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if sample[mid] < target {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return float64(lo) / float64(len(sample))
}

// copies counts the speculative copies task t has started.
func copies(t *speculators.Task) int {
	n := 0
	for _, a := range t.Attempts {
		if a.Speculative {
			n++
		}
	}
	return n
}

// duplicate returns task t as a duplicate candidate when it qualifies: one
// running attempt, fewer than max-copies copies so far, and P(t_rem > 2
// t_new) > delta (see the package doc).
func (p *policy) duplicate(job *speculators.Job, t *speculators.Task, now speculators.Time) (cand, bool) {
	if t.Done() || t.Dropped || t.RunningAttempts != 1 || copies(t) >= p.maxCopies {
		return cand{}, false
	}
	sample, scale, _, ok := p.newCopy(t)
	if !ok {
		return cand{}, false
	}
	a, trem, _ := fastest(t, now)
	if a == nil || !p.trusted(job, t, a, now) {
		return cand{}, false
	}
	if prob := probFaster(sample, scale, trem/2); prob > p.delta {
		return cand{task: t, attempt: a, p: prob, trem: trem}, true
	}
	return cand{}, false
}

// trusted reports whether attempt a's t_rem is worth acting on: it has sent
// min-reports status reports, and it is not a reduce still copying while
// the job's maps run (its rate is the maps', and a new attempt would wait
// for them as well).
func (p *policy) trusted(job *speculators.Job, t *speculators.Task, a *speculators.Attempt, now speculators.Time) bool {
	if a.Reports < p.minReports {
		return false
	}
	return !(t.ID.Type == speculators.Reduce && a.Phase == speculators.PhaseShuffle &&
		job.Completed[speculators.Map] < len(job.Tasks[speculators.Map]))
}

// restartSaves reports whether killing attempt a of task t (t_rem trem ms)
// and starting afresh is likely to finish sooner (see the package doc, "A
// restart only when it saves time").
func (p *policy) restartSaves(job *speculators.Job, t *speculators.Task, a *speculators.Attempt, trem, expected float64, sample []float64, scale float64, now speculators.Time) bool {
	if trem <= expected+p.margin || !p.trusted(job, t, a, now) {
		return false
	}
	return probFaster(sample, scale, trem-p.margin) > 0.5
}

// Decide restarts, then duplicates (see the package doc).
func (p *policy) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	if !p.pull {
		// In pull mode a Decide only restarts, and a restart reaches the
		// duplicate candidates through the events it causes (Observe).
		p.ver++
	}
	p.tasks.Fit(job)
	p.sync(job)
	running, needs, unstarted := 0, 0, 0
	for ty := range job.Tasks {
		running += job.RunningAttempts[ty]
		needs += job.ContainerNeeds[ty]
		for _, t := range job.Tasks[ty] {
			if len(t.Attempts) == 0 && !t.Dropped {
				unstarted++
			}
		}
	}
	waiting := needs > 0 || unstarted > 0
	var normMean, durMean [speculators.NumTaskTypes]float64
	for ty := range job.Tasks {
		normMean[ty], durMean[ty] = speculators.Mean(p.norm[ty]), speculators.Mean(p.dur[ty])
	}
	// Free slots for duplicates; without any (or when slots are offered to
	// ChooseForSlot) only the restart rule can act, and the duplicate
	// candidates are not ranked.
	free := job.FreeSlots()
	duplicates := free > 0 && !p.pull
	p.cands = p.cands[:0]
	for ty := range job.Tasks {
		// Only running tasks qualify: the tasks with a running attempt, in
		// index order (Job.Live).
		live := job.Live[ty]
		for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
			t := job.Tasks[ty][i]
			st := &p.tasks[ty][t.ID.Index]
			if t.Done() || t.Dropped || t.RunningAttempts == 0 || t.PendingCopies > 0 {
				continue
			}
			sample, scale, normalised, ok := p.newCopy(t)
			if !ok {
				break
			}
			a, trem, c := fastest(t, now)
			if a == nil {
				continue
			}
			expected := durMean[ty] // E[t_new], under the same distribution as P
			if normalised {
				expected = normMean[ty] * scale
			}
			if waiting && c == 1 && copies(t) == 0 && st.restarts < p.maxRestarts &&
				p.restartSaves(job, t, a, trem, expected, sample, scale, now) {
				st.restarts++
				out = append(out, speculators.Decision{Kind: speculators.Kill, Task: t.ID, Attempt: a.ID,
					Reason: fmt.Sprintf("mantri restart %d/%d: t_rem %.1fs > E[t_new] %.1fs + %.1fs while tasks wait",
						st.restarts, p.maxRestarts, trem/1000, expected/1000, p.margin/1000)})
				continue
			}
			if !duplicates {
				continue
			}
			if c, ok := p.duplicate(job, t, now); ok {
				p.cands = append(p.cands, c)
			}
		}
	}
	// In pull mode duplicates are chosen slot by slot (ChooseForSlot).
	if !duplicates || len(p.cands) == 0 {
		return out
	}
	// The free best by priority, a total order: the same as sorting all.
	for _, c := range speculators.FirstK(p.cands, free, byPriority) {
		id := c.task.ID
		out = append(out, speculators.Decision{Kind: speculators.Speculate, Task: id, Copies: 1,
			Reason: fmt.Sprintf("mantri: P(t_rem %.1fs > 2 t_new) = %.2f > delta %.2f", c.trem/1000, c.p, p.delta)})
	}
	return out
}

// fastest is the running attempt with the least time left, that time in ms
// and the number of running attempts; nil when none has reported progress.
func fastest(t *speculators.Task, now speculators.Time) (*speculators.Attempt, float64, int) {
	var best *speculators.Attempt
	left, c := math.Inf(1), 0
	for _, a := range t.Attempts {
		if !a.Running() {
			continue
		}
		c++
		if l := a.PhaseTimeLeft(now) * 1000; l < left {
			best, left = a, l
		}
	}
	return best, left, c
}

// ChooseForSlot is the duplicate rule at a slot offer (see the package doc,
// "Pull"): a copy of the running task with the highest P(t_rem > 2 t_new)
// above delta, then the longest t_rem, not already running on node and
// within its copy budget;
// ok false when none qualifies. Pull mode is declared by the driver
// (OfferSlots): Decide then only restarts.
func (p *policy) ChooseForSlot(job *speculators.Job, node speculators.NodeID, now speculators.Time) (speculators.TaskID, bool, bool) {
	for _, c := range p.dupsAt(job, now) {
		if p.copyable(c) && !onNode(c.task, node) {
			return c.task.ID, true, true
		}
	}
	return speculators.TaskID{}, false, false
}

// OfferSlots puts the policy in pull mode (speculators.SlotChooser).
func (p *policy) OfferSlots(*speculators.Job) { p.pull = true }

// WantsSlot reports whether ChooseForSlot names a copy on some node at now.
// When quietUntil shows that no task can qualify now, the answer is no
// without the candidates being ranked, and it stays no until that time or
// the next event (ver).
func (p *policy) WantsSlot(job *speculators.Job, now speculators.Time) bool {
	if p.quietValid && p.quietVer == p.ver && now >= p.quietFrom && now < p.quietUntil {
		return false
	}
	p.quietValid = false
	p.tasks.Fit(job)
	p.sync(job)
	if until := p.quiet(job, now); until > now {
		p.quietValid, p.quietVer, p.quietFrom, p.quietUntil = true, p.ver, now, until
		return false
	}
	for _, c := range p.dupsAt(job, now) {
		if p.copyable(c) {
			return true
		}
	}
	return false
}

// quiet returns a time up to which (and at now) no running task can be a
// duplicate candidate (duplicate) while nothing but the clock moves, or now
// when it cannot tell. Between the job's events only t_rem moves: the
// running attempt's estimate grows linearly with the clock
// (Attempt.LeftStaysBelow), and P(t_new < t_rem / 2) grows with it, so a
// task qualifies only once t_rem / 2 exceeds the sample value that puts
// the share above delta. Everything else duplicate reads (one running
// attempt, copies so far, the sample, the reports that make it trusted, the
// maps done) changes only at events.
func (p *policy) quiet(job *speculators.Job, now speculators.Time) speculators.Time {
	until := speculators.Time(math.MaxInt64)
	for ty := range job.Tasks {
		live := job.Live[ty]
		for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
			t := job.Tasks[ty][i]
			if t.Done() || t.Dropped || t.RunningAttempts != 1 {
				continue
			}
			// The one running attempt, and the copies started so far.
			var a *speculators.Attempt
			spec := 0
			for _, x := range t.Attempts {
				if x.Running() {
					a = x
				}
				if x.Speculative {
					spec++
				}
			}
			if a == nil || spec >= p.maxCopies || a.Progress <= 0 {
				// Without progress t_rem is +Inf, which fastest skips:
				// no candidate until a report.
				continue
			}
			sample, scale, _, ok := p.newCopy(t)
			if !ok || !p.trusted(job, t, a, now) {
				continue
			}
			// The fewest sample values below t_rem/2/scale that make
			// probFaster exceed delta.
			n := len(sample)
			k := int(p.delta * float64(n))
			for k > 0 && float64(k)/float64(n) > p.delta {
				k--
			}
			for k <= n && !(float64(k)/float64(n) > p.delta) {
				k++
			}
			if k > n {
				continue // never more likely than delta
			}
			// probFaster counts values strictly below t_rem/2/scale: the
			// k-th smallest must be below it.
			at, ok := a.LeftStaysBelow(now, 2*scale*sample[k-1])
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

func (p *policy) copyable(c cand) bool {
	return c.task.RunningAttempts == 1 && copies(c.task) < p.maxCopies
}

// dupsAt is the duplicate candidates at now in byPriority order, computed
// again only when an event, a Decide or the clock has moved.
func (p *policy) dupsAt(job *speculators.Job, now speculators.Time) []cand {
	if !p.dupValid || p.dupVer != p.ver || p.dupNow != now {
		p.tasks.Fit(job)
		p.sync(job)
		p.dups = p.dups[:0]
		for ty := range job.Tasks {
			// Only running tasks qualify; byPriority is a total order, so
			// the order they are visited in does not matter.
			job.Live[ty].Each(nil, func(i int) {
				if c, ok := p.duplicate(job, job.Tasks[ty][i], now); ok {
					p.dups = append(p.dups, c)
				}
			})
		}
		slices.SortFunc(p.dups, byPriority)
		p.dupValid, p.dupVer, p.dupNow = true, p.ver, now
	}
	return p.dups
}

// onNode reports whether a running attempt of t is on node.
func onNode(t *speculators.Task, node speculators.NodeID) bool {
	for _, a := range t.Attempts {
		if a.Running() && node != "" && a.Node == node {
			return true
		}
	}
	return false
}

// byPriority orders duplicate candidates: highest P first, then the longest
// t_rem, then maps before reduces and the lower index.
func byPriority(a, b cand) int {
	switch {
	case a.p != b.p:
		if a.p > b.p {
			return -1
		}
		return 1
	case a.trem != b.trem:
		if a.trem > b.trem {
			return -1
		}
		return 1
	case a.task.ID.Type != b.task.ID.Type:
		return int(a.task.ID.Type) - int(b.task.ID.Type)
	}
	return int(a.task.ID.Index) - int(b.task.ID.Index)
}
