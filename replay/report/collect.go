// Package report turns a replay into what an operator reads: one
// self-contained HTML page (input and cluster, the policy table, charts, a
// verdict in plain words) and the job-time CDF alone as SVG or PNG.
//
// Charts are static SVG drawn by gonum/plot (the project's plotting
// library), embedded in the page as data: URIs. That keeps the page one file
// that opens offline, with no JavaScript and nothing fetched, renders the same
// in every browser and in a PNG export, and costs no vendored JS library to
// keep up to date. The price is no hover or zoom; the per-job CSV (replay
// --jobs) is the way to dig further.
//
// It reads replay results and simulations as Simulate hands them over
// (replay.Options.Observe); it must not run simulations itself.
package report

import (
	"fmt"
	"math"
	"sort"

	"github.com/specbridge/specbridge/replay"
	"github.com/specbridge/specbridge/sim"
)

// Collector gathers what the report needs from every simulation of one
// input. Add it as replay.Options.Observe (through Observe).
type Collector struct {
	Input, Format string
	Seed          uint64
	Runs          int
	// Provenance, when set, opens the page: what was run.
	Provenance *replay.Provenance
	policies   []string
	byPolicy   map[string]*policyData
	cluster    clusterInfo
	groups     []string
}

type policyData struct {
	times   []float64            // finished jobs' times, every run
	groups  map[string][]float64 // per group, every run
	runs    []replay.Result      // each run's own figures
	running []sim.RunningSample  // the first run's series
}

type clusterInfo struct {
	Nodes, Containers int
	Scheduler         string
	JobOrder          string
	Jobs, Tasks       int
}

// NewCollector starts a report for input (read as format) replayed with
// the given policies, seeds seed..seed+runs-1.
func NewCollector(input, format string, policies []string, seed uint64, runs int) *Collector {
	c := &Collector{Input: input, Format: format, Seed: seed, Runs: runs, policies: policies, byPolicy: map[string]*policyData{}}
	for _, p := range policies {
		c.byPolicy[p] = &policyData{groups: map[string][]float64{}}
	}
	return c
}

// Observe records one simulation.
func (c *Collector) Observe(r *replay.Run) error {
	d, ok := c.byPolicy[r.Policy]
	if !ok {
		return fmt.Errorf("report: simulation of policy %q, which the report does not list", r.Policy)
	}
	if c.cluster.Nodes == 0 {
		w := r.Workload
		c.cluster.Nodes = len(w.Config.Nodes)
		for _, n := range w.Config.Nodes {
			c.cluster.Containers += n.Slots + n.MapSlots + n.ReduceSlots
		}
		c.cluster.Scheduler = w.Config.Scheduler
		if c.cluster.Scheduler == "" {
			c.cluster.Scheduler = "fifo"
		}
		c.cluster.JobOrder = r.JobOrder.String()
		c.cluster.Jobs = len(w.Jobs)
		seen := map[string]bool{}
		for i, j := range w.Jobs {
			maps, reduces := j.TaskCounts()
			c.cluster.Tasks += maps + reduces
			if g := w.Groups[i]; !seen[g] {
				seen[g] = true
				c.groups = append(c.groups, g)
			}
		}
	}
	for i := range r.Sim.Jobs {
		j := &r.Sim.Jobs[i]
		if j.Finish < 0 {
			continue
		}
		// The table's and the CSV's measure: finish - submit plus the
		// recorded AM start-up a replayed history adds (replay.JobTime).
		t := float64(replay.JobTime(r.Workload, r.Sim, i)) / 1000
		d.times = append(d.times, t)
		g := r.Workload.Groups[i]
		d.groups[g] = append(d.groups[g], t)
	}
	d.runs = append(d.runs, r.Summary)
	if d.running == nil {
		d.running = r.Sim.Running
	}
	return nil
}

// metric is the figure the verdict ranks policies by.
type metric struct {
	name   string // "mean job time", "accuracy at the deadline", "mean time to the error bound"
	unit   string // "s" or ""
	higher bool   // higher is better
	of     func(r *replay.Result) (float64, bool)
}

// chooseMetric ranks by mean job time, unless every job is deadline-bound
// (then accuracy, GRASS §6.1's measure) or error-bound (time to bound).
func chooseMetric(results []replay.Result) metric {
	if len(results) > 0 {
		r := &results[0]
		if r.Accuracy != nil && r.DeadlineJobs == r.Jobs {
			return metric{name: "accuracy at the deadline", higher: true, of: func(r *replay.Result) (float64, bool) {
				if r.Accuracy == nil {
					return 0, false
				}
				return *r.Accuracy, true
			}}
		}
		if r.MeanTimeToBoundS != nil && r.ErrorBoundJobs == r.Jobs {
			return metric{name: "mean time to the error bound", unit: "s", of: func(r *replay.Result) (float64, bool) {
				if r.MeanTimeToBoundS == nil {
					return 0, false
				}
				return *r.MeanTimeToBoundS, true
			}}
		}
	}
	return metric{name: "mean job time", unit: "s", of: func(r *replay.Result) (float64, bool) { return r.MeanJobS, r.Jobs > 0 }}
}

// better reports whether a beats b under m.
func (m metric) better(a, b float64) bool {
	if m.higher {
		return a > b
	}
	return a < b
}

// spread is a policy's metric over runs: min, max and sample standard
// deviation.
type spread struct{ Min, Max, SD float64 }

func spreadOf(xs []float64) spread {
	if len(xs) == 0 {
		return spread{}
	}
	s := spread{Min: math.Inf(1), Max: math.Inf(-1)}
	mean := 0.0
	for _, x := range xs {
		s.Min, s.Max = math.Min(s.Min, x), math.Max(s.Max, x)
		mean += x / float64(len(xs))
	}
	if len(xs) > 1 {
		v := 0.0
		for _, x := range xs {
			v += (x - mean) * (x - mean)
		}
		s.SD = math.Sqrt(v / float64(len(xs)-1))
	}
	return s
}

// perRun is policy p's metric in each run, in run order.
func (c *Collector) perRun(p string, m metric) []float64 {
	var out []float64
	for i := range c.byPolicy[p].runs {
		if v, ok := m.of(&c.byPolicy[p].runs[i]); ok {
			out = append(out, v)
		}
	}
	return out
}

// cdf is the empirical CDF of xs as (x, share of xs <= x) points.
func cdf(xs []float64) (x, y []float64) {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	for i, v := range s {
		if i+1 < len(s) && s[i+1] == v {
			continue
		}
		x = append(x, v)
		y = append(y, float64(i+1)/float64(len(s)))
	}
	return x, y
}
