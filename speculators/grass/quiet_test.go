package grass

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// WantsSlot's quiet time (quiet.go) must never answer no where Γ computed
// afresh at the same instant would name a copy. Random jobs (Pareto task
// times, reports every 3 s, copies started when Γ asks for them, exact,
// error-bound and deadline-bound, with and without earlier jobs' prior, the
// prior growing while the job runs) are asked every 100 ms between their
// events (spectest.RandomJob); each answer is checked against Γ
// recomputed from nothing. The
// test also requires that the quiet answer was used, so that it checks
// something.
//
// Each job is also played with the AM's container needs moving under it
// (ContainerNeeds events, about every 1.3 s, at random levels of which
// half are 0): a level that leaves whether the job awaits containers as
// it was changes nothing the policy keeps (observeNeeds), one that
// changes it moves the early waves (at most two copies a task), which
// every kept answer must then follow. And once with attempts that run
// slow and then catch up (spectest.RandomJob.Recover), whose reports take
// their estimates, and so t_new's floor, down.
func TestQuietMatchesGamma(t *testing.T) {
	quietAnswers, partial := 0, 0
	defer func(n int) { maxQuietFailed = n }(maxQuietFailed)
	testRejoin = func() { rejoins++ }
	defer func() { testRejoin = nil }()
	all := maxQuietFailed
	for _, v := range []struct {
		most           int
		needs, recover bool
	}{{most: all}, {most: 1}, {most: all, needs: true}, {most: all, recover: true}} {
		// Also with room for one noted task only, so that a pass that
		// runs out of room is played too.
		maxQuietFailed = v.most
		for _, name := range []string{"gs", "ras"} {
			// Many seeds: a counted task that stops counting as the
			// completions' mean rises (partsHold) takes about 80 to show.
			for seed := uint64(1); seed <= 120; seed++ {
				name, seed := name, seed
				t.Run(fmt.Sprintf("%s/%d/noted-%d/needs-%v/recover-%v", name, seed, v.most, v.needs, v.recover), func(t *testing.T) {
					q, pa := quietRun(t, name, seed, v.needs, v.recover)
					quietAnswers += q
					partial += pa
				})
			}
		}
	}
	if quietAnswers == 0 {
		t.Fatal("no answer came from a quiet time: the test checks nothing")
	}
	if partial == 0 {
		t.Fatal("no Γ came from the tasks whose quiet time ran out (gammaPartial): the test checks too little")
	}
	if quietHeld == 0 {
		t.Fatal("no answer came from a no held from Γ of the failed tasks (partialQuiet): the test checks too little")
	}
	if needsKept == 0 || needsMoved == 0 {
		t.Fatalf("%d container needs kept what the policy keeps, %d moved the early waves: the test checks too little", needsKept, needsMoved)
	}
	if floorsCompared == 0 {
		t.Fatal("no t_new was compared with the floor: the test checks too little")
	}
	if joinersCompared == 0 || rejoins == 0 {
		t.Fatalf("%d kept joiners compared with their parts afresh, %d refreshes after the completions' mean fell: the test checks too little", joinersCompared, rejoins)
	}
	t.Logf("%d answers from a quiet time (%d of them a no held), %d Γ from the tasks whose quiet time ran out, %d t_new compared with the floor, %d kept joiners with theirs afresh, %d refreshes after a fallen mean",
		quietAnswers, quietHeld, partial, floorsCompared, joinersCompared, rejoins)
}

// quietRun plays one random job and returns how many answers came from a
// quiet time and how many Γ from the tasks whose quiet time ran out.
func quietRun(t *testing.T, name string, seed uint64, needs, recover bool) (int, int) {
	const maps = 12
	h, p, sizes, store, rng := randomGrassJob(t, name, seed, 31,
		speculators.JobInfo{ID: "job_quiet", Maps: maps}, 0.25, ms(40))
	j := &spectest.RandomJob{H: h, Rand: rng, Floor: 0.6, Recover: recover,
		Work: func(task speculators.TaskID) float64 { return float64(sizes[task.Index]) }}
	if store != nil {
		j.Succeeded = func(speculators.Time) { store.Keep(h.Learned()) }
	}
	// Most maps start at once; the rest join in later, one a few seconds.
	first := maps - 3
	for i := range first {
		j.Start(spectest.Map(i), 0, false)
	}
	next := first
	quiet, partial := 0, 0
	floors := 0
	var held heldFloors
	needsRand := rand.New(rand.NewPCG(seed, 17))
	j.Run(ms(200), func(now speculators.Time) {
		if needs && now%1300 == 0 {
			ver := p.ver
			level := max(0, needsRand.IntN(4)-1) + max(0, needsRand.IntN(4)-2)
			h.Needs(speculators.Map, level, now)
			if p.ver == ver {
				needsKept++
			} else {
				needsMoved++
			}
		}
		if next < maps && now > 0 && now%5000 == 0 {
			j.Start(spectest.Map(next), now, false)
			next++
		}
		if store != nil && now%7000 == 0 {
			// Another job learns: the prior moves under this one.
			store.AddRuntime(speculators.Map, 4*unit+float64(rng.IntN(12*unit)), 10*unit)
		}
	}, func(now speculators.Time) (speculators.TaskID, bool) {
		q := p.quiet
		fromQuiet := q.valid && q.ver == p.ver && q.gs == p.useGS && now >= q.from && now < q.until && p.priorHolds()
		got := h.Engine.WantsSlot(now)
		// Γ as WantsSlot left it, put back after the checks below compute
		// Γ afresh with the policy's own code, so that what the policy
		// keeps from one ask to the next is its own.
		kept := cloneGamma(&p.gamma)
		if g := &p.gamma; g.valid && g.partial && g.ver == p.ver && g.now == now {
			// Γ from the tasks whose quiet time ran out (gammaPartial):
			// its members and first member must be Γ afresh's.
			partial++
			checkKept(t, p, h.Job(), now, fmt.Sprintf("%s seed %d at %d ms", name, seed, now))
		}
		want, first := gammaAfresh(p, h.Job(), now, kept, func(g *gammaCache) {
			floors += checkFloors(t, p, h.Job(), now, g.t, &held, fmt.Sprintf("%s seed %d at %d ms", name, seed, now))
		})
		if got != want {
			t.Fatalf("%s seed %d at %d ms: WantsSlot %v, Γ afresh %v (quiet %v..%v, from the quiet time %v)", name, seed, now, got, want, q.from, q.until, fromQuiet)
		}
		if fromQuiet {
			quiet++
			if q.byNo {
				quietHeld++
			}
		}
		return first, want
	})
	floorsCompared += floors
	return quiet, partial
}

// gammaAfresh computes Γ afresh at now with the policy's own code, lets
// look read it (may be nil), puts kept (Γ as the policy kept it, cloned
// before anything computed Γ) back, and returns whether Γ afresh wants a
// slot and its first member.
func gammaAfresh(p *policy, job *speculators.Job, now speculators.Time, kept gammaCache, look func(*gammaCache)) (bool, speculators.TaskID) {
	p.gamma.valid = false
	g := p.gammaAt(job, now)
	if look != nil {
		look(g)
	}
	want := g.first >= 0 && g.set[g.first].running
	var first speculators.TaskID
	if want {
		first = g.set[g.first].task.ID
	}
	p.gamma = kept
	return want, first
}

// cloneGamma is a copy of g that shares nothing with it.
func cloneGamma(g *gammaCache) gammaCache {
	c := *g
	c.set, c.fold, c.t = slices.Clone(g.set), slices.Clone(g.fold), slices.Clone(g.t)
	c.ids, c.dirty, c.priors = slices.Clone(g.ids), slices.Clone(g.dirty), slices.Clone(g.priors)
	for ty := range g.parts {
		c.parts[ty] = slices.Clone(g.parts[ty])
	}
	return c
}

// heldFloors is the floors checkFloors found at an earlier instant and
// the policy's version then: with no event since, they must still bound
// t_new.
type heldFloors struct {
	valid     bool
	ver       uint64
	norm, dur [speculators.NumTaskTypes]float64
}

// needsKept and needsMoved count the ContainerNeeds events of
// TestQuietMatchesGamma that left the policy's version as it was and that
// moved it.
var needsKept, needsMoved int

// quietHeld counts the answers TestQuietMatchesGamma took from a no held
// (partialQuiet), so that it can require some.
var quietHeld int

// floorsCompared counts the t_new TestQuietMatchesGamma compared with the
// floor (checkFloors), so that it can require some; joinersCompared the
// kept joiners' parts compared with parts afresh, and rejoins the refreshes
// that computed joiners again after the completions' mean fell (rejoin).
var floorsCompared, joinersCompared, rejoins int

// checkFloors checks that t_new's floor as the quiet time keeps it
// (quietFloor, with the parts kept per task: quietRefresh) is at most
// every t_new in T afresh (ts), when no event has come since the parts
// were brought up to date, and returns how many t_new it compared.
//
// Floors found at an earlier instant with no event since (held, the
// same version) must bound every t_new still, so t_new is also compared
// with those.
func checkFloors(t *testing.T, p *policy, job *speculators.Job, now speculators.Time, ts []cand, held *heldFloors, where string) int {
	t.Helper()
	q, e := &p.quiet, &p.est
	if !q.built || q.all || q.parts || len(q.dirty) > 0 {
		held.valid = false
		return 0
	}
	if !held.valid || held.ver != p.ver {
		*held = heldFloors{valid: true, ver: p.ver}
		for ty := range job.Tasks {
			held.norm[ty], held.dur[ty] = q.floor(e, ty)
		}
	}
	n := 0
	// Each kept joiner's part bounds the one computed afresh now: its value
	// and its join no higher (a part kept from a higher completions' mean
	// would not; rejoin). part adds to the floor's sums: they are put back.
	for ty := range job.Tasks {
		floors := q.floors[ty]
		live := job.Live[ty]
		for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
			k := q.tasks[ty][i]
			if k.part != partJoins {
				continue
			}
			var fresh quietTask
			q.part(e, job.Tasks[ty][i], &fresh, now)
			if fresh.part == partJoins && (!(k.val <= fresh.val) || k.join > fresh.join) {
				t.Fatalf("%s: %s's kept joiner part (%v, joins at %d) is above the one afresh (%v, %d)", where, job.Tasks[ty][i].ID, k.val, k.join, fresh.val, fresh.join)
			}
			joinersCompared++
		}
		q.floors[ty] = floors
	}
	for _, c := range ts {
		ty := c.task.ID.Type
		norm, dur := q.floor(e, int(ty))
		var lb, lbHeld float64
		switch {
		case c.task.InputBytes > 0 && e.normN[ty] > 0:
			lb, lbHeld = norm*float64(c.task.InputBytes), held.norm[ty]*float64(c.task.InputBytes)
		case e.durN[ty] > 0:
			lb, lbHeld = dur, held.dur[ty]
		default:
			continue // t_new from earlier jobs
		}
		if !(c.tnew >= lb) {
			t.Fatalf("%s: %s's t_new %v is below the floor %v", where, c.task.ID, c.tnew, lb)
		}
		if !(c.tnew >= lbHeld) {
			t.Fatalf("%s: %s's t_new %v is below the floor %v held from earlier", where, c.task.ID, c.tnew, lbHeld)
		}
		n++
	}
	return n
}

// randomGrassJob sets up the random job TestQuietMatchesGamma and
// TestGammaUpdateMatchesFresh play: info's maps get equal inputs (unequal
// ones on every third seed), the seed picks an exact, error-bound or
// deadline-bound job, and every even seed has a prior of five earlier maps
// in a store the caller may grow.
func randomGrassJob(t *testing.T, name string, seed, stream uint64, info speculators.JobInfo, bound float64, deadline speculators.Time) (*spectest.Harness, *policy, []int64, *MemoryStore, *rand.Rand) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, stream))
	sizes := make([]int64, info.Maps)
	for i := range sizes {
		sizes[i] = 10 * unit
		if seed%3 == 0 {
			sizes[i] = int64(5+rng.IntN(10)) * unit // unequal inputs
		}
	}
	info.MapInputBytes, info.Slots = sizes, info.Maps
	switch seed % 4 {
	case 1:
		info.ErrorBound = bound
	case 2:
		info.Deadline = deadline
	}
	var prior speculators.Prior
	var store *MemoryStore
	if seed%2 == 0 {
		store = NewMemoryStore()
		for range 5 {
			store.AddRuntime(speculators.Map, 8*unit+float64(rng.IntN(6*unit)), 10*unit)
		}
		prior = store
	}
	h := spectest.New(t, registry(t), spectest.Job{Policy: name, Info: info, Seed: seed, Prior: prior})
	p := h.Engine.Policy.(*policy)
	h.Engine.OfferSlots()
	return h, p, sizes, store, rng
}
