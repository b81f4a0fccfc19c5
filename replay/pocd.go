package replay

import (
	"fmt"
	"io"
	"math"

	"github.com/specbridge/specbridge/sim"
)

// Deadlines holds the probability of completion before deadline (PoCD) of
// the SRQuant/LASER paper (§IV-A, "the probability that a job completes
// before its deadline", measured in §VI-C as the share of jobs that did),
// inline in Result's JSON. A deadline job (Deadline > 0) meets its deadline
// when every one of its tasks finished by then; a task dropped at the
// deadline (enforce_bounds) did not. Cost beside it is container_s. Nil and
// empty when the workload has no deadline job.
type Deadlines struct {
	// PoCD is the share of deadline jobs that met their deadline, of
	// PoCDJobs jobs (a run's; every run of a workload has the same).
	PoCD     *float64 `json:"pocd,omitempty"`
	PoCDJobs int      `json:"pocd_jobs,omitempty"`
	// PoCDByGroup splits PoCD and cost by job group (one group per
	// deadline in a sweep such as scenarios/laser-pocd.yaml), when the
	// workload has more than one group with deadline jobs.
	PoCDByGroup []GroupDeadlines `json:"pocd_by_group,omitempty"`
}

// GroupDeadlines is one job group's PoCD and cost.
type GroupDeadlines struct {
	Group        string  `json:"group"`
	DeadlineJobs int     `json:"deadline_jobs"`
	PoCD         float64 `json:"pocd"`
	// ContainerS is the group's container-seconds (all its jobs).
	ContainerS float64 `json:"container_s"`
}

// MetDeadline reports whether every task of a job with a deadline finished
// by it; ok is false for a job without a deadline.
func MetDeadline(spec *sim.Job, r *sim.JobResult) (met, ok bool) {
	if spec.Deadline <= 0 {
		return false, false
	}
	for _, tasks := range r.TaskFinish {
		for _, t := range tasks {
			if t < 0 || t > spec.Deadline {
				return false, true
			}
		}
	}
	return true, true
}

// deadlines computes one run's Deadlines.
func deadlines(w *Workload, res *sim.Result) Deadlines {
	var out Deadlines
	index := map[string]int{}
	var groups []GroupDeadlines
	met, jobs := 0, 0
	for i := range res.Jobs {
		r := &res.Jobs[i]
		ok, has := MetDeadline(&w.Jobs[i], r)
		g := w.Groups[i]
		k, seen := index[g]
		if !seen {
			k = len(groups)
			index[g] = k
			groups = append(groups, GroupDeadlines{Group: g})
		}
		groups[k].ContainerS += float64(r.ContainerMs) / 1000
		if !has {
			continue
		}
		jobs++
		groups[k].DeadlineJobs++
		if ok {
			met++
			groups[k].PoCD++
		}
	}
	if jobs == 0 {
		return out
	}
	p := float64(met) / float64(jobs)
	out.PoCD, out.PoCDJobs = &p, jobs
	for _, g := range groups {
		if g.DeadlineJobs > 0 {
			g.PoCD /= float64(g.DeadlineJobs)
			out.PoCDByGroup = append(out.PoCDByGroup, g)
		}
	}
	if len(out.PoCDByGroup) < 2 {
		out.PoCDByGroup = nil
	}
	return out
}

// averageDeadlines is the mean of each figure over runs (groups matched by
// position: every run has the same workload shape).
func averageDeadlines(rs []Result) Deadlines {
	var out Deadlines
	var sum float64
	n := 0
	for _, r := range rs {
		if r.PoCD != nil {
			sum += *r.PoCD
			n++
		}
	}
	if n == 0 {
		return out
	}
	p := sum / float64(n)
	out.PoCD, out.PoCDJobs = &p, rs[0].PoCDJobs
	out.PoCDByGroup = append([]GroupDeadlines(nil), rs[0].PoCDByGroup...)
	for gi := range out.PoCDByGroup {
		g := &out.PoCDByGroup[gi]
		g.PoCD, g.ContainerS = 0, 0
		for _, r := range rs {
			if gi < len(r.PoCDByGroup) {
				g.PoCD += r.PoCDByGroup[gi].PoCD / float64(len(rs))
				g.ContainerS += r.PoCDByGroup[gi].ContainerS / float64(len(rs))
			}
		}
	}
	return out
}

func (d Deadlines) rounded() Deadlines {
	f := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	if d.PoCD != nil {
		p := f(*d.PoCD)
		d.PoCD = &p
	}
	d.PoCDByGroup = append([]GroupDeadlines(nil), d.PoCDByGroup...)
	for i := range d.PoCDByGroup {
		d.PoCDByGroup[i].PoCD = f(d.PoCDByGroup[i].PoCD)
		d.PoCDByGroup[i].ContainerS = f(d.PoCDByGroup[i].ContainerS)
	}
	return d
}

// writeDeadlinesTable prints PoCD and cost per policy, and per group when
// there are several. Its jobs column counts the deadline jobs PoCD is taken
// over (it printed every job of the workload, deadline or not).
func writeDeadlinesTable(w io.Writer, res []Result) error {
	if len(res) == 0 || res[0].PoCD == nil {
		return nil
	}
	tw := newTable(w, "\ndeadline jobs (PoCD: share of jobs whose every task finished by the deadline; cost: container s):",
		"speculator\tdeadline jobs\tPoCD\tcontainer s\t")
	for _, x := range res {
		if x.PoCD != nil {
			fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.0f\t\n", x.Speculator, x.PoCDJobs, *x.PoCD, x.ContainerS)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(res[0].PoCDByGroup) == 0 {
		return nil
	}
	return wideGroups(w, "\nPoCD by job group (container s in brackets):", res,
		func(x *Result) int { return len(x.PoCDByGroup) }, func(x *Result, gi int) string {
			g := x.PoCDByGroup[gi]
			return fmt.Sprintf("%s (%d jobs)", g.Group, g.DeadlineJobs)
		},
		func(x *Result, gi int) string {
			g := x.PoCDByGroup[gi]
			return fmt.Sprintf("%.3f (%.0f)", g.PoCD, g.ContainerS)
		})
}
