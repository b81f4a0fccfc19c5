package sim

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// cloning is a test-only policy: it clones at launch (copies attempts per
// task), orders jobs by a fixed key, and records the cluster views and
// attempt starts it saw.
type cloning struct {
	script
	copies int
	key    float64
	views  []speculators.ClusterView
}

func (p *cloning) LaunchCopies(_ *speculators.Job, v speculators.ClusterView, _ speculators.Time) int {
	v.Waiting = append([]speculators.JobSize(nil), v.Waiting...)
	p.views = append(p.views, v)
	return p.copies
}

func (p *cloning) JobPriority(*speculators.Job, speculators.Time) speculators.Priority {
	return speculators.Priority{Tier: 1, Key: p.key}
}

func runCloning(t *testing.T, cfg Config, jobs []Job, policies ...*cloning) *Result {
	t.Helper()
	k := 0
	res, err := Run(cfg, jobs, func(info speculators.JobInfo) (*speculators.Engine, error) {
		p := policies[k]
		k++
		return speculators.NewEngine(info, "cloning", p, speculators.Params{})
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

// TestClonesStartWithTheirOriginal: a cloning policy's copies start at the
// same instant as each original, on other nodes, as speculative attempts;
// the first to finish wins and the others are killed; the policy saw the
// free slots and the jobs waiting; copies that find no free slot are not
// started.
func TestClonesStartWithTheirOriginal(t *testing.T) {
	cfg := cfgFor(nodes(1, 1, 1, 1, 1))
	p := &cloning{copies: 2}
	res := runCloning(t, cfg, []Job{{ID: "a", Maps: works(10_000, 10_000, 10_000)}}, p)
	if len(p.views) != 1 {
		t.Fatalf("LaunchCopies asked %d times, want once per job", len(p.views))
	}
	v := p.views[0]
	if v.Idle != 5 || v.Slots != 5 || len(v.Waiting) != 1 || v.Waiting[0].Tasks != 3 {
		t.Errorf("view %+v, want 5 idle of 5 slots and this job of 3 tasks waiting", v)
	}
	starts := map[speculators.TaskID][]speculators.Event{}
	for _, ev := range p.seen {
		if ev.Kind == speculators.AttemptStarted {
			starts[ev.Attempt.Task] = append(starts[ev.Attempt.Task], ev)
		}
	}
	// 5 slots: task 0 and 1 get their clone, task 2 its original only.
	for i, want := range []int{2, 2, 1} {
		id := speculators.TaskID{Type: speculators.Map, Index: int32(i)}
		evs := starts[id]
		if len(evs) != want {
			t.Fatalf("task %s: %d attempts started, want %d", id, len(evs), want)
		}
		if want == 2 && (evs[0].Time != evs[1].Time || evs[0].Node == evs[1].Node || evs[0].Speculative || !evs[1].Speculative) {
			t.Errorf("task %s: original %+v and clone %+v should start together on two nodes, the clone speculative", id, evs[0], evs[1])
		}
	}
	j := res.Jobs[0]
	expectInt(t, "speculative launched", j.SpeculativeLaunched, 2)
	expectInt(t, "killed", j.KilledAttempts, 2)
}

// TestNoCloneOfATypeWithSpeculationOff: a job's speculation switch
// (mapreduce.reduce.speculative=false, Job.NoSpeculate) keeps a cloning
// policy from cloning that type at launch, as the AM refuses such a copy
// live; the other type is cloned as before.
func TestNoCloneOfATypeWithSpeculationOff(t *testing.T) {
	for _, off := range []speculators.TaskType{speculators.Map, speculators.Reduce} {
		job := Job{ID: "a", Maps: works(5_000, 5_000), Reduces: works(5_000)}
		job.NoSpeculate[off] = true
		p := &cloning{copies: 2}
		runCloning(t, cfgFor(nodes(2, 2, 2, 2)), []Job{job}, p)
		started := [speculators.NumTaskTypes]int{}
		for _, ev := range p.seen {
			if ev.Kind == speculators.AttemptStarted {
				started[ev.Attempt.Task.Type]++
			}
		}
		want := [speculators.NumTaskTypes]int{4, 2} // two attempts of each task
		want[off] /= 2                              // but the type switched off: its originals only
		if started != want {
			t.Errorf("speculation off for %v: attempts started %v (maps, reduces), want %v", off, started, want)
		}
	}
}

// TestPrioritizedJobsFirst: a free slot goes to the job whose policy gives
// the lowest priority, whatever the submit order (but under YARN
// placement), and the waiting jobs a
// Cloner sees are in that order.
func TestPrioritizedJobsFirst(t *testing.T) {
	cfg := cfgFor(nodes(1))
	late := &cloning{copies: 1, key: 1}
	first := &cloning{copies: 1, key: 0}
	res := runCloning(t, cfg, []Job{{ID: "late", Maps: works(1000)}, {ID: "first", Maps: works(1000)}}, late, first)
	if !(res.Jobs[1].Finish < res.Jobs[0].Finish) {
		t.Errorf("job with priority 0 finished at %d, after the one with 1 at %d", res.Jobs[1].Finish, res.Jobs[0].Finish)
	}
	// Under YARN placement (a history's replay) YARN's scheduler orders
	// the jobs, as live: the policy's order is not asked.
	cfg.YARNPlacement = true
	res = runCloning(t, cfg, []Job{{ID: "late", Maps: works(1000)}, {ID: "first", Maps: works(1000)}}, &cloning{copies: 1, key: 1}, &cloning{copies: 1, key: 0})
	if !(res.Jobs[0].Finish < res.Jobs[1].Finish) {
		t.Errorf("under YARN placement the job submitted first finished at %d, after the other at %d", res.Jobs[0].Finish, res.Jobs[1].Finish)
	}
}

// TestYARNJobOrder: under JobOrderYARN the order reaches free slots as
// serve --rm-job-order gives it live: read once a period and mapped onto the
// cluster's priority levels. On one slot, two jobs of one map each and a
// third submitted later; the later job's policy ranks it first.
func TestYARNJobOrder(t *testing.T) {
	jobs := func() []Job {
		return []Job{{ID: "a", Maps: works(1000)}, {ID: "b", Maps: works(1000)}, {ID: "c", Submit: 500, Maps: works(1000)}}
	}
	policies := func() []*cloning {
		return []*cloning{{copies: 1, key: 2}, {copies: 1, key: 1}, {copies: 1, key: 0}}
	}
	order := func(o JobOrder, yarnPlacement bool) string {
		t.Helper()
		cfg := cfgFor(nodes(1))
		cfg.JobOrder, cfg.YARNPlacement = o, yarnPlacement
		res := runCloning(t, cfg, jobs(), policies()...)
		ids := []string{"a", "b", "c"}
		idx := []int{0, 1, 2}
		slices.SortFunc(idx, func(x, y int) int { return cmp.Compare(res.Jobs[x].Finish, res.Jobs[y].Finish) })
		out := ""
		for _, i := range idx {
			out += ids[i]
		}
		return out
	}
	cases := []struct {
		name          string
		o             JobOrder
		yarnPlacement bool
		want          string
	}{
		// b ranks ahead of a at 0; c, ranked first, is read at 1000 when b ends.
		{"exact", JobOrder{Mode: JobOrderExact}, false, "bca"},
		{"default", JobOrder{}, false, "bca"},
		{"YARN, read every ms", JobOrder{Mode: JobOrderYARN, Levels: 10, Every: 1}, false, "bca"},
		// Read at 0 only: c, submitted since, has no level and waits behind a.
		{"YARN, read once an hour", JobOrder{Mode: JobOrderYARN, Levels: 10, Every: 3_600_000}, false, "bac"},
		// One level: every job ties, and submission order breaks the tie.
		{"YARN, one level", JobOrder{Mode: JobOrderYARN, Levels: 1, Every: 1}, false, "abc"},
		{"none", JobOrder{Mode: JobOrderNone}, false, "abc"},
		{"default under YARN placement", JobOrder{}, true, "abc"},
		{"YARN under YARN placement", JobOrder{Mode: JobOrderYARN, Levels: 10, Every: 1}, true, "bca"},
	}
	for _, c := range cases {
		if got := order(c.o, c.yarnPlacement); got != c.want {
			t.Errorf("%s: jobs finished in the order %s, want %s", c.name, got, c.want)
		}
	}
	// A job whose policy orders jobs but that arrived since the last
	// reading is at YARN's level 0, beside a job whose policy does not
	// order: the scheduler serves them in submission order (the unordered
	// job u, submitted at 100, before o at 200), where the exact order puts
	// o first. x runs first in both.
	mixed := func(o JobOrder) string {
		t.Helper()
		cfg := cfgFor(nodes(1))
		cfg.JobOrder = o
		jobs := []Job{{ID: "x", Maps: works(1000)}, {ID: "u", Submit: 100, Maps: works(1000)}, {ID: "o", Submit: 200, Maps: works(1000)}}
		pols := []speculators.Speculator{&cloning{copies: 1, key: 5}, &script{}, &cloning{copies: 1, key: 0}}
		k := 0
		res, err := Run(cfg, jobs, func(info speculators.JobInfo) (*speculators.Engine, error) {
			k++
			return speculators.NewEngine(info, "mixed", pols[k-1], speculators.Params{})
		})
		if err != nil {
			t.Fatal(err)
		}
		idx := []int{0, 1, 2}
		slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(res.Jobs[a].Finish, res.Jobs[b].Finish) })
		out := ""
		for _, i := range idx {
			out += jobs[i].ID
		}
		return out
	}
	if got := mixed(JobOrder{Mode: JobOrderExact}); got != "xou" {
		t.Errorf("exact order, one unordered job: finished %s, want xou", got)
	}
	if got := mixed(JobOrder{Mode: JobOrderYARN, Levels: 10, Every: 3_600_000}); got != "xuo" {
		t.Errorf("YARN order read once an hour, one unordered job: finished %s, want xuo (o has no level yet)", got)
	}
	if got := mixed(JobOrder{Mode: JobOrderYARN, Levels: 10, Every: 1}); got != "xou" {
		t.Errorf("YARN order read every ms, one unordered job: finished %s, want xou", got)
	}

	cfg := cfgFor(nodes(1))
	for _, bad := range []JobOrder{{Mode: JobOrderYARN}, {Mode: JobOrderYARN, Levels: 10}, {Mode: JobOrderYARN, Levels: MaxJobOrderLevels + 1, Every: 1}, {Mode: JobOrderNone + 1}} {
		cfg.JobOrder = bad
		if _, err := Run(cfg, jobs(), func(info speculators.JobInfo) (*speculators.Engine, error) {
			return speculators.NewEngine(info, "cloning", &cloning{copies: 1}, speculators.Params{})
		}); err == nil {
			t.Errorf("job order %+v accepted", bad)
		}
	}
}

// Every job's JobInfo.JobOrder says whether its policy's job order reaches
// free slots: true under the exact order and the YARN model, false under
// none, and the default resolves as the order does (exact for a scenario,
// none under YARN placement: a history's replay).
func TestJobInfoSaysWhetherTheJobOrderIsApplied(t *testing.T) {
	yarn := JobOrder{Mode: JobOrderYARN, Levels: 10, Every: 5000}
	for _, c := range []struct {
		name          string
		o             JobOrder
		yarnPlacement bool
		want          bool
	}{
		{"exact", JobOrder{Mode: JobOrderExact}, false, true},
		{"yarn", yarn, false, true},
		{"none", JobOrder{Mode: JobOrderNone}, false, false},
		{"default", JobOrder{}, false, true},
		{"default under YARN placement", JobOrder{}, true, false},
		{"exact under YARN placement", JobOrder{Mode: JobOrderExact}, true, true},
		{"yarn under YARN placement", yarn, true, true},
	} {
		cfg := cfgFor(nodes(1))
		cfg.JobOrder, cfg.YARNPlacement = c.o, c.yarnPlacement
		var seen []bool
		if _, err := Run(cfg, []Job{{ID: "a", Maps: works(1000)}, {ID: "b", Submit: 500, Maps: works(1000)}}, func(info speculators.JobInfo) (*speculators.Engine, error) {
			seen = append(seen, info.JobOrder)
			return speculators.NewEngine(info, "script", &script{}, speculators.Params{})
		}); err != nil {
			t.Fatal(err)
		}
		if len(seen) != 2 || seen[0] != c.want || seen[1] != c.want {
			t.Errorf("%s: jobs saw JobOrder %v, want %t for both", c.name, seen, c.want)
		}
	}
}

// fixedWork draws a fixed work, to see that Fresh copies use the sampler.
type fixedWork float64

func (f fixedWork) SampleWork(*rand.Rand) float64 { return float64(f) }

// TestFreshCopiesDrawFromTheLaw: under CopyWork Fresh a clone's work comes
// from the job's law (here 2 s), not from the task (60 s), so the clone
// wins at 2 s.
func TestFreshCopiesDrawFromTheLaw(t *testing.T) {
	cfg := cfgFor(nodes(1, 1))
	p := &cloning{copies: 2}
	job := Job{ID: "a", Maps: works(60_000), CopyWork: Fresh, FreshWork: [speculators.NumTaskTypes]WorkSampler{fixedWork(2000), nil}}
	res := runCloning(t, cfg, []Job{job}, p)
	expectTime(t, "job finish", res.Jobs[0].Finish, 2000)
	expectInt(t, "speculative won", res.Jobs[0].SpeculativeWon, 1)
}

// TestCopiesKeepAnAttemptInReserve: with max attempts, a task's clones and
// copies stop one short of them, but never below the one copy Hadoop's own
// speculator would start (copyRoom, as the shim does live): SCA's 8
// clones become 3 attempts of a 4-attempt task, a copy asked 8 times over
// becomes 2 more, and a job without max attempts gets every clone.
func TestCopiesKeepAnAttemptInReserve(t *testing.T) {
	starts := func(p *script) int {
		n := 0
		for _, ev := range p.seen {
			if ev.Kind == speculators.AttemptStarted {
				n++
			}
		}
		return n
	}
	for _, tc := range []struct {
		name        string
		maxAttempts int
		want        int
	}{{"max attempts 4", 4, 3}, {"max attempts 2", 2, 2}, {"no max attempts", 0, 8}} {
		p := &cloning{copies: 8}
		runCloning(t, cfgFor(nodes(1, 1, 1, 1, 1, 1, 1, 1, 1)), []Job{{ID: "a", Maps: works(10_000), MaxAttempts: tc.maxAttempts}}, p)
		if got := starts(&p.script); got != tc.want {
			t.Errorf("clones, %s: %d attempts started, want %d", tc.name, got, tc.want)
		}
	}
	d := speculate(1000, speculators.Map, 0)
	d.d.Copies = 8
	p := &script{steps: []step{d}}
	runScript(t, cfgFor(nodes(1, 1, 1, 1, 1, 1, 1, 1, 1)), []Job{{ID: "a", Maps: works(10_000), MaxAttempts: 4}}, p)
	if got := starts(p); got != 3 {
		t.Errorf("a speculate of 8 copies: %d attempts started, want 3 (the original and 2 copies)", got)
	}
}

// TestClonesTakeTheCloneCost: a clone started with its original takes the
// job's CloneExtra and CloneStartup, not CopyExtra and CopyStartup (replay
// measures the two apart: nodespeed.go's copy costs), and a copy asked for
// later takes the copy's.
func TestClonesTakeTheCloneCost(t *testing.T) {
	job := Job{ID: "a", CopyWork: Resample, Maps: works(10_000), CopyExtra: 1000, CopyStartup: 1000, CloneExtra: 7000, CloneStartup: 7000}
	p := &cloning{copies: 2}
	runCloning(t, cfgFor(nodes(1, 1)), []Job{job}, p)
	var start, done, firstProgress speculators.Time = -1, -1, -1
	for _, ev := range p.seen {
		if ev.Attempt.N != 1 {
			continue
		}
		switch {
		case ev.Kind == speculators.AttemptStarted:
			start = ev.Time
		case ev.Kind == speculators.AttemptStatus && ev.Progress > 0 && firstProgress < 0:
			firstProgress = ev.Time
		case ev.Kind == speculators.AttemptKilled || ev.Kind == speculators.AttemptSucceeded:
			done = ev.Time
		}
	}
	// The clone's work is 10 s + 7 s: the original (10 s) wins and the
	// clone is killed at 10 s, having reported nothing before 7 s.
	if start != 0 || done != 10_000 {
		t.Fatalf("the clone started at %d and ended at %d, want 0 and 10000 (killed when the original won)", start, done)
	}
	if firstProgress < 7000 {
		t.Errorf("the clone first reported progress at %d ms, want at 7000 or later (its CloneStartup; CopyStartup is 1 s)", firstProgress)
	}
	// A copy asked for later takes the copy cost: 10 s draw + 1 s.
	q := &script{steps: []step{speculate(1000, speculators.Map, 0)}}
	runScript(t, cfgFor(nodes(1, 1)), []Job{{ID: "b", CopyWork: Resample, Maps: []Task{{Work: 10_000, Script: []ScriptedAttempt{{Work: 40_000}}}},
		CopyExtra: 1000, CopyStartup: 1000, CloneExtra: 7000, CloneStartup: 7000}}, q)
	var copyDone speculators.Time = -1
	for _, ev := range q.seen {
		if ev.Kind == speculators.AttemptSucceeded && ev.Attempt.N == 1 {
			copyDone = ev.Time
		}
	}
	if copyDone != 12_000 {
		t.Errorf("a copy launched at 1 s succeeded at %d, want 12000 (its 10 s draw and 1 s of copy cost, not the clone's 7 s)", copyDone)
	}
}

// TestAnOriginalStartedWithClonesPaysTheirCost: with Job.WaveOriginals an
// original that starts with clones takes the job's CloneExtra too, silent
// for it and for its own recorded start-up (live, the whole burst of JVMs
// starts slower); without it, or without clones, the original runs its
// recorded time.
func TestAnOriginalStartedWithClonesPaysTheirCost(t *testing.T) {
	run := func(wave bool, copies int) (origFirst, done speculators.Time) {
		job := Job{ID: "a", CopyWork: Resample, CloneExtra: 7000, CloneStartup: 7000, WaveOriginals: wave,
			Maps: []Task{{Work: 10_000, Script: []ScriptedAttempt{{Work: 10_000, Startup: 2000}}}}}
		p := &cloning{copies: copies}
		res := runCloning(t, cfgFor(nodes(1, 1)), []Job{job}, p)
		origFirst = -1
		for _, ev := range p.seen {
			if ev.Kind == speculators.AttemptStatus && ev.Attempt.N == 0 && origFirst < 0 {
				origFirst = ev.Time
			}
		}
		return origFirst, res.Jobs[0].Finish
	}
	// Its work is 10 s + 7 s, and it is silent for the 7 s and its own 2 s
	// start-up (a fifth of its recorded work).
	if first, done := run(true, 2); done != 17_000 || first < 9000 {
		t.Errorf("an original with a clone, WaveOriginals: first report at %d, done at %d; want at 9000 or later, and 17000", first, done)
	}
	if first, done := run(false, 2); done != 10_000 || first < 2000 || first >= 9000 {
		t.Errorf("an original with a clone, no WaveOriginals: first report at %d, done at %d; want in [2000, 9000), and 10000", first, done)
	}
	if _, done := run(true, 1); done != 10_000 {
		t.Errorf("an original without clones, WaveOriginals: done at %d, want 10000", done)
	}
}

// TestLazyJobOrderMatchesStableSort checks the pass's job order as orderAt
// hands it out (a heap sorted only as far as it is read, or a stable sort
// when the jobs come near sorted) against a stable sort of the jobs in
// submit order by ComparePriority, the order before the heap: random
// priorities with many ties, both tiers, NaN keys, jobs whose indexes are
// not in submit order, -0 beside 0, infinities, and every third round near
// sorted.
func TestLazyJobOrderMatchesStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	sorted, lazy := 0, 0
	for round := 0; round < 300; round++ {
		n := rng.IntN(60)
		s := &sim{jobs: make([]jobState, n)}
		for k, ji := range rng.Perm(n) {
			s.jobs[ji].rank = int32(k)
		}
		bySubmit := make([]prioJob, n)
		for ji := range n {
			pri := speculators.Priority{Tier: rng.IntN(3), Key: float64(rng.IntN(5))}
			if rng.IntN(10) == 0 {
				pri.Key = math.NaN()
			}
			switch rng.IntN(12) {
			case 0:
				pri.Key = math.Copysign(0, -1)
			case 1:
				pri.Key = 0
			case 2:
				pri.Key = math.Inf(2*rng.IntN(2) - 1)
			case 3:
				pri.Key = -pri.Key
			}
			bySubmit[s.jobs[ji].rank] = newPrioJob(int32(ji), s.jobs[ji].rank, pri)
		}
		if round%3 == 0 {
			slices.SortStableFunc(bySubmit, func(a, b prioJob) int { return speculators.ComparePriority(a.pri, b.pri) })
			for range n / 20 {
				a, b := rng.IntN(n), rng.IntN(n)
				bySubmit[a].pri, bySubmit[b].pri = bySubmit[b].pri, bySubmit[a].pri
				bySubmit[a].key, bySubmit[b].key = bySubmit[b].key, bySubmit[a].key
			}
			for k := range bySubmit {
				bySubmit[k].rank = int32(k)
				s.jobs[bySubmit[k].ji].rank = int32(k)
			}
		}
		want := slices.Clone(bySubmit)
		slices.SortStableFunc(want, func(a, b prioJob) int { return speculators.ComparePriority(a.pri, b.pri) })
		s.startOrder(slices.Clone(bySubmit))
		if n > 1 && len(s.prioHeap) == 0 {
			sorted++
		} else if n > 1 {
			lazy++
		}
		var got []prioJob
		for i := 0; ; i++ {
			c, ok := s.orderAt(i)
			if !ok {
				break
			}
			got = append(got, c)
		}
		if len(got) != n {
			t.Fatalf("round %d: %d jobs in order, want %d", round, len(got), n)
		}
		for i := range want {
			if got[i].ji != want[i].ji {
				t.Fatalf("round %d: job %d at place %d, want job %d (%v against %v)", round, got[i].ji, i, want[i].ji, got[i].pri, want[i].pri)
			}
		}
	}
	if sorted == 0 || lazy == 0 {
		t.Fatalf("%d rounds sorted at once, %d lazily: want both ways tried", sorted, lazy)
	}
}
