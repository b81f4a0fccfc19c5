package grass

import (
	"math"
	"slices"

	"github.com/specbridge/specbridge/speculators"
)

// gammaAt is Γ at now and its first member. It is kept while nothing it
// reads has changed (no event observed, no Decide that changed something,
// the same instant and algorithm), brought up to date task by task when
// only a few tasks have had events since, at the same instant
// (gammaUpdate), and computed afresh otherwise.
//
// Why the update (issue 31). A job that wants copies gets one slot at a
// time: the simulator offers a slot, the copy starts (an event of one
// task), and the next slot of the same scheduling round, at the same
// instant, asks again. On xulau/large-jobs under gs three in four of Γ's
// computations were of that kind, each a pass over hundreds of tasks' t_rem
// for a change to one. At the same instant every other task's entry in T is
// what it was, provided the inputs shared by all (t_new's sums and the
// running tasks counted in them, earlier jobs' prior, the early waves, the
// completions, the pruning) have not moved; gammaUpdate checks each of
// those and computes the changed tasks' entries again, then ranks Γ by the
// same pass over T as a fresh computation, in the same order, so the same
// member comes first even where ties are judged with a tolerance.
func (p *policy) gammaAt(job *speculators.Job, now speculators.Time) *gammaCache {
	g := &p.gamma
	if g.valid && g.ver == p.ver && g.now == now && g.gs == p.useGS {
		return g
	}
	p.size(job)
	p.est.sync(job)
	deadline := job.Deadline > 0
	if g.current(p, now) && p.gammaUpdate(job, now, deadline) {
		g.updates++
	} else {
		p.gammaFull(job, now, deadline)
	}
	g.valid, g.ver, g.now, g.gs = true, p.ver, now, p.useGS
	g.stale, g.dirty = false, g.dirty[:0]
	return g
}

// gammaKept reports whether Γ at now is kept, or brought up to date from
// a few tasks' events (gammaUpdate), and brings it up to date; false
// leaves Γ as it was, and WantsSlot then tries the quiet bound first, which
// is cheaper than a full pass of Γ when it holds.
func (p *policy) gammaKept(job *speculators.Job, now speculators.Time) bool {
	g := &p.gamma
	if !g.current(p, now) {
		return false
	}
	if g.ver == p.ver {
		return true
	}
	p.size(job)
	p.est.sync(job)
	if !p.gammaUpdate(job, now, job.Deadline > 0) {
		return false
	}
	g.updates++
	g.valid, g.ver, g.now, g.gs = true, p.ver, now, p.useGS
	g.stale, g.dirty = false, g.dirty[:0]
	return true
}

// gammaCache is the pruned set Γ of the latest ChooseForSlot or WantsSlot
// and its best member, with what gammaUpdate needs to bring it up to date:
// T as the last full pass left it (t) and what that pass read that every
// task's entry depends on. A cluster scheduler offers many slots at one
// instant, and a slot declined on one node is offered on the next; the
// cache makes each further offer O(1) instead of O(tasks).
type gammaCache struct {
	valid bool
	// stale: something that may reach every task's entry changed since
	// t was computed (a completion, a Decide that drops or switches, an
	// event of no one task; at the head, as a Decide in push mode sets
	// it); dirty: the tasks with an event since.
	stale bool
	ver   uint64
	now   speculators.Time
	gs    bool
	set   []cand
	first int // index in set of Γ.first(), -1 when Γ is empty
	// fold[i] is the selection pass's first member over set[:i+1]
	// (gammaRank), so that gammaUpdate takes the pass up from the first
	// entry it changed.
	fold []int32

	// t is T (after pruning) in candidates' order: by type, then index;
	// partial: only some of T's entries, every member of Γ among them
	// (gammaPartial).
	t       []cand
	partial bool
	ids     []speculators.TaskID // gammaPartial's scratch
	dirty   []speculators.TaskID

	// What the full pass read (gammaFull): its shape, the completions
	// counted in t_new, censor's sums and each task's part in them
	// (parts, valid where its serial is the pass's), and the prior's
	// answers (priorsOver: more than maxGammaPriors).
	shape                  scanShape
	normN, durN, completed [speculators.NumTaskTypes]int
	runNorm, runDur        [speculators.NumTaskTypes]float64
	runNormN, runDurN      [speculators.NumTaskTypes]int
	serial                 uint32
	parts                  [speculators.NumTaskTypes][]taskPart
	priors                 []priorSeen
	priorsOver             bool
	updates                int // how many times gammaUpdate was taken (tests)
}

// maxGammaDirty is how many tasks' events gammaUpdate takes; after more, a
// full pass costs about as much.
const maxGammaDirty = 16

// maxGammaPriors bounds the prior's answers a full pass may rest on for an
// update to follow it.
const maxGammaPriors = 8

// current reports whether Γ was computed at now for the algorithm in force
// and has since seen events of a few tasks only (or none).
func (g *gammaCache) current(p *policy, now speculators.Time) bool {
	return g.valid && g.now == now && g.gs == p.useGS && !g.stale
}

// note records what an observed event changes for Γ: the task whose
// attempt started, reported, failed or was killed, or, for anything else
// (a success moves t_new; a node or the job's needs or bounds), everything.
func (g *gammaCache) note(job *speculators.Job, ev *speculators.Event) {
	if g.stale {
		return
	}
	switch ev.Kind {
	case speculators.AttemptStarted, speculators.AttemptStatus, speculators.AttemptFailed, speculators.AttemptKilled:
		if t := job.Task(ev.Attempt.Task); t != nil && len(g.dirty) < maxGammaDirty {
			g.dirty = append(g.dirty, t.ID)
			return
		}
	}
	g.stale = true
}

// notePart records task t's part in censor's sums for the pass being
// computed (estimators.censor calls it while keep is set).
func (g *gammaCache) notePart(t *speculators.Task, v float64, kind uint8) {
	g.parts[t.ID.Type][t.ID.Index] = taskPart{serial: g.serial, kind: kind, v: v}
}

// notePrior records an answer of the prior the pass being computed read.
func (g *gammaCache) notePrior(ty speculators.TaskType, bytes int64, ms float64, ok bool) {
	for _, s := range g.priors {
		if s.ty == ty && s.bytes == bytes {
			return
		}
	}
	if len(g.priors) >= maxGammaPriors {
		g.priorsOver = true
		return
	}
	g.priors = append(g.priors, priorSeen{ty: ty, bytes: bytes, ms: ms, ok: ok})
}

// gammaFull computes T and Γ at now afresh, noting what gammaUpdate needs.
func (p *policy) gammaFull(job *speculators.Job, now speculators.Time, deadline bool) {
	g := &p.gamma
	e := &p.est
	g.begin(job)
	e.keep = g
	saved := p.cands
	p.cands = g.t
	p.candidates(job, now, deadline, false)
	g.t, p.cands = p.cands, saved
	e.keep = nil
	g.shape = p.scanned
	g.partial = false
	g.end(job, e)
	p.gammaRank(deadline)
}

// begin starts a pass that computes T afresh: a new serial for the tasks'
// parts in censor's sums, and no prior's answer noted yet.
func (g *gammaCache) begin(job *speculators.Job) {
	g.serial++
	if g.serial == 0 { // wrapped: no part may look current
		for ty := range g.parts {
			clear(g.parts[ty])
		}
		g.serial = 1
	}
	for ty := range job.Tasks {
		g.parts[ty] = speculators.Grow(g.parts[ty], len(job.Tasks[ty]))
	}
	g.priors, g.priorsOver = g.priors[:0], false
}

// end notes what a pass that computed T afresh read that every entry
// shares: the completions and censor's sums.
func (g *gammaCache) end(job *speculators.Job, e *estimators) {
	g.normN, g.durN, g.completed = e.normN, e.durN, job.Completed
	g.runNorm, g.runDur, g.runNormN, g.runDurN = e.runNorm, e.runDur, e.runNormN, e.runDurN
}

// gammaPartial computes Γ at now from the few tasks that may be in it, and
// reports whether it could (false: nothing is kept, and the caller computes
// Γ afresh). ids are the running tasks whose quiet time did not hold at now
// (quietUntil's failed), and with GS the running tasks whose time rests on
// the originals' bound: every other running task provably stays out of Γ
// at now (its t_rem is at most a lower bound of its t_new, times (c+1)/c
// for RAS). RAS's Γ holds no original; GS's holds every original in T,
// and they are taken here.
//
// Why Γ comes out the same as Γ afresh. censor runs over every running
// task, as a full pass does, so t_new and each task's part are the same
// bits; each task of ids is judged for T by inT with the stops a full pass
// would find, and its entry computed by candOf; Γ is then ranked by
// gammaRank's pass over these entries in T's order, which are Γ's members
// in T's order, so the same member comes first even where ties are judged
// with a tolerance. A type without a completion is scanned as a full pass
// scans it up to the first task without t_new (where T's part of the type
// ends), asking the prior the same questions. An error-bound job is left
// to a full pass: the pruning stage keeps the earliest tasks, which depends
// on every task's duration. T kept (g.t) then holds only the entries
// computed, a superset of Γ (partial); gammaUpdate puts in a task with an
// event that joins T.
func (p *policy) gammaPartial(job *speculators.Job, now speculators.Time, ids []speculators.TaskID) bool {
	g := &p.gamma
	e := &p.est
	deadline := job.Deadline > 0
	if !deadline && job.ErrorBound > 0 {
		return false // the earliest tasks depend on every duration
	}
	slices.SortFunc(ids, cmpTaskID)
	ids = slices.Compact(ids)
	if p.useGS {
		// Every original in T is in GS's Γ: merged in T's order with the
		// noted tasks (running ones, so none is both).
		g.ids = g.ids[:0]
		j := 0
		for ty := range job.Tasks {
			if speculators.TaskType(ty) == speculators.Map && p.ended {
				continue
			}
			for t := range waiting(job, ty) {
				for ; j < len(ids) && cmpTaskID(ids[j], t.ID) < 0; j++ {
					g.ids = append(g.ids, ids[j])
				}
				g.ids = append(g.ids, t.ID)
			}
		}
		ids = append(g.ids, ids[j:]...)
		g.ids = ids
	}
	g.begin(job)
	e.keep = g
	e.scan, e.priorValid = true, false
	e.censor(job, now)
	var shape scanShape
	for ty := range job.Tasks {
		shape.stop[ty] = math.MaxInt32
		mapType := speculators.TaskType(ty) == speculators.Map
		if (mapType && p.ended) || e.durN[ty] > 0 {
			continue // being dropped, or every task's t_new known
		}
		// No completion of the type: t_new is earlier jobs' or unknown,
		// and a full pass's scan stops at the first task it would take
		// without one (candidates), having asked the prior (noted, as a
		// full pass notes them) for every task before it. Where every
		// task of the type has the same input size, every task asks the
		// same question, so the first task's answer is every task's.
		_, same := p.sameInput(job, speculators.TaskType(ty))
		open := job.Open[ty]
		for i := open.Next(0); i >= 0; i = open.Next(i + 1) {
			t := job.Tasks[ty][i]
			if t.Done() || t.Dropped || (mapType && p.dropped[t.ID.Index]) {
				continue
			}
			if _, ok := e.tnew(t); !ok {
				shape.stop[ty] = int32(i)
				break
			}
			if same {
				break
			}
		}
	}
	shape.early = p.early(job)
	g.shape = shape
	left := float64(job.Deadline - now)
	g.t = g.t[:0]
	ok := true
	for _, id := range ids {
		t := job.Tasks[id.Type][id.Index]
		in, known := p.inT(job, t, deadline, left)
		if !known {
			ok = false
			break
		}
		if !in {
			continue
		}
		tn, _ := e.tnew(t)
		g.t = append(g.t, cand{})
		p.candOf(&g.t[len(g.t)-1], t, now, tn, shape.early, false)
	}
	e.keep, e.scan = nil, false
	if !ok {
		g.valid = false // T as left here is no full pass's to update
		return false
	}
	g.partial = true
	g.end(job, e)
	p.gammaRank(deadline)
	return true
}

// gammaRank builds Γ from T and finds its first member: the pruning
// stage's membership test and the selection stage's order, over T in its
// order (a tie judged with a tolerance is not transitive, so the order of
// the pass is part of the answer).
func (p *policy) gammaRank(deadline bool) {
	g := &p.gamma
	g.set = g.set[:0]
	for _, c := range g.t {
		if p.inGamma(c) {
			g.set = append(g.set, c)
		}
	}
	p.gammaFold(0, deadline)
}

// gammaFold is the selection stage's pass over Γ in T's order from
// set[from] on, taking up the pass over set[:from] as fold noted it: the
// first member of Γ and each prefix's (a tie judged with a tolerance is
// not transitive, so every step of the pass is kept).
func (p *policy) gammaFold(from int, deadline bool) {
	g := &p.gamma
	g.fold = speculators.Grow(g.fold, len(g.set))[:len(g.set)]
	g.first = -1
	if from > 0 {
		g.first = int(g.fold[from-1])
	}
	for i := from; i < len(g.set); i++ {
		if g.first < 0 || p.selectLess(g.set[i], g.set[g.first], deadline) {
			g.first = i
		}
		g.fold[i] = int32(g.first)
	}
}

// gammaUpdate brings T and Γ, computed at now, up to date after events of
// the tasks in dirty only, and reports whether it could; when it cannot
// (something shared by every entry moved), nothing is changed and the
// caller computes them afresh. What a fresh pass would read, and why each
// is the same here:
//
//   - t_new: the completions' sums (the counts are compared; the sums
//     change only with them), earlier jobs' answers (asked again and
//     compared), and censor's sums of the running tasks that count: every
//     other task's part is what it was at the same instant, and each dirty
//     task's part is computed again and compared with the one the full
//     pass added, so the sums, added in the same order, are the same.
//   - The early waves (hasOriginal and the AM's needs): computed again and
//     compared. The completions, the deadline and the drops: counts
//     compared, or a Decide or an event that makes the cache stale.
//   - The pruning: an error bound that removed tasks makes any update
//     fall back (the earliest tasks depend on every duration).
//   - T's members: a dirty task's membership is judged as candidates
//     would; a task that joins or leaves T, or one without t_new before
//     the type's scan stopped, falls back.
func (p *policy) gammaUpdate(job *speculators.Job, now speculators.Time, deadline bool) bool {
	g := &p.gamma
	e := &p.est
	if g.shape.pruned || g.priorsOver || g.normN != e.normN || g.durN != e.durN || g.completed != job.Completed {
		return false
	}
	for _, s := range g.priors {
		ms, ok := e.prior.PriorRuntime(s.ty, s.bytes)
		if ok != s.ok || ms != s.ms {
			return false
		}
	}
	early := p.early(job)
	if early != g.shape.early {
		return false
	}
	// Each dirty task's part in censor's sums, against the full pass's.
	for _, id := range g.dirty {
		t := job.Tasks[id.Type][id.Index]
		v, kind := 0.0, partOut
		if e.running && job.RunningTasks[id.Type] > 0 && inSet(job.Live[id.Type], int(id.Index)) {
			v, kind = e.censorPart(t, now)
		}
		was := g.parts[id.Type][id.Index]
		if was.serial != g.serial {
			was = taskPart{}
		}
		if kind != was.kind || v != was.v {
			return false
		}
		e.setOwn(t, v, kind) // its own part, left out of its t_new
	}
	// t_new as the full pass had it (censor's sums as they were are put
	// back if the update falls back, so that nothing else reads them
	// changed: a fall back need not be followed by a full pass).
	runNorm, runDur, runNormN, runDurN := e.runNorm, e.runDur, e.runNormN, e.runDurN
	e.runNorm, e.runDur, e.runNormN, e.runDurN = g.runNorm, g.runDur, g.runNormN, g.runDurN
	e.scan, e.priorValid = true, false
	defer func() { e.scan = false }()
	left := float64(job.Deadline - now)
	// Judge every dirty task before changing T, so that a fall back leaves
	// it as it was. T kept in part (gammaPartial) lacks entries of tasks
	// that were out of Γ: a dirty task of T not among them is put in.
	for _, id := range g.dirty {
		_, found := find(g.t, id)
		in, ok := p.inT(job, job.Tasks[id.Type][id.Index], deadline, left)
		if !ok || (in != found && !(g.partial && in)) {
			e.runNorm, e.runDur, e.runNormN, e.runDurN = runNorm, runDur, runNormN, runDurN
			return false
		}
	}
	// Γ is T's members in T's order: each dirty task's entry is replaced,
	// taken out or put in at its place, and the first member found again
	// by the same pass over Γ as gammaRank's, taken up before the first
	// entry changed (the pass over the entries before it is as it was).
	from := len(g.set)
	for _, id := range g.dirty {
		t := job.Tasks[id.Type][id.Index]
		pos, found := find(g.t, id)
		if !found {
			if !g.partial {
				continue
			}
			if in, _ := p.inT(job, t, deadline, left); !in {
				continue
			}
			g.t = slices.Insert(g.t, pos, cand{task: t})
		}
		tn, _ := e.tnew(t)
		p.candOf(&g.t[pos], t, now, tn, early, false)
		c := g.t[pos]
		at, was := find(g.set, id)
		switch is := p.inGamma(c); {
		case is && was:
			g.set[at] = c
		case is:
			g.set = slices.Insert(g.set, at, c)
		case was:
			g.set = slices.Delete(g.set, at, at+1)
		default:
			continue
		}
		from = min(from, at)
	}
	p.gammaFold(from, deadline)
	return true
}

// inT reports whether task t is in T as candidates would build it with the
// full pass's stops (in), and false ok where that cannot be told without
// a full pass: t lacks t_new before where its type's scan stopped.
func (p *policy) inT(job *speculators.Job, t *speculators.Task, deadline bool, left float64) (in, ok bool) {
	ty, i := t.ID.Type, int(t.ID.Index)
	mapType := ty == speculators.Map
	if mapType && p.ended {
		return false, true
	}
	if !inSet(job.Open[ty], i) || t.Done() || t.Dropped || (mapType && p.dropped[i]) {
		return false, true
	}
	if int32(i) >= p.gamma.shape.stop[ty] {
		return false, true
	}
	tn, known := p.est.tnew(t)
	if !known {
		return false, false
	}
	if mapType && deadline && greater(tn, left) {
		return false, true
	}
	return true, true
}

// cmpTaskID orders task ids as T is ordered: by type, then index.
func cmpTaskID(a, b speculators.TaskID) int {
	if a.Type != b.Type {
		return int(a.Type) - int(b.Type)
	}
	return int(a.Index) - int(b.Index)
}

// find is where task id is, or would go, in cs, ordered by type, then
// index (T and Γ), and whether it is there.
func find(cs []cand, id speculators.TaskID) (int, bool) {
	lo, hi := 0, len(cs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		c := cs[m].task.ID
		if c.Type < id.Type || (c.Type == id.Type && c.Index < id.Index) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(cs) && cs[lo].task.ID == id
}

// inSet reports whether task i is in s.
func inSet(s speculators.TaskSet, i int) bool {
	return i >= 0 && i/64 < len(s) && s[i/64]>>(i%64)&1 != 0
}
