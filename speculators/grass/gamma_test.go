package grass

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// Γ brought up to date from the events of a few tasks (gammaUpdate) must be
// Γ computed afresh: the same T, entry for entry, the same members and the
// same first member. Random jobs (Pareto task times, maps and reduces,
// exact, error-bound and deadline-bound, with and without earlier jobs'
// prior moving under them) get status reports, starts, copies, failures,
// kills and completions, several at one instant as a scheduling round
// gives them; after each event Γ as kept is compared with Γ afresh. The
// test fails if no update was taken, so that it checks something.
func TestGammaUpdateMatchesFresh(t *testing.T) {
	updates, partial := 0, 0
	for _, name := range []string{"gs", "ras", "grass"} {
		for seed := uint64(1); seed <= 12; seed++ {
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				u, pu := gammaRun(t, name, seed)
				updates += u
				partial += pu
			})
		}
	}
	if records == 0 {
		t.Fatal("recordTrem recorded nothing: the test checks too little")
	}
	if updates == 0 || partial == 0 {
		t.Fatalf("%d Γ brought up to date, %d of them kept in part: the test checks too little", updates, partial)
	}
	t.Logf("%d updates compared, %d of Γ kept in part, %d t_rem recorded alike", updates, partial, records)
}

// gammaRun plays one random job and returns how many times Γ was brought
// up to date rather than computed afresh, and how many of those were of Γ
// kept in part (gammaPartial).
func gammaRun(t *testing.T, name string, seed uint64) (int, int) {
	const maps, reduces = 30, 4
	h, p, sizes, store, rng := randomGrassJob(t, name, seed, 97,
		speculators.JobInfo{ID: "job_gamma", Maps: maps, Reduces: reduces}, 0.2, ms(60))
	rr := &randomRuns{h: h, rng: rng, sizes: sizes}
	launch := rr.launch
	done := map[speculators.TaskID]bool{}
	started := map[speculators.TaskID]bool{}
	rr.started = started
	updates, partialUpdates := 0, 0
	check := func(now speculators.Time, what string) {
		t.Helper()
		before := p.gamma.updates
		p.gammaAt(h.Job(), now)
		if p.gamma.updates == before {
			return // computed afresh (or kept): nothing to compare
		}
		updates++
		if p.gamma.partial {
			partialUpdates++
		}
		checkKept(t, p, h.Job(), now, fmt.Sprintf("%s seed %d at %d ms after %s", name, seed, now, what))
	}
	for i := range maps * 2 / 3 {
		launch(speculators.TaskID{Type: speculators.Map, Index: int32(i)}, 0, false)
	}
	for now := speculators.Time(0); now <= ms(150); now += 100 {
		if now%200 == 0 {
			p.gammaAt(h.Job(), now) // the instant's first look, afresh
		} else {
			// WantsSlot looks first: the quiet time, or Γ from the tasks
			// whose quiet time ran out (gammaPartial), which the events
			// below then bring up to date.
			h.Engine.WantsSlot(now)
		}
		// A few reports at this instant, one event at a time.
		for _, r := range rr.runs {
			if r.over || now >= r.end || rng.IntN(25) != 0 {
				continue
			}
			h.Status(r.id, now, float64(now-r.start)/float64(r.end-r.start))
			check(now, "a report")
		}
		for _, r := range rr.runs {
			if r.over || now < r.end {
				continue
			}
			r.over = true
			task := r.id.Task
			if done[task] {
				continue
			}
			if rng.IntN(30) == 0 {
				h.Fail(r.id, now)
				check(now, "a failure")
				continue
			}
			done[task] = true
			h.Succeed(r.id, now)
			for _, o := range rr.runs {
				if o != r && !o.over && o.id.Task == task {
					o.over = true
					h.Kill(o.id, now)
					check(now, "a kill")
				}
			}
			if store != nil {
				store.Keep(h.Learned())
			}
		}
		// Originals join in, and reduces once half the maps are done.
		for i := range maps {
			task := speculators.TaskID{Type: speculators.Map, Index: int32(i)}
			if !started[task] && rng.IntN(40) == 0 {
				launch(task, now, false)
				check(now, "an original's start")
			}
		}
		if len(done) >= maps/2 {
			for i := range reduces {
				task := speculators.TaskID{Type: speculators.Reduce, Index: int32(i)}
				if !started[task] {
					launch(task, now, false)
					check(now, "a reduce's start")
				}
			}
		}
		// A scheduling round: copies of Γ's first member, one slot at a
		// time, and now and then a copy killed at the same instant.
		for range 4 {
			if !h.Engine.WantsSlot(now) {
				break
			}
			if rng.IntN(2) == 0 {
				// Another task reports at the same instant: its entry may
				// join Γ, kept whole or in part (gammaPartial).
				for _, r := range rr.runs {
					if !r.over && r.start < now && now < r.end && rng.IntN(8) == 0 {
						h.Status(r.id, now, float64(now-r.start)/float64(r.end-r.start))
						check(now, "a report in the round")
						break
					}
				}
				if !h.Engine.WantsSlot(now) {
					break
				}
			}
			g := p.gammaAt(h.Job(), now)
			copied := g.set[g.first].task.ID
			launch(copied, now, true)
			check(now, "a copy's start")
			if rng.IntN(6) == 0 {
				for _, r := range rr.runs {
					if !r.over && r.start == now && r.id.Task != copied {
						r.over = true
						h.Kill(r.id, now)
						check(now, "a copy killed")
						break
					}
				}
			}
		}
		if now%1000 == 0 {
			checkRecord(t, p, h.Job(), now)
			h.Engine.Decide(now)
		}
		if store != nil && now%7000 == 0 {
			store.AddRuntime(speculators.Map, 4*unit+float64(rng.IntN(12*unit)), 10*unit)
		}
	}
	return updates, partialUpdates
}

// checkKept compares Γ as kept at now (gammaAt's cache) with Γ afresh: the
// same members bit for bit, the same first member, and each entry of T
// kept equal to T afresh's for that task (all of T, in order, unless T is
// kept in part: gammaPartial). Afresh also means censor without the tasks
// it found out before (estimators.outs). It leaves Γ afresh in the cache.
func checkKept(t *testing.T, p *policy, job *speculators.Job, now speculators.Time, where string) {
	t.Helper()
	g := &p.gamma
	kept := append([]cand(nil), g.t...)
	set := append([]cand(nil), g.set...)
	first, partial := g.first, g.partial
	g.valid = false
	for ty := range p.est.outs {
		p.est.newOutGen(ty)
	}
	g = p.gammaAt(job, now)
	sameT := sameCands(kept, g.t)
	if partial {
		sameT = true
		for _, c := range kept {
			at, found := find(g.t, c.task.ID)
			sameT = sameT && found && sameCands([]cand{c}, g.t[at:at+1])
		}
	}
	if !sameT || !sameCands(set, g.set) || first != g.first {
		t.Fatalf("%s: Γ kept (|T| %d, partial %v, |Γ| %d, first %d) is not Γ afresh (|T| %d, |Γ| %d, first %d)",
			where, len(kept), partial, len(set), first, len(g.t), len(g.set), g.first)
	}
}

// checkRecord checks that pull mode's recordTrem records for the accuracy
// score exactly what a candidates pass with record set records: the same
// tasks, the same t_rem bit for bit. The estimators' records are put back
// as they were.
func checkRecord(t *testing.T, p *policy, job *speculators.Job, now speculators.Time) {
	t.Helper()
	e := &p.est
	var rem [speculators.NumTaskTypes][]float64
	var at [speculators.NumTaskTypes][]speculators.Time
	for ty := range e.predRem {
		rem[ty] = append([]float64(nil), e.predRem[ty]...)
		at[ty] = append([]speculators.Time(nil), e.predAt[ty]...)
	}
	clearRecords := func() {
		for ty := range e.predRem {
			clear(e.predRem[ty])
			for i := range e.predAt[ty] {
				e.predAt[ty][i] = -1
			}
		}
	}
	clearRecords()
	p.recordTrem(job, now, job.Deadline > 0)
	var gotRem [speculators.NumTaskTypes][]float64
	var gotAt [speculators.NumTaskTypes][]speculators.Time
	for ty := range e.predRem {
		gotRem[ty] = append([]float64(nil), e.predRem[ty]...)
		gotAt[ty] = append([]speculators.Time(nil), e.predAt[ty]...)
	}
	clearRecords()
	p.candidates(job, now, job.Deadline > 0, true)
	recorded := 0
	for ty := range e.predRem {
		for i := range e.predRem[ty] {
			if math.Float64bits(gotRem[ty][i]) != math.Float64bits(e.predRem[ty][i]) || gotAt[ty][i] != e.predAt[ty][i] {
				t.Fatalf("at %d ms: task %d/%d: recordTrem recorded %v at %d, candidates %v at %d",
					now, ty, i, gotRem[ty][i], gotAt[ty][i], e.predRem[ty][i], e.predAt[ty][i])
			}
			if gotAt[ty][i] >= 0 {
				recorded++
			}
		}
	}
	records += recorded
	for ty := range e.predRem {
		copy(e.predRem[ty], rem[ty])
		copy(e.predAt[ty], at[ty])
	}
}

// records counts the t_rem checkRecord saw recorded, so that the test can
// require some.
var records int

// sameCands reports whether two lists of T's entries are equal, floats bit
// for bit.
func sameCands(a, b []cand) bool {
	if len(a) != len(b) {
		return false
	}
	bits := math.Float64bits
	for i := range a {
		x, y := a[i], b[i]
		if x.task != y.task || x.running != y.running || x.eligible != y.eligible || x.c != y.c ||
			bits(x.trem) != bits(y.trem) || bits(x.tnew) != bits(y.tnew) || bits(x.dur) != bits(y.dur) || bits(x.saving) != bits(y.saving) {
			return false
		}
	}
	return true
}

// randomRun is an attempt of a random job: when it started, when it is due
// to end, and whether it has ended.
type randomRun struct {
	id         speculators.AttemptID
	start, end speculators.Time
	over       bool
}

// randomRuns starts attempts of a random job's tasks on nodes of their
// own: a map runs its input size, a reduce 10 units, times 0.6 plus 0.4 of
// a Pareto draw (shape 1.5).
type randomRuns struct {
	h       *spectest.Harness
	rng     *rand.Rand
	sizes   []int64
	runs    []*randomRun
	started map[speculators.TaskID]bool // if set, the tasks started
}

func (r *randomRuns) launch(task speculators.TaskID, at speculators.Time, copy bool) {
	dur := 10 * unit * (0.6 + 0.4/math.Pow(1-r.rng.Float64(), 1/1.5))
	if task.Type == speculators.Map {
		dur = float64(r.sizes[task.Index]) * (0.6 + 0.4/math.Pow(1-r.rng.Float64(), 1/1.5))
	}
	node := speculators.NodeID(fmt.Sprintf("n%d", len(r.runs)))
	var id speculators.AttemptID
	if copy {
		id = r.h.StartCopy(task, node, at)
	} else {
		id = r.h.Start(task, node, at)
	}
	if r.started != nil {
		r.started[task] = true
	}
	r.runs = append(r.runs, &randomRun{id: id, start: at, end: at + speculators.Time(dur)})
}
