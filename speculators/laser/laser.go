// Package laser is LASER, Speculative-Resume with deep neural networks (the
// SRQuant/LASER paper, "LASER: a deep learning approach for speculative
// execution and replication of deadline-critical jobs", §IV-B, §V-B,
// Algorithm 2): at tau_est a network estimates each map's run time from its
// Table II features; a map that would end after the job's deadline is
// killed and r+1 attempts resume from its offset, with r chosen by
// U(r) = 1{T_i(r) <= D} - theta C M_i(r), where networks estimate the job's
// completion time T_i and machine time M_i for each r.
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
	x       []float64
	buf     []float64
}

func (q *policy) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	return q.resumer.Decide(job, now, q, out)
}

// EstimateS is the task network's estimate of the attempt's run time.
func (q *policy) EstimateS(_ *speculators.Job, _ *speculators.Task, a *speculators.Attempt, now speculators.Time) float64 {
	q.x = TaskFeatures(q.x[:0], a, now, q.TJVMS)
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
func (q *policy) Choose(job *speculators.Job, _ *speculators.Task, a *speculators.Attempt, now speculators.Time) (int, string) {
	best, rm := math.Inf(-1), 0
	var bestT, bestM float64
	d := float64(job.Deadline-job.Info.Start) / 1000
	lost := 0.0
	if n := len(job.Tasks[speculators.Map]); n > 0 {
		lost = (a.Progress - resume.Offset(job, a)) / float64(n)
	}
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
