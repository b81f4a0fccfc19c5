package scenario

import (
	"math"
	"math/rand/v2"
)

// Job sizes and per-job task-time laws (maps_dist, job_scale, copy_work
// fresh): what Xu and Lau's §IV-C and §VI-C setups need, a job-size
// distribution rather than one count per group, and a mean task time drawn
// per job.

// WorkLaw is one job's law of a task's work in seconds: a draw from Dist
// times Scale (the job's job_scale draw), times a draw from Noise if set,
// at least 1 ms.
type WorkLaw struct {
	Dist  *Dist
	Scale float64
	Noise *Dist
}

// Sample draws one task's work in seconds.
func (l *WorkLaw) Sample(r *rand.Rand) float64 {
	if l == nil || l.Dist == nil {
		return 0.001
	}
	w := l.Dist.Sample(r) * l.Scale
	if l.Noise != nil {
		w *= l.Noise.Sample(r)
	}
	return math.Max(w, 0.001)
}

// Mean is the law's expected work in seconds (0 without a law).
func (l *WorkLaw) Mean() float64 {
	if l == nil || l.Dist == nil {
		return 0
	}
	m := l.Dist.MeanValue() * l.Scale
	if l.Noise != nil {
		m *= l.Noise.MeanValue()
	}
	return m
}

// TailIndex is the shape of a Pareto work law without noise, else 0
// (unknown).
func (l *WorkLaw) TailIndex() float64 {
	if l == nil || l.Dist == nil || l.Dist.Kind != "pareto" || l.Noise != nil {
		return 0
	}
	return l.Dist.Shape
}

// drawCount draws a job's task count from d: a uniform gives an integer in
// min..max, each equally likely; any other distribution is rounded; the
// count is at least 1 and at most maxTasksInJob.
func drawCount(d *Dist, r *rand.Rand) int {
	var n float64
	if d.Kind == "uniform" {
		lo, hi := math.Round(d.Min), math.Round(d.Max)
		n = lo + float64(r.IntN(int(hi-lo)+1))
	} else {
		n = math.Round(d.Sample(r))
	}
	return int(min(max(n, 1), maxTasksInJob))
}

// validateSizes checks maps_dist and job_scale.
func (g *JobGroup) validateSizes() error {
	if g.MapsDist != nil {
		if g.Maps != 0 {
			return lineErr(g.Line, "job group %q: give maps or maps_dist, not both", g.Name)
		}
		if err := g.MapsDist.validate(); err != nil {
			return err
		}
		if g.MapsDist.Kind == "uniform" && (g.MapsDist.Max > maxTasksInJob || math.Round(g.MapsDist.Max) < 1) {
			return lineErr(g.Line, "job group %q: maps_dist uniform max %g is not in 1..%d", g.Name, g.MapsDist.Max, maxTasksInJob)
		}
	}
	if g.JobScale != nil {
		if err := g.JobScale.validate(); err != nil {
			return err
		}
	}
	return nil
}
