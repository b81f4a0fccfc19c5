package replay

import (
	"fmt"
	"hash/fnv"
	"math"
	"sort"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/grass"
	"gonum.org/v1/gonum/stat"
)

// Options control a replay.
type Options struct {
	// Speculators to compare, by registry name.
	Speculators []string
	// Params holds overrides per policy: Params["late"]["speculative-cap"].
	Params map[string]map[string]string
	// Seed is the first seed; Runs seeds seed..seed+Runs-1 are run and
	// their results averaged.
	Seed uint64
	Runs int
	// Cluster applies to recorded workloads (and Scheduler to scenarios).
	Cluster  ClusterOptions
	Registry *speculators.Registry
	// Store keeps what policies learn across jobs (GRASS's samples and
	// t_new prior, §4 and §5.1) beyond this replay (a grassamples.Store
	// under --data-dir). Every simulation (one policy, one seed) starts
	// from the same snapshot: the store as it was when Simulate began (an
	// empty one when Store is nil), so that no policy's results depend on
	// the order of Speculators; within a simulation later jobs learn from
	// earlier ones, and everything learned is also kept in Store.
	Store Store
	// Observe, when set, is given every simulation (one policy, one seed)
	// as it ends, in run-major then policy order: for per-job output and
	// reports (observe.go). An error stops the replay.
	Observe func(*Run) error
	// Progress, when set, is called as jobs finish (observe.go).
	Progress func(Progress)
	// RunningSamples is how many samples of running containers each Run
	// carries (0: none).
	RunningSamples int
	// Parallel is how many simulations run at once; 0 or less means the
	// number of CPUs (runtime.GOMAXPROCS). Output does not depend on it.
	Parallel int
	// TaskMeanFromPrior gives a job without an a-priori mean task time
	// (JobInfo.TaskMillis 0: histories, SWIM jobs, scenario jobs without
	// a law) the run time the simulation's earlier jobs' tasks of its
	// input size took (speculators.PriorTaskMean over what the jobs taught
	// so far), as serve --task-mean-from-prior does live.
	TaskMeanFromPrior bool
}

// Store is where a replay keeps what policies learned for later replays.
type Store interface {
	// Snapshot is a copy of what the store holds now.
	Snapshot() *grass.MemoryStore
	// Keep keeps what an engine handed out.
	Keep(speculators.Learned) error
}

// Figures are a simulation's headline numbers, shared by a replay's Result
// and a sweep's row. The JSON names are a public interface. Clones counts
// the copies a cloning policy started with their original (at launch),
// SpeculativeAttempts the copies started on detection; SpeculativeWins
// counts the wins of both.
type Figures struct {
	Jobs                int     `json:"jobs"`
	Tasks               int     `json:"tasks"`
	MeanJobS            float64 `json:"mean_job_s"`
	P50JobS             float64 `json:"p50_job_s"`
	P95JobS             float64 `json:"p95_job_s"`
	P99JobS             float64 `json:"p99_job_s"`
	MakespanS           float64 `json:"makespan_s"`
	ContainerS          float64 `json:"container_s"`
	Clones              float64 `json:"clones"`
	SpeculativeAttempts float64 `json:"speculative_attempts"`
	SpeculativeWins     float64 `json:"speculative_wins"`
	KilledAttempts      float64 `json:"killed_attempts"`
	WastedContainerS    float64 `json:"wasted_container_s"`
	// UnfinishedJobs counts jobs that did not finish (mean over runs).
	UnfinishedJobs float64 `json:"unfinished_jobs"`
}

// Result is one policy's figures over the workload. The JSON names are a
// public interface: fields may be added, never renamed. With several runs
// each figure is the mean over runs.
type Result struct {
	Speculator string `json:"speculator"`
	// Figures are the job times, makespan and container time (inline in
	// the JSON).
	Figures
	// SimEvents is the simulator's event count (mean over runs).
	SimEvents float64 `json:"sim_events"`
	// Groups splits the figures by job group (scenario job group), when
	// the workload has more than one.
	Groups []GroupResult `json:"groups,omitempty"`
	// Approximation adds accuracy and time to bound (its fields are
	// inline in the JSON).
	Approximation
	// Failures adds wrong speculations and failure re-runs (inline in
	// the JSON; failures.go).
	Failures
	// FailedJobs counts jobs the simulation ended FAILED: a replayed
	// history's task used up its attempts (mean over runs).
	FailedJobs float64 `json:"failed_jobs"`
	// KilledJobs counts replayed KILLED jobs still running when they were
	// killed as recorded (mean over runs).
	KilledJobs float64 `json:"killed_jobs"`
	// Recorded compares the simulated job times with a history's recorded
	// ones (recorded.go); nil for scenarios and SWIM traces.
	Recorded *Fidelity `json:"recorded,omitempty"`
	// StragglerModel names the straggler model drawn into a workload
	// without attempt times of its own (SWIM), "" when none applied.
	StragglerModel string `json:"straggler_model,omitempty"`
	// Cluster says what cluster a recorded workload was re-executed on and
	// where its size came from (cluster.go); "" for scenarios, which
	// describe their own.
	Cluster string `json:"cluster,omitempty"`
	// Deadlines adds PoCD (inline in the JSON; pocd.go).
	Deadlines
	// Note says why the policy could not act on this input, when it
	// could not (notes.go); "" when nothing stood in its way.
	Note string `json:"note,omitempty"`
	// Spread is mean job time's spread over runs (verdict.go); nil with
	// one run.
	Spread *Spread `json:"spread,omitempty"`
	// Members counts jobs by the member a per-job policy (auto) applied
	// to them (first run); nil for other policies.
	Members map[string]int `json:"members,omitempty"`
	// facts are the workload's, for the tables (notes.go); nil when the
	// result was not made by Simulate.
	facts *workloadFacts
}

// GroupResult is a policy's figures for one group of jobs.
type GroupResult struct {
	Group    string  `json:"group"`
	Jobs     int     `json:"jobs"`
	MeanJobS float64 `json:"mean_job_s"`
	P95JobS  float64 `json:"p95_job_s"`
	// Members counts the group's jobs by the member a per-job policy
	// (auto) applied to them (first run); nil for other policies.
	Members map[string]int `json:"members,omitempty"`
}

// WorkloadFunc builds the workload for one seed.
type WorkloadFunc func(seed uint64) (*Workload, error)

// WorkloadOf returns the workload builder for an input.
func WorkloadOf(in *Input, co ClusterOptions) WorkloadFunc {
	if in.Scenario != nil {
		return func(seed uint64) (*Workload, error) { return fromScenario(in.Scenario, seed, co, in.streamScenario) }
	}
	if co.Nodes <= 0 && in.Nodes > 0 {
		co.Nodes, co.NodesFrom = in.Nodes, in.NodesFrom
	}
	if in.swim != nil {
		return func(seed uint64) (*Workload, error) { return in.swim.workload(co, seed) }
	}
	if in.hist != nil {
		return func(seed uint64) (*Workload, error) { return in.hist.workload(co, seed) }
	}
	return func(seed uint64) (*Workload, error) { return FromHistory(in.Jobs, co, seed) }
}

// Simulate runs every policy in opts over the workload for each seed and
// returns one Result per policy, in the order given. Simulations (one
// policy, one seed) run on opts.Parallel goroutines (parallel.go); the
// results, and the order Observe sees them in, do not depend on it.
func Simulate(build WorkloadFunc, opts Options) ([]Result, error) {
	runs := max(opts.Runs, 1)
	per := make([][]Result, len(opts.Speculators))
	var facts workloadFacts
	start := grass.NewMemoryStore()
	if opts.Store != nil {
		start = opts.Store.Snapshot()
	}
	err := runCells(build, opts, runs, start, func(r, i int, w *Workload, res *sim.Result, members map[string]JobMember) error {
		name, seed := opts.Speculators[i], opts.Seed+uint64(r)
		sum := summarize(name, w, res)
		addMembers(&sum, w, res, members)
		per[i] = append(per[i], sum)
		if i == 0 {
			f := factsOf(w)
			if r > 0 { // a node that fails in any run's draw counts
				f.nodeFailures = max(f.nodeFailures, facts.nodeFailures)
			}
			facts = f
		}
		if opts.Observe != nil {
			return opts.Observe(&Run{Policy: name, Index: r, Seed: seed, Workload: w, JobOrder: opts.jobOrder(w), Sim: res, Summary: sum, Members: members})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(per))
	for i := range per {
		out[i] = average(per[i])
		out[i].Spread = spreadOver(per[i])
		out[i].facts = &facts
	}
	policyNotes(out, facts, func(name string) speculators.Params {
		p, _ := opts.Registry.Params(name, opts.Params[name])
		return p
	})
	return out, nil
}

// runOne simulates the workload with every job running policy name; known
// is what earlier jobs taught, this run's own copy: the jobs read it as
// their Prior and what they learn is added to it (and kept in opts.Store).
// jobOrder is the job order the simulations of w run under:
// Cluster.JobOrder when set (--job-order), else the workload's default,
// exact for a scenario and none for a history (YARNPlacement).
func (o Options) jobOrder(w *Workload) sim.JobOrder {
	jo := w.Config.JobOrder
	if o.Cluster.JobOrder.Mode != sim.JobOrderDefault {
		jo = o.Cluster.JobOrder
	}
	if jo.Mode == sim.JobOrderDefault {
		jo.Mode = sim.JobOrderExact
		if w.Config.YARNPlacement {
			jo.Mode = sim.JobOrderNone
		}
	}
	return jo
}

func runOne(w *Workload, name string, opts Options, seed uint64, known *grass.MemoryStore) (*sim.Result, map[string]JobMember, error) {
	// A policy that picks a member per job (auto) names it; the engines
	// of running jobs are held until their job finishes (JobDone), then
	// only the member's name is kept.
	var members map[string]JobMember
	running := map[string]*speculators.Engine{}
	factory := func(info speculators.JobInfo) (*speculators.Engine, error) {
		params, err := w.jobPolicyParams(opts.Registry, info.ID, name, opts.Params[name])
		if err != nil {
			return nil, err
		}
		if opts.TaskMeanFromPrior && info.TaskMillis == 0 {
			if ms, ok := speculators.PriorTaskMean(known, info); ok {
				info.TaskMillis = ms
			}
		}
		e, err := opts.Registry.NewEngineWith(info, name, params, jobSeed(seed, info.ID), known)
		if err == nil {
			if _, ok := e.Policy.(memberNamer); ok {
				running[info.ID] = e
			}
		}
		return e, err
	}
	settle := func(all bool) {
		for id, e := range running {
			if all || e.Job.Finished() {
				if members == nil {
					members = map[string]JobMember{}
				}
				p := e.Policy.(memberNamer)
				members[id] = JobMember{Name: p.Member(), Why: p.Why()}
				delete(running, id)
			}
		}
	}
	cfg := w.Config
	cfg.JobOrder = opts.jobOrder(w)
	done := cfg.JobDone
	cfg.JobDone = func(d, total int, now speculators.Time) {
		if len(running) > 0 {
			settle(false)
		}
		if done != nil {
			done(d, total, now)
		}
	}
	var keepErr error
	cfg.Keep = func(l speculators.Learned) {
		_ = known.Keep(l) // an invalid sample is skipped, as the store would
		if opts.Store != nil && keepErr == nil {
			keepErr = opts.Store.Keep(l)
		}
	}
	res, err := sim.Run(cfg, w.Jobs, factory)
	if err != nil {
		return nil, nil, fmt.Errorf("simulate %s: %w", name, err)
	}
	if keepErr != nil {
		return nil, nil, fmt.Errorf("simulate %s: keep what it learned: %w", name, keepErr)
	}
	settle(true)
	return res, members, nil
}

// memberNamer is a policy that applies one of several members' rules per
// job (speculators/auto): Member names the one it applies, Why says why.
type memberNamer interface {
	Member() string
	Why() string
}

// JobMember is the member a per-job policy (auto) applied to a job when the
// job ended, and the reason it gave for choosing it.
type JobMember struct{ Name, Why string }

// addMembers counts, overall and per job group, the jobs each member of a
// per-job policy (auto) decided; nothing for other policies.
func addMembers(r *Result, w *Workload, res *sim.Result, members map[string]JobMember) {
	if len(members) == 0 {
		return
	}
	group := map[string]int{}
	for gi := range r.Groups {
		group[r.Groups[gi].Group] = gi
	}
	for i := range res.Jobs {
		jm, ok := members[res.Jobs[i].ID]
		if !ok {
			continue
		}
		m := jm.Name
		if r.Members == nil {
			r.Members = map[string]int{}
		}
		r.Members[m]++
		if gi, ok := group[w.Groups[i]]; ok {
			g := &r.Groups[gi]
			if g.Members == nil {
				g.Members = map[string]int{}
			}
			g.Members[m]++
		}
	}
}

// jobSeed gives each job's policy its own stream, fixed by run seed and job.
func jobSeed(seed uint64, job string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(job))
	return seed ^ h.Sum64()
}

func summarize(name string, w *Workload, res *sim.Result) Result {
	r := Result{Speculator: name, Figures: Figures{Jobs: len(res.Jobs), MakespanS: ms(res.Makespan)}, SimEvents: float64(res.Events)}
	var times []float64
	groups := map[string][]float64{}
	var groupOrder []string
	for i := range res.Jobs {
		j := &res.Jobs[i]
		r.Tasks += j.Maps + j.Reduces
		r.ContainerS += float64(j.ContainerMs) / 1000
		r.WastedContainerS += float64(j.WastedContainerMs) / 1000
		r.Clones += float64(j.ClonesLaunched)
		r.SpeculativeAttempts += float64(j.SpeculativeLaunched - j.ClonesLaunched)
		r.SpeculativeWins += float64(j.SpeculativeWon)
		r.KilledAttempts += float64(j.KilledAttempts)
		if j.Failed() {
			r.FailedJobs++
		}
		if j.Killed {
			r.KilledJobs++
		}
		d := jobTime(w, res, i)
		if d < 0 {
			r.UnfinishedJobs++
			continue
		}
		times = append(times, ms(d))
		g := w.Groups[i]
		if _, ok := groups[g]; !ok {
			groupOrder = append(groupOrder, g)
		}
		groups[g] = append(groups[g], ms(d))
	}
	r.MeanJobS, r.P50JobS, r.P95JobS, r.P99JobS = dist(times)
	r.Approximation = approximation(w, res)
	r.Failures = failures(w, res)
	r.Recorded = fidelity(w, res)
	r.StragglerModel = w.Stragglers
	r.Cluster = w.Cluster
	r.Deadlines = deadlines(w, res)
	if len(groupOrder) > 1 {
		for _, g := range groupOrder {
			mean, _, p95, _ := dist(groups[g])
			r.Groups = append(r.Groups, GroupResult{Group: g, Jobs: len(groups[g]), MeanJobS: mean, P95JobS: p95})
		}
	}
	return r
}

func ms(t speculators.Time) float64 { return float64(t) / 1000 }

// dist returns mean, p50, p95 and p99 of xs (linear interpolation between
// order statistics).
func dist(xs []float64) (mean, p50, p95, p99 float64) {
	if len(xs) == 0 {
		return 0, 0, 0, 0
	}
	sort.Float64s(xs)
	q := func(p float64) float64 { return stat.Quantile(p, stat.LinInterp, xs, nil) }
	return stat.Mean(xs, nil), q(0.50), q(0.95), q(0.99)
}

// average is the mean of each figure over runs.
func average(rs []Result) Result {
	if len(rs) == 1 {
		return round(rs[0])
	}
	out := rs[0]
	n := float64(len(rs))
	dst := out.averaged()
	for _, p := range dst {
		*p = 0
	}
	out.Groups = append([]GroupResult(nil), rs[0].Groups...)
	out.Approximation = averageApprox(rs)
	out.Failures = averageFailures(rs)
	out.Recorded = averageFidelity(rs)
	out.Deadlines = averageDeadlines(rs)
	for gi := range out.Groups {
		out.Groups[gi].MeanJobS, out.Groups[gi].P95JobS = 0, 0
	}
	for _, r := range rs {
		src := r.averaged()
		for i := range dst {
			*dst[i] += *src[i] / n
		}
		for gi := range out.Groups {
			if gi < len(r.Groups) {
				out.Groups[gi].MeanJobS += r.Groups[gi].MeanJobS / n
				out.Groups[gi].P95JobS += r.Groups[gi].P95JobS / n
			}
		}
	}
	return round(out)
}

// averaged is every figure of r that is a mean over runs (and rounded):
// the Figures' measured columns, then the result's own counts.
func (r *Result) averaged() []*float64 {
	return append(r.Figures.measured(), &r.SimEvents, &r.FailedJobs, &r.KilledJobs)
}

// round keeps reports readable and byte-stable: 3 decimals.
func round(r Result) Result {
	f := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	for _, p := range r.averaged() {
		*p = f(*p)
	}
	r.Recorded = r.Recorded.rounded()
	for i := range r.Groups {
		r.Groups[i].MeanJobS, r.Groups[i].P95JobS = f(r.Groups[i].MeanJobS), f(r.Groups[i].P95JobS)
	}
	r.Approximation = r.Approximation.rounded()
	r.Failures = r.Failures.rounded()
	r.Deadlines = r.Deadlines.rounded()
	return r
}
