package srquant

import (
	"fmt"
	"math"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/resume"
)

// Name is the policy's registry name.
const Name = "srquant"

// Policy registers SRQuant with the paper's values (§VI).
var Policy = speculators.Declare(Name, "Speculative-Resume with quantitative analysis: PoCD-optimal r per straggler from Pareto fits (SRQuant/LASER paper §IV-A)", func(b *speculators.Binder, q *policy) {
	q.BindTimes(b)
	q.BindRMax(b, "Algorithm 1")
	b.Float(&q.rMin, "r-min", 0.1, speculators.Below(0, 1, "a PoCD"),
		"Rmin, the PoCD every job must reach, in U(r) = log(R(r) - Rmin) - theta C E_r(T) (§VI-C: 0.1)")
	q.BindThetaC(b)
	b.Float(&q.beta, "beta", 1.7, speculators.Valid{OK: func(b float64) bool { return b > 1 }, Want: "a tail index > 1"},
		"Pareto tail index used until two of the job's maps have completed (§VI-A measured 1.7)")
	q.BindTJVM(b)
	q.resumer = q.Resumer(b)
})

type policy struct {
	resume.Params
	resumer    *resume.Resumer
	rMin, beta float64
}

func (q *policy) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	return q.resumer.Decide(job, now, q, out)
}

// EstimateS is the paper's linear estimate (§V-A).
func (q *policy) EstimateS(_ *speculators.Job, _ *speculators.Task, a *speculators.Attempt, now speculators.Time) float64 {
	return resume.LinearEstimateS(a, now, q.TJVMS)
}

// Choose is Algorithm 1 for this straggler: N is the job's map count, D
// the deadline from the straggler's start, phi its own progress (the
// paper's phi_est is the mean over the job's originals; with r chosen per
// straggler, the straggler's own progress is what it resumes from; 0
// where copies cannot resume, live and in a history replay: see
// resume.Offset), and
// (tmin, beta) the censored fit of the job's maps (FitPareto). Before two
// maps have completed, tmin is the smallest run-time estimate of the job's
// running originals and beta the parameter.
func (q *policy) Choose(job *speculators.Job, _ *speculators.Task, a *speculators.Attempt, now speculators.Time) (int, string) {
	done, censored := resume.Observed(job, now)
	tmin, beta, ok := FitPareto(done, censored)
	src := "fit"
	if !ok {
		src = "prior"
		beta = q.beta
		tmin = math.Inf(1)
		for _, d := range done {
			tmin = min(tmin, d)
		}
		for _, t := range job.Tasks[speculators.Map] {
			if o := t.OnlyRunning(); o != nil && !o.Speculative && o.Progress > 0 {
				tmin = min(tmin, resume.LinearEstimateS(o, now, q.TJVMS))
			}
		}
		if math.IsInf(tmin, 1) {
			tmin = float64(now-a.Start) / 1000
		}
	}
	m := Model{N: len(job.Tasks[speculators.Map]), TMin: tmin, Beta: beta, D: float64(job.Deadline-a.Start) / 1000,
		TauEst: float64(now-a.Start) / 1000, TauKill: float64(q.resumer.TauKillMs()) / 1000, Phi: resume.Offset(job, a)}
	r, u := m.Choose(q.RMax, q.rMin, q.ThetaC)
	return r, fmt.Sprintf("Pareto %s tmin %.0f s beta %.2f, R(r) %.3f, U %.3f", src, tmin, beta, m.PoCD(r), u)
}
