// Package grass holds the GRASS speculators (Ananthanarayanan et al., "GRASS:
// Trimming Stragglers in Approximation Analytics", NSDI'14): GS (Greedy
// Speculative), RAS (Resource Aware Speculative) and GRASS, which starts a
// job with RAS and switches to GS when samples of earlier jobs say that is
// best (§4). They serve deadline-bound jobs (Pseudocode 1), error-bound jobs
// (Pseudocode 2) and exact jobs (error bound 0), and end an approximation
// job by dropping the input tasks it no longer needs.
//
// The policies read the job state the engine folds from events and keep their
// own: outstanding copy requests, the estimators' running accuracy (§5.1),
// the tasks already dropped, and for GRASS whether it has switched. Samples of
// earlier jobs come in read-only as speculators.Env.Prior; what a job
// teaches later ones (its tasks' run times, a perturbed job's sample) goes
// out through speculators.Teacher (Engine.Learned), and the driver keeps it
// (in a MemoryStore, or on disk with store/grassamples). The package must
// not start goroutines, perform I/O, read the wall clock, use randomness
// other than Env.Rand or depend on Go map iteration order.
//
// Push versus pull. GRASS picks, each time a slot becomes free, the next task
// to run: an original or a copy (§3). In the simulator it does exactly that:
// the policy implements speculators.SlotChooser and ChooseForSlot (pull.go)
// runs the pruning and selection stages for every slot offered to the job;
// a copy chosen runs there, an original chosen (or an empty Γ) leaves the
// slot to the allocator's SJF (deadline) or LJF (error) order of originals.
// Once slots are offered, Decide asks for no copies; it still drops the
// input tasks left at the bound and lets GRASS switch. Live, the AM's
// allocator places originals and Decide runs periodically (push): Decide
// counts the job's free slots (JobInfo.Slots minus running attempts,
// containers the AM still needs and copies asked for and not yet started;
// one per Decide when Slots is unknown, as one heartbeat would give) and
// runs the pruning and selection stages once per free slot, over every
// unfinished task. When the selected task is a running one it asks for a
// copy (Speculate); when it is an original not yet running, the slot is
// left to the allocator for it and nothing is asked. Live, copies therefore
// compete for slots only when the AM has no original waiting (DESIGN.md,
// "What is live and what is simulation-only").
//
// Where the paper is vague the choice and its reason are written beside the
// code that makes it: rounding of the error bound (needed), reduces (Decide),
// tasks without estimates (candidates), the estimators and t_new before a
// job's first completion (estimate.go), ties between copies (selectLess),
// the learned switch and the switch without samples (switch.go) and the end
// of approximation (approx.go).
package grass

import (
	"fmt"

	"github.com/specbridge/specbridge/speculators"
)

// Registry names.
const (
	NameGS    = "gs"
	NameRAS   = "ras"
	NameGRASS = "grass"
)

// Parameter names (grass only, except ParamTnewRunning, which gs and ras
// have too: Pseudocode 1 and 2 have no knobs, the estimator has one).
const (
	ParamTnewRunning   = "t-new-running"
	ParamRedAfterMaps  = "reduce-copies-after-maps"
	ParamXi            = "xi"
	ParamSmallMax      = "small-tasks-max"
	ParamMediumMax     = "medium-tasks-max"
	ParamNeighbours    = "neighbours"
	ParamMinSamples    = "min-samples"
	ParamCheckInterval = "check-interval-ms"
	ParamFallbackWaves = "fallback-waves"
	ParamGSWaves       = "gs-waves"
)

// PolicyGS registers GS.
var PolicyGS = speculators.Declare(NameGS, "GRASS's GS: greedily run the task (original or copy) that finishes earliest within the bound (Ananthanarayanan et al. NSDI'14 §3.1, Pseudocode 1-2)",
	func(b *speculators.Binder, p *policy) { p.bindEstimator(b, modeGS) })

// PolicyRAS registers RAS.
var PolicyRAS = speculators.Declare(NameRAS, "GRASS's RAS: copy a task only when c*t_rem - (c+1)*t_new > 0 saves time and resources (Ananthanarayanan et al. NSDI'14 §3.1, Pseudocode 1-2)",
	func(b *speculators.Binder, p *policy) { p.bindEstimator(b, modeRAS) })

// bindEstimator sets the algorithm in force and declares the estimator's
// one knob (see estimate.go, "Running tasks in t_new"), which the three
// policies share.
func (p *policy) bindEstimator(b *speculators.Binder, m mode) {
	p.mode, p.useGS = m, m == modeGS
	p.prior = b.Env().Prior
	p.est.prior = p.prior // t_new before the job's first completion (estimate.go)
	b.Bool(&p.redAfterMaps, ParamRedAfterMaps, false,
		"no copy of a running reduce that waits on its job's maps: while a map is not done, an attempt of it in its copy phase has copied at least the share of the maps done, less 0.1 (its last report may predate the latest maps); such a reduce is not eligible for a copy, and GRASS's test stands for every other task. "+
			"false is the paper's Pseudocode 1-2, which prices every running task alike. A reduce's copy phase fetches the maps' outputs as they end, so its progress moves at the maps' pace and t_rem, extrapolated from it (§5.1), reads it as a straggler, while a copy waits on the same maps (LATE §3.2). auto sets it for its GRASS members (auto.grass-reduce-copies-after-maps, rule v47); the single policies keep the paper's")
	b.Bool(&p.est.running, ParamTnewRunning, true,
		"count in t_new the running tasks that have already run longer than the mean of the job's completions, at their elapsed time plus t_rem (our choice, against the survivorship bias of §5.1's log of completed tasks); false is §5.1's estimate, which the paper's worked examples use")
}

// PolicyGRASS registers GRASS with the paper's defaults.
var PolicyGRASS = speculators.Declare(NameGRASS, "GRASS: RAS early, GS near the bound, switching point learned from earlier jobs (Ananthanarayanan et al. NSDI'14 §4)", func(b *speculators.Binder, p *policy) {
	p.bindEstimator(b, modeGRASS)
	var c switchConfig
	b.Float(&c.xi, ParamXi, 0.15, speculators.In(0, 1, "a probability"),
		"perturbation xi: probability that a job runs GS or RAS (equally likely) all through to refresh the samples (§4.2; 15% chosen empirically, §6.3.3)")
	b.Int(&c.smallMax, ParamSmallMax, 50, speculators.Valid{},
		"largest task count of a small job; samples are compared only within a bucket (§4.2; bins < 50, 51-500, > 500 tasks, §6.1; 50 itself counts small)")
	b.Int(&c.mediumMax, ParamMediumMax, 500, speculators.Valid{},
		"largest task count of a medium job (§6.1)")
	if c.smallMax < 1 || c.mediumMax <= c.smallMax {
		b.Fail(fmt.Errorf("%s %d, %s %d: want 1 <= small < medium", ParamSmallMax, c.smallMax, ParamMediumMax, c.mediumMax))
	}
	b.Int(&c.neighbours, ParamNeighbours, 8, speculators.AtLeast(1),
		"samples per algorithm nearest in (bound, utilisation, estimation accuracy) averaged to estimate the effect of switching (§4.1 names the factors, not the estimator; our choice)")
	b.Int(&c.minSamples, ParamMinSamples, 3, speculators.AtLeast(1),
		"samples of each algorithm the bucket needs before learning is trusted; with fewer, gs-waves and fallback-waves decide (our choice)")
	b.Int64(&c.checkInterval, ParamCheckInterval, 1000, speculators.NonNegative,
		"ms between switching checks (§4.1: \"performed periodically\"; our choice: once per Hadoop speculator scan)")
	b.Float(&c.gsWaves, ParamGSWaves, 1.5, speculators.NonNegative,
		"without enough samples, a job whose whole work is at most this many waves at its first check runs GS from then on (Guideline 3, §3.2: GS near-optimal below two waves; 1.5 because the width on arrival undercounts waves; our choice, see switch.go); 0 disables")
	b.Float(&c.fallbackWaves, ParamFallbackWaves, 0.0, speculators.NonNegative,
		"without enough samples, switch to GS when the remaining work is at most this many waves: the two-wave strawman of §4 and §6.3.2 (2 is the paper's strawman); 0, the default, leaves multi-wave jobs on RAS (Guideline 3), which was faster on the bundled scenarios")
	if !b.Ready() {
		return
	}
	p.learn = &learner{cfg: c, lastCheck: -1}
	// §4.2: with probability xi the job is marked for sampling and
	// runs GS or RAS, equally likely, all through.
	if r := b.Env().Rand; r != nil && r.Float64() < c.xi {
		p.learn.fixed = true
		p.useGS = r.IntN(2) == 0
	}
})

// mode is which algorithm a policy runs.
type mode uint8

const (
	modeGS mode = iota
	modeRAS
	modeGRASS
)

// switchConfig holds GRASS's learning parameters.
type switchConfig struct {
	xi            float64
	smallMax      int
	mediumMax     int
	neighbours    int
	minSamples    int
	checkInterval speculators.Time
	fallbackWaves float64
	gsWaves       float64
}

// policy is one job's GS, RAS or GRASS state.
type policy struct {
	mode mode
	// redAfterMaps (reduce-copies-after-maps) and reducesHeld: a running
	// reduce is not eligible for a copy while a map of the job is not done
	// (set at every size, the start of every pass).
	redAfterMaps, reducesHeld bool
	mapsFrac                  float64           // the share of the job's maps done, while reducesHeld
	useGS                     bool              // the algorithm in force: GS, else RAS
	prior                     speculators.Prior // earlier jobs (nil: none)
	learn                     *learner          // GRASS only
	// out is what this job taught since the last TakeLearned.
	out speculators.Learned

	// dropped[index]: a Drop for this map was emitted.
	dropped []bool
	// pull: the simulator offers this job's slots to ChooseForSlot, so
	// Decide no longer asks for copies (pull.go).
	pull   bool
	ver    uint64     // events observed plus Decides, for gamma
	gamma  gammaCache // the latest ChooseForSlot's Γ (pull.go)
	quiet  quietTime  // WantsSlot's latest no and how long it holds (pull.go)
	ended  bool       // the approximation bound was reached
	endWhy string     // why, for Drop reasons

	est estimators
	// uniform: per task type, whether every task has the same input size
	// (bytes), as of n tasks (sameInput).
	uniform [speculators.NumTaskTypes]struct {
		n     int
		bytes int64
		same  bool
	}

	// Scratch reused by Decide.
	cands   []cand
	picks   []cand
	durs    []float64
	scanned scanShape // what the latest candidates pass found

	// awaits: whether the job awaits containers (ContainerNeeds above 0)
	// as of its latest ContainerNeeds event (observeNeeds).
	awaits bool
}

// TakeLearned hands out the run times and samples this job produced since
// the last call (speculators.Teacher).
func (p *policy) TakeLearned(l *speculators.Learned) {
	l.Runtimes = append(l.Runtimes, p.out.Runtimes...)
	l.Samples = append(l.Samples, p.out.Samples...)
	p.out.Runtimes, p.out.Samples = p.out.Runtimes[:0], p.out.Samples[:0]
}

// HasLearned reports whether TakeLearned has anything to hand out
// (speculators.LearnedPending).
func (p *policy) HasLearned() bool {
	return len(p.out.Runtimes) > 0 || len(p.out.Samples) > 0
}

// Algorithm is the algorithm in force now: "gs" or "ras".
func (p *policy) Algorithm() string {
	if p.useGS {
		return AlgoGS
	}
	return AlgoRAS
}

// size grows per-task state to the job's task counts.
func (p *policy) size(job *speculators.Job) {
	p.dropped = speculators.Grow(p.dropped, len(job.Tasks[speculators.Map]))
	p.est.size(job)
	// A map's success is an event, so every pass that reads it (Γ, the
	// quiet bound) starts here after it.
	if !p.redAfterMaps {
		return
	}
	held, frac := job.Completed[speculators.Map] < len(job.Tasks[speculators.Map]), 0.0
	if held {
		frac = float64(job.Completed[speculators.Map]) / float64(len(job.Tasks[speculators.Map]))
	}
	if held != p.reducesHeld || frac != p.mapsFrac {
		// A map's end moves which reduces wait on the maps, though none of
		// them had an event: the kept quiet times and Γ (which skipped the
		// reduces held until their next report) are computed again.
		p.reducesHeld, p.mapsFrac = held, frac
		p.quiet.all = true
		p.gamma.stale = true
	}
}

// Observe keeps estimator accuracy and samples current (copy requests are
// the engine's ledger, Job.PendingCopies).
func (p *policy) Observe(job *speculators.Job, ev *speculators.Event) {
	if ev.Kind == speculators.ContainerNeeds {
		p.observeNeeds(job)
		return
	}
	p.ver++
	p.est.noteOut(job, ev)
	p.noteQuiet(job, ev)
	p.gamma.note(job, ev)
	t := job.LifecycleTask(ev)
	if t == nil {
		return
	}
	p.size(job)
	if ev.Kind == speculators.AttemptSucceeded {
		p.est.observeSuccess(job, t, ev)
		if r, ok := priorRecord(t, ev); ok {
			p.out.Runtimes = append(p.out.Runtimes, r)
		}
		if p.learn != nil {
			p.est.sync(job)
			p.learn.maybeRecord(p, job, ev.Time)
		}
	}
}

// observeNeeds takes a ContainerNeeds event. Γ, the quiet bound and
// censor read the job's needs only as whether it awaits any container
// (the early waves, select.go's early, with its originals); nothing else
// any of them keeps changes. A level that leaves that as it was changes
// nothing they read, so what they keep stays valid (ver unchanged); one
// that changes it moves the early waves, which gammaUpdate and quietHolds
// check against what they kept. The simulator reports a new level at
// almost every launch of a job's original, and each of those made the
// job's next quiet bound a pass over every running task (issue 31:
// 130,000 such passes of gs on the whole xulau/ese), its next Γ a full
// pass and censor's kept limits void.
func (p *policy) observeNeeds(job *speculators.Job) {
	awaits := job.ContainerNeeds[speculators.Map]+job.ContainerNeeds[speculators.Reduce] > 0
	if awaits != p.awaits {
		p.awaits = awaits
		p.ver++
	}
}

// freeSlots is how many slots this Decide may fill (see the package doc):
// the job's free slots less the copies already asked for and not started
// (the engine's ledger, Job.FreeSlots).
func (p *policy) freeSlots(job *speculators.Job) int {
	return job.FreeSlots()
}
