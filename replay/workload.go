package replay

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/workload/scenario"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// ClusterOptions describe the cluster a recorded workload is re-executed on
// when the input does not describe one.
type ClusterOptions struct {
	// Nodes and Slots, when > 0, replace the cluster inferred from a
	// history's hosts (every SWIM replay uses them).
	Nodes, Slots int
	// NodeSlots, when > 0 (and Nodes and Slots are not set), gives each
	// recorded NodeManager that many containers in place of the most it
	// ran at once: its capacity, which a history does not record. The
	// nodes keep their names, speeds and crashes.
	NodeSlots int
	// NodesFrom says where Nodes came from when not from the user (the
	// input's known cluster size, cluster.go).
	NodesFrom string
	// Scheduler is "fifo" or "fair"; empty keeps the input's (fifo).
	Scheduler string
	// Stragglers is the straggler model for jobs without attempt times of
	// their own (SWIM); nil means DefaultStragglerModel (stragglers.go).
	Stragglers *StragglerModel
	// SpeedHistories are more jobs of the cluster a history ran on, whose
	// attempts add to the measure of its nodes' speeds (nodespeed.go;
	// --node-speeds-from); they are not replayed. Their copies' start-ups
	// measure the copy cost too (nodespeed.go).
	SpeedHistories []*history.Job
	// NoCopyCost leaves the copy cost out (--no-copy-cost): copies take
	// their draws' times, as before it.
	NoCopyCost bool
	// JobOrder, when its mode is set (--job-order), replaces the input's
	// job order: a scenario's is exact (its paper's system), a history's
	// none (YARN's scheduler, as live without serve --rm-job-order).
	JobOrder sim.JobOrder
}

// Bounds of ClusterOptions' Nodes and Slots: past them a replay would
// exhaust memory building the cluster (the simulator also refuses a
// cluster of over sim.MaxSlots slots).
const (
	MaxNodes        = 100_000
	MaxSlotsPerNode = 10_000
)

// validateSize refuses a cluster size out of 0..MaxNodes nodes and
// 0..MaxSlotsPerNode slots (0: the input's, or the default).
func (co ClusterOptions) validateSize() error {
	if co.Nodes < 0 || co.Nodes > MaxNodes || co.Slots < 0 || co.Slots > MaxSlotsPerNode {
		return fmt.Errorf("cluster of %d nodes with %d slots: want at most %d nodes and %d slots per node", co.Nodes, co.Slots, MaxNodes, MaxSlotsPerNode)
	}
	if co.NodeSlots < 0 || co.NodeSlots > MaxSlotsPerNode {
		return fmt.Errorf("%d slots per recorded node: want 0 to %d", co.NodeSlots, MaxSlotsPerNode)
	}
	return nil
}

func (co ClusterOptions) stragglers() StragglerModel {
	if co.Stragglers == nil {
		return DefaultStragglerModel()
	}
	return *co.Stragglers
}

// Defaults used when a recorded workload names no hosts (SWIM).
const (
	DefaultNodes = 100
	DefaultSlots = 8
)

// Workload is a simulator input ready to run.
type Workload struct {
	Config sim.Config
	Jobs   []sim.Job
	// Groups names each job's group (scenario job group, or "history").
	Groups []string
	// Overhead, when set, is added to each job's simulated time: the AM
	// start-up and commit a history recorded (calibrate.go).
	Overhead []speculators.Time
	// Recorded holds each job's recorded outcome, for histories.
	Recorded []RecordedJob
	// Stragglers says which straggler model drew the workload's
	// stragglers, "" when none applied (stragglers.go).
	Stragglers string
	// Cluster says what cluster a recorded workload runs on and where its
	// size came from (cluster.go); "" for scenarios.
	Cluster string
	// jobParams are recorded jobs' own policy parameters by job id, then
	// policy (jobconf.go), laid over the run's defaults (see JobParams).
	jobParams map[string]map[string]map[string]string
}

// RecordedJob is what a history says of one replayed job.
type RecordedJob struct {
	ID     string
	Status string // SUCCEEDED, FAILED, KILLED ("" if unknown)
	// Time is submit to finish as recorded (ms), 0 when unknown.
	Time speculators.Time
	// Settings lists the job's replayed settings, each with where it came
	// from (conf, inferred, default; jobconf.go); SettingsFrom is conf
	// when a configuration was read, else inferred or default; ConfFile
	// names the configuration read.
	Settings, SettingsFrom, ConfFile string
	// Ran is the policy that ran the job (jobSettings.ran): its simulated
	// time measures the replay's fidelity.
	Ran string
}

// seconds converts s seconds to ms. A value int64 ms cannot hold (huge,
// infinite or NaN: a heavy-tailed draw, a typo) becomes one far past the
// simulator's limits (sim.MaxWork, sim.MaxTime), which refuse it with an
// error naming the job, rather than a wrapped-around time.
func seconds(s float64) speculators.Time {
	const far = 1 << 62
	ms := math.Round(s * 1000)
	switch {
	case ms >= far || math.IsNaN(ms):
		return far
	case ms <= -far:
		return -far
	}
	return speculators.Time(ms)
}

// FromScenario materializes s for seed.
func FromScenario(s *scenario.Scenario, seed uint64, co ClusterOptions) (*Workload, error) {
	return fromScenario(s, seed, co, false)
}

// fromScenario is FromScenario; with stream, the jobs whose results need
// no per-task finish times (no deadline, no error bound: sim.Job.Load)
// are streamed when the scenario has no dry-run deadlines (which simulate
// every job's tasks up front): their tasks are drawn while the workload
// is built, let go, and drawn again from the same random state when the
// job arrives (scenario.MaterializeLazy).
func fromScenario(s *scenario.Scenario, seed uint64, co ClusterOptions, stream bool) (*Workload, error) {
	if !s.TracesLoaded() {
		return nil, fmt.Errorf("scenario %s: SWIM traces not loaded (read it with scenario.Read, or call LoadTraces)", s.Source)
	}
	var heads []sim.Job // task counts and longest work of each job let go, in order
	drop := func(j *scenario.Job) bool {
		if j.DeadlineS > 0 || j.ErrorBound > 0 || j.DeadlineFactor > 0 {
			return false
		}
		h := sim.Job{NumTasks: [speculators.NumTaskTypes]int{len(j.Maps), len(j.Reduces)}}
		for _, ts := range [][]scenario.Task{j.Maps, j.Reduces} {
			for _, t := range ts {
				h.LongestWork = max(h.LongestWork, workMs(t.WorkS))
			}
		}
		heads = append(heads, h)
		return true
	}
	if !stream || s.DryRunDeadlines() {
		drop = nil
	}
	m := s.MaterializeLazy(seed, drop)
	nodes := make([]sim.Node, len(m.Nodes))
	index := make(map[string]int, len(m.Nodes))
	for i, n := range m.Nodes {
		nodes[i] = sim.Node{Name: n.Name, Slots: n.Slots, MapSlots: n.MapSlots, ReduceSlots: n.ReduceSlots, Slowdown: n.Slowdown,
			SlowdownReducesOnly: n.SlowdownReducesOnly}
		index[n.Name] = i
	}
	triggers, err := faultEpisodes(s, m.Faults, nodes, index)
	if err != nil {
		return nil, err
	}
	cfg := sim.DefaultConfig(nodes)
	cfg.Triggers = triggers
	applyFaultModel(&s.Cluster, &cfg)
	if s.Cluster.Scheduler != "" {
		cfg.Scheduler = s.Cluster.Scheduler
	}
	if co.Scheduler != "" {
		cfg.Scheduler = co.Scheduler
	}
	if s.Cluster.HeartbeatS > 0 {
		cfg.Heartbeat = time.Duration(s.Cluster.HeartbeatS * float64(time.Second))
	}
	if s.Cluster.TaskTimeoutS > 0 {
		cfg.TaskTimeout = time.Duration(s.Cluster.TaskTimeoutS * float64(time.Second))
	}
	if s.Cluster.ReduceSlowstart != nil {
		cfg.ReduceSlowstart = *s.Cluster.ReduceSlowstart
	}
	cfg.Seed = seed
	// A scenario models its paper's cluster, where Speculative-Resume
	// copies start at the straggler's offset; a history replay
	// (FromHistory) predicts the live cluster, where they cannot.
	cfg.Resume = true
	w := &Workload{Config: cfg}
	sc := scenarioConf{s: s}
	for k := range m.Jobs {
		j := &m.Jobs[k]
		sj := sim.Job{ID: j.Name, Submit: seconds(j.SubmitS), ErrorBound: j.ErrorBound}
		if j.DeadlineS > 0 {
			sj.Deadline = sj.Submit + seconds(j.DeadlineS)
		}
		if j.Resample {
			sj.CopyWork = sim.Resample
		}
		if j.Fresh {
			sj.CopyWork = sim.Fresh
			sj.FreshWork = [speculators.NumTaskTypes]sim.WorkSampler{msLaw{j.FreshMap}, msLaw{j.FreshReduce}}
		}
		sj.TaskMillis, sj.TailIndex = j.TaskMeanS*1000, j.TailIndex
		if err := approxJob(&sj, j); err != nil {
			return nil, fmt.Errorf("scenario %s: %w", s.Source, err)
		}
		if err := sc.apply(w, &sj, j); err != nil {
			return nil, err
		}
		if j.Lazy() {
			sj.NumTasks, sj.LongestWork = heads[0].NumTasks, heads[0].LongestWork
			heads = heads[1:]
			sj.Load = func(sj *sim.Job) error {
				sj.Maps, sj.Reduces = scenarioTasks(j.Tasks())
				return nil
			}
		} else {
			sj.Maps, sj.Reduces = scenarioTasks(j.Maps, j.Reduces)
		}
		w.Jobs = append(w.Jobs, sj)
		w.Groups = append(w.Groups, j.Group)
	}
	if err := dryRunDeadlines(w, m); err != nil {
		return nil, fmt.Errorf("scenario %s: %w", s.Source, err)
	}
	return w, nil
}

// workMs is a scenario task's drawn work in ms, in [1, sim.MaxWork]: the
// parser bounds a distribution's parameters, but a heavy-tailed law
// (Pareto, lognormal) may still draw a task of years, which is truncated
// to the simulator's longest rather than refused (our choice: the draw is
// the law's, the scenario is valid).
func workMs(s float64) speculators.Time { return min(max(seconds(s), 1), sim.MaxWork) }

// scenarioTasks are a scenario job's tasks as simulator tasks: work in
// ms, in [1, sim.MaxWork].
func scenarioTasks(maps, reduces []scenario.Task) ([]sim.Task, []sim.Task) {
	sm := make([]sim.Task, len(maps))
	for k, t := range maps {
		sm[k] = sim.Task{InputBytes: t.InputBytes, Work: workMs(t.WorkS)}
	}
	sr := make([]sim.Task, len(reduces))
	for k, t := range reduces {
		sr[k] = sim.Task{InputBytes: t.InputBytes, Work: workMs(t.WorkS), Phases: t.Phases}
	}
	return sm, sr
}

// FromHistory builds a workload that re-executes recorded jobs. A job with a
// recorded submit, launch and finish is calibrated on its own history
// (calibrate.go): its recorded attempts are replayed, with its AM start-up,
// container allocation and commit times. Otherwise (SWIM) each task's
// first attempt has the run time of the attempt that completed it (or, for a
// task that never succeeded, of its longest attempt); every later attempt
// draws its run time from the job's own completed tasks of the same type
// (sim.Resample), as GRASS §5.1 estimates t_new. Nodes run at nominal speed:
// the recorded durations already carry the cluster's heterogeneity. The
// cluster is one node per recorded host with as many slots as that host ever
// ran attempts of the job set at once, unless co sets Nodes and Slots.
func FromHistory(jobs []*history.Job, co ClusterOptions, seed uint64) (*Workload, error) {
	var origin int64 = math.MaxInt64
	for _, j := range jobs {
		if s := submitOf(j); s > 0 && s < origin {
			origin = s
		}
	}
	if origin == math.MaxInt64 {
		origin = 0
	}
	w := &Workload{}
	model, _, rs, err := stragglerDraws(co, seed)
	if err != nil {
		return nil, err
	}
	var hosts hostPeaks
	for _, j := range jobs {
		hosts.add(j)
	}
	nodes, facts := hosts.nodes(co.SpeedHistories)
	nodes = withClusterNodes(nodes, co.SpeedHistories, facts.speeds, origin)
	facts = facts.forCluster(co)
	uncalibrated := false
	for _, j := range jobs {
		set, err := readSettings(j)
		if err != nil {
			return nil, err
		}
		if c := calibrate(j); c.ok {
			w.addRecorded(calibratedJob(j, c, &set, origin, facts), c.overhead(), RecordedJob{ID: j.ID, Status: j.Status, Time: c.recorded}, &set)
			continue
		}
		sj, ok := uncalibratedJob(j, &set, origin)
		if !ok {
			continue // a job with no timed task has nothing to replay
		}
		uncalibrated = true
		if !model.Off {
			model.stretch(rs, &sj)
		}
		w.addRecorded(sj, 0, RecordedJob{ID: j.ID, Status: j.Status}, &set)
	}
	if len(w.Jobs) == 0 {
		return nil, errNoTimedJob
	}
	w.cluster(nodes, co, seed, model, rs, uncalibrated)
	// A history that names its NodeManagers (a .jhist, a Rumen trace of
	// one) is of a YARN cluster: copies go where its AM places them. A
	// trace without hosts (SWIM) is of the JobTracker's Hadoop.
	w.Config.YARNPlacement = len(nodes) > 0
	w.applyCrashes(facts.crashed, origin)
	return w, nil
}

// uncalibratedJob is the simulator job of a recorded job that cannot be
// calibrated (FromHistory), before its stragglers are drawn: each task's
// first attempt takes its recorded work; false when no task is timed. Its
// settings apply but for max attempts, which only a configuration sets
// (nothing of it is scripted: it fails no task unless faults do).
func uncalibratedJob(j *history.Job, set *jobSettings, origin int64) (sim.Job, bool) {
	sj := sim.Job{ID: j.ID, CopyWork: sim.Resample}
	set.apply(&sj)
	if set.from["mapreduce.map.maxattempts"] != FromConf {
		sj.MaxAttempts = 0
	}
	if set.from["mapreduce.reduce.maxattempts"] != FromConf {
		sj.ReduceMaxAttempts = 0
	}
	if s := submitOf(j); s > 0 {
		sj.Submit = s - origin
	}
	set.deadline(&sj)
	for _, t := range j.Tasks {
		work, phases, ok := taskWork(&t)
		if !ok {
			continue
		}
		st := sim.Task{InputBytes: t.InputBytes, Work: max(work, 1)}
		if t.Type == history.Map {
			sj.Maps = append(sj.Maps, st)
		} else {
			st.Phases = phases
			sj.Reduces = append(sj.Reduces, st)
		}
	}
	return sj, len(sj.Maps)+len(sj.Reduces) > 0
}

// streamHeader is j without its tasks, saying how many it has and its
// longest work (sim.Job.Load): what a streamed workload holds of a job
// until the simulator loads it.
func streamHeader(j *sim.Job) sim.Job {
	h := *j
	h.Maps, h.Reduces = nil, nil
	h.NumTasks = [speculators.NumTaskTypes]int{len(j.Maps), len(j.Reduces)}
	for _, ts := range [][]sim.Task{j.Maps, j.Reduces} {
		for _, t := range ts {
			h.LongestWork = max(h.LongestWork, t.Work)
		}
	}
	return h
}

// errNoTimedJob: a history input none of whose jobs can be replayed.
var errNoTimedJob = errors.New("no job in the input has a task with recorded start and finish times")

// addRecorded appends j, a job read from a history (group "history"), with
// its per-job overhead and what the history recorded of it.
func (w *Workload) addRecorded(j sim.Job, overhead speculators.Time, rec RecordedJob, set *jobSettings) {
	rec.Settings, rec.SettingsFrom, rec.ConfFile, rec.Ran = set.Summary(), set.Source(), set.confFile, set.ran
	if len(set.params) > 0 {
		if w.jobParams == nil {
			w.jobParams = map[string]map[string]map[string]string{}
		}
		w.jobParams[j.ID] = set.params
	}
	w.Jobs = append(w.Jobs, j)
	w.Groups = append(w.Groups, "history")
	w.Overhead = append(w.Overhead, overhead)
	w.Recorded = append(w.Recorded, rec)
}

// cluster sets w's cluster: nodes inferred from the recorded hosts, or
// co's size, or the default; slow nodes drawn by model with rs (after
// every job's stragglers) when some job was not calibrated.
func (w *Workload) cluster(nodes []sim.Node, co ClusterOptions, seed uint64, model StragglerModel, rs *rand.Rand, uncalibrated bool) {
	if co.Nodes > 0 || co.Slots > 0 || len(nodes) == 0 {
		n, s := co.Nodes, co.Slots
		from := co.NodesFrom
		switch {
		case n > 0 && from == "":
			from = "--nodes"
		case n <= 0 && len(nodes) > 0:
			n, from = DefaultNodes, fmt.Sprintf("--slots without --nodes: the default %d nodes", DefaultNodes)
		case n <= 0:
			n, from = DefaultNodes, fmt.Sprintf("the input names no hosts and its cluster is unknown: the default %d; set --nodes", DefaultNodes)
		}
		if s <= 0 {
			s = DefaultSlots
		}
		w.Cluster = clusterNote(n, s, from)
		nodes = make([]sim.Node, n)
		for i := range nodes {
			nodes[i] = sim.Node{Name: fmt.Sprintf("node-%03d", i+1), Slots: s, Slowdown: 1}
		}
	} else if co.NodeSlots > 0 {
		for i := range nodes {
			nodes[i].Slots = co.NodeSlots
		}
		w.Cluster = fmt.Sprintf("%d nodes x %d slots (the recorded NodeManagers, each with --node-slots containers)", len(nodes), co.NodeSlots)
	} else {
		slots := 0
		for _, n := range nodes {
			slots += n.Slots
		}
		w.Cluster = fmt.Sprintf("%d nodes, %d slots (the recorded hosts, each with as many slots as it ran attempts at once)", len(nodes), slots)
	}
	if uncalibrated && !model.Off {
		model.slowNodes(rs, nodes)
		w.Stragglers = model.String()
	}
	w.Config = sim.DefaultConfig(nodes)
	if co.Scheduler != "" {
		w.Config.Scheduler = co.Scheduler
	}
	w.Config.Seed = seed
}

func submitOf(j *history.Job) int64 {
	if j.Submit > 0 {
		return j.Submit
	}
	if j.Launch > 0 {
		return j.Launch
	}
	var first int64
	for _, t := range j.Tasks {
		for _, a := range t.Attempts {
			if a.Start > 0 && (first == 0 || a.Start < first) {
				first = a.Start
			}
		}
	}
	return first
}

// taskWork is the recorded run time of the attempt that completed the task,
// or of its longest timed attempt, and a reduce's phase split from its
// shuffle and sort finish times (a third each when not recorded).
func taskWork(t *history.Task) (speculators.Time, [3]float64, bool) {
	best := workAttempt(t)
	phases := [3]float64{}
	if best == nil {
		return 0, phases, false
	}
	d := best.Finish - best.Start
	if t.Type == history.Reduce && d > 0 && best.ShuffleFinish >= best.Start && best.SortFinish >= best.ShuffleFinish && best.Finish >= best.SortFinish {
		c := float64(best.ShuffleFinish-best.Start) / float64(d)
		s := float64(best.SortFinish-best.ShuffleFinish) / float64(d)
		if c > 0 {
			phases = [3]float64{c, s, 1 - c - s}
		}
	}
	return d, phases, true
}

// workAttempt is the attempt whose run time is the task's work (taskWork):
// the one that completed it, else its longest timed attempt; nil if none.
func workAttempt(t *history.Task) *history.Attempt {
	var best *history.Attempt
	for i := range t.Attempts {
		a := &t.Attempts[i]
		if a.Start <= 0 || a.Finish < a.Start {
			continue
		}
		if a.Status == history.Succeeded {
			return a
		}
		if best == nil || a.Finish-a.Start > best.Finish-best.Start {
			best = a
		}
	}
	return best
}

// hostPeaks gathers the recorded hosts' attempts, job by job, for the
// cluster a history ran on: one node per NodeManager, with as many slots as
// the most attempts it ran at once. A NodeManager is its host, or its
// host:port where several ran on one host (history.Attempt.NodeKey: a mini
// cluster's NodeManagers all report localhost; the shim tells them apart
// live by the same host:port). It keeps two 16-byte edges an attempt, not
// the jobs.
type hostPeaks struct {
	perNode map[hostPort][]hostEdge
	ports   history.NodePorts
	// speed holds each NodeManager's speed samples (nodespeed.go), crash
	// what tells its crash (crash.go).
	speed speedData
	crash crashWatch
	// startup holds the start-ups of succeeded maps, originals and copies
	// (nodespeed.go's copy cost).
	startup startups
}

// hostPort is a recorded attempt's host and NodeManager port (0 unknown).
type hostPort struct {
	host string
	port int
}

type hostEdge struct {
	at    int64
	delta int
}

// add adds j's timed attempts.
func (p *hostPeaks) add(j *history.Job) {
	p.ports.Add(j)
	p.speed.add(j)
	p.startup.add(j)
	p.crash.add(j)
	for _, t := range j.Tasks {
		for _, a := range t.Attempts {
			if a.Host == "" || a.Start <= 0 || a.Finish < a.Start {
				continue
			}
			if p.perNode == nil {
				p.perNode = map[hostPort][]hostEdge{}
			}
			k := hostPort{a.Host, a.Port}
			p.perNode[k] = append(p.perNode[k], hostEdge{a.Start, 1}, hostEdge{a.Finish, -1})
		}
	}
}

// nodes returns one node per NodeManager seen, by name (NodeKey): a host
// that ran one NodeManager is one node whatever ports its attempts record;
// on a shared host each port is one, and attempts without a port one more.
// Each node's Slowdown is its measured speed factor (nodespeed.go), from
// the jobs added and the extra jobs (other histories of the same cluster:
// ClusterOptions.SpeedHistories), which speeds also gives by attempt.
func (p *hostPeaks) nodes(extra []*history.Job) ([]sim.Node, *nodeFacts) {
	speeds := p.speeds(extra)
	shared := speeds.shared
	crashed := p.crash.crashes(shared)
	facts := &nodeFacts{speeds: speeds, crashes: newCrashSet(crashed, shared), crashed: crashed, copyCost: p.startup.copyCost(extra), shared: shared}
	perName := map[string][]hostEdge{}
	for k, es := range p.perNode {
		name := (&history.Attempt{Host: k.host, Port: k.port}).NodeKey(shared)
		perName[name] = append(perName[name], es...)
	}
	names := make([]string, 0, len(perName))
	for h := range perName {
		names = append(names, h)
	}
	sort.Strings(names)
	nodes := make([]sim.Node, 0, len(names))
	for _, h := range names {
		es := perName[h]
		nodes = append(nodes, sim.Node{Name: h, Slots: peakOf(es), Slowdown: speeds.factorOf(h)})
	}
	return nodes, facts
}

// peakOf is the most attempts es (their start and end edges) had running
// at once, at least 1. es is sorted.
func peakOf(es []hostEdge) int {
	sort.Slice(es, func(a, b int) bool {
		if es[a].at != es[b].at {
			return es[a].at < es[b].at
		}
		return es[a].delta < es[b].delta // ends before starts at the same instant
	})
	cur, peak := 0, 1
	for _, e := range es {
		cur += e.delta
		peak = max(peak, cur)
	}
	return peak
}

// withClusterNodes is nodes (the NodeManagers the replayed jobs ran on) and
// every other NodeManager the cluster's other histories (extra:
// ClusterOptions.SpeedHistories) name, less those they show crashed
// (crash.go) before since, the replayed jobs' first submit. Each new node
// has its measured speed (speeds, from the replayed jobs and extra) and as
// many slots as it ran attempts of extra at once; the nodes are in name
// order, as hostPeaks.nodes gives them.
//
// Why (issue 25): the replayed jobs name only the NodeManagers they ran on,
// and where a job used few of a cluster's nodes (a stock job of a few maps
// on a mini cluster of 18 NodeManagers ran on 5) a copy the replay places
// could only land on those, while live YARN gives a copy's container to any
// NodeManager with room, a third of them slow on the live benchmark's
// cluster. On the newest live run before this, late's and farms' copies of
// the failure job's lost map landed on a slow NodeManager in one round and a
// fast one in another (39.5 s against 14.4 s), and the replay, placing both
// on the stock job's fast nodes, tied them.
//
// Which NodeManagers lived then: a history says when a node ran attempts,
// not when it joined or left. A node the histories show crashed before the
// replayed jobs began is left out; any other node they name is taken to
// have been there (clusters lose NodeManagers more often than they gain
// them, and the live benchmark's cluster only loses them, one per failure
// job). A node that crashed during the replayed jobs is in the cluster
// until then only if the replayed jobs' own history shows the crash
// (FromHistory's crash inference covers the replayed jobs alone): in extra
// it is kept for the whole replay, as it was there when the jobs began.
func withClusterNodes(nodes []sim.Node, extra []*history.Job, speeds *nodeSpeeds, since int64) []sim.Node {
	if len(extra) == 0 {
		return nodes
	}
	have := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		have[n.Name] = true
	}
	var crash crashWatch
	perName := map[string][]hostEdge{}
	for _, j := range extra {
		crash.add(j)
		for _, t := range j.Tasks {
			for _, a := range t.Attempts {
				if a.Host == "" || a.Start <= 0 || a.Finish < a.Start {
					continue
				}
				if name := a.NodeKey(speeds.shared); !have[name] {
					perName[name] = append(perName[name], hostEdge{a.Start, 1}, hostEdge{a.Finish, -1})
				}
			}
		}
	}
	for _, c := range crash.crashes(speeds.shared) {
		if c.at < since {
			delete(perName, c.node)
		}
	}
	if len(perName) == 0 {
		return nodes
	}
	out := slices.Clone(nodes)
	for name, es := range perName {
		out = append(out, sim.Node{Name: name, Slots: peakOf(es), Slowdown: speeds.factorOf(name)})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// msLaw draws a scenario work law (seconds) in the simulator's ms.
type msLaw struct{ law *scenario.WorkLaw }

func (l msLaw) SampleWork(r *rand.Rand) float64 { return l.law.Sample(r) * 1000 }
