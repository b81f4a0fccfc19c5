package replay

import (
	"fmt"
	"io"
	"math"

	"github.com/specbridge/specbridge/sim"
)

// Failures are the failure-model figures of a policy's run (sums over the
// workload's jobs, mean over runs; inline in the Result JSON).
type Failures struct {
	// WrongSpeculations counts speculative copies not justified by a node
	// failure: no earlier attempt of the task ran on a node that crashed or
	// was declared LOST while it ran (FARMS §4.1, sim.countWrongSpeculations).
	// Copies of stragglers and of tasks on a merely paused node count.
	WrongSpeculations float64 `json:"wrong_speculations"`
	// RerunMaps counts policy Rerun decisions applied; FetchFailureReruns
	// maps the AM ran again after too many fetch failures; ExpiryReruns
	// completed maps run again because their node was declared LOST.
	RerunMaps          float64 `json:"rerun_maps"`
	FetchFailureReruns float64 `json:"fetch_failure_reruns"`
	ExpiryReruns       float64 `json:"expiry_reruns"`
	// FailedAttempts counts attempts that timed out
	// (mapreduce.task.timeout), and in a replayed history the attempts
	// that failed as recorded.
	FailedAttempts float64 `json:"failed_attempts"`
	// ByGroup splits wrong speculations by job group, when the workload
	// has more than one.
	ByGroup []GroupFailures `json:"failures_by_group,omitempty"`
}

// GroupFailures is one job group's wrong speculations and task count.
type GroupFailures struct {
	Group             string  `json:"group"`
	Tasks             int     `json:"tasks"`
	WrongSpeculations float64 `json:"wrong_speculations"`
}

func failures(w *Workload, res *sim.Result) Failures {
	var f Failures
	index := map[string]int{}
	for i := range res.Jobs {
		j := &res.Jobs[i]
		f.WrongSpeculations += float64(j.WrongSpeculations)
		f.RerunMaps += float64(j.RerunMaps)
		f.FetchFailureReruns += float64(j.FetchFailureReruns)
		f.ExpiryReruns += float64(j.ExpiryReruns)
		f.FailedAttempts += float64(j.FailedAttempts)
		g := w.Groups[i]
		k, ok := index[g]
		if !ok {
			k = len(f.ByGroup)
			index[g] = k
			f.ByGroup = append(f.ByGroup, GroupFailures{Group: g})
		}
		f.ByGroup[k].Tasks += j.Maps + j.Reduces
		f.ByGroup[k].WrongSpeculations += float64(j.WrongSpeculations)
	}
	if len(f.ByGroup) < 2 {
		f.ByGroup = nil
	}
	return f
}

// averageFailures is the mean of each figure over runs (groups matched by
// position: every run has the same workload shape).
func averageFailures(rs []Result) Failures {
	n := float64(len(rs))
	out := Failures{ByGroup: append([]GroupFailures(nil), rs[0].ByGroup...)}
	for gi := range out.ByGroup {
		out.ByGroup[gi].WrongSpeculations = 0
	}
	for _, r := range rs {
		out.WrongSpeculations += r.WrongSpeculations / n
		out.RerunMaps += r.RerunMaps / n
		out.FetchFailureReruns += r.FetchFailureReruns / n
		out.ExpiryReruns += r.ExpiryReruns / n
		out.FailedAttempts += r.FailedAttempts / n
		for gi := range out.ByGroup {
			if gi < len(r.ByGroup) {
				out.ByGroup[gi].WrongSpeculations += r.ByGroup[gi].WrongSpeculations / n
			}
		}
	}
	return out
}

func (f Failures) rounded() Failures {
	r := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	f.WrongSpeculations, f.RerunMaps, f.FetchFailureReruns = r(f.WrongSpeculations), r(f.RerunMaps), r(f.FetchFailureReruns)
	f.ExpiryReruns, f.FailedAttempts = r(f.ExpiryReruns), r(f.FailedAttempts)
	f.ByGroup = append([]GroupFailures(nil), f.ByGroup...)
	for i := range f.ByGroup {
		f.ByGroup[i].WrongSpeculations = r(f.ByGroup[i].WrongSpeculations)
	}
	return f
}

// writeFailuresTable adds the failure figures to the table, and wrong
// speculations by job group when there are groups.
func writeFailuresTable(w io.Writer, res []Result) error {
	if len(res) == 0 {
		return nil
	}
	title := "\nfailures (wrong: speculative copies whose task had no attempt on a node that crashed or was LOST):"
	// With no node failure every copy would count as wrong, which reads
	// as a fault of the policy: the column is left out instead.
	failed := res[0].facts == nil || res[0].facts.nodeFailures > 0
	header := "speculator\twrong\twrong/task\trerun maps\tfetch-failure reruns\texpiry reruns\ttimed out\t"
	if !failed {
		title = "\nfailures (no node crashed or hung in this input, so no copy counts as a wrong speculation):"
		header = "speculator\trerun maps\tfetch-failure reruns\texpiry reruns\ttimed out\t"
	}
	tw := newTable(w, title, header)
	for _, x := range res {
		if failed {
			fmt.Fprintf(tw, "%s\t%s\t%.3f\t", x.Speculator, Count(x.WrongSpeculations), x.WrongSpeculations/math.Max(1, float64(x.Tasks)))
		} else {
			fmt.Fprintf(tw, "%s\t", x.Speculator)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", Count(x.RerunMaps), Count(x.FetchFailureReruns), Count(x.ExpiryReruns), Count(x.FailedAttempts))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(res[0].ByGroup) == 0 || !failed {
		return nil
	}
	return wideGroups(w, "\nwrong speculations by job group (per task in brackets):", res,
		func(x *Result) int { return len(x.ByGroup) }, func(x *Result, gi int) string { return x.ByGroup[gi].Group },
		func(x *Result, gi int) string {
			g := x.ByGroup[gi]
			return fmt.Sprintf("%s (%.3f)", Count(g.WrongSpeculations), g.WrongSpeculations/math.Max(1, float64(g.Tasks)))
		})
}

// failuresCSVHeader and failuresCSVRow are the failure columns appended to
// the simulate CSV.
func failuresCSVHeader() []string {
	return []string{"wrong_speculations", "rerun_maps", "fetch_failure_reruns", "expiry_reruns", "failed_attempts"}
}

func failuresCSVRow(f *Failures) []string {
	return []string{f3(f.WrongSpeculations), f3(f.RerunMaps), f3(f.FetchFailureReruns), f3(f.ExpiryReruns), f3(f.FailedAttempts)}
}
