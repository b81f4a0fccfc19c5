package scenario

import (
	"math"
	"math/rand/v2"
)

// Node is one concrete node.
type Node struct {
	Name                         string
	Slots, MapSlots, ReduceSlots int
	Slowdown                     float64 // >= some small positive value; 1 = nominal
	// SlowdownReducesOnly: Slowdown applies to reduces only (NodeGroup.SlowdownAppliesTo).
	SlowdownReducesOnly bool
}

// Task is one concrete task: its work in seconds at nominal speed.
type Task struct {
	WorkS      float64
	InputBytes int64
	// Phases splits a reduce's work over copy, sort, reduce.
	Phases [3]float64
}

// Job is one concrete job.
type Job struct {
	Name  string // <group>-<i>
	Group string
	// Conf is the group's configuration (JobGroup.Conf), shared.
	Conf    map[string]string
	SubmitS float64
	Maps    []Task
	Reduces []Task
	// Resample: speculative copies draw the work of another task of the
	// job rather than repeating the task's own.
	Resample bool
	// Fresh: later attempts draw new work from the job's laws (FreshMap,
	// FreshReduce; copy_work fresh).
	Fresh bool
	// TaskMeanS and TailIndex are the job's a-priori task-time model: the
	// mean of its map work law (times its job_scale draw) and, for a
	// Pareto map_s, its shape; 0 = unknown.
	TaskMeanS, TailIndex float64
	// FreshMap and FreshReduce draw one attempt's work in seconds under
	// Fresh.
	FreshMap, FreshReduce *WorkLaw
	DeadlineS             float64 // relative to submit; 0 = none
	// ErrorBound is the fraction of tasks the job may leave out; 0 = exact.
	ErrorBound float64
	// IdealS is the job's ideal duration (see IdealDuration), set when its
	// deadline is a factor of it.
	IdealS float64
	// DeadlineFactor is the factor drawn from the group's deadline_factor
	// (0 when it has none), and DeadlineFrom how the ideal duration is
	// found. With DeadlineFromDryRun, Materialize leaves IdealS and
	// DeadlineS at 0: the ideal duration needs a simulation of the whole
	// workload, which the simulator's caller runs (replay.FromScenario)
	// and hands back through SetIdeal.
	DeadlineFactor float64
	DeadlineFrom   string
	// Order is the original task order: "", "index", "sjf" or "ljf".
	Order string
	// EnforceBounds: the simulator drops what is left at the bound.
	EnforceBounds bool
	// ProgressSegments and ProgressSigma: the group's progress noise
	// (JobGroup); 0 = off.
	ProgressSegments int
	ProgressSigma    float64
	// redraw, for a job MaterializeLazy let go of the tasks of, draws
	// them again (Tasks).
	redraw *jobDraw
}

// jobDraw draws a job's tasks again: draw, from the random stream's
// state before the job's first task draw.
type jobDraw struct {
	draw  func(*rand.Rand) Job
	state rand.PCG
}

// Tasks returns the job's maps and reduces: its own, or for a job whose
// tasks MaterializeLazy let go, the same tasks drawn again from the
// random state they were first drawn from (safe from several goroutines).
func (j *Job) Tasks() (maps, reduces []Task) {
	if j.redraw == nil {
		return j.Maps, j.Reduces
	}
	state := j.redraw.state
	full := j.redraw.draw(rand.New(&state))
	return full.Maps, full.Reduces
}

// Lazy reports whether the job's tasks were let go (Tasks draws them).
func (j *Job) Lazy() bool { return j.redraw != nil }

// Materialized is a scenario made concrete for one seed.
type Materialized struct {
	Nodes  []Node
	Jobs   []Job
	Faults []Fault
}

// Materialize draws the scenario's nodes and jobs from seed. The same
// scenario and seed always give the same result.
func (s *Scenario) Materialize(seed uint64) *Materialized {
	return s.materialize(seed, nil)
}

// MaterializeLazy is Materialize that lets go of the tasks of every job
// (generated, or sampled from a SWIM trace) for which drop, given
// the job with its tasks once every draw of it is made, returns true: the
// job keeps its other fields, and Tasks draws its tasks again from the
// random state they were first drawn from, so they equal Materialize's.
// The draws are Materialize's, in the same order: what a job's tasks are
// does not depend on which jobs are let go.
func (s *Scenario) MaterializeLazy(seed uint64, drop func(*Job) bool) *Materialized {
	return s.materialize(seed, drop)
}

func (s *Scenario) materialize(seed uint64, drop func(*Job) bool) *Materialized {
	pcg := rand.NewPCG(seed, 0x5ce7a210)
	r := rand.New(pcg)
	m := &Materialized{Faults: s.Faults}
	for _, g := range s.Cluster.Nodes {
		for i := 1; i <= g.Count; i++ {
			sd := g.Slowdown
			if g.SlowdownDist != nil {
				sd = g.SlowdownDist.Sample(r)
			}
			if sd <= 0 {
				sd = 1
			}
			sd = min(sd, maxSlowdown) // a heavy-tailed draw is truncated to the simulator's largest
			m.Nodes = append(m.Nodes, Node{Name: NodeName(g.Name, i), Slots: g.Slots,
				MapSlots: g.MapSlots, ReduceSlots: g.ReduceSlots, Slowdown: sd,
				SlowdownReducesOnly: g.SlowdownAppliesTo == SlowdownReduces})
		}
	}
	slots := s.clusterSlots()
	add := func(j Job, state rand.PCG, redraw func(*rand.Rand) Job) {
		if drop != nil && drop(&j) {
			j.Maps, j.Reduces = nil, nil
			j.redraw = &jobDraw{draw: redraw, state: state}
		}
		m.Jobs = append(m.Jobs, j)
	}
	for gi := range s.Workload.Jobs {
		g := &s.Workload.Jobs[gi]
		if g.SWIM != nil {
			g.swimJobs(pcg, r, slots, add)
			continue
		}
		at := g.AtS
		for i := 1; i <= g.Count; i++ {
			if i > 1 && g.InterArrivalS != nil {
				at += g.InterArrivalS.Sample(r)
			}
			state := *pcg
			j := g.job(i, at, r)
			g.bound(&j, slots, r)
			at := at
			add(j, state, func(r *rand.Rand) Job { return g.job(i, at, r) })
		}
	}
	m.Faults = s.materializeFaults(seed, m.Nodes, m.Jobs)
	return m
}

func (g *JobGroup) job(i int, at float64, r *rand.Rand) Job {
	name := g.Name
	if name == "" {
		name = "job"
	}
	j := Job{Name: NodeName(name, i), Group: name, Conf: g.Conf, SubmitS: at, Resample: g.CopyWork == "resample"}
	inputMiB := g.MapInputMiB
	if inputMiB == 0 {
		inputMiB = 128
	}
	phases := reduceSplit(g.ReducePhases)
	scale := 1.0
	if g.JobScale != nil {
		scale = g.JobScale.Sample(r)
	}
	laws := [2]*WorkLaw{{Dist: g.MapS, Scale: scale, Noise: g.TaskNoise}, {Dist: g.ReduceS, Scale: scale, Noise: g.TaskNoise}}
	draw := func(d *Dist) float64 {
		if d == g.MapS {
			return laws[0].Sample(r)
		}
		return laws[1].Sample(r)
	}
	maps := g.Maps
	if g.MapsDist != nil {
		maps = drawCount(g.MapsDist, r)
	}
	j.TaskMeanS, j.TailIndex = laws[0].Mean(), laws[0].TailIndex()
	if g.CopyWork == "fresh" {
		j.Fresh, j.FreshMap, j.FreshReduce = true, laws[0], laws[1]
	}
	j.Maps = make([]Task, maps)
	for k := range j.Maps {
		j.Maps[k] = Task{WorkS: draw(g.MapS), InputBytes: int64(inputMiB * (1 << 20))}
	}
	j.Reduces = make([]Task, g.Reduces)
	for k := range j.Reduces {
		j.Reduces[k] = Task{WorkS: draw(g.ReduceS), Phases: phases}
	}
	if g.DeadlineS != nil {
		j.DeadlineS = g.DeadlineS.Sample(r)
	}
	if g.ErrorBound != nil {
		j.ErrorBound = math.Min(g.ErrorBound.Sample(r), 0.99)
	}
	return j
}

// reduceSplit is a reduce's work split over copy, sort and reduce: the
// group's reduce_phases where given, a third each otherwise.
func reduceSplit(given []float64) [3]float64 {
	phases := [3]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
	if given != nil {
		copy(phases[:], given)
	}
	return phases
}
