package sim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/specbridge/specbridge/speculators"
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

// startedFraction is the fraction of its work an attempt reports done: an
// attempt with a start-up (startupWork) reports nothing for that much of its
// work (it is silent, startingUp) and then the rest of its work as the
// whole; every other attempt its fraction done.
//
// Live, an attempt's container is allocated and its JVM and task set up
// before the task sends its first status report: Hadoop's estimators have
// no estimate of it until then, and LATE's rate for it is 0. A copy's
// start-up is the job's CopyStartup (a clone's CloneStartup); an original's
// or a retry's, in a history replay, is its recorded attempt's
// (ScriptedAttempt.Startup, from the history's progress splits), a share of
// its work so that it scales with the node it lands on. Silent rather than
// reporting 0: a report of progress 0 is an estimate for Hadoop's
// speculator (it copies an attempt still starting), where live there is
// none; LATE reads a rate of 0 either way.
func (s *sim) startedFraction(a *attempt) float64 {
	f := a.done / a.work
	if !a.speculative && !a.startup {
		return f
	}
	d := s.startupWork(a)
	switch {
	case d <= 0:
		return f
	case a.work <= d:
		return 0 // all start-up: nothing to report until it finishes
	}
	return max(a.done-d, 0) / (a.work - d)
}

// startupWork is how much of attempt a's work is its start-up (see
// startedFraction): 0 for an attempt that reports from its start.
func (s *sim) startupWork(a *attempt) float64 {
	switch {
	case a.speculative && a.clone:
		return float64(s.jobs[a.job].spec.CloneStartup)
	case a.speculative:
		return float64(s.jobs[a.job].spec.CopyStartup)
	case a.clone: // an original started with clones (inWave)
		x := float64(s.jobs[a.job].spec.CloneExtra)
		return x + s.scriptedStartup(&s.jobs[a.job], a.ty, a.task, a.n)*(a.work-x)
	case a.startup:
		return s.scriptedStartup(&s.jobs[a.job], a.ty, a.task, a.n) * a.work
	}
	return 0
}

// startingUp reports whether attempt a is still in its start-up at now: it
// sends no status report then (report).
func (s *sim) startingUp(a *attempt) bool {
	d := max(s.startupWork(a), s.silentWork(a))
	if d <= 0 {
		return false
	}
	s.advance(a)
	return a.done < d
}

// silentWork is how much of original or retry a's work passes before its
// first status report (ScriptedAttempt.Silent, a share of its work as
// Startup is; after a clone burst's extra): 0 for a copy, whose silence is
// its CopyStartup, and for an attempt without a script.
func (s *sim) silentWork(a *attempt) float64 {
	if a.speculative || !a.startup {
		return 0
	}
	share := s.scriptedShare(&s.jobs[a.job], a.ty, a.task, a.n, func(sa *ScriptedAttempt) speculators.Time { return sa.Silent })
	if share <= 0 {
		return 0
	}
	if a.clone {
		x := float64(s.jobs[a.job].spec.CloneExtra)
		return x + share*(a.work-x)
	}
	return share * a.work
}

// scriptedStartup is the share of its work that attempt n of the task,
// launched as an original or a retry, spends starting up: its scripted
// attempt's Startup over its Work (both recorded times, so the share holds
// on any node); 0 when it replays no scripted attempt or the script has no
// Startup.
func (s *sim) scriptedStartup(j *jobState, ty speculators.TaskType, ti, n int32) float64 {
	return s.scriptedShare(j, ty, ti, n, func(sa *ScriptedAttempt) speculators.Time { return sa.Startup })
}

// scriptedShare is the share of its scripted Work that of(attempt n's script
// entry) is; 0 without a script entry or with of 0.
func (s *sim) scriptedShare(j *jobState, ty speculators.TaskType, ti, n int32, of func(*ScriptedAttempt) speculators.Time) float64 {
	if !s.hasScript(j, ty, ti, n) {
		return 0
	}
	script := j.spec.Maps[ti].Script
	if ty == speculators.Reduce {
		script = j.spec.Reduces[ti].Script
	}
	sa := &script[n]
	v := of(sa)
	if v <= 0 {
		return 0
	}
	return min(float64(v)/float64(max(sa.Work, 1)), 1)
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
