package replay

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/workload/scenario"
)

// Approximation holds the figures of approximation jobs (GRASS §6.1), in
// Result's JSON beside the others. A deadline-bound job (Deadline > 0) is
// measured by its accuracy: the fraction of its input (map) tasks done by
// the deadline. An error-bound job (ErrorBound e > 0, no deadline) by its
// time to bound: from submit until ceil((1-e) x maps) of its maps are done
// (sim.BoundMaps). Both come from sim.JobResult.TaskFinish, so they do not
// depend on when the job was stopped. Exact jobs are measured by job time
// (mean_job_s). Pointers are nil when the workload has no such job.
type Approximation struct {
	// DeadlineJobs counts deadline-bound jobs with maps (per run).
	DeadlineJobs int `json:"deadline_jobs,omitempty"`
	// Accuracy is the mean accuracy of deadline-bound jobs.
	Accuracy *float64 `json:"accuracy,omitempty"`
	// ErrorBoundJobs counts error-bound jobs with maps (per run).
	ErrorBoundJobs int `json:"error_bound_jobs,omitempty"`
	// MeanTimeToBoundS is the mean time to bound of error-bound jobs that
	// reached it; UnreachedBounds counts those that did not (a stalled run).
	MeanTimeToBoundS *float64 `json:"mean_time_to_bound_s,omitempty"`
	UnreachedBounds  float64  `json:"unreached_bounds,omitempty"`
	// Bins splits the figures by GRASS job bin (scenario.Bin, by tasks),
	// when the workload has approximation jobs or jobs in several bins.
	Bins []BinResult `json:"bins,omitempty"`
}

// BinResult is a policy's figures for the jobs of one bin.
type BinResult struct {
	Bin string `json:"bin"`
	// Jobs counts the bin's jobs (per run); MeanJobS is their mean job
	// time (finished jobs).
	Jobs             int      `json:"jobs"`
	MeanJobS         float64  `json:"mean_job_s"`
	DeadlineJobs     int      `json:"deadline_jobs,omitempty"`
	Accuracy         *float64 `json:"accuracy,omitempty"`
	ErrorBoundJobs   int      `json:"error_bound_jobs,omitempty"`
	MeanTimeToBoundS *float64 `json:"mean_time_to_bound_s,omitempty"`
}

// approxJob carries a materialized scenario job's order, enforcement and
// progress noise to the simulator. SJF and LJF sort by input size (sim.OrderByInput), the
// size a scheduler knows before a task runs, not by the task's drawn work,
// which would be an oracle that keeps stragglers out of a deadline job's
// started tasks.
func approxJob(sj *sim.Job, j *scenario.Job) error {
	order, err := sim.ParseTaskOrder(j.Order)
	if err != nil {
		return fmt.Errorf("job %s: %w", j.Name, err)
	}
	sj.Order = order
	sj.OrderKey = sim.OrderByInput
	sj.ProgressNoise = sim.ProgressNoise{Segments: j.ProgressSegments, Sigma: j.ProgressSigma}
	sj.EnforceBounds = j.EnforceBounds
	return nil
}

// Accuracy is the fraction of a job's maps done by its deadline, and false
// for a job without a deadline or maps.
func Accuracy(spec *sim.Job, r *sim.JobResult) (float64, bool) {
	maps := r.TaskFinish[speculators.Map]
	if spec.Deadline <= 0 || len(maps) == 0 {
		return 0, false
	}
	done := 0
	for _, t := range maps {
		if t >= 0 && t <= spec.Deadline {
			done++
		}
	}
	return float64(done) / float64(len(maps)), true
}

// TimeToBound is the time from submit until ceil((1-e) x maps) of an
// error-bound job's maps were done; ok is false for a job without an error
// bound (or with a deadline, or no maps), reached false when it never got
// there.
func TimeToBound(spec *sim.Job, r *sim.JobResult) (t speculators.Time, ok, reached bool) {
	maps := r.TaskFinish[speculators.Map]
	if spec.ErrorBound <= 0 || spec.Deadline > 0 || len(maps) == 0 {
		return 0, false, false
	}
	var done []speculators.Time
	for _, f := range maps {
		if f >= 0 {
			done = append(done, f)
		}
	}
	need := sim.BoundMaps(len(maps), spec.ErrorBound)
	if len(done) < need {
		return 0, true, false
	}
	sort.Slice(done, func(a, b int) bool { return done[a] < done[b] })
	return done[need-1] - r.Submit, true, true
}

// meanOf returns a pointer to the mean of xs, nil when empty.
func meanOf(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	m := s / float64(len(xs))
	return &m
}

// meanOr0 is meanOf's mean, 0 for no values.
func meanOr0(xs []float64) float64 {
	if m := meanOf(xs); m != nil {
		return *m
	}
	return 0
}

// approximation computes one run's Approximation.
func approximation(w *Workload, res *sim.Result) Approximation {
	type acc struct {
		jobs, deadline, errorJobs int
		times, accuracy, toBound  []float64
	}
	var all acc
	bins := map[string]*acc{}
	approx := false
	for i := range res.Jobs {
		r := &res.Jobs[i]
		spec := &w.Jobs[i]
		b := bins[scenario.Bin(r.Maps+r.Reduces)]
		if b == nil {
			b = &acc{}
			bins[scenario.Bin(r.Maps+r.Reduces)] = b
		}
		b.jobs++
		if d := r.Duration(); d >= 0 {
			b.times = append(b.times, ms(d))
		}
		if a, ok := Accuracy(spec, r); ok {
			approx = true
			for _, x := range []*acc{&all, b} {
				x.deadline++
				x.accuracy = append(x.accuracy, a)
			}
		}
		if t, ok, reached := TimeToBound(spec, r); ok {
			approx = true
			for _, x := range []*acc{&all, b} {
				x.errorJobs++
				if reached {
					x.toBound = append(x.toBound, ms(t))
				}
			}
		}
	}
	out := Approximation{DeadlineJobs: all.deadline, Accuracy: meanOf(all.accuracy),
		ErrorBoundJobs: all.errorJobs, MeanTimeToBoundS: meanOf(all.toBound),
		UnreachedBounds: float64(all.errorJobs - len(all.toBound))}
	if !approx && len(bins) < 2 {
		return out
	}
	for _, name := range scenario.Bins {
		b := bins[name]
		if b == nil {
			continue
		}
		out.Bins = append(out.Bins, BinResult{Bin: name, Jobs: b.jobs, MeanJobS: meanOr0(b.times), DeadlineJobs: b.deadline,
			Accuracy: meanOf(b.accuracy), ErrorBoundJobs: b.errorJobs, MeanTimeToBoundS: meanOf(b.toBound)})
	}
	return out
}

// averageApprox is the mean of each figure over runs: counts are rounded
// means, and a mean over jobs is averaged over the runs that have it. Bins
// are matched by name.
func averageApprox(rs []Result) Approximation {
	out := Approximation{}
	var dl, eb, unreached float64
	var accs, tbs []float64
	type binSum struct {
		jobs, deadline, errorJobs float64
		means, accs, tbs          []float64
	}
	sums := map[string]*binSum{}
	for _, r := range rs {
		a := &r.Approximation
		dl += float64(a.DeadlineJobs)
		eb += float64(a.ErrorBoundJobs)
		unreached += a.UnreachedBounds
		if a.Accuracy != nil {
			accs = append(accs, *a.Accuracy)
		}
		if a.MeanTimeToBoundS != nil {
			tbs = append(tbs, *a.MeanTimeToBoundS)
		}
		for _, b := range a.Bins {
			s := sums[b.Bin]
			if s == nil {
				s = &binSum{}
				sums[b.Bin] = s
			}
			s.jobs += float64(b.Jobs)
			s.deadline += float64(b.DeadlineJobs)
			s.errorJobs += float64(b.ErrorBoundJobs)
			if b.Jobs > 0 {
				s.means = append(s.means, b.MeanJobS)
			}
			if b.Accuracy != nil {
				s.accs = append(s.accs, *b.Accuracy)
			}
			if b.MeanTimeToBoundS != nil {
				s.tbs = append(s.tbs, *b.MeanTimeToBoundS)
			}
		}
	}
	n := float64(len(rs))
	count := func(x float64) int { return int(math.Round(x / n)) }
	out.DeadlineJobs, out.ErrorBoundJobs, out.UnreachedBounds = count(dl), count(eb), unreached/n
	out.Accuracy, out.MeanTimeToBoundS = meanOf(accs), meanOf(tbs)
	for _, name := range scenario.Bins {
		s := sums[name]
		if s == nil {
			continue
		}
		out.Bins = append(out.Bins, BinResult{Bin: name, Jobs: count(s.jobs), MeanJobS: meanOr0(s.means), DeadlineJobs: count(s.deadline),
			Accuracy: meanOf(s.accs), ErrorBoundJobs: count(s.errorJobs), MeanTimeToBoundS: meanOf(s.tbs)})
	}
	return out
}

// rounded keeps the figures to 3 decimals (accuracy to 4), as round does.
func (a Approximation) rounded() Approximation {
	f := func(p *float64, scale float64) *float64 {
		if p == nil {
			return nil
		}
		x := math.Round(*p*scale) / scale
		return &x
	}
	a.Accuracy, a.MeanTimeToBoundS = f(a.Accuracy, 1e4), f(a.MeanTimeToBoundS, 1e3)
	a.UnreachedBounds = math.Round(a.UnreachedBounds*1e3) / 1e3
	bins := make([]BinResult, len(a.Bins))
	for i, b := range a.Bins {
		b.MeanJobS = math.Round(b.MeanJobS*1e3) / 1e3
		b.Accuracy, b.MeanTimeToBoundS = f(b.Accuracy, 1e4), f(b.MeanTimeToBoundS, 1e3)
		bins[i] = b
	}
	if len(bins) == 0 {
		bins = nil
	}
	a.Bins = bins
	return a
}

// optional renders a figure for tables and CSV: empty when absent.
func optional(p *float64, prec int) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'f', prec, 64)
}

// writeApproxTable adds the approximation figures to the table: overall,
// then by job bin.
func writeApproxTable(w io.Writer, res []Result) error {
	anyApprox, bins := false, false
	for _, x := range res {
		a := &x.Approximation
		anyApprox = anyApprox || a.Accuracy != nil || a.MeanTimeToBoundS != nil || a.ErrorBoundJobs > 0
		bins = bins || len(a.Bins) > 0
	}
	if anyApprox {
		tw := newTable(w, "\napproximation jobs (accuracy: input tasks done by the deadline; time to bound: until (1-e) of input tasks are done):",
			"speculator\tdeadline jobs\taccuracy\terror-bound jobs\ttime to bound s\tunreached\t")
		for _, x := range res {
			a := &x.Approximation
			fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\t%.1f\t\n", x.Speculator, a.DeadlineJobs, optional(a.Accuracy, 3),
				a.ErrorBoundJobs, optional(a.MeanTimeToBoundS, 1), a.UnreachedBounds)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if !bins {
		return nil
	}
	// One row per policy, one column per bin: "mean s" and, for
	// approximation jobs, "/ accuracy" or "/ time to bound s".
	header := "speculator\t"
	for _, name := range scenario.Bins {
		header += name + "\t"
	}
	tw := newTable(w, "\nmean job time by job bin, s (tasks: small <= 50, medium 51-500, large > 500; then accuracy or time to bound s, if any):", header)
	for _, x := range res {
		row := x.Speculator + "\t"
		for _, name := range scenario.Bins {
			cell := "-"
			for _, b := range x.Approximation.Bins {
				if b.Bin == name {
					cell = fmt.Sprintf("%.1f (%d jobs)", b.MeanJobS, b.Jobs)
					if b.Accuracy != nil {
						cell += " / " + optional(b.Accuracy, 3)
					}
					if b.MeanTimeToBoundS != nil {
						cell += " / " + optional(b.MeanTimeToBoundS, 1) + " s"
					}
				}
			}
			row += cell + "\t"
		}
		fmt.Fprintln(tw, row)
	}
	return tw.Flush()
}

// approxCSVHeader and approxCSVRow are the approximation columns appended
// to the simulate CSV: overall, then per bin (empty when absent).
func approxCSVHeader() []string {
	h := []string{"deadline_jobs", "accuracy", "error_bound_jobs", "mean_time_to_bound_s"}
	for _, b := range scenario.Bins {
		h = append(h, b+"_jobs", b+"_mean_job_s", b+"_accuracy", b+"_mean_time_to_bound_s")
	}
	return h
}

func approxCSVRow(a *Approximation) []string {
	row := []string{strconv.Itoa(a.DeadlineJobs), optional(a.Accuracy, -1), strconv.Itoa(a.ErrorBoundJobs), optional(a.MeanTimeToBoundS, -1)}
	for _, name := range scenario.Bins {
		cells := []string{"", "", "", ""}
		for _, b := range a.Bins {
			if b.Bin == name {
				cells = []string{strconv.Itoa(b.Jobs), f3(b.MeanJobS), optional(b.Accuracy, -1), optional(b.MeanTimeToBoundS, -1)}
			}
		}
		row = append(row, cells...)
	}
	return row
}
