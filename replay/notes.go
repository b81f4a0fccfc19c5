package replay

import (
	"fmt"
	"math"
	"strings"

	"github.com/specbridge/specbridge/speculators"
)

// workloadFacts are what a policy's note needs to know of a workload: what
// some policies need before they act at all.
type workloadFacts struct {
	jobs, deadlineJobs int
	nodeFailures       int   // nodes that crash or hang (an episode of +Inf or Crash, at a time or at a job's progress)
	tasks              []int // each job's task count
}

func factsOf(w *Workload) workloadFacts {
	f := workloadFacts{jobs: len(w.Jobs)}
	for i := range w.Jobs {
		if w.Jobs[i].Deadline > 0 {
			f.deadlineJobs++
		}
		m, r := w.Jobs[i].TaskCounts()
		f.tasks = append(f.tasks, m+r)
	}
	for _, n := range w.Config.Nodes {
		for _, e := range n.Episodes {
			if e.Crash || math.IsInf(e.Factor, 1) {
				f.nodeFailures++
				break
			}
		}
	}
	// A fault at a job's progress (a scenario's at_map_progress or
	// at_reduce_progress) strikes a node too, once the job gets there.
	for _, t := range w.Config.Triggers {
		if t.Episode.Crash || math.IsInf(t.Episode.Factor, 1) {
			f.nodeFailures++
		}
	}
	return f
}

// needNote says why a policy whose acting depends on the input could not
// act on this one, or "" when it could. Choice: the rules live here, beside
// the figures they explain, as a table of the policies whose papers make
// them act on something an input may lack (a deadline, a node failure, a
// small job, idle machines); a policy not listed gets only the generic
// notes of policyNotes.
func needNote(policy string, f workloadFacts, params speculators.Params) string {
	switch policy {
	case "srquant", "laser":
		if f.deadlineJobs == 0 {
			return "no job has a deadline: it speculates to raise the probability of completion before the deadline (PoCD, SRQuant/LASER §IV), so without one it never acts; give jobs a deadline_s"
		}
	case "farms", "tws":
		if f.nodeFailures == 0 {
			return "no node failed (crashed or hung): its own rule acts on node failures (FARMS §3.2-3.3), so it ran as its straggler policy alone; add a faults: section to compare it"
		}
	case "dolly":
		small := params.Int("small-job-tasks")
		n := 0
		for _, t := range f.tasks {
			if int64(t) <= small {
				n++
			}
		}
		if n*10 < f.jobs { // under a tenth of the jobs
			return fmt.Sprintf("no small jobs to speak of: it clones only jobs of at most %d tasks (small-job-tasks), %d of %d jobs here, and does not speculate on stragglers", small, n, f.jobs)
		}
	}
	return ""
}

// policyNotes adds each result's note: a needNote, else the load or the
// figures that show a policy did not act (no copy launched; the same
// figures as another policy; the cloning policies at none's figures, their
// clones needing idle machines this load does not leave). first is one
// run's workload, for its facts; params resolves a policy's parameters.
func policyNotes(out []Result, f workloadFacts, params func(string) speculators.Params) {
	noneMean := -1.0
	for i := range out {
		if out[i].Speculator == "none" {
			noneMean = out[i].MeanJobS
		}
	}
	for i := range out {
		r := &out[i]
		if r.Speculator == "none" {
			continue
		}
		var why []string
		if n := needNote(r.Speculator, f, params(r.Speculator)); n != "" {
			why = append(why, n)
		}
		if (r.Speculator == "sca" || r.Speculator == "dolly") && len(why) == 0 && noneMean > 0 && math.Abs(r.MeanJobS-noneMean) <= 0.1*noneMean {
			why = append(why, "load above the cloning regime: it clones at launch only into idle machines (a clone budget, or idle machines exceeding demand) and this load leaves few, so most tasks ran alone, with no straggler speculation after launch")
		}
		if r.SpeculativeAttempts == 0 {
			why = append(why, "it launched no speculative copy")
		}
		for j := 0; j < i; j++ {
			if out[j].Figures == r.Figures && out[j].Speculator != r.Speculator {
				why = append(why, "its figures are exactly "+out[j].Speculator+"'s")
				break
			}
		}
		if len(why) > 0 {
			r.Note = strings.Join(why, "; ")
		}
	}
}
