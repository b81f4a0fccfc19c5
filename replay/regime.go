package replay

import (
	"fmt"
	"io"

	"github.com/specbridge/specbridge/speculators/xulau"
)

// Regime is where a workload's load stands against the cutoff load
// lambda_U of Xu and Lau §III ("Optimization for Speculative Execution in
// Big Data Processing Clusters"): below it cloning (sca, dolly) can lower
// the mean flowtime; above it cloning overloads the cluster and only
// straggler detection (sda, ese) helps. It is computed for workloads whose
// jobs carry the a-priori Pareto task model of that paper (a scenario's
// task_mean_s and tail_index, as the bundled xulau scenarios do).
//
// The report warns rather than making sca switch: sca is Algorithm 1 as
// the paper states it, and the paper's own answer above lambda_U is a
// different policy (ESE, §VI), which the comparison already runs beside it.
type Regime struct {
	// Load is omega = lambda E[m] E[s] / M, the offered load: lambda jobs
	// per second (submissions over the submit span), E[m] the mean tasks
	// per job, E[s] the jobs' mean a-priori task time, M the containers.
	Load float64 `json:"load"`
	// CutoffLoad is omega_U (eqs. (1)-(4), Theorem 1), TailIndex the
	// jobs' mean tail index it was computed for.
	CutoffLoad float64 `json:"cutoff_load"`
	TailIndex  float64 `json:"tail_index"`
	// ArrivalRate is lambda and CutoffRate lambda_U (eq. (5)), jobs per
	// second.
	ArrivalRate float64 `json:"jobs_per_s"`
	CutoffRate  float64 `json:"cutoff_jobs_per_s"`
	// Cloning says whether cloning is inside its regime (Load < CutoffLoad).
	Cloning bool `json:"cloning_in_regime"`
}

// RegimeOf is w's Regime, nil when its jobs carry no a-priori Pareto model
// (TaskMillis and TailIndex > 1 on every job), there are fewer than two
// submit times to rate, or the cluster has no containers.
func RegimeOf(w *Workload) *Regime {
	n := len(w.Jobs)
	if n < 2 {
		return nil
	}
	machines := 0
	for _, nd := range w.Config.Nodes {
		machines += nd.Slots + nd.MapSlots + nd.ReduceSlots
	}
	first, last := w.Jobs[0].Submit, w.Jobs[0].Submit
	var tasks, taskMs, alpha float64
	for i := range w.Jobs {
		j := &w.Jobs[i]
		if !(j.TaskMillis > 0) || !(j.TailIndex > 1) {
			return nil
		}
		first, last = min(first, j.Submit), max(last, j.Submit)
		m, r := j.TaskCounts()
		tasks += float64(m + r)
		taskMs += j.TaskMillis
		alpha += j.TailIndex
	}
	if machines <= 0 || last <= first {
		return nil
	}
	meanTasks, meanTaskS, a := tasks/float64(n), taskMs/float64(n)/1000, alpha/float64(n)
	lambda := float64(n-1) / (float64(last-first) / 1000)
	r := &Regime{TailIndex: a, ArrivalRate: lambda, CutoffLoad: xulau.CutoffOmega(a),
		Load: lambda * meanTasks * meanTaskS / float64(machines)}
	r.CutoffRate = xulau.CutoffLambda(a, machines, meanTasks, meanTaskS)
	r.Cloning = r.Load < r.CutoffLoad
	return r
}

// writeRegime prints the regime line of the text report (nothing for nil).
func writeRegime(w io.Writer, r *Regime) {
	if r == nil {
		return
	}
	fmt.Fprintf(w, "\nXu & Lau regime (§III): offered load %.3f, cutoff %.3f at tail index %.2g (%.3g jobs/s against lambda_U %.3g jobs/s)",
		r.Load, r.CutoffLoad, r.TailIndex, r.ArrivalRate, r.CutoffRate)
	if r.Cloning {
		fmt.Fprintln(w, ": lightly loaded, cloning (sca, dolly) is in its regime")
		return
	}
	fmt.Fprintln(w, ": heavily loaded, cloning (sca, dolly) is outside its regime; the paper uses straggler detection (sda, ese) here")
}
