package srquant

import (
	"fmt"
	"math"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/resume"
)

// Name is the policy's registry name.
const Name = "srquant"

// Parameter names.
const (
	ParamTauEst  = "tau-est-s"
	ParamTauKill = "tau-kill-s"
	ParamRMax    = "r-max"
	ParamRMin    = "r-min"
	ParamThetaC  = "theta-c"
	ParamBeta    = "beta"
	ParamTJVM    = "tjvm-s"
)

// Params declares SRQuant's parameters (LASER shares the first three).
func params() []speculators.ParamSpec {
	return []speculators.ParamSpec{
		speculators.FloatParam(ParamTauEst, 120.0,
			"seconds after a map starts at which its run time is estimated (SRQuant/LASER paper §VI-C: tau_est = 120 s)"),
		speculators.FloatParam(ParamTauKill, 200.0,
			"seconds after a map starts at which the best resumed attempt is kept and the others killed (§VI-C: tau_kill = 200 s)"),
		speculators.IntParam(ParamRMax, 4,
			"most extra attempts per straggler, r_max of Algorithm 1 (the paper gives no value; 4 keeps a 10-task job within 5x its tasks)"),
		speculators.FloatParam(ParamRMin, 0.1,
			"Rmin, the PoCD every job must reach, in U(r) = log(R(r) - Rmin) - theta C E_r(T) (§VI-C: 0.1)"),
		speculators.FloatParam(ParamThetaC, 0.0001,
			"theta x C, the price of a machine-second against PoCD in U(r) (§VI-C: 0.0001)"),
		speculators.FloatParam(ParamBeta, 1.7,
			"Pareto tail index used until two of the job's maps have completed (§VI-A measured 1.7)"),
		speculators.FloatParam(ParamTJVM, 0.0,
			"t_jvm, seconds from launch to the first processed record, subtracted in the estimate t_jvm + (tau_est - t_jvm)/phi (§V-A; the simulator has no JVM start-up, so 0)"),
	}
}

// Policy registers SRQuant.
func Policy() speculators.Policy {
	return speculators.Policy{
		Name:   Name,
		Doc:    "Speculative-Resume with quantitative analysis: PoCD-optimal r per straggler from Pareto fits (SRQuant/LASER paper §IV-A)",
		Params: params(),
		New: func(p speculators.Params, _ speculators.Env) (speculators.Speculator, error) {
			return New(p)
		},
	}
}

type policy struct {
	resumer            *resume.Resumer
	rMax               int
	rMin, thetaC, beta float64
	tjvm               float64
}

// New builds SRQuant from its parameters.
func New(p speculators.Params) (speculators.Speculator, error) {
	r, err := resume.NewSeconds(p.Float(ParamTauEst), p.Float(ParamTauKill))
	if err != nil {
		return nil, err
	}
	q := &policy{resumer: r, rMax: int(p.Int(ParamRMax)), rMin: p.Float(ParamRMin), thetaC: p.Float(ParamThetaC),
		beta: p.Float(ParamBeta), tjvm: p.Float(ParamTJVM)}
	if q.rMax < 0 || !(q.beta > 1) || !(q.thetaC >= 0) || !(q.rMin >= 0 && q.rMin < 1) {
		return nil, fmt.Errorf("r-max %d must be >= 0, beta %g > 1, theta-c %g >= 0 and r-min %g in [0,1)", q.rMax, q.beta, q.thetaC, q.rMin)
	}
	return q, nil
}

func (q *policy) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	return q.resumer.Decide(job, now, q, out)
}

// EstimateS is the paper's linear estimate (§V-A).
func (q *policy) EstimateS(_ *speculators.Job, _ *speculators.Task, a *speculators.Attempt, now speculators.Time) float64 {
	return resume.LinearEstimateS(a, now, q.tjvm)
}

// Choose is Algorithm 1 for this straggler: N is the job's map count, D
// the deadline from the straggler's start, phi its own progress (the
// paper's phi_est is the mean over the job's originals; with r chosen per
// straggler, the straggler's own progress is what it resumes from), and
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
				tmin = min(tmin, resume.LinearEstimateS(o, now, q.tjvm))
			}
		}
		if math.IsInf(tmin, 1) {
			tmin = float64(now-a.Start) / 1000
		}
	}
	m := Model{N: len(job.Tasks[speculators.Map]), TMin: tmin, Beta: beta, D: float64(job.Deadline-a.Start) / 1000,
		TauEst: float64(now-a.Start) / 1000, TauKill: float64(q.resumer.TauKillMs()) / 1000, Phi: a.Progress}
	r, u := m.Choose(q.rMax, q.rMin, q.thetaC)
	return r, fmt.Sprintf("Pareto %s tmin %.0f s beta %.2f, R(r) %.3f, U %.3f", src, tmin, beta, m.PoCD(r), u)
}
