package scenario

// Scenario is one parsed scenario file.
type Scenario struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// Reference names the paper section the scenario reproduces.
	Reference string `yaml:"reference"`
	// Paper records the published figures the scenario is compared with,
	// free-form ("late vs hadoop-legacy: 27% faster"), for reports.
	Paper    map[string]string `yaml:"paper"`
	Cluster  Cluster           `yaml:"cluster"`
	Workload Workload          `yaml:"workload"`
	Faults   []Fault           `yaml:"faults"`

	// Source is the file the scenario was read from.
	Source string `yaml:"-"`
}

// Cluster describes the nodes and the cluster-wide settings.
type Cluster struct {
	// Scheduler orders jobs on free slots: "fifo" (default) or "fair".
	Scheduler string `yaml:"scheduler"`
	// HeartbeatS is the progress-report interval (default 3 s).
	HeartbeatS float64 `yaml:"heartbeat_s"`
	// TaskTimeoutS is mapreduce.task.timeout in seconds (default 600).
	TaskTimeoutS float64 `yaml:"task_timeout_s"`
	// ReduceSlowstart is mapreduce.job.reduce.slowstart.completedmaps
	// (default 0.05); nil keeps the simulator's default.
	ReduceSlowstart *float64    `yaml:"reduce_slowstart"`
	Nodes           []NodeGroup `yaml:"nodes"`
	Line            int         `yaml:"-"`
	// FaultModel sets the failure model's timeouts and the fault
	// analyzer (faults.go); nil keeps the simulator's defaults.
	FaultModel *FaultModel `yaml:"fault_model"`
	// Placement is "spread" (default) or "pack" (fill a node's containers
	// first, so a small job's maps converge on one node).
	Placement string `yaml:"placement"`
}

// NodeGroup is Count identical nodes named <Name>-<i>.
type NodeGroup struct {
	Name  string `yaml:"name"`
	Count int    `yaml:"count"`
	// Slots are YARN containers shared by maps and reduces; MapSlots and
	// ReduceSlots, when set, are Hadoop 1 style dedicated slot pools.
	Slots       int `yaml:"slots"`
	MapSlots    int `yaml:"map_slots"`
	ReduceSlots int `yaml:"reduce_slots"`
	// Slowdown multiplies every task duration on these nodes (1 = nominal);
	// SlowdownDist, if set, draws each node's factor instead.
	Slowdown     float64 `yaml:"slowdown"`
	SlowdownDist *Dist   `yaml:"slowdown_dist"`
	// SlowdownAppliesTo is "all" (default: every task on the node) or
	// "reduces": only reduces run slower, as in LATE §5.4's sleep job,
	// whose reducers alone chose their sleep time by a per-machine factor.
	SlowdownAppliesTo string `yaml:"slowdown_applies_to"`
	Line              int    `yaml:"-"`
}

// Values of NodeGroup.SlowdownAppliesTo.
const (
	SlowdownAll     = "all"
	SlowdownReduces = "reduces"
)

// Workload is the jobs the scenario submits.
type Workload struct {
	Jobs []JobGroup `yaml:"jobs"`
	Line int        `yaml:"-"`
}

// JobGroup is Count jobs of the same shape. Durations are seconds of work at
// nominal node speed.
type JobGroup struct {
	Name  string `yaml:"name"`
	Count int    `yaml:"count"`
	// AtS is when the first job of the group arrives; InterArrivalS draws
	// the gap to each next one (default: all at AtS).
	AtS           float64 `yaml:"at_s"`
	InterArrivalS *Dist   `yaml:"inter_arrival_s"`

	Maps    int `yaml:"maps"`
	Reduces int `yaml:"reduces"`
	// MapsDist, instead of Maps, draws each job's number of maps (Xu and
	// Lau §IV-C: "uniformly distributed from 1 to 100"). Draws are whole
	// numbers of at least 1: a uniform draws an integer in min..max, each
	// equally likely; any other distribution is rounded to the nearest
	// integer. See sizes.go.
	MapsDist *Dist `yaml:"maps_dist"`
	// JobScale, if set, multiplies the work of every task of a job by one
	// draw per job (Xu and Lau §IV-C: "the expected task duration for
	// different jobs follows a uniform distribution of 1 to 4 units"):
	// with map_s of mean 1, a job's mean task time is its draw.
	JobScale *Dist `yaml:"job_scale"`
	// MapS and ReduceS draw each task's work; a job's tasks are drawn
	// independently.
	MapS    *Dist `yaml:"map_s"`
	ReduceS *Dist `yaml:"reduce_s"`
	// ReducePhases splits a reduce's work over copy, sort and reduce
	// (default a third each).
	ReducePhases []float64 `yaml:"reduce_phases"`
	// TaskNoise, if set, multiplies each task's work by a draw from it
	// (per-task variation on top of node slowdowns).
	TaskNoise *Dist `yaml:"task_noise"`
	// MapInputMiB is each map's input size (default 128).
	MapInputMiB float64 `yaml:"map_input_mib"`
	// CopyWork is how a speculative copy's work is drawn: "same" (the
	// task's own work, default), "resample" (the work of a task of the
	// same job and type drawn uniformly, sim.Resample) or "fresh" (a new
	// independent draw from MapS / ReduceS times the job's JobScale and
	// TaskNoise, sim.Fresh: the i.i.d. copies of Xu and Lau §IV).
	CopyWork string `yaml:"copy_work"`
	// DeadlineS and ErrorBound make the jobs approximation jobs.
	DeadlineS  *Dist `yaml:"deadline_s"`
	ErrorBound *Dist `yaml:"error_bound"`
	// DeadlineFactor, instead of DeadlineS, sets each job's deadline to a
	// draw times its ideal duration (GRASS §6.1; see IdealDuration).
	DeadlineFactor *Dist `yaml:"deadline_factor"`
	// IdealSlots is the containers IdealDuration assumes the job has
	// (default: every slot of the cluster); deadline_from waves only.
	IdealSlots int `yaml:"ideal_slots"`
	// DeadlineFrom is how the ideal duration under DeadlineFactor is
	// found: "waves" (default; IdealDuration, the job alone in waves of
	// IdealSlots) or "dry-run" (DeadlineFromDryRun: the job's duration in a
	// simulation of the whole workload, on the same cluster and with the
	// same arrivals, in which every task takes its job's median and
	// nothing speculates; see Job.SetIdeal).
	DeadlineFrom string `yaml:"deadline_from"`
	// Order places original tasks "index" (default), "sjf" or "ljf"
	// (GRASS §3.1; simulation only: live the AM orders them).
	Order string `yaml:"order"`
	// ProgressSegments and ProgressSigma, both > 0, vary each attempt's
	// reported progress rate within the attempt: its run is cut into
	// ProgressSegments equal stretches of work, each with a rate drawn
	// from a lognormal of median 1 and shape ProgressSigma, normalised so
	// that the run time is unchanged (sim.ProgressNoise). Progress-based
	// estimates of remaining time then err as real ones do (GRASS §5.1).
	// Default off: progress is linear in work done.
	ProgressSegments int     `yaml:"progress_segments"`
	ProgressSigma    float64 `yaml:"progress_sigma"`
	// EnforceBounds (default true) has the simulator drop what is left
	// when a deadline passes or an error bound is met, as the sidecar
	// does live; false leaves bounds to the policy.
	EnforceBounds *bool `yaml:"enforce_bounds"`
	// SWIM, if set, draws the group's jobs (arrivals, sizes, base task
	// durations) from a SWIM trace instead of Count/Maps/Reduces/MapS.
	SWIM *SWIMSource `yaml:"swim"`
	// Conf is the group's jobs' configuration, as a job's conf.xml gives
	// a recorded job's: Hadoop keys (mapreduce.map.maxattempts,
	// mapreduce.map.speculative, ...) and specbridge.* (docs/replay.md
	// lists what the replay reads; it checks the values).
	Conf map[string]string `yaml:"conf"`
	Line int               `yaml:"-"`
}

// Fault is a change to one node's behaviour over a time window.
type Fault struct {
	// Kind is "slowdown" (durations x Factor), "hang" (no progress and
	// no heartbeats: the node is unresponsive; with an end, a transient
	// pause) or "crash" (hung, and the map outputs stored on it are lost;
	// with an end, the node comes back restarted).
	Kind string `yaml:"kind"`
	// Node names the node, or is "random" (drawn uniformly per run, or
	// per job with Job) or "job-maps" (the node holding most of the job's
	// maps when the fault starts; needs at_map_progress or
	// at_map_progress_dist).
	Node string `yaml:"node"`
	// AtS is when the fault begins; ForS how long it lasts (0 = to the end).
	AtS    float64 `yaml:"at_s"`
	ForS   float64 `yaml:"for_s"`
	Factor float64 `yaml:"factor"`
	Line   int     `yaml:"-"`
	// ForDist, instead of ForS, draws the duration per run (or per job),
	// e.g. {dist: poisson, mean: 10} for FARMS §4.4's network delays.
	ForDist *Dist `yaml:"for_dist"`
	// Job and AtMapProgress start the fault when the named job (or each
	// job of the named job group) reaches this map progress, instead of at
	// AtS.
	Job           string   `yaml:"job"`
	AtMapProgress *float64 `yaml:"at_map_progress"`
	// AtMapProgressDist, instead of AtMapProgress, draws the point per job
	// (e.g. {dist: uniform, min: 0, max: 0.9}: a failure anywhere in the
	// map phase, as FARMS §4.2's ten spots); draws above 1 count as 1.
	AtMapProgressDist *Dist `yaml:"at_map_progress_dist"`
	// AtReduceProgress and AtReduceProgressDist start the fault when the
	// job's reduce progress (a third per phase: copy, sort, reduce, LATE
	// §2.1) reaches the point, once a reduce has started: a node failing in
	// the reduce phase. With node job-reduces the node running most of the
	// job's reduces is hit.
	AtReduceProgress     *float64 `yaml:"at_reduce_progress"`
	AtReduceProgressDist *Dist    `yaml:"at_reduce_progress_dist"`
	// Probability is the chance the fault happens (per run, or per job
	// with Job); default 1. Faults sharing a Choice name exclude each
	// other: one draw per run (per job) picks at most one of them, each
	// with its Probability.
	Probability *float64 `yaml:"probability"`
	Choice      string   `yaml:"choice"`
}
