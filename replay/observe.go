package replay

import (
	"github.com/specbridge/specbridge/sim"
)

// Run is one simulation: one policy on the workload of one seed. Options.
// Observe receives it; Summary is the figures of this run alone (Simulate's
// results are their means over runs).
type Run struct {
	Policy   string
	Index    int // 0-based run: the seed is Options.Seed + Index
	Seed     uint64
	Workload *Workload
	// JobOrder is the job order the simulation ran under (--job-order, or
	// the input's default).
	JobOrder sim.JobOrder
	Sim      *sim.Result
	Summary  Result
	// Members holds, by job id, the member a per-job policy (auto) applied
	// to each job and why; nil for other policies.
	Members map[string]JobMember
}

// Progress says how far a Simulate call is: simulation Policy (0-based) of
// Policies in run Run of Runs, JobsDone of its Jobs finished at virtual time
// SimS. It is reported when a simulation starts and each time one of its jobs
// finishes.
type Progress struct {
	Run, Runs        int
	Policy, Policies int
	Name             string
	JobsDone, Jobs   int
	SimS             float64
	// AllDone of AllJobs are finished over every simulation of the call
	// (they run in parallel: Options.Parallel).
	AllDone, AllJobs int
}

// Fraction is the share of the whole Simulate call done, in [0, 1],
// counting every simulation as equal work.
func (p Progress) Fraction() float64 {
	if p.AllJobs > 0 {
		return float64(p.AllDone) / float64(p.AllJobs)
	}
	sims := p.Runs * p.Policies
	if sims == 0 {
		return 0
	}
	within := 0.0
	if p.Jobs > 0 {
		within = float64(p.JobsDone) / float64(p.Jobs)
	}
	return (float64(p.Run*p.Policies+p.Policy) + within) / float64(sims)
}
