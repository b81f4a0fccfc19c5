// Package ese is the Enhanced Speculative Execution algorithm of Xu and Lau
// ("Optimization for Speculative Execution in Big Data Processing
// Clusters", §VI, Algorithm 2), Mantri extended for a heavily loaded
// cluster. At each time slot: (1) every running task with one copy whose
// remaining time exceeds sigma E[x] (the backup set D(l)) gets one
// duplicate, longest remaining time first; (2) the remaining tasks of
// started jobs are placed, smallest remaining workload first; (3) jobs not
// yet scheduled are placed smallest workload first, and a small one (m <
// eta N(l)/|chi(l)| tasks and E[x] < xi) has each task cloned into c* copies
// (eq. (29)), others one copy.
//
// The policy reads the job state the engine folds and keeps its own record
// of the copies it asked for. It must not start goroutines, perform I/O,
// read the wall clock, use randomness or depend on Go map iteration order.
//
// Choices where the paper is vague:
//
//   - sigma = 1.7, the paper's choice from its approximate analysis (Fig. 4;
//     xulau.BackupSigma computes the minimiser for any tail index).
//   - xi, and which E[x] it bounds. xi is in the paper's time units;
//     unit-s says how many seconds one unit is (10, the scaling of the
//     bundled scenarios, docs/scenarios-xu-lau.md). Read literally, "E[x] <
//     xi" with E[x] drawn from U(1, 4) units and xi = 1 (§VI-C) makes no job
//     small, yet the paper's resource result says ESE cloned: its resource
//     matched Mantri's "because cloning for small jobs can incur an extra
//     amount of resource consumption" (§VI-C, Fig. 6). We read xi as a bound
//     on the scale Mu of the job's Pareto law F(t) = 1 - (Mu/t)^alpha of
//     §III (the least time a task of the job takes, Mu = E[x] (alpha-1) /
//     alpha, E[x]/2 at alpha = 2), the parameter the paper's task model is
//     written in. Under it the paper's jobs with E[x] below 2 units (a third
//     of them) pass the duration test and the smallest of those are cloned,
//     which is what the resource result needs; the other test, m < eta
//     N(l)/|chi(l)|, still keeps cloning to a lightly queued cluster. The
//     literal reading is ese.xi-scale=mean.
//   - c* of eq. (29) uses U = -E[t], gamma = 0.01 and r = 8 as in SCA, and is
//     limited to m c <= N(l) so the clones start together.
//   - t_rem and E[x] as in SDA (package sda): the extrapolation at the
//     latest report aged by the time since (xulau.TimeLeft), and the job's
//     a-priori mean, else its completed mean.
//   - The three levels are the simulator's job order and clone-at-launch
//     (speculators.JobPrioritizer, speculators.Cloner). Live, YARN orders
//     jobs and the policy asks for D(l)'s copies and a small job's clones
//     from Decide as soon as the tasks run, with N(l) taken as the slots the
//     job does not use (JobInfo.Slots, the hello's slots, which the shim
//     takes from specbridge.cluster.slots) and chi(l) as the job alone. A
//     job counts as small only with both N(l) and its a-priori E[x] known:
//     live, E[x] is the job's specbridge.job.task-mean-ms, else the
//     sidecar's prior from earlier jobs' tasks (bridge/taskmodel.go);
//     without either, live ESE only backs up.
package ese

import (
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/xulau"
)

// Name is the policy's registry name.
const Name = "ese"

// Policy registers ESE with the paper's defaults (Xu & Lau §VI).
var Policy = speculators.Declare(Name, "ESE: back up tasks with t_rem > 1.7 E[x], longest first; then running jobs and new jobs by least work; clone small jobs with c* of eq. (29) (Xu & Lau §VI, Algorithm 2)", func(b *speculators.Binder, p *policy) {
	b.Float(&p.sigma, "sigma", 1.7, speculators.PositiveFinite,
		"sigma: a task joins the backup set D(l) when t_rem > sigma E[x] (Xu & Lau §VI-B, Fig. 4: 1.7)")
	b.Float(&p.eta, "eta", 0.1, speculators.NonNegativeFinite,
		"eta: a job is small when m < eta N(l)/|chi(l)| (Xu & Lau §VI-C, 0.1)")
	b.Float(&p.xi, "xi", 1.0, speculators.NonNegativeFinite,
		"xi: and the job's task-time scale < xi time units (Xu & Lau §VI-C, 1; see xi-scale)")
	b.String(&p.xiScale, "xi-scale", "pareto", "which task time xi bounds: pareto, the scale Mu = E[x] (alpha-1)/alpha of the job's law (§III; the reading under which the paper's small jobs are cloned), or mean, E[x] as §VI-C writes it (then no job of the paper's setup is small)")
	b.Check(p.xiScale != "pareto" && p.xiScale != "mean", "xi-scale", p.xiScale, "pareto or mean")
	b.Float(&p.unit, "unit-s", 10.0, speculators.PositiveFinite,
		"seconds in one of the paper's time units, for xi (the bundled scenarios' scaling: 1 unit = 10 s)")
	xulau.BindGamma(b, &p.gamma, "eq. (29)")
	xulau.BindMaxCopies(b, &p.maxCopies, 1, "a small job's task")
	xulau.BindTailIndex(b, &p.alpha, "§VI-C")
})

type policy struct {
	sigma, eta, xi, unit, gamma float64
	xiScale                     string
	maxCopies                   int
	alpha                       float64

	// Copies is the record of copies asked for and tasks launched; its
	// Observe is the policy's.
	xulau.Copies
	mean     xulau.MeanMemo // the job's mean task time, kept once known a priori
	scan     xulau.Scan
	clones   int
	atLaunch bool
}

// Clones is Algorithm 2's lines 17-22 for the first of the waiting jobs:
// c* of eq. (29) when it is small (m < eta N(l)/|chi(l)| and its task-time
// scale below xi units, see the package doc), else 1.
func (p *policy) Clones(view speculators.ClusterView) int {
	if len(view.Waiting) == 0 {
		return 1
	}
	w := view.Waiting[0]
	law := xulau.LawOfSize(w, p.alpha)
	scale := law.Mu
	if p.xiScale == "mean" {
		scale = law.Mean()
	}
	small := float64(w.Tasks) < p.eta*float64(view.Idle)/float64(len(view.Waiting)) &&
		w.TaskMillis > 0 && scale < p.xi*p.unit*1000
	if !small {
		return 1
	}
	return xulau.CloneCount(w.Tasks, law, p.gamma, p.maxCopies, view.Idle)
}

// LaunchCopies is the clone decision when the job's first task is placed.
func (p *policy) LaunchCopies(_ *speculators.Job, view speculators.ClusterView, _ speculators.Time) int {
	p.atLaunch = true
	p.clones = p.Clones(view)
	return p.clones
}

// Decide asks for one duplicate of each task of D(l), longest t_rem first,
// and, live, for a small job's clones.
func (p *policy) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	if !p.atLaunch {
		if p.clones == 0 {
			p.clones = p.Clones(xulau.LiveView(job, p.maxCopies))
		}
		out = xulau.CloneRequests(job, &p.Copies, p.clones, Name, out)
	}
	if !xulau.MeanKnown(job) {
		return out
	}
	mean := p.mean.Of(job, p.alpha)
	// The reason's first number, t_rem, is set per straggler.
	why := speculators.Because("ese: backup, t_rem %.1fs > sigma %.2f x E[x] %.1fs").F(0).F(p.sigma).F(mean / 1000)
	for _, s := range p.scan.Stragglers(job, &p.Copies, p.sigma*mean, now) {
		why.Args[0] = s.Left / 1000
		out = p.Copies.Ask(out, job, s.Task, 1, &why)
	}
	return out
}

// PriorityByEvents holds: the priority reads only the copy ledger, the
// launches, the completions and the mean task time, which move with the
// job's events and the policy's own calls, never with the clock alone.
func (p *policy) PriorityByEvents() bool { return true }

// JobPriority is Algorithm 2's three levels: a job with a backup waiting,
// then started jobs by remaining workload, then new jobs by workload.
func (p *policy) JobPriority(job *speculators.Job, _ speculators.Time) speculators.Priority {
	return p.Copies.Priority(job, p.mean.Of(job, p.alpha))
}
