package replay

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/specbridge/specbridge/sim"
)

// StragglerModel draws stragglers into a workload whose history has no
// attempt times of its own (SWIM traces, and history jobs that cannot be
// calibrated): without it every task of such a job runs its nominal time on
// a uniform cluster, and speculation has nothing to act on (issue 13, item
// 7). It is on by default for such inputs and never touches calibrated
// histories or scenarios.
//
// Where the numbers come from:
//
//   - Task tail. GRASS (Ananthanarayanan et al., NSDI'14), §3.2 and its
//     Figure 3: task durations in the Facebook and Bing production traces
//     have a Pareto tail with shape beta = 1.259, though the whole
//     distribution is not Pareto. So a fraction TailFraction of tasks are
//     stragglers whose duration is multiplied by TailMin x a Pareto(1,
//     TailShape) draw, capped at TailCap; the rest keep the trace's time.
//     The papers give the tail's shape, not its weight: TailFraction (5%)
//     and TailMin (1.5: a task counts as a straggler once 1.5x slower than
//     its phase's typical task) are our choices, and the cap (10x) keeps an
//     infinite-variance draw from dominating a day's mean.
//   - Slow nodes. LATE (Zaharia et al., OSDI'08), §5.2.2: 8 of 100 EC2 VMs
//     were stragglers, slowed by background CPU and disk load enough that
//     the cluster ran 2-4x slower without speculation. So SlowNodeFraction
//     (8%) of the nodes run every task SlowNodeFactor (3x) slower.
//
// Every draw comes from the workload's seed: the same input and seed give
// the same stragglers for every policy.
type StragglerModel struct {
	Off              bool
	TailFraction     float64
	TailShape        float64
	TailMin          float64
	TailCap          float64
	SlowNodeFraction float64
	SlowNodeFactor   float64
}

// DefaultStragglerModel is the model described on StragglerModel.
func DefaultStragglerModel() StragglerModel {
	return StragglerModel{TailFraction: 0.05, TailShape: 1.259, TailMin: 1.5, TailCap: 10,
		SlowNodeFraction: 0.08, SlowNodeFactor: 3}
}

// Validate reports a parameter out of range.
func (m StragglerModel) Validate() error {
	switch {
	case m.Off:
		return nil
	case !(m.TailFraction >= 0 && m.TailFraction <= 1):
		return fmt.Errorf("straggler tail fraction %g: want a fraction in [0, 1]", m.TailFraction)
	case !(m.TailShape > 0):
		return fmt.Errorf("straggler Pareto shape %g: want > 0", m.TailShape)
	case !(m.TailMin >= 1) || !(m.TailCap >= m.TailMin) || m.TailCap > sim.MaxSlowdown:
		return fmt.Errorf("straggler multiplier %g..%g: want 1 <= min <= cap <= %g", m.TailMin, m.TailCap, sim.MaxSlowdown)
	case !(m.SlowNodeFraction >= 0 && m.SlowNodeFraction <= 1):
		return fmt.Errorf("slow node fraction %g: want a fraction in [0, 1]", m.SlowNodeFraction)
	case !(m.SlowNodeFactor >= 1 && m.SlowNodeFactor <= sim.MaxSlowdown):
		return fmt.Errorf("slow node factor %g: want a factor in [1, %g]", m.SlowNodeFactor, sim.MaxSlowdown)
	}
	return nil
}

// String says which model a report used.
func (m StragglerModel) String() string {
	if m.Off {
		return "off"
	}
	return fmt.Sprintf("%g%% of tasks x %g x Pareto(shape %g) capped at %gx (GRASS §3.2); %g%% of nodes %gx slower (LATE §5.2.2)",
		100*m.TailFraction, m.TailMin, m.TailShape, m.TailCap, 100*m.SlowNodeFraction, m.SlowNodeFactor)
}

// stragglerDraws returns co's straggler model, validated, and its random
// stream for a workload seed: rs, and its source pcg, whose state a
// streamed workload keeps at each job's start (swimsource.go).
func stragglerDraws(co ClusterOptions, seed uint64) (model StragglerModel, pcg *rand.PCG, rs *rand.Rand, err error) {
	model = co.stragglers()
	if err := model.Validate(); err != nil {
		return model, nil, nil, err
	}
	if err := co.validateSize(); err != nil {
		return model, nil, nil, err
	}
	pcg = rand.NewPCG(seed, 0x57a661e5)
	return model, pcg, rand.New(pcg), nil
}

// stretch multiplies the work of the job's stragglers.
func (m StragglerModel) stretch(r *rand.Rand, j *sim.Job) {
	for _, ts := range [][]sim.Task{j.Maps, j.Reduces} {
		for i := range ts {
			if r.Float64() >= m.TailFraction {
				continue
			}
			u := r.Float64()
			mult := min(m.TailMin*math.Pow(1-u, -1/m.TailShape), m.TailCap)
			// A stretched task stays within the simulator's longest (a
			// recorded one over it is refused, not cut).
			ts[i].Work = max(int64(math.Round(float64(ts[i].Work)*mult)), 1)
			if ts[i].Work > sim.MaxWork && ts[i].Work/int64(mult) <= sim.MaxWork {
				ts[i].Work = sim.MaxWork
			}
		}
	}
}

// slowNodes slows round(SlowNodeFraction x len(nodes)) nodes, chosen by r.
func (m StragglerModel) slowNodes(r *rand.Rand, nodes []sim.Node) {
	k := int(math.Round(m.SlowNodeFraction * float64(len(nodes))))
	for _, i := range r.Perm(len(nodes))[:k] {
		nodes[i].Slowdown = max(nodes[i].Slowdown, 1) * m.SlowNodeFactor
	}
}
