package scenario

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Job bins of GRASS §6.1, by a job's number of tasks: "small" (< 50 in the
// paper, which leaves 50 itself out; we count it as small), "medium"
// (51-500) and "large" (> 500).
const (
	BinSmall  = "small"
	BinMedium = "medium"
	BinLarge  = "large"
)

// Bins lists the bins in size order.
var Bins = []string{BinSmall, BinMedium, BinLarge}

// Bin returns the GRASS job bin of a job with the given number of tasks.
func Bin(tasks int) string {
	switch {
	case tasks <= 50:
		return BinSmall
	case tasks <= 500:
		return BinMedium
	}
	return BinLarge
}

// validateApprox checks the approximation fields every group may carry.
func (g *JobGroup) validateApprox() error {
	switch g.Order {
	case "", "index", "sjf", "ljf":
	default:
		return lineErr(g.Line, "job group %q: order %q is not index, sjf or ljf", g.Name, g.Order)
	}
	if g.DeadlineS != nil && g.DeadlineFactor != nil {
		return lineErr(g.Line, "job group %q: give deadline_s or deadline_factor, not both", g.Name)
	}
	if g.ProgressSegments < 0 || g.ProgressSegments > 1000 || !(g.ProgressSigma >= 0) || math.IsInf(g.ProgressSigma, 1) ||
		(g.ProgressSegments > 0) != (g.ProgressSigma > 0) {
		return lineErr(g.Line, "job group %q: progress_segments %d and progress_sigma %g: give both (segments 1..1000, sigma a finite number > 0) or neither",
			g.Name, g.ProgressSegments, g.ProgressSigma)
	}
	if g.IdealSlots < 0 {
		return lineErr(g.Line, "job group %q: ideal_slots %d is negative", g.Name, g.IdealSlots)
	}
	switch g.DeadlineFrom {
	case "", DeadlineFromWaves, DeadlineFromDryRun:
	default:
		return lineErr(g.Line, "job group %q: deadline_from %q is not %s or %s", g.Name, g.DeadlineFrom, DeadlineFromWaves, DeadlineFromDryRun)
	}
	if g.DeadlineFrom != "" && g.DeadlineFactor == nil {
		return lineErr(g.Line, "job group %q: deadline_from needs deadline_factor", g.Name)
	}
	if g.DeadlineFrom == DeadlineFromDryRun && g.IdealSlots > 0 {
		return lineErr(g.Line, "job group %q: ideal_slots applies to deadline_from %s, not %s", g.Name, DeadlineFromWaves, DeadlineFromDryRun)
	}
	if g.DeadlineFactor != nil {
		if err := g.DeadlineFactor.validate(); err != nil {
			return err
		}
	}
	return nil
}

// clusterSlots returns the cluster's containers for maps and for reduces
// (the same number when slots are shared).
func (s *Scenario) clusterSlots() [2]int {
	var out [2]int
	for _, g := range s.Cluster.Nodes {
		if g.Slots > 0 {
			out[0] += g.Count * g.Slots
			out[1] += g.Count * g.Slots
			continue
		}
		out[0] += g.Count * g.MapSlots
		out[1] += g.Count * g.ReduceSlots
	}
	return out
}

// How a deadline_factor's ideal duration is found (JobGroup.DeadlineFrom).
//
// GRASS §6.1: "we obtain the ideal duration of a job in the trace by
// substituting the duration of each of its task by the median task duration
// in the job ... We set the deadline to be an additional factor (randomly
// between 2% to 20%) on top of this ideal duration." In the trace a job ran
// on its share of a busy cluster, so its ideal duration is that run with
// every task at its median: as many waves as its share gave it.
//
//   - DeadlineFromWaves (the default) is IdealDuration: the job alone, in
//     waves of IdealSlots (default every slot of the cluster). Cheap and
//     self-contained, but a job sharing the cluster gets far fewer slots
//     than that, so its deadline ignores its share: a job of 40 tasks on a
//     50-slot cluster is one wave of its median, whatever else runs.
//   - DeadlineFromDryRun simulates the whole workload once per seed, same
//     cluster, arrivals and scheduler, every task of a job at its job's
//     median (of maps, and of reduces), no speculation, no bounds and no
//     faults, and takes each job's duration there (submit to finish) as its
//     ideal duration. That is §6.1's substitution applied to the schedule
//     the job actually shares. The simulation is the caller's
//     (replay.FromScenario); Materialize only draws the factor.
const (
	DeadlineFromWaves  = "waves"
	DeadlineFromDryRun = "dry-run"
)

// SetIdeal sets a deadline_from dry-run job's ideal duration (seconds, its
// duration in the dry run) and its deadline, ideal x the factor drawn at
// Materialize (at least 1 ms). A job without a deadline factor is left
// alone.
func (j *Job) SetIdeal(idealS float64) {
	if j.DeadlineFactor == 0 {
		return
	}
	j.IdealS = idealS
	j.DeadlineS = math.Max(idealS*j.DeadlineFactor, 0.001)
}

// MedianWorkS is the median work (seconds) of tasks: the middle one, or
// the mean of the two middle ones; 0 for none.
func MedianWorkS(tasks []Task) float64 {
	if len(tasks) == 0 {
		return 0
	}
	works := make([]float64, len(tasks))
	for i, t := range tasks {
		works[i] = t.WorkS
	}
	sort.Float64s(works)
	median := works[len(works)/2]
	if len(works)%2 == 0 {
		median = (works[len(works)/2-1] + works[len(works)/2]) / 2
	}
	return median
}

// IdealDuration is GRASS §6.1's ideal duration of a job: every task takes
// the median duration of its job's tasks of that type, and the job runs its
// maps and then its reduces in waves of slots[0] maps and slots[1] reduces:
// ceil(maps/slots) x median map + ceil(reduces/slots) x median reduce. The
// paper derives it from the trace's own schedule, which a scenario does
// not have; the waves on the job's containers are our stand-in.
func IdealDuration(j *Job, slots [2]int) float64 {
	ideal := 0.0
	for ty, tasks := range [2][]Task{j.Maps, j.Reduces} {
		if len(tasks) == 0 {
			continue
		}
		s := max(slots[ty], 1)
		ideal += math.Ceil(float64(len(tasks))/float64(s)) * MedianWorkS(tasks)
	}
	return ideal
}

// bound sets a materialized job's deadline factor, order, enforcement and
// progress noise.
// It draws from r only when the group has a deadline factor, so scenarios
// without one materialize as before.
func (g *JobGroup) bound(j *Job, slots [2]int, r *rand.Rand) {
	j.Order = g.Order
	j.EnforceBounds = g.EnforceBounds == nil || *g.EnforceBounds
	j.ProgressSegments, j.ProgressSigma = g.ProgressSegments, g.ProgressSigma
	if g.DeadlineFactor == nil {
		return
	}
	j.DeadlineFactor, j.DeadlineFrom = g.DeadlineFactor.Sample(r), g.DeadlineFrom
	if j.DeadlineFrom == "" {
		j.DeadlineFrom = DeadlineFromWaves
	}
	if j.DeadlineFrom == DeadlineFromDryRun {
		return // SetIdeal, after the caller's dry run
	}
	if g.IdealSlots > 0 {
		slots = [2]int{g.IdealSlots, g.IdealSlots}
	}
	j.IdealS = IdealDuration(j, slots)
	j.DeadlineS = math.Max(j.IdealS*j.DeadlineFactor, 0.001)
}

// DryRunDeadlines reports whether a job group's deadlines come from a dry
// run of the whole workload (DeadlineFromDryRun).
func (s *Scenario) DryRunDeadlines() bool {
	for i := range s.Workload.Jobs {
		if g := &s.Workload.Jobs[i]; g.DeadlineFactor != nil && g.DeadlineFrom == DeadlineFromDryRun {
			return true
		}
	}
	return false
}
