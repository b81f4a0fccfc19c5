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
		works := make([]float64, len(tasks))
		for i, t := range tasks {
			works[i] = t.WorkS
		}
		sort.Float64s(works)
		median := works[len(works)/2]
		if len(works)%2 == 0 {
			median = (works[len(works)/2-1] + works[len(works)/2]) / 2
		}
		s := max(slots[ty], 1)
		ideal += math.Ceil(float64(len(tasks))/float64(s)) * median
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
	if g.IdealSlots > 0 {
		slots = [2]int{g.IdealSlots, g.IdealSlots}
	}
	j.IdealS = IdealDuration(j, slots)
	j.DeadlineS = math.Max(j.IdealS*g.DeadlineFactor.Sample(r), 0.001)
}
