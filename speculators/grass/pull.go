package grass

import (
	"github.com/specbridge/specbridge/speculators"
)

// ChooseForSlot is GRASS's own model (§3): "the key choice made by a
// cluster scheduling algorithm is to pick the next task to schedule given a
// vacant slot", among unscheduled originals and copies of running tasks. It
// runs Pseudocode 1 (deadline-bound) or 2 (error-bound; exact jobs are error
// 0) for the one slot: pruning (candidates), then selection of Γ.first().
// Simulator-only (speculators.SlotChooser); live, Decide's push form in
// select.go runs instead.
//
// What it returns:
//
//   - Γ.first() is a running task: a copy of it (copy true). A task that
//     already runs on node is not a candidate for this slot (a second
//     attempt there would share the node's straggling cause); the next
//     task of Γ is taken instead.
//   - Γ.first() is a task not running, or Γ is empty: ok false, so the
//     allocator places the next original in the job's SJF (deadline) or LJF
//     (error) order, which is the pseudocode's default ("at default, both
//     algorithms schedule the task with the lowest t_new within the
//     deadline" / "the highest t_rem"). The simulator's order uses each
//     task's input size, what a scheduler knows before it runs; every policy gets the
//     same order, so the comparison is of speculation alone. When no
//     original is left, nothing is placed: RAS leaves a slot idle rather
//     than copy without saving.
//
// Ties. With equal inputs every map has the same t_new, so GS's sort by
// t_new ties a copy with every original; the paper does not say which goes
// first. We put originals first (a tie means the copy is no quicker than new
// work, and a copy only duplicates work already under way), then maps before
// reduces, then the lower index.
//
// Pull mode is declared by the driver (OfferSlots): Decide then stops
// asking for copies.
func (p *policy) ChooseForSlot(job *speculators.Job, node speculators.NodeID, now speculators.Time) (speculators.TaskID, bool, bool) {
	deadline := job.Deadline > 0
	g := p.gammaAt(job, now)
	if g.first < 0 {
		return speculators.TaskID{}, false, false
	}
	first := g.set[g.first]
	if first.running && runsOn(first.task, node) {
		// Rare: the best copy cannot run here; take the best that can.
		found := false
		for _, c := range g.set {
			if c.running && runsOn(c.task, node) {
				continue
			}
			if !found || p.selectLess(c, first, deadline) {
				first, found = c, true
			}
		}
		if !found {
			return speculators.TaskID{}, false, false
		}
	}
	if !first.running {
		return speculators.TaskID{}, false, false
	}
	return first.task.ID, true, true
}

// OfferSlots puts the policy in pull mode (speculators.SlotChooser): the
// driver offers every free slot to ChooseForSlot, so Decide asks for no
// copies.
func (p *policy) OfferSlots(*speculators.Job) { p.pull = true }

// WantsSlot reports whether ChooseForSlot names a copy on some node at now:
// it does exactly when Γ.first() is a running task (a node where that task
// runs may still get none, or another task's copy).
//
// A scheduler asks at every scheduling round, and between two of the job's
// events most rounds differ from the last only by the clock. quietUntil
// bounds how long no running task can join Γ while nothing but the clock
// moves; while that time lies ahead, and Γ holds no original, the answer is
// no without Γ being computed, and it stays no until that time or the next
// event or Decide that changes what Γ reads (see quietUntil).
func (p *policy) WantsSlot(job *speculators.Job, now speculators.Time) bool {
	q := &p.quiet
	if q.valid && q.ver == p.ver && q.gs == p.useGS && now >= q.from && now < q.until && p.priorHolds() {
		return false
	}
	q.valid = false
	p.size(job)
	p.est.sync(job)
	if p.gammaKept(job, now) {
		// Γ at this instant is kept, or brought up to date from a few
		// tasks' events: cheaper than the quiet bound's pass, and the
		// answer is Γ's either way.
		g := &p.gamma
		return g.first >= 0 && g.set[g.first].running
	}
	if until := p.quietUntil(job, now); until > now {
		q.valid, q.ver, q.gs, q.from, q.until = true, p.ver, p.useGS, now, until
		q.byNo = false
		return false
	}
	if q.failedOK && p.gammaPartial(job, now, q.failed) {
		// Γ from the few tasks whose quiet time ran out: every other
		// running task is provably out of it.
		g := &p.gamma
		g.valid, g.ver, g.now, g.gs = true, p.ver, now, p.useGS
		g.stale, g.dirty = false, g.dirty[:0]
		if g.first >= 0 && g.set[g.first].running {
			return true
		}
		if until := p.partialQuiet(job, now); until > now {
			// The no stands until then, as a quiet time's.
			q.valid, q.ver, q.gs, q.from, q.until = true, p.ver, p.useGS, now, until
			q.byNo = true
		}
		return false
	}
	g := p.gammaAt(job, now)
	return g.first >= 0 && g.set[g.first].running
}

// quietTime is a time span over which WantsSlot's answer is no
// (quietUntil): from..until, while ver and the algorithm stay as they were
// and the prior's answers it rests on (priors) have not fallen.
type quietTime struct {
	valid bool
	// all and built sit at the head, beside valid: a Decide in push mode
	// sets all (the simulator's waiting jobs, at every tick).
	built, all  bool
	ver         uint64
	gs          bool
	from, until speculators.Time
	priors      []priorSeen

	// What quietUntil keeps between passes (quietRefresh): each task's
	// time and part in t_new's floor, the floor's sums, the tasks with an
	// event since the last pass (dirty) or that everything must be
	// computed again (all), and what the parts were computed with.
	tasks       [speculators.NumTaskTypes][]quietTask
	floors      [speculators.NumTaskTypes][2]quietFloor
	normN, durN [speculators.NumTaskTypes]int
	// means: the completions' means (per byte, in ms) the parts were
	// computed with (partsHold).
	means [speculators.NumTaskTypes][2]float64
	parts bool // every part again, the tasks' times kept (quietRefresh)
	dirty []speculators.TaskID
	// touched: the tasks with an event before the latest pass
	// (quietRefresh), when only theirs changed; last: the latest full
	// pass (quietTouched).
	touched []speculators.TaskID
	last    quietLast
	// failed: the running tasks whose time did not hold at the latest
	// pass, which returned its instant; failedOK: every other task's did,
	// so Γ's members are among them (gammaPartial).
	failed   []speculators.TaskID
	failedOK bool
	visit    []speculators.TaskID // quietTouched's scratch
	// early: the earliest kept times, earliest first, and earlyMax, at or
	// before every kept time not in early, while earlyOK (noteEarly).
	early    []earlyTime
	earlyMax speculators.Time
	earlyOK  bool
	// byNo: the time (from..until) is partialQuiet's, not a pass's.
	byNo bool
}

// inGamma is the pruning stage's membership test for a candidate already in
// T: Pseudocode 1 lines 7-12, Pseudocode 2 lines 6-11. RAS keeps running
// tasks whose copy saves resources; GS keeps originals and running tasks
// whose copy would finish first.
func (p *policy) inGamma(c cand) bool {
	if !p.useGS {
		return c.running && c.eligible && c.saving > tolerance(c.c, c.trem)
	}
	return !c.running || (c.eligible && less(c.tnew, c.trem))
}

// selectLess orders Γ for the selection stage: RAS by saving, highest
// first; GS by t_new, lowest first (deadline), or by t_rem, highest first
// (error; an original counts its t_new). Ties: originals first (see
// ChooseForSlot); between two copies for a deadline-bound GS, the higher
// t_rem first; then order's maps before reduces and lower index. Copies of
// a job's equal blocks all tie on t_new, and Pseudocode 1 does not say which
// to take; the one with the most time left is the least likely to finish by
// the deadline without a copy, so its copy adds most (our choice; by index,
// GS copied the first straggler in index order and did worse: GS's deadline
// accuracy 0.734 against 0.741 on grass-deadline.yaml on its earlier
// 25-node cluster, 5 seeds).
func (p *policy) selectLess(a, b cand, deadline bool) bool {
	var k int
	switch {
	case !p.useGS:
		k = bySavingDesc(a, b)
	case deadline:
		k = keyOnly(a.tnew, b.tnew)
	default:
		k = keyOnly(tremKey(b), tremKey(a))
	}
	if k != 0 {
		return k < 0
	}
	if a.running != b.running {
		return !a.running
	}
	if p.useGS && deadline && a.running {
		if k := keyOnly(b.trem, a.trem); k != 0 {
			return k < 0
		}
	}
	return order(0, 0, a, b) < 0
}

// keyOnly compares two estimates with less's tolerance, 0 when equal.
func keyOnly(x, y float64) int {
	switch {
	case less(x, y):
		return -1
	case less(y, x):
		return 1
	}
	return 0
}

// tremKey is Pseudocode 2's GS key: t_rem, or t_new for an original.
func tremKey(c cand) float64 {
	if !c.running {
		return c.tnew
	}
	return c.trem
}

// runsOn reports whether a running attempt of t is on node.
func runsOn(t *speculators.Task, node speculators.NodeID) bool {
	if node == "" {
		return false
	}
	for _, a := range t.Attempts {
		if a.Running() && a.Node == node {
			return true
		}
	}
	return false
}
