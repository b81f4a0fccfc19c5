package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/specbridge/specbridge/speculators"
)

// Scheduler names accepted in Config.Scheduler.
const (
	// SchedulerFIFO gives free slots to the earliest-submitted running job
	// that has work to place (ties in submit time by input order): Hadoop's
	// FIFO scheduler, and the YARN capacity scheduler with one queue.
	SchedulerFIFO = "fifo"
	// SchedulerFair gives each free slot to the job with the fewest running
	// containers that has work to place (ties by submit order).
	SchedulerFair = "fair"
)

// Limits on what a workload may ask of the simulator, so that a corrupt or
// mistyped input gets an error rather than a run that never ends, times
// that overflow, or an allocation the machine cannot make. Virtual time
// costs CPU: every running attempt reports every Config.Heartbeat, so one
// attempt of MaxWork at the default 3 s is about 860,000 events.
const (
	// MaxWork is the most work a task may have: 30 days, far beyond any
	// MapReduce task (our choice).
	MaxWork speculators.Time = 30 * 24 * 3600 * 1000
	// MaxTime bounds submit times and deadlines: 100 years of virtual ms,
	// far from int64 overflow.
	MaxTime speculators.Time = 100 * 365 * 24 * 3600 * 1000
	// MaxSlowdown is the largest finite slowdown of a node or an episode.
	MaxSlowdown = 1000.0
	// MinTaskSlowdown bounds Task.Slowdown from below (a task measured on
	// a node 100 times faster than nominal).
	MinTaskSlowdown = 0.01
	// MaxSlots bounds the cluster's containers (16.7 million): the
	// simulator keeps state per slot.
	MaxSlots = 1 << 24
)

// Config describes the cluster and the simulator's clocks. Start from
// DefaultConfig; zero durations are rejected rather than silently replaced.
type Config struct {
	Nodes []Node
	// Scheduler is SchedulerFIFO (also when empty) or SchedulerFair.
	Scheduler string
	// Heartbeat is how often every running attempt sends a status report
	// (Hadoop's task progress interval, 3 s).
	Heartbeat time.Duration
	// DecideInterval is the virtual cadence of Engine.Decide (the bridge's
	// --decide-interval, 1 s like Hadoop's speculator).
	DecideInterval time.Duration
	// TaskTimeout is mapreduce.task.timeout (600 s): an attempt that sends
	// no status report for this long fails and its task runs again.
	TaskTimeout time.Duration
	// ReduceSlowstart is mapreduce.job.reduce.slowstart.completedmaps
	// (0.05): original reduce attempts are placed only once this fraction of
	// the job's maps is done (or dropped). 0 places them at once.
	ReduceSlowstart float64
	// Seed seeds the simulator's random sources (CopyWork Resample).
	Seed uint64
	// RecordDecisions keeps every decision in Result.Decisions.
	RecordDecisions bool
	// RunningSamples, when > 0, has Result.Running hold that many samples
	// of the containers in use over the run (series.go).
	RunningSamples int
	// JobDone, when set, is called each time a job finishes, with the
	// finished count, the job count and the virtual time: for progress
	// reports. It must not call back into the run.
	JobDone func(done, total int, now speculators.Time)
	// Horizon, when > 0, stops the run at this virtual time; jobs not done
	// by then are reported with Finish = -1.
	Horizon speculators.Time
	// Placement is PlacementSpread (also when empty) or PlacementPack.
	Placement string
	// Faults configures node crashes, fetch failures, NM expiry and the
	// fault analyzer (faultconfig.go); Triggers are faults that
	// start at a job's map-progress point.
	Faults   FaultConfig
	Triggers []Trigger
	// Keep receives what the jobs' policies learned for later jobs
	// (speculators.Engine.Learned), after the Observe or Decide that
	// produced it; nil drops it. The caller keeps it (replay: the run's
	// grass.MemoryStore, which later engines read as their Prior).
	Keep func(speculators.Learned)
	// Resume makes Speculate decisions with Resume set start their copies
	// at the offset of the attempt they name (resume.go), as the
	// SRQuant/LASER paper's Speculative-Resume does; the engines see it as
	// JobInfo.Resume. Off (the default), copies start from zero as live
	// Hadoop starts them, so that a run that predicts a live cluster gives
	// its policies the inputs and the outcome they get live. Scenario runs
	// (replay.FromScenario) turn it on; history replays leave it off.
	Resume bool
	// YARNPlacement places copies as the MapReduce AM on YARN places them:
	// on a node drawn at random (seeded by Seed) among those with room, the
	// policy's node gate
	// (speculators.NodeGate: LATE's rule that keeps copies off slow nodes)
	// not asked and the nodes of the task's other attempts not avoided.
	// Live, a speculator asks the AM for one more attempt, and the AM's
	// allocator asks the ResourceManager for a container at the split's
	// hosts (any host for a reduce): nothing keeps it off a slow node or
	// its original's node. Off (the default), a copy is placed only where
	// its policy allows and never beside a running attempt of its task, as
	// the papers' systems placed them (LATE on Hadoop's JobTracker, which
	// chose the task a heartbeating node got). On, the policies also run
	// in their live, push form: no free slot is offered to a pull-based
	// policy (speculators.SlotChooser) and no job order is asked of a
	// JobPrioritizer, since live the AM places originals and YARN orders
	// jobs, and only Decide's decisions reach the AM. History replays
	// (replay.FromHistory) turn it on; scenario runs leave it off.
	YARNPlacement bool
	// JobOrder is how the job order of policies that order jobs
	// (speculators.JobPrioritizer) reaches free slots; the zero value is
	// the exact order, or none under YARNPlacement.
	JobOrder JobOrder
	// Trace, when set, is shown every event a job's engine accepted and
	// every Decide with what it returned, in the order they happened: the
	// inputs and outputs of the policy, for a check that a live sidecar fed
	// the same inputs decides the same (the conformance suite). It must not
	// call back into the run or keep the slices it is given.
	Trace Tracer
}

// Tracer watches a run's engines (Config.Trace).
type Tracer interface {
	Event(job string, ev *speculators.Event)
	Decided(job string, now speculators.Time, ds []speculators.Decision)
}

// DefaultConfig returns Hadoop's defaults for the given nodes: FIFO, 3 s
// heartbeats, decisions every 1 s, a 600 s task timeout and a 0.05 reduce
// slow start.
func DefaultConfig(nodes []Node) Config {
	return Config{
		Nodes:           nodes,
		Scheduler:       SchedulerFIFO,
		Heartbeat:       3 * time.Second,
		DecideInterval:  time.Second,
		TaskTimeout:     600 * time.Second,
		ReduceSlowstart: 0.05,
		Faults:          DefaultFaultConfig(),
	}
}

// Node is one worker: a NodeManager (or Hadoop 1 TaskTracker).
type Node struct {
	Name string
	// Slots is the number of YARN containers, shared by maps and reduces.
	Slots int
	// MapSlots and ReduceSlots, if either is > 0, make the node's slots
	// dedicated Hadoop-1 pools (LATE's 2 map + 2 reduce slots per node);
	// Slots must then be 0.
	MapSlots, ReduceSlots int
	// Slowdown multiplies every attempt's duration on the node (1 =
	// nominal, 3 = three times slower); 0 means 1.
	Slowdown float64
	// SlowdownReducesOnly makes Slowdown apply to reduces only (maps run
	// at nominal speed times the episodes): LATE §5.4's sleep job slowed
	// its reducers alone.
	SlowdownReducesOnly bool
	// Episodes are windows with an extra duration multiplier. Overlapping
	// episodes multiply.
	Episodes []Episode
}

// Episode is a window [Start, End) of virtual time during which a node's
// attempts run Factor times slower (co-location contention, a pause).
// Factor = +Inf is a hung node: no progress, no heartbeats, and no new
// containers are placed on it (its NodeManager does not heartbeat to the
// ResourceManager either). End = 0 means until the end of the run.
type Episode struct {
	Start, End speculators.Time
	Factor     float64
	// Crash makes the episode a node crash (faults.go): the node is hung
	// whatever Factor says, and the map outputs stored on it are lost;
	// with End > 0 it comes back at End as a restarted NodeManager, with
	// no containers and no outputs.
	Crash bool
}

// CopyModel says how much work a task's later attempts have.
type CopyModel uint8

const (
	// SameWork: every attempt of a task has the task's own Work.
	SameWork CopyModel = iota
	// Resample: every attempt after the first (speculative copies, retries
	// after a failure or kill, re-runs of lost maps) has the Work of a task
	// of the same type drawn uniformly from the job with the job's seeded
	// source: new attempts' durations come from the job's own empirical
	// distribution (scenarios and SWIM traces; histories use
	// ResampleOthers).
	Resample
	// Fresh: every attempt after the first draws its Work from the job's
	// task-time law (Job.FreshWork), independently of the task's own and
	// of the other tasks': the i.i.d. copies of Xu and Lau §IV ("t_ij,k
	// follows the same distribution as x_ij and all the t_ij,k are i.i.d.").
	Fresh
	// ResampleOthers is Resample with the draw taken from the job's other
	// tasks of the type (the task's own when it is the only one): what
	// replay uses for a recorded history. Choice: a recorded task's own
	// time is the outcome speculation bets against; a history cannot tell
	// an attempt that was slow (its node, its JVM, contention: LATE §2 and
	// §5's causes, which a copy escapes) from an input that is (which a
	// copy repeats), and with the task's own time in the pool a copy of a
	// job's one straggler among n tasks repeats it with chance 1/n. In a
	// job of 4 maps that was a quarter of every copy: live-bench's replay
	// of its 40 s straggler gave late 56 s against 37-45 s live, where the
	// live copies ran a normal map's time (docs/live-bench.md).
	ResampleOthers
)

// WorkSampler draws one attempt's work in ms (Fresh copies).
type WorkSampler interface {
	SampleWork(r *rand.Rand) float64
}

// Job is one MapReduce job of the workload.
type Job struct {
	ID string
	// Submit is when the job arrives (virtual ms); its engine is built then.
	Submit        speculators.Time
	Maps, Reduces []Task
	// Deadline (absolute virtual ms) and ErrorBound go to the engine's
	// JobInfo for approximation policies; 0 = none. The simulator does not
	// enforce them: a policy meets them by dropping tasks.
	Deadline   speculators.Time
	ErrorBound float64
	CopyWork   CopyModel
	// FreshWork draws the work of later attempts of maps and of reduces
	// under CopyWork Fresh (per task type; nil falls back to the task's own
	// work).
	FreshWork [speculators.NumTaskTypes]WorkSampler
	// TaskMillis and TailIndex are the job's a-priori task-time model,
	// passed to the engine in JobInfo (see speculators.JobInfo); 0 =
	// unknown.
	TaskMillis, TailIndex float64
	// Order is the placement order of original attempts (index, SJF or
	// LJF; see TaskOrder).
	Order TaskOrder
	// OrderKey is the size Order sorts by: Work (an oracle, the default)
	// or InputBytes (what a scheduler knows); see OrderKey.
	OrderKey OrderKey
	// ProgressNoise varies each attempt's reported progress rate within
	// the attempt (progress.go); the zero value is off.
	ProgressNoise ProgressNoise
	// CopyStartup is how long a copy (a speculative attempt or a clone)
	// reports no progress after its launch: live, its container's
	// allocation and its JVM's start-up (replay measures it from a
	// history: replay/calibrate.go). Its work already holds that time, so
	// only what it reports changes: nothing for CopyStartup, then the rest
	// of its work (progress.go's startedFraction). 0 (scenarios): a copy
	// reports its progress from its launch on.
	CopyStartup speculators.Time
	// CopyExtra is work a copy (a speculative attempt or a clone past the
	// task's Script) has beyond its draw: live, a copy's JVM starts while
	// the job's other attempts run, and on a cluster whose NodeManagers
	// share CPUs it starts slower than the originals whose times the draws
	// are (replay measures it from histories with copies: nodespeed.go's
	// copy cost). 0 (scenarios): a copy's work is its draw.
	CopyExtra speculators.Time
	// CloneExtra and CloneStartup are CopyExtra and CopyStartup for a
	// clone started with its original (a speculators.Cloner's extra
	// attempts, clone.go), in place of the copy's: live, clones start in
	// the burst of containers the job's launch starts, and on shared CPUs
	// each JVM of the burst starts slower than a copy started alone later
	// (replay measures both: nodespeed.go's copy cost).
	CloneExtra, CloneStartup speculators.Time
	// WaveOriginals makes an original that starts with clones (the same
	// instant's launchCloned) pay CloneExtra too, silent for it like its
	// clones: live, the whole burst of JVMs starts slower, the original's
	// as much as its clones' (the mini cluster's cloned maps started up in
	// a median 20 s, originals and clones alike, against 6-8 s for maps
	// started without clones). Replay sets it for a history whose originals
	// started without clones (their recorded times hold no burst); a
	// history of a cloning run already holds it.
	WaveOriginals bool
	// EnforceBounds makes the simulator play the sidecar's bound rule:
	// drop what is left at the Deadline, and the maps left once the
	// ErrorBound is met (see enforceBounds). Without it the bounds are
	// only advisory, as described above.
	EnforceBounds bool
	// MaxAttempts, when > 0, fails the job once a task has had that many
	// failed attempts, as Hadoop's mapreduce.map.maxattempts (4) does: the
	// job's running attempts are killed and it ends FAILED (script.go).
	MaxAttempts int
	// ReduceMaxAttempts, when > 0, is MaxAttempts for the job's reduces
	// (mapreduce.reduce.maxattempts); 0 = MaxAttempts.
	ReduceMaxAttempts int
	// NoSpeculate switches speculation off for a task type
	// (mapreduce.map.speculative / mapreduce.reduce.speculative false):
	// a policy's copy of such a task is not launched (not Applied), as
	// Hadoop's AM gives that type's events to no speculator.
	NoSpeculate [speculators.NumTaskTypes]bool
	// ReduceSlowstart, when set, is the job's own
	// mapreduce.job.reduce.slowstart.completedmaps over
	// Config.ReduceSlowstart.
	ReduceSlowstart *float64
	// KillAt, when > 0, kills the job that long after its Submit if it is
	// still running, as a user or operator did in a recorded history: its
	// attempts are killed and it ends KILLED (script.go).
	KillAt speculators.Time
	// Load, when set, streams the job: Maps and Reduces stay empty in the
	// workload, and Load fills them into the run's own copy of the job
	// when it arrives. That copy, its tasks, their state and their
	// attempts are let go when the job ends (when nothing in the run can
	// read them later: see sim.recycle), so a run holds the tasks of the
	// jobs running or waiting rather than the whole trace's. Load must give
	// the same tasks at every call and be safe to call from several runs at
	// once. NumTasks and LongestWork must then say what Load will give (the
	// run needs them before the job arrives); a streamed job's
	// JobResult.TaskFinish is nil.
	Load        func(*Job) error
	NumTasks    [speculators.NumTaskTypes]int
	LongestWork speculators.Time
}

// TaskCounts is the job's maps and reduces, NumTasks for a streamed job.
func (j *Job) TaskCounts() (maps, reduces int) {
	if j.Load != nil {
		return j.NumTasks[speculators.Map], j.NumTasks[speculators.Reduce]
	}
	return len(j.Maps), len(j.Reduces)
}

// Task is one map or reduce task's input and work.
type Task struct {
	InputBytes int64
	// Work is the task's run time at nominal speed, in ms, or, with
	// Slowdown, on a node of that Slowdown.
	Work speculators.Time
	// Slowdown, when set, is the duration multiplier of the node Work was
	// measured on (a replayed history's NodeManager: replay's node
	// speeds). The task's base time, on a node of Slowdown 1, is then
	// Work / Slowdown: an attempt not scripted (the original, or a
	// Resample draw of this task's work for another task's copy) runs its
	// base time times the Slowdown of the node it lands on. 0 means 1;
	// otherwise in [MinTaskSlowdown, MaxSlowdown].
	Slowdown float64
	// Phases splits a reduce's Work across copy (shuffle), sort and reduce,
	// as fractions summing to 1 with copy > 0; all zero means a third each.
	// Ignored for maps.
	Phases [3]float64
	// Node, when set, names the node the task's original ran on in a
	// replayed history: the original goes there when that node has a free
	// container (pin.go); a name not in the cluster is ignored.
	Node string
	// Script, when set, fixes the task's attempts in launch order: attempt
	// n has Script[n].Work instead of Work (n = 0) or the job's CopyModel
	// (n > 0), and fails at the end of that work when Script[n].Fail. Replay
	// uses it to re-execute a history's recorded attempts (script.go);
	// attempts past the script follow Work and the CopyModel.
	Script []ScriptedAttempt
}

// ScriptedAttempt is one recorded attempt of a task (Task.Script). Its Work
// is its recorded run time on the node it ran on, whose speed the time
// already holds: it runs that long wherever the simulator places it (the
// landing node's static Slowdown is divided out; its episodes still apply).
type ScriptedAttempt struct {
	Work speculators.Time
	Fail bool
	// Startup is how much of Work, from its start, the attempt spent
	// before it reported any progress: its container's allocation and its
	// JVM's and task's set-up (replay reads it from the history's progress
	// splits, replay/calibrate.go). An original or a retry that replays
	// this attempt sends no status report for that share of its work and
	// then reports the rest of its work as the whole (progress.go's
	// startingUp and startedFraction), as a copy does for the job's
	// CopyStartup; a copy takes the job's CopyStartup instead. 0: it
	// reports from its start.
	Startup speculators.Time
	// Silent, when above Startup, is how much of Work, from its start,
	// passed before its first status report (replay reads it from the
	// progress splits): it sends none until then, and then reports the
	// progress its Startup gives. Live, a task reports every few seconds
	// at best, so one whose work began may say nothing for seconds more.
	Silent speculators.Time
}

// EngineFactory builds the engine of one job when the job is submitted. It
// chooses the policy (it may look at info.ID to give jobs different ones).
type EngineFactory func(info speculators.JobInfo) (*speculators.Engine, error)

// validate checks cfg and returns the durations in ms.
func (cfg *Config) validate() (heartbeat, decide, timeout speculators.Time, err error) {
	if len(cfg.Nodes) == 0 {
		return 0, 0, 0, fmt.Errorf("sim: no nodes")
	}
	if o := cfg.JobOrder; o.Mode > JobOrderNone || o.Mode == JobOrderYARN && (o.Levels < 1 || o.Levels > MaxJobOrderLevels || o.Every < 1) {
		return 0, 0, 0, fmt.Errorf("sim: job order mode %d with %d levels every %d ms: want the YARN order with 1-%d levels every 1 ms or more", o.Mode, o.Levels, o.Every, MaxJobOrderLevels)
	}
	switch cfg.Scheduler {
	case "", SchedulerFIFO, SchedulerFair:
	default:
		return 0, 0, 0, fmt.Errorf("sim: unknown scheduler %q (want %q or %q)", cfg.Scheduler, SchedulerFIFO, SchedulerFair)
	}
	heartbeat, decide, timeout = cfg.Heartbeat.Milliseconds(), cfg.DecideInterval.Milliseconds(), cfg.TaskTimeout.Milliseconds()
	if heartbeat <= 0 || decide <= 0 || timeout <= 0 {
		return 0, 0, 0, fmt.Errorf("sim: heartbeat %v, decide interval %v and task timeout %v must each be at least 1 ms",
			cfg.Heartbeat, cfg.DecideInterval, cfg.TaskTimeout)
	}
	if !(cfg.ReduceSlowstart >= 0 && cfg.ReduceSlowstart <= 1) {
		return 0, 0, 0, fmt.Errorf("sim: reduce slowstart %g is not in [0,1]", cfg.ReduceSlowstart)
	}
	if cfg.Horizon < 0 {
		return 0, 0, 0, fmt.Errorf("sim: negative horizon %d", cfg.Horizon)
	}
	slots := 0
	for i := range cfg.Nodes {
		if err := cfg.Nodes[i].validate(); err != nil {
			return 0, 0, 0, fmt.Errorf("sim: node %d (%s): %w", i, cfg.Nodes[i].Name, err)
		}
		n := &cfg.Nodes[i]
		if slots += n.Slots + n.MapSlots + n.ReduceSlots; slots > MaxSlots {
			return 0, 0, 0, fmt.Errorf("sim: the cluster has over %d slots (at node %d, %s)", MaxSlots, i, n.Name)
		}
	}
	switch cfg.Placement {
	case "", PlacementSpread, PlacementPack:
	default:
		return 0, 0, 0, fmt.Errorf("sim: unknown placement %q (want %q or %q)", cfg.Placement, PlacementSpread, PlacementPack)
	}
	if err := cfg.Faults.validate(cfg.Nodes, cfg.Triggers); err != nil {
		return 0, 0, 0, err
	}
	return heartbeat, decide, timeout, nil
}

func (n *Node) validate() error {
	if n.Name == "" {
		return fmt.Errorf("no name")
	}
	if n.Slots < 0 || n.MapSlots < 0 || n.ReduceSlots < 0 {
		return fmt.Errorf("negative slots")
	}
	if n.MapSlots+n.ReduceSlots > 0 && n.Slots > 0 {
		return fmt.Errorf("both shared slots (%d) and dedicated map/reduce slots (%d/%d)", n.Slots, n.MapSlots, n.ReduceSlots)
	}
	if n.Slots > MaxSlots || n.MapSlots > MaxSlots || n.ReduceSlots > MaxSlots {
		return fmt.Errorf("over %d slots", MaxSlots)
	}
	if n.Slots+n.MapSlots+n.ReduceSlots == 0 {
		return fmt.Errorf("no slots")
	}
	if !(n.Slowdown >= 0 && n.Slowdown <= MaxSlowdown) {
		return fmt.Errorf("slowdown %g is not a number in [0, %g]", n.Slowdown, MaxSlowdown)
	}
	for k, e := range n.Episodes {
		if e.Start < 0 || (e.End != 0 && e.End <= e.Start) {
			return fmt.Errorf("episode %d: window [%d, %d) is empty or negative", k, e.Start, e.End)
		}
		if !(e.Factor > 0) && !e.Crash {
			return fmt.Errorf("episode %d: factor %g is not positive", k, e.Factor)
		}
		if e.Factor > MaxSlowdown && !math.IsInf(e.Factor, 1) {
			return fmt.Errorf("episode %d: factor %g is over %g (+Inf is a hung node)", k, e.Factor, MaxSlowdown)
		}
	}
	return nil
}

// checkSubmit checks the submit time, which a streamed job (Load) has
// before its tasks.
func (j *Job) checkSubmit() error {
	if j.Submit < 0 {
		return fmt.Errorf("negative submit time %d", j.Submit)
	}
	if j.Submit > MaxTime {
		return fmt.Errorf("submit time %d ms is over the limit of %d ms (100 years)", j.Submit, MaxTime)
	}
	return nil
}

func (j *Job) validate() error {
	if err := j.checkSubmit(); err != nil {
		return err
	}
	if j.CopyWork > ResampleOthers {
		return fmt.Errorf("unknown copy model %d", j.CopyWork)
	}
	if j.Order > OrderLJF {
		return fmt.Errorf("unknown task order %d", j.Order)
	}
	if j.OrderKey > OrderByInput {
		return fmt.Errorf("unknown task order key %d", j.OrderKey)
	}
	if err := j.ProgressNoise.validate(); err != nil {
		return err
	}
	if !(j.ErrorBound >= 0 && j.ErrorBound < 1) || j.Deadline < 0 {
		return fmt.Errorf("error bound %g is not in [0,1) or deadline %d is negative", j.ErrorBound, j.Deadline)
	}
	if j.Deadline > MaxTime {
		return fmt.Errorf("deadline %d ms is over the limit of %d ms (100 years)", j.Deadline, MaxTime)
	}
	for ty, tasks := range [speculators.NumTaskTypes][]Task{j.Maps, j.Reduces} {
		for i := range tasks {
			t := &tasks[i]
			if t.Work < 0 || t.InputBytes < 0 {
				return fmt.Errorf("%s %d: negative work %d or input %d", speculators.TaskType(ty), i, t.Work, t.InputBytes)
			}
			if t.Work > MaxWork {
				return fmt.Errorf("%s %d: work %d ms is over the limit of %d ms (30 days)", speculators.TaskType(ty), i, t.Work, MaxWork)
			}
			if t.Slowdown != 0 && !(t.Slowdown >= MinTaskSlowdown && t.Slowdown <= MaxSlowdown) {
				return fmt.Errorf("%s %d: slowdown %g is not 0 or a number in [%g, %g]", speculators.TaskType(ty), i, t.Slowdown, MinTaskSlowdown, MaxSlowdown)
			}
			if speculators.TaskType(ty) == speculators.Reduce && t.Phases != ([3]float64{}) {
				p := t.Phases
				if !(p[0] > 0) || !(p[1] >= 0) || !(p[2] >= 0) || math.Abs(p[0]+p[1]+p[2]-1) > 1e-6 {
					return fmt.Errorf("reduce %d: phases %v must be non-negative, copy > 0, summing to 1", i, p)
				}
			}
		}
	}
	return nil
}

// JobOrderMode says how a JobPrioritizer's order of jobs reaches free
// slots (Config.JobOrder).
type JobOrderMode uint8

const (
	// JobOrderDefault is JobOrderExact, or JobOrderNone under
	// YARNPlacement (a history's replay predicts a live run without
	// serve --rm-job-order).
	JobOrderDefault JobOrderMode = iota
	// JobOrderExact gives each free slot to the job with the lowest
	// Priority, read at every scheduling pass from the job's submission:
	// the order of the papers' systems (Xu and Lau §IV's time slots).
	JobOrderExact
	// JobOrderYARN applies the order as serve --rm-job-order does live
	// (yarnclient/rmorder): the priorities are read once every Every ms
	// (at the first scheduling pass of each period), ranked and mapped onto
	// Levels YARN priority levels (speculators.PriorityLevels), and each
	// free slot goes to the job of the highest level, ties in submission
	// order; a job submitted since the last reading has no level yet: it
	// is at YARN's level 0 beside the jobs whose policies do not order
	// jobs, behind the ranked ones, and the scheduler serves it among them.
	// Not modelled: the AM's own container (a live job joins the order once
	// its AM connects; the simulator has no AMs).
	JobOrderYARN
	// JobOrderNone asks no job order: the scheduler alone orders jobs, as
	// YARN does live without serve --rm-job-order.
	JobOrderNone
)

// MaxJobOrderLevels bounds JobOrder.Levels, as the live order bounds them.
const MaxJobOrderLevels = speculators.MaxPriorityLevels

// JobOrder configures Config.JobOrder.
type JobOrder struct {
	Mode JobOrderMode
	// Levels and Every, for JobOrderYARN: the cluster's priority levels
	// (yarn.cluster.max-application-priority) and the period in ms at
	// which the order is read (serve --rm-job-order-interval).
	Levels int
	Every  speculators.Time
}

// String says what the order is, for reports: the mode, and for
// JobOrderYARN its levels and period.
func (o JobOrder) String() string {
	switch o.Mode {
	case JobOrderExact:
		return "exact: read at every scheduling pass from a job's submission, as the papers' systems order jobs"
	case JobOrderYARN:
		return fmt.Sprintf("yarn: %d YARN priority levels read every %s, as serve --rm-job-order sets them live", o.Levels, time.Duration(o.Every)*time.Millisecond)
	case JobOrderNone:
		return "none: YARN's scheduler alone, as live without serve --rm-job-order"
	}
	return "default: exact for a scenario, none for a history"
}

// orders reports whether jobs whose policies order them are ordered.
func (o JobOrder) orders(yarnPlacement bool) bool {
	switch o.Mode {
	case JobOrderExact, JobOrderYARN:
		return true
	case JobOrderNone:
		return false
	}
	return !yarnPlacement
}
