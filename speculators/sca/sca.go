// Package sca is the Smart Cloning Algorithm of Xu and Lau ("Optimization
// for Speculative Execution in Big Data Processing Clusters", §IV,
// Algorithm 1) for a lightly loaded cluster: at each time slot the running
// jobs' remaining tasks are placed fewest-remaining-first; then, if the
// jobs not yet scheduled (chi(l)) fit the idle machines with one copy each,
// problem P2 chooses how many copies each of their tasks starts with
// (maximising job utility minus gamma times resource); otherwise they are
// placed smallest-workload-first with one copy. There is no monitoring:
// copies start with their original and the first to finish wins.
//
// The policy reads the job state the engine folds and keeps its own record
// of the copies it asked for. It must not start goroutines, perform I/O,
// read the wall clock, use randomness or depend on Go map iteration order.
//
// Choices where the paper is vague:
//
//   - P2 is solved exactly over the integers (xulau.P2.SolveExact, dynamic
//     programming over the extra copies), not by the paper's gradient
//     projection followed by rounding: the sca paper test shows both give
//     the same answer on the paper's Fig. 1 example, and the exact search is
//     cheaper for the handful of jobs a slot holds.
//   - The utility is U(E[t], m) = -E[t], the one the paper evaluates, and
//     gamma = 0.01 (§IV-C); r = 8 copies at most (the Fig. 1 example).
//   - The job's task-time law is a Pareto of JobInfo.TaskMillis and
//     JobInfo.TailIndex (known a priori, §III; live, the job's properties
//     or the sidecar's prior, bridge/taskmodel.go), else of the job's
//     completed mean and the tail-index parameter.
//   - Time slots: the simulator decides at each placement, which is a slot
//     of zero length; the jobs of chi(l) are those with nothing placed yet.
//     Solving P2 for the first of them, then again for the next with the
//     machines left, gives the joint optimum, since the objective is
//     separable across jobs.
//   - Ordering jobs and starting copies with their originals is the
//     simulator's (speculators.JobPrioritizer, speculators.Cloner). Live,
//     YARN orders jobs, and the policy asks for each task's copies as soon
//     as its first attempt is RUNNING, with P2 solved for the job alone
//     against the slots it does not use (JobInfo.Slots minus its running
//     attempts).
package sca

import (
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/xulau"
)

// Name is the policy's registry name.
const Name = "sca"

// Policy registers SCA with the paper's defaults (Xu & Lau §IV).
var Policy = speculators.Declare(Name, "SCA: fewest-remaining-first, and clones at launch sized by problem P2 when idle machines exceed demand (Xu & Lau §IV, Algorithm 1)", func(b *speculators.Binder, p *policy) {
	xulau.BindMaxCopies(b, &p.maxCopies, 1, "a task")
	xulau.BindGamma(b, &p.gamma, "P2")
	xulau.BindTailIndex(b, &p.alpha, "§IV-C")
})

type policy struct {
	maxCopies int
	gamma     float64
	alpha     float64

	// Copies is the record of copies asked for and tasks launched; its
	// Observe is the policy's.
	xulau.Copies
	mean     xulau.MeanMemo // the job's mean task time, kept once known a priori
	clones   int
	atLaunch bool
}

// Clones solves P2 for the waiting jobs (the job asking first) and returns
// the copies of the first; 1 when they do not fit the idle machines with one
// copy each (Algorithm 1, line 6) or P2's inputs are out of range.
func Clones(waiting []speculators.JobSize, idle, maxCopies int, gamma, alpha float64) int {
	if len(waiting) == 0 {
		return 1
	}
	p := xulau.P2{Idle: idle, MaxCopies: maxCopies, Gamma: gamma}
	for _, w := range waiting {
		p.Jobs = append(p.Jobs, xulau.WaitingJob{Tasks: max(w.Tasks, 1), Law: xulau.LawOfSize(w, alpha)})
	}
	if !p.Feasible() {
		return 1
	}
	c, err := p.SolveExact()
	if err != nil {
		return 1
	}
	return c[0]
}

// LaunchCopies is Algorithm 1's lines 6-7 for this job.
func (p *policy) LaunchCopies(_ *speculators.Job, view speculators.ClusterView, _ speculators.Time) int {
	p.atLaunch = true
	p.clones = Clones(view.Waiting, view.Idle, p.maxCopies, p.gamma, p.alpha)
	return p.clones
}

// PriorityByEvents holds: the priority reads only the job's unassigned
// tasks and its mean task time, which move with the job's events and the
// policy's own calls, never with the clock alone.
func (p *policy) PriorityByEvents() bool { return true }

// JobPriority orders running jobs by fewest remaining tasks (line 1), then
// jobs not yet scheduled by smallest workload m E[x] (line 9).
func (p *policy) JobPriority(job *speculators.Job, _ speculators.Time) speculators.Priority {
	if p.Copies.Launched > 0 {
		return speculators.Priority{Tier: xulau.TierStarted, Key: float64(p.Copies.Unassigned(job))}
	}
	return speculators.Priority{Tier: xulau.TierWaiting, Key: float64(xulau.TaskCount(job)) * p.mean.Of(job, p.alpha)}
}

// Decide asks, live, for the clones of every task whose first attempt runs;
// in the simulator the clones started with their originals.
func (p *policy) Decide(job *speculators.Job, _ speculators.Time, out []speculators.Decision) []speculators.Decision {
	if p.atLaunch {
		return out
	}
	if p.clones == 0 {
		v := xulau.LiveView(job, p.maxCopies)
		p.clones = Clones(v.Waiting, v.Idle, p.maxCopies, p.gamma, p.alpha)
	}
	return xulau.CloneRequests(job, &p.Copies, p.clones, Name, out)
}
