// Package sda is the Straggler Detection Algorithm of Xu and Lau
// ("Optimization for Speculative Execution in Big Data Processing
// Clusters", §V) for a lightly loaded cluster: a running task is a
// straggler when its remaining time t_rem exceeds sigma x E[t_new]; it then
// gets c-1 fresh copies, once. sigma* and c come from problem P3 (eqs.
// (26)-(28)): for Pareto task times c = 2 and sigma* depends only on the
// tail index (1 + sqrt(2)/2 for alpha = 2, Theorem 3). Jobs are served in
// three levels: stragglers' copies first, then the remaining tasks of
// started jobs by smallest remaining workload, then new jobs by smallest
// workload, one copy each.
//
// The policy reads the job state the engine folds and keeps its own record
// of the copies it asked for. It must not start goroutines, perform I/O,
// read the wall clock, use randomness or depend on Go map iteration order.
//
// Choices where the paper is vague:
//
//   - sigma* is computed numerically (xulau.SigmaStar) from the job's tail
//     index (JobInfo.TailIndex, else the tail-index parameter) unless the
//     sigma parameter sets it; the copy count is the c that goes with it:
//     2 for tail indexes of 2 and above, as Theorem 3 says, but 3 (at sigma
//     1.47) for a tail of 1.5, where the numerical optimum of eqs. (27)-(28)
//     departs from the theorem; the policy follows the computation.
//   - t_rem is the extrapolation at the attempt's latest report, aged by
//     the time since (xulau.TimeLeft), exact for linear progress as the
//     paper's t_rem = (1 - s) t_1 is. Not the engine's elapsed-time rate
//     (Mantri's and Hadoop's estimate here), which overstates t_rem between
//     reports by up to 1.67 and so made sigma* act like a sigma near 1.0:
//     twice the copies, and a flowtime the paper's rule does not give.
//     E[t_new] is the job's a-priori mean task time (JobInfo.TaskMillis,
//     §III; live, the job's specbridge.job.task-mean-ms or the sidecar's
//     prior), else the mean of its completed tasks; before either is known
//     no task is judged. The paper's detection point s (the fraction of
//     work after which a straggler shows) is what the progress reports
//     give: a task is judged from its first report on (3 s after launch,
//     and within the decide interval after it).
//   - The three levels are the simulator's job order
//     (speculators.JobPrioritizer): a job with a straggler's copy waiting
//     is served first. Within a job the simulator places a job's own
//     unplaced originals before its copies; in a lightly loaded cluster a
//     started job has none. Live, YARN orders jobs; the policy asks for the
//     copies from Decide, which is all the AM allows.
package sda

import (
	"math"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/xulau"
)

// Name is the policy's registry name.
const Name = "sda"

// Policy registers SDA with the paper's defaults (Xu & Lau §V).
var Policy = speculators.Declare(Name, "SDA: a task straggles when t_rem > sigma* E[t_new], sigma* from eq. (28) (1+sqrt(2)/2 for alpha 2); one extra copy; copies, then running jobs, then new jobs by least work (Xu & Lau §V)", func(b *speculators.Binder, p *policy) {
	b.Float(&p.sigmaParam, "sigma", 0.0, speculators.NonNegativeFinite,
		"straggler threshold sigma in units of E[t_new]; 0 computes sigma* of eq. (28) from the tail index (Xu & Lau §V-A)")
	xulau.BindTailIndex(b, &p.alpha, "§V-C")
	xulau.BindMaxCopies(b, &p.maxCopies, 2, "a straggler the search of eq. (27) considers (Theorem 3 gives 2 for Pareto)")
})

type policy struct {
	sigmaParam float64
	alpha      float64
	maxCopies  int

	// sigma and copies once resolved for the job (sigma 0: not yet).
	sigma  float64
	copies int
	// Copies is the record of copies asked for and tasks launched; its
	// Observe is the policy's.
	xulau.Copies
	mean xulau.MeanMemo // the job's mean task time, kept once known a priori
	scan xulau.Scan
}

func (p *policy) resolve(job *speculators.Job) error {
	if p.sigma > 0 {
		return nil
	}
	alpha := p.alpha
	if a := job.Info.TailIndex; a > 1 {
		alpha = a
	}
	sigma, copies, err := xulau.SigmaStar(alpha, 0, p.maxCopies)
	if err != nil {
		return err
	}
	if p.sigmaParam > 0 {
		sigma, copies = p.sigmaParam, 2
	}
	p.sigma, p.copies = sigma, copies
	return nil
}

// Decide asks for c-1 copies of each new straggler, longest t_rem first.
func (p *policy) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	if !xulau.MeanKnown(job) || p.resolve(job) != nil || p.copies < 2 || math.IsInf(p.sigma, 1) {
		return out
	}
	mean := p.mean.Of(job, p.alpha)
	// The reason's first number, t_rem, is set per straggler.
	why := speculators.Because("sda: t_rem %.1fs > sigma %.3f x E[t_new] %.1fs").F(0).F(p.sigma).F(mean / 1000)
	for _, s := range p.scan.Stragglers(job, &p.Copies, p.sigma*mean, now) {
		why.Args[0] = s.Left / 1000
		out = p.Copies.Ask(out, job, s.Task, p.copies-1, &why)
	}
	return out
}

// PriorityByEvents holds: the priority reads only the copy ledger, the
// launches, the completions and the mean task time, which move with the
// job's events and the policy's own calls, never with the clock alone.
func (p *policy) PriorityByEvents() bool { return true }

// JobPriority is SDA's three levels: a job with a straggler's copy waiting,
// then started jobs by remaining workload, then new jobs by workload.
func (p *policy) JobPriority(job *speculators.Job, _ speculators.Time) speculators.Priority {
	return p.Copies.Priority(job, p.mean.Of(job, p.alpha))
}
