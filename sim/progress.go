package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// ProgressNoise makes an attempt's reported progress rate vary within the
// attempt while its run time stays what its work says.
//
// Without it an attempt's progress grows linearly with its work done, so a
// progress-based estimate of its remaining time, elapsed x (1-p)/p, is exact
// from the first report, and policies that act on it (Mantri's
// kill-and-restart above all) are never wrong. Real estimates are not exact:
// GRASS §5.1 reports that its t_rem and t_new estimates reach "moderate
// accuracies of 72% and 76%" because a task's rate changes as it runs (input
// records of uneven cost, contention that comes and goes, spills). With
// Segments > 0 and Sigma > 0 each attempt's run is cut into Segments equal
// stretches of its work and each stretch gets a progress rate drawn from a
// lognormal with median 1 and shape Sigma, normalised so that progress
// reaches 1 exactly when the attempt finishes: p(f) is piecewise linear in
// the fraction f of the attempt's work done, with p(0) = 0 and p(1) = 1.
// Run times, and so every task's finish, are unchanged; only what the
// attempt reports (its progress and the input bytes it says it has read)
// and therefore every estimate made from reports changes. The draws come
// from a source of the job's own, separate from CopyWork's, so turning the
// noise on does not change any attempt's work. The zero value is off and
// leaves the simulator's path as it was.
//
// Calibration: with Segments 4 and Sigma 0.35, elapsed x (1-p)/p made at a
// uniformly random point of an attempt's run scores 1 - |estimate -
// actual| / actual = 0.72 on average (0.62 at Sigma 0.5, 0.76 at 0.3),
// §5.1's t_rem accuracy; the GRASS scenarios use these values.
type ProgressNoise struct {
	Segments int
	Sigma    float64
}

func (p ProgressNoise) on() bool { return p.Segments > 0 && p.Sigma > 0 }

func (p ProgressNoise) validate() error {
	if p.Segments < 0 || p.Segments > 1000 || !(p.Sigma >= 0) || math.IsInf(p.Sigma, 1) {
		return fmt.Errorf("progress noise: segments %d (0..1000) and sigma %g (finite, >= 0)", p.Segments, p.Sigma)
	}
	return nil
}

// progressCurve draws one attempt's curve into s.curves: Segments+1
// cumulative progress values at the stretch boundaries. It returns the
// attempt's curve field (offset + 1; 0 = none).
func (s *sim) progressCurve(j *jobState) int32 {
	pn := j.spec.ProgressNoise
	if !pn.on() {
		return 0
	}
	if j.noise == nil {
		j.noise = rand.New(rand.NewPCG(s.cfg.Seed^0x7072676e6f697365, uint64(j.index)*0x9e3779b97f4a7c15+2))
	}
	off := len(s.curves)
	s.curves = append(s.curves, 0)
	sum := 0.0
	for range pn.Segments {
		sum += math.Exp(pn.Sigma * j.noise.NormFloat64())
		s.curves = append(s.curves, sum)
	}
	for i := off + 1; i < len(s.curves); i++ {
		s.curves[i] /= sum
	}
	s.curves[len(s.curves)-1] = 1
	return int32(off + 1)
}

// startedFraction is the fraction of its work an attempt reports done: a
// copy of a job with a CopyStartup reports none of its first CopyStartup of
// work (at most all of it), then the rest of its work as the whole (a clone
// started with its original likewise with CloneStartup); every other
// attempt its fraction done.
func (s *sim) startedFraction(a *attempt) float64 {
	f := a.done / a.work
	if !a.speculative {
		return f
	}
	d := float64(s.jobs[a.job].spec.CopyStartup)
	if a.clone {
		d = float64(s.jobs[a.job].spec.CloneStartup)
	}
	switch {
	case d <= 0:
		return f
	case a.work <= d:
		return 0 // all start-up: nothing to report until it finishes
	}
	return max(a.done-d, 0) / (a.work - d)
}

// reported is the progress an attempt reports when a fraction f of its
// work is done: f itself, or f through the attempt's noise curve.
func (s *sim) reported(a *attempt, f float64) float64 {
	if a.curve == 0 {
		return f
	}
	k := s.jobs[a.job].spec.ProgressNoise.Segments
	c := s.curves[a.curve-1 : int(a.curve)+k]
	x := f * float64(k)
	i := min(int(x), k-1)
	return c[i] + (x-float64(i))*(c[i+1]-c[i])
}
