// Package laser is LASER, Speculative-Resume with deep neural networks (the
// SRQuant/LASER paper, "LASER: a deep learning approach for speculative
// execution and replication of deadline-critical jobs", §IV-B, §V-B,
// Algorithm 2): at tau_est a network estimates each map's run time from its
// Table II features; a map that would end after the job's deadline is
// killed and r+1 attempts resume from its offset, with r chosen by
// U(r) = 1{T_i(r) <= D} - theta C M_i(r), where networks estimate the job's
// completion time T_i and machine time M_i for each r.
//
// A network is never fed an input outside the range it was trained on
// (Net.InMin, Net.InMax): for such a map LASER decides as srquant does (its
// linear estimate and its PoCD-optimal r), and the reason names the feature.
// Choice: the paper trains and tests on one cluster and says nothing of
// inputs unlike its training set; a network's output there is an
// extrapolation nobody checked, and srquant is the same mechanism with a
// model that needs no training.
//
// The networks are a Model handed to Policy by the caller: the CLI loads
// --param laser.model=FILE or the model embedded in the binary (package
// models); nothing here reads files. Training is in package lasertrain.
// Like everything under speculators/ the package does no I/O, reads no clock
// and starts no goroutines; inference is deterministic.
package laser

import (
	"errors"
	"fmt"
	"math"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/resume"
	"github.com/specbridge/specbridge/speculators/srquant"
)

// Name is the policy's registry name.
const Name = "laser"

// ParamModel names the model parameter, which the CLI reads (the policy
// is handed the model itself).
const ParamModel = "model"

// Policy registers LASER with its model; a nil model registers the policy
// but building it fails with an error that says how to give it one.
// Out-of-range values are an error naming the parameter.
func Policy(model *Model) speculators.Policy {
	return speculators.Bind(Name, "Speculative-Resume with learned run-time models: r per straggler from DNN estimates of job and machine time (SRQuant/LASER paper §IV-B)",
		func(b *speculators.Binder, q *policy) {
			q.model = model
			q.BindTimes(b)
			q.BindRMax(b, "Algorithm 2")
			q.BindThetaC(b)
			q.BindTJVM(b)
			var file string
			b.String(&file, ParamModel, "embedded",
				"model file written by `specbridge train laser`; the CLI reads it and hands it to the policy (default: the model embedded in the binary)")
			if model == nil {
				b.Fail(errors.New("no model: the caller must pass one (the embedded default, or --param laser.model=FILE)"))
			} else {
				b.Fail(model.Validate())
			}
			q.resumer = q.Resumer(b)
			if b.Ready() {
				q.srq, q.err = newFallback(q.Params)
				b.Fail(q.err)
			}
		})
}

// jobProgressAt is the index of job_progress among JobFeatureNames.
var jobProgressAt = func() int {
	for i, n := range JobFeatureNames {
		if n == "job_progress" {
			return i
		}
	}
	panic("laser: JobFeatureNames has no job_progress")
}()

type policy struct {
	resume.Params
	model   *Model
	resumer *resume.Resumer
	// srq is srquant with LASER's Speculative-Resume parameters (and
	// srquant's defaults for the rest): LASER decides as it for a map
	// whose features fall outside the networks' training ranges.
	srq resume.Chooser
	err error
	// outside names the attempt whose task features EstimateS found
	// outside the task network's range, and why, for the Choose that
	// follows.
	outside    speculators.AttemptID
	outsideWhy string
	x          []float64
	buf        []float64
}

// newFallback builds srquant with LASER's tau_est, tau_kill, r_max, theta C
// and t_jvm.
func newFallback(p resume.Params) (resume.Chooser, error) {
	reg := speculators.NewRegistry()
	if err := reg.Add(srquant.Policy()); err != nil {
		return nil, err
	}
	s, _, err := reg.New(srquant.Name, map[string]string{"tau-est-s": speculators.FormatParam(p.TauEstS),
		"tau-kill-s": speculators.FormatParam(p.TauKillS), "r-max": speculators.FormatParam(p.RMax),
		"theta-c": speculators.FormatParam(p.ThetaC), "tjvm-s": speculators.FormatParam(p.TJVMS)}, 1)
	if err != nil {
		return nil, fmt.Errorf("srquant fallback: %w", err)
	}
	c, ok := s.(resume.Chooser)
	if !ok {
		return nil, errors.New("srquant fallback: srquant is not a Speculative-Resume chooser")
	}
	return c, nil
}

// outsideRange says which feature of x is outside net's training range.
func outsideRange(net *Net, names []string, x []float64) (string, bool) {
	i := net.OutOfRange(x)
	if i < 0 {
		return "", false
	}
	name := "?"
	if i < len(names) {
		name = names[i]
	}
	lo, hi := math.NaN(), math.NaN()
	if i < len(net.InMin) && i < len(net.InMax) {
		lo, hi = net.InMin[i], net.InMax[i]
	}
	v := math.NaN()
	if i < len(x) {
		v = x[i]
	}
	return fmt.Sprintf("%s = %.3g outside the training range [%.3g, %.3g]", name, v, lo, hi), true
}

func (q *policy) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	return q.resumer.Decide(job, now, q, out)
}

// EstimateS is the task network's estimate of the attempt's run time; for
// features outside the network's training range, srquant's linear
// estimate (and Choose then decides as srquant).
func (q *policy) EstimateS(job *speculators.Job, t *speculators.Task, a *speculators.Attempt, now speculators.Time) float64 {
	q.x = TaskFeatures(q.x[:0], a, now, q.TJVMS)
	if why, out := outsideRange(&q.model.Task, TaskFeatureNames, q.x); out {
		q.outside, q.outsideWhy = a.ID, "task "+why
		return q.srq.EstimateS(job, t, a, now)
	}
	var y float64
	y, q.buf = q.model.Task.Predict(q.x, q.buf)
	return y
}

// Choose is Algorithm 2: the r in [0, r_max] with the largest
// U(r) = 1{T(r) <= D} - theta C M(r), the first on ties. D is the job's
// deadline from its submission, as the job network is trained on job
// durations from submission.
//
// Where copies cannot resume (live, and a history replay: JobInfo.Resume
// off) the straggler's progress is work thrown away, so the job's progress
// phi_i the networks see leaves it out: the straggler counts as a map at
// offset 0 (resume.Offset), as SRQuant's R(r) does. The straggler's own
// task features (its progress among them) still describe it: they say how
// slow it is, not what its copies keep.
//
// When the straggler's task features (EstimateS) or its job features for
// some r fall outside the range the networks were trained on, it decides as
// srquant and the reason says which feature and why.
func (q *policy) Choose(job *speculators.Job, t *speculators.Task, a *speculators.Attempt, now speculators.Time) (int, string) {
	if q.outside == a.ID && q.outsideWhy != "" {
		why := q.outsideWhy
		q.outsideWhy = ""
		r, srq := q.srq.Choose(job, t, a, now)
		return r, "decided as srquant: " + why + "; " + srq
	}
	lost := 0.0
	if n := len(job.Tasks[speculators.Map]); n > 0 {
		lost = (a.Progress - resume.Offset(job, a)) / float64(n)
	}
	for r := 0; r <= q.RMax; r++ {
		q.x = JobFeatures(q.x[:0], job, a, now, q.TJVMS, q.TauKillS, r)
		q.x[jobProgressAt] = math.Max(0, q.x[jobProgressAt]-lost)
		why, out := outsideRange(&q.model.Job, JobFeatureNames, q.x)
		if !out {
			why, out = outsideRange(&q.model.Machine, JobFeatureNames, q.x)
		}
		if out {
			r, srq := q.srq.Choose(job, t, a, now)
			return r, "decided as srquant: job " + why + "; " + srq
		}
	}
	best, rm := math.Inf(-1), 0
	var bestT, bestM float64
	d := float64(job.Deadline-job.Info.Start) / 1000
	for r := 0; r <= q.RMax; r++ {
		q.x = JobFeatures(q.x[:0], job, a, now, q.TJVMS, q.TauKillS, r)
		q.x[jobProgressAt] = math.Max(0, q.x[jobProgressAt]-lost)
		var t, m float64
		t, q.buf = q.model.Job.Predict(q.x, q.buf)
		m, q.buf = q.model.Machine.Predict(q.x, q.buf)
		u := -q.ThetaC * m
		if t <= d {
			u++
		}
		if u > best {
			best, rm, bestT, bestM = u, r, t, m
		}
	}
	return rm, fmt.Sprintf("DNN job time %.0f s vs deadline %.0f s, machine time %.0f s, U %.3f", bestT, d, bestM, best)
}
