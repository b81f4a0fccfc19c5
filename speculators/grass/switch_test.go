package grass

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// nominalJob is an exact job of n equal maps taking one unit each.
func nominalJob(n, slots int) job {
	j := job{slots: slots}
	for i := 0; i < n; i++ {
		j.input = append(j.input, 1)
		j.original = append(j.original, 1)
	}
	for i := 0; i < slots; i++ {
		j.first = append(j.first, i)
	}
	return j
}

// switchPoint drives GRASS and returns the remaining work (waves of needed
// maps) at the Decide where it switched to GS, or -1.
func switchPoint(t *testing.T, r *MemoryStore, j job) float64 {
	d := newDriver(t, NameGRASS, j, map[string]string{ParamXi: "0", ParamCheckInterval: "0"}, r)
	at := -1.0
	d.afterDecide = func(d *driver) {
		if at < 0 && d.policy.learn.switched {
			job := d.engine.Job
			at = float64(needed(job)-job.Completed[speculators.Map]) / float64(j.slots)
		}
	}
	d.run(0)
	return at
}

// TestLearnedSwitchPoint checks §4.1: a job starts with RAS and switches to
// GS when, by samples of earlier jobs in its bucket, switching now is the
// best point. Samples say GS finishes the last wave faster (1 vs 1.2 median
// task lengths per wave) but is slower before it (1.5 vs 1.2): the best
// switch is with one wave of needed maps left.
//
// Reference: §4.1, §4.2
func TestLearnedSwitchPoint(t *testing.T) {
	var gs, ras []float64
	for i := 0; i < curvePoints; i++ {
		w := float64(i+1) * curveStep
		g := w
		if w > 1 {
			g = 1 + 1.5*(w-1)
		}
		gs, ras = append(gs, g), append(ras, 1.2*w)
	}
	store := NewMemoryStore()
	for i := 0; i < 3; i++ {
		for _, s := range []Sample{
			{Kind: KindError, Algorithm: AlgoGS, Utilisation: 1, Accuracy: 1, CurveStep: curveStep, Curve: gs},
			{Kind: KindError, Algorithm: AlgoRAS, Utilisation: 1, Accuracy: 1, CurveStep: curveStep, Curve: ras},
		} {
			if err := store.Add(s); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := switchPoint(t, store, nominalJob(40, 4)); got != 1 {
		t.Errorf("switched with %g waves left, want 1", got)
	}
	// Without samples a job of ten waves keeps RAS (Guideline 3: RAS is
	// near-optimal beyond two waves), unless §4's two-wave strawman is
	// asked for.
	if got := switchPoint(t, nil, nominalJob(40, 4)); got != -1 {
		t.Errorf("without samples a 10-wave job switched with %g waves left, want no switch", got)
	}
	d := newDriver(t, NameGRASS, nominalJob(40, 4), map[string]string{ParamXi: "0", ParamCheckInterval: "0", ParamFallbackWaves: "2"}, nil)
	at := -1.0
	d.afterDecide = func(d *driver) {
		if at < 0 && d.policy.learn.switched {
			at = float64(needed(d.engine.Job)-d.engine.Job.Completed[speculators.Map]) / 4
		}
	}
	d.run(0)
	if at != 2 {
		t.Errorf("with fallback-waves 2 switched with %g waves left, want 2", at)
	}
}

// TestGuideline3WithoutSamples checks the switch without samples (switch.go):
// a job whose whole work fits in at most gs-waves waves runs GS from its
// first check, and with earlier jobs' run times in the store (RuntimePrior)
// that check comes at its first Decide, before any of its maps has
// finished. Without a prior it waits for the first completion.
//
// Reference: §3.2 Guideline 3, §4.1
func TestGuideline3WithoutSamples(t *testing.T) {
	j := nominalJob(6, 4) // 1.5 waves
	store := NewMemoryStore()
	for i := 0; i < 3; i++ {
		store.AddRuntime(speculators.Map, unit, unit) // one unit for one unit of input
	}
	first := func(r *MemoryStore, j job) speculators.Time {
		d := newDriver(t, NameGRASS, j, map[string]string{ParamXi: "0", ParamCheckInterval: "0"}, r)
		at := speculators.Time(-1)
		d.afterDecide = func(d *driver) {
			if at < 0 && d.policy.learn.switched {
				at = d.now
			}
		}
		d.run(0)
		return at
	}
	if got := first(store, j); got != 0 {
		t.Errorf("1.5-wave job with a prior switched at %d ms, want at its first Decide (0)", got)
	}
	if got := first(nil, j); got != ms(1) {
		t.Errorf("1.5-wave job without a prior switched at %d ms, want at the first completion (%d)", got, ms(1))
	}
	if got := first(store, nominalJob(12, 4)); got != -1 {
		t.Errorf("3-wave job switched at %d ms, want RAS throughout", got)
	}
}

// TestPerturbedJobRecordsSample checks §4.2: "with a small probability xi,
// we pick GS or RAS for the entire duration of the job; GS and RAS are
// equally probable", and such jobs provide the samples. With xi = 1 every
// job is perturbed and leaves one sample in its bucket; with xi = 0 none is.
//
// Reference: §4.2
func TestPerturbedJobRecordsSample(t *testing.T) {
	store := NewMemoryStore()
	r := store
	algos := map[string]int{}
	for seed := uint64(1); seed <= 8; seed++ {
		j := paretoJob(seed, 8, 4)
		j.seed = seed
		d := newDriver(t, NameGRASS, j, map[string]string{ParamXi: "1"}, r)
		if !d.policy.learn.fixed {
			t.Fatal("xi = 1 but the job is not perturbed")
		}
		algo := d.policy.Algorithm()
		algos[algo]++
		d.run(0)
		got := store.Samples(0)
		if len(got) != int(seed) {
			t.Fatalf("seed %d: %d samples, want %d", seed, len(got), seed)
		}
		s := got[len(got)-1]
		if s.Algorithm != algo || s.Kind != KindError || s.Tasks != 8 || len(s.Curve) == 0 || d.policy.Algorithm() != algo {
			t.Errorf("seed %d: sample %+v; want %s all through, error kind, 8 tasks, a curve", seed, s, algo)
		}
		for i := 1; i < len(s.Curve); i++ {
			if s.Curve[i] < s.Curve[i-1] {
				t.Errorf("seed %d: curve %v decreases: time for more work cannot be less", seed, s.Curve)
			}
		}
	}
	if algos[AlgoGS] == 0 || algos[AlgoRAS] == 0 {
		t.Errorf("algorithms of perturbed jobs %v: want both", algos)
	}
	store2 := NewMemoryStore()
	d := newDriver(t, NameGRASS, paretoJob(1, 8, 4), map[string]string{ParamXi: "0"}, store2)
	d.run(0)
	if n := len(store2.Samples(0)); n != 0 || d.policy.learn.fixed {
		t.Errorf("xi = 0: %d samples, perturbed %v; want none", n, d.policy.learn.fixed)
	}
}

// The policy keeps nothing across jobs itself: a perturbed job hands its
// sample out through Engine.Learned, once, and Keep refuses an invalid
// sample with an error naming what is wrong while keeping the rest.
func TestLearnedIsOutput(t *testing.T) {
	h := spectest.New(t, registry(t), spectest.Job{Policy: NameGRASS, Params: map[string]string{ParamXi: "1"},
		Info: speculators.JobInfo{Maps: 2, Slots: 2}})
	a := h.Start(spectest.Map(0), "n1", 0)
	b := h.Start(spectest.Map(1), "n2", 0)
	h.Succeed(a, spectest.Sec(10))
	h.Succeed(b, spectest.Sec(12))
	h.Decide(spectest.Sec(12))
	got := h.Learned()
	if len(got.Runtimes) != 2 || got.Runtimes[0].Ms != 10000 || got.Runtimes[1].Ms != 12000 {
		t.Errorf("runtimes %+v, want the two maps' 10 s and 12 s", got.Runtimes)
	}
	if len(got.Samples) != 1 || got.Samples[0].Tasks != 2 {
		t.Errorf("samples %+v, want the perturbed job's one sample", got.Samples)
	}
	h.Decide(spectest.Sec(13))
	if again := h.Learned(); !again.Empty() {
		t.Errorf("learned again %+v, want nothing: a job hands its lessons out once", again)
	}
	store := NewMemoryStore()
	bad := got.Samples[0]
	bad.Kind = "sometimes"
	err := store.Keep(speculators.Learned{Runtimes: got.Runtimes, Samples: []Sample{bad}})
	if err == nil || !strings.Contains(err.Error(), "sometimes") {
		t.Errorf("Keep of an invalid sample: error %v, want one naming its kind", err)
	}
	if store.PriorLen() != 2 || len(store.Samples(0)) != 0 {
		t.Errorf("after Keep: %d run times, %d samples; want 2 and 0", store.PriorLen(), len(store.Samples(0)))
	}
}

// Parameters out of range are errors naming them.
func TestParamErrors(t *testing.T) {
	_, err := registry(t).NewEngine(speculators.JobInfo{ID: "j", Maps: 1}, NameGRASS,
		map[string]string{ParamXi: "2", ParamMediumMax: "10"}, 1)
	if err == nil || !strings.Contains(err.Error(), ParamXi) || !strings.Contains(err.Error(), ParamMediumMax) {
		t.Errorf("error %v, want one naming %s and %s", err, ParamXi, ParamMediumMax)
	}
}

// RuntimePrior compares like with like: a full block's prior comes from
// earlier tasks in its input's power-of-two size range, as the median of
// their run time per byte, so that small inputs, whose fixed cost makes
// them slow per byte, and a huge straggler do not inflate it. Unknown sizes
// keep their own class; a type with nothing recorded has no prior.
//
// Reference: §5.1 (t_new normalised to input); estimate.go
func TestRuntimePrior(t *testing.T) {
	m := NewMemoryStore()
	const block = 128 << 20
	for _, ms := range []float64{40000, 48000, 50000, 900000} { // one huge straggler
		m.AddRuntime(speculators.Map, ms, block)
	}
	for i := 0; i < 10; i++ {
		m.AddRuntime(speculators.Map, 10500, 1<<20) // 1 MiB maps: 10.5 s, mostly fixed cost
	}
	m.AddRuntime(speculators.Reduce, 7000, 0)
	if got, ok := m.PriorRuntime(speculators.Map, block); !ok || got != 49000 {
		t.Errorf("prior of a full block %v %v, want the median of the blocks, 49000 ms", got, ok)
	}
	if got, ok := m.PriorRuntime(speculators.Map, block+block/2); !ok || got != 73500 {
		t.Errorf("prior of a 1.5-block input %v %v, want 1.5 blocks' worth, 73500 ms", got, ok)
	}
	if _, ok := m.PriorRuntime(speculators.Map, block/2); ok {
		t.Error("prior for half a block (a size class never seen), want none")
	}
	if got, ok := m.PriorRuntime(speculators.Map, 1<<20); !ok || got != 10500 {
		t.Errorf("prior of a 1 MiB map %v %v, want 10500 ms", got, ok)
	}
	if got, ok := m.PriorRuntime(speculators.Reduce, 0); !ok || got != 7000 {
		t.Errorf("prior of a reduce of unknown input %v %v, want 7000 ms", got, ok)
	}
	if _, ok := m.PriorRuntime(speculators.Map, 1<<40); ok {
		t.Error("prior for an input size never seen, want none")
	}
	m.AddRuntime(speculators.Map, math.NaN(), block)
	m.AddRuntime(speculators.TaskType(7), 1, 1)
	if got, _ := m.PriorRuntime(speculators.Map, block); got != 49000 {
		t.Errorf("NaN run time changed the prior to %v", got)
	}
}

// TestNearestMatchesStableSort checks the selection of the nearest samples
// (nearest) against its definition, the first k of a stable sort of every
// sample's distance (nearestSorted): the same samples in the same order,
// ties (features on a coarse grid, so distances repeat) to the earlier
// sample, for GS then RAS from one scratch as shouldSwitch calls them, and
// with a NaN feature, which the selection leaves to the sort. Half the
// rounds have features anywhere, so that distances fall just short of the
// k-th, which passing a sample over by its squares must not lose. Each
// kind's learner sees the store's snapshots as one job's checks do: growing
// (the features it copied are kept and extended), then another store's as
// long (copied afresh).
func TestNearestMatchesStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 31))
	carried, stale := 0, 0
	defer func() {
		if carried == 0 || stale == 0 {
			t.Error("no selection was carried over moved features, or none kept its distances: the test checks too little")
		}
		t.Logf("%d selections carried over moved features, %d distances kept from earlier ones", carried, stale)
	}()
	for round := range 800 {
		grid := func(n int) float64 { return float64(rng.IntN(n)) / float64(n) }
		if round%2 == 1 {
			grid = func(int) float64 { return rng.Float64() }
		}
		var samples []Sample
		for range rng.IntN(60) {
			s := Sample{Kind: KindError, Algorithm: AlgoGS, Bound: grid(4), Utilisation: grid(3), Accuracy: grid(2)}
			if rng.IntN(2) == 0 {
				s.Algorithm = AlgoRAS
			}
			if rng.IntN(5) == 0 {
				s.Kind = KindDeadline
			}
			if round%50 == 0 && rng.IntN(20) == 0 {
				s.Bound = math.NaN()
			}
			samples = append(samples, s)
		}
		var views [][]Sample
		for n := 0; n < len(samples); n += 1 + rng.IntN(20) {
			views = append(views, samples[:n])
		}
		other := slices.Clone(samples) // another store's: features moved
		for i := range other {
			other[i].Utilisation += grid(3)
		}
		views = append(views, samples, other)
		if len(views) > 2 && rng.IntN(3) == 0 { // a shorter view again
			views = append(views, views[rng.IntN(len(views)-2)])
		}
		k := 1 + rng.IntN(10)
		for _, kind := range []string{KindError, KindDeadline} {
			fast := &learner{cfg: switchConfig{neighbours: k}}
			bound, util, acc := grid(4), grid(3), grid(2)
			for v, view := range views {
				// Half the checks meet the last one's features, where the
				// last selection is carried on (nearestKept); a quarter
				// features moved a little (a few units in the last place,
				// or up to 0.05), where it is carried over when it
				// provably stays the nearest (carry).
				switch rng.IntN(4) {
				case 0:
					bound, util, acc = grid(4), grid(3), grid(2)
				case 1:
					nudge := func(x float64) float64 {
						if rng.IntN(2) == 0 {
							return x + (rng.Float64()-0.5)*math.Pow(10, -1-float64(rng.IntN(12)))
						}
						for range rng.IntN(4) {
							x = math.Nextafter(x, math.Inf(2*rng.IntN(2)-1))
						}
						return x
					}
					bound, util, acc = nudge(bound), nudge(util), nudge(acc)
				}
				gs := fast.nearest(view, kind, AlgoGS, bound, util, acc)
				gs = gs[:len(gs):len(gs)]
				if m := fast.kept[0]; m.valid && m.anchor != [3]float64{bound, util, acc} {
					carried++ // kept over features moved (carry)
				}
				atGS, keptGS := fast.kept[0].at, fast.kept[0].valid
				ras := fast.nearest(view, kind, AlgoRAS, bound, util, acc)
				atRAS, keptRAS := fast.kept[1].at, fast.kept[1].valid
				ref := &learner{cfg: switchConfig{neighbours: k}}
				wantGS := ref.nearestSorted(nil, view, kind, AlgoGS, bound, util, acc)
				wantGS = wantGS[:len(wantGS):len(wantGS)]
				wantRAS := ref.nearestSorted(nil, view, kind, AlgoRAS, bound, util, acc)
				for _, c := range []struct {
					name      string
					got, want []neighbour
					at        [3]float64
					kept      bool
				}{{"gs", gs, wantGS, atGS, keptGS}, {"ras", ras, wantRAS, atRAS, keptRAS}} {
					if len(c.got) != len(c.want) {
						t.Fatalf("round %d view %d %s %s k %d: %d neighbours, want %d", round, v, kind, c.name, k, len(c.got), len(c.want))
					}
					for i := range c.got {
						want := c.want[i].dist
						if c.kept && c.at != [3]float64{bound, util, acc} {
							// Distances left from earlier features (carry).
							s := c.want[i].s
							want = math.Hypot(math.Hypot(s.Bound-c.at[0], s.Utilisation-c.at[1]), s.Accuracy-c.at[2])
							stale++
						}
						if c.got[i].s != c.want[i].s || math.Float64bits(c.got[i].dist) != math.Float64bits(want) {
							t.Fatalf("round %d view %d %s %s k %d: neighbour %d is sample %p at %v, want %p at %v", round, v, kind, c.name, k, i, c.got[i].s, c.got[i].dist, c.want[i].s, c.want[i].dist)
						}
					}
				}
			}
		}
	}
}

// TestSwitchMemoMatchesFresh plays random jobs under grass with samples
// in the store (some added while the job runs, so that a check meets a
// longer snapshot) and checks every switch check whose inputs were the
// last check's (the answer then comes from the memo, shouldSwitch)
// against the check made afresh on a copy of the learner, and every
// check of a job with no map completed against the prior's map length
// read through tnew (priorMap asks the prior directly then). The memo's
// answers include those carried over a moved utilisation (carriesMemo),
// some of which must be met.
func TestSwitchMemoMatchesFresh(t *testing.T) {
	hits, fresh, priors, carried := 0, 0, 0, 0
	defer func() { testSwitchCheck = nil }()
	testSwitchCheck = func(p *policy, l *learner, job *speculators.Job, samples []Sample, m switchMemo, hit bool) {
		maps := job.Tasks[speculators.Map]
		if len(job.CompletedRuntimes[speculators.Map]) == 0 {
			got := l.priorMap(p, job)
			want, _ := p.est.tnew(maps[l.big])
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s: priorMap %v, tnew of the largest map %v", job.Info.ID, got, want)
			}
			priors++
		}
		if !hit {
			fresh++
			return
		}
		hits++
		if !m.same(&l.last) {
			carried++
		}
		c := *l
		for a := range c.kept {
			c.kept[a].near = slices.Clone(c.kept[a].near)
		}
		for a := range c.feats.algo {
			c.feats.algo[a] = slices.Clone(c.feats.algo[a])
		}
		c.scratch = nil
		if want := c.decide(job, samples, m.kind, m.bound, m.util, m.acc, m.w, m.med); want != l.last.switched {
			t.Fatalf("%s: the memo answers %v, afresh %v (features %v %v %v, w %v)", job.Info.ID, l.last.switched, want, m.bound, m.util, m.acc, m.w)
		}
	}
	for seed := uint64(1); seed <= 300; seed++ {
		h, p, sizes, store, rng := randomGrassJob(t, NameGRASS, seed, 17,
			speculators.JobInfo{ID: fmt.Sprintf("job_memo_%d", seed), Maps: 12}, 0.25, ms(60))
		if p.learn == nil || p.learn.fixed || store == nil {
			continue
		}
		// Few neighbours among the samples, so that the answer follows
		// the features.
		p.learn.cfg.neighbours, p.learn.cfg.minSamples = 1+int(seed%3), 1
		addSample := func() {
			s := Sample{Bucket: 0, Kind: KindError, Algorithm: AlgoGS, Bound: 0.25 * float64(rng.IntN(2)),
				Utilisation: rng.Float64(), Accuracy: rng.Float64(), Tasks: 12, CurveStep: curveStep}
			if rng.IntN(2) == 0 {
				s.Algorithm = AlgoRAS
			}
			if h.Job().Deadline > 0 {
				s.Kind, s.Bound = KindDeadline, rng.Float64()
			}
			for i := range 1 + rng.IntN(20) {
				s.Curve = append(s.Curve, float64(i)*rng.Float64())
			}
			if err := store.Add(s); err != nil {
				t.Fatal(err)
			}
		}
		for range 2 {
			addSample()
		}
		j := &spectest.RandomJob{H: h, Rand: rng, Floor: 0.6,
			Work: func(task speculators.TaskID) float64 { return float64(sizes[task.Index]) }}
		j.Succeeded = func(speculators.Time) { store.Keep(h.Learned()) }
		// The job waits in the queue for 0, 10 or 20 s (its checks meet
		// the same features while samples arrive), then half its maps
		// start and the rest join in later.
		delay := ms(float64(seed%3) * 10)
		next := 0
		j.Run(ms(120), func(now speculators.Time) {
			switch {
			case now == delay:
				for ; next < 6; next++ {
					j.Start(spectest.Map(next), now, false)
				}
			case next < 12 && now > delay && (now-delay)%9000 == 0:
				j.Start(spectest.Map(next), now, false)
				next++
			}
			if now%2000 == 0 && (now < ms(40) || now%14000 == 0) {
				addSample()
			}
		}, func(speculators.Time) (speculators.TaskID, bool) { return speculators.TaskID{}, false })
	}
	if hits == 0 || fresh == 0 || priors == 0 || carried == 0 {
		t.Fatalf("%d checks from the memo (%d carried over a moved utilisation), %d afresh, %d with the prior's map length: the test checks too little", hits, carried, fresh, priors)
	}
	t.Logf("%d checks from the memo (%d carried over a moved utilisation), %d afresh, %d with the prior's map length", hits, carried, fresh, priors)
}

// TestCarryAtTheEdge moves the features just far enough that a kept
// selection must not be carried as it stands: a left-out sample overtakes
// the k-th when the move counts twice (once away from the k-th, once
// toward the left-out one), two kept samples swap when the move is over
// half the gap between their distances, and a sample left out by a scan
// at moved features overtakes when the features move back past the
// anchor.
func TestCarryAtTheEdge(t *testing.T) {
	type check struct {
		n    int     // samples visible
		util float64 // the features' utilisation (bound and accuracy 0)
	}
	for _, c := range []struct {
		name   string
		utils  []float64 // the samples' utilisations (bound and accuracy 0)
		k      int
		checks []check
	}{
		{"a left-out sample overtakes", []float64{1, -1 - 1e-7}, 1, []check{{2, 0}, {2, -0.6e-7}}},
		{"two kept samples swap", []float64{1, -1 - 1e-7, 10}, 2, []check{{3, 0}, {3, -0.6e-7}}},
		{"a later left-out sample overtakes", []float64{1, -1 - 1e-7}, 1, []check{{1, 0}, {1, 0.6e-7}, {2, 0.6e-7}, {2, -0.6e-7}}},
	} {
		var samples []Sample
		for _, u := range c.utils {
			samples = append(samples, Sample{Kind: KindError, Algorithm: AlgoGS, Utilisation: u})
		}
		l := &learner{cfg: switchConfig{neighbours: c.k}}
		for ci, ch := range c.checks {
			view := samples[:ch.n]
			got := l.nearest(view, KindError, AlgoGS, 0, ch.util, 0)
			want := (&learner{cfg: switchConfig{neighbours: c.k}}).nearestSorted(nil, view, KindError, AlgoGS, 0, ch.util, 0)
			for i := range want {
				if got[i].s != want[i].s {
					t.Errorf("%s, check %d: neighbour %d is the sample at %v, want the one at %v", c.name, ci, i, got[i].s.Utilisation, want[i].s.Utilisation)
				}
			}
		}
	}
}
