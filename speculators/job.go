package speculators

import (
	"errors"
	"fmt"
)

// JobInfo is what is known about a job when its engine is created: the
// bridge's hello frame live, the workload in the simulator.
type JobInfo struct {
	ID      string
	Maps    int
	Reduces int
	// MapInputBytes is each map's split size, if known (len Maps or nil).
	MapInputBytes []int64
	// ReduceInputBytes is each reduce's expected shuffle input, if known.
	ReduceInputBytes []int64
	// Slots is the number of containers the job can hold at once (the
	// cluster's capacity as the job sees it); LATE's SpeculativeCap is a
	// fraction of it. 0 = unknown.
	Slots int
	// Start is when the job started (AM start live, submit in the sim).
	Start Time
	// Deadline (absolute) and ErrorBound for approximation jobs; 0 = none.
	Deadline   Time
	ErrorBound float64
	// TaskMillis is the expected run time of one of the job's tasks in ms,
	// known before the job runs (Xu and Lau §III: "estimated ... according
	// to prior trace data of the application it runs and the size of the
	// input"); 0 = unknown, and policies that need it estimate it from the
	// job's completed tasks. The simulator takes it from the scenario;
	// live, the bridge takes it from the hello (the job's property
	// specbridge.job.task-mean-ms), else from the sidecar's cross-job prior
	// at the job's input size (bridge/taskmodel.go).
	TaskMillis float64
	// TailIndex is the Pareto tail index alpha of the job's task times,
	// known the same way (live: specbridge.job.task-tail-index only); 0 =
	// unknown (policies then use their parameter).
	TailIndex float64
	// Capacity, live only, reads the cluster's containers from the
	// ResourceManager (serve --rm); nil or not ok: unknown, and policies
	// size from Slots as without it.
	Capacity Capacity
	// Copies, live only, counts the copies (speculative attempts) running
	// in every job the sidecar serves, this one's too (serve's sessions),
	// set beside Capacity: the simulator's ClusterView.SpeculativeRunning
	// counts every job's copies, and a live view with the cluster's
	// capacity reads them here rather than its own alone (xulau.LiveView).
	// nil: unknown (the job's own copies stand in).
	Copies func() int
	// Resume says a Speculate decision with Resume set really starts its
	// copies at the byte offset of the attempt it names
	// (Speculative-Resume): the simulator when its Config.Resume is on.
	// False live, where Hadoop starts every attempt from the beginning of
	// its split (the bridge drops Resume on the wire), and in a replay of
	// histories, which predicts the live cluster. A policy that weighs what
	// a resumed copy saves must weigh nothing when it is false
	// (speculators/resume).
	Resume bool
	// SlotPools says the cluster gives maps and reduces separate slot
	// pools (Hadoop 1's map and reduce slots): the simulator when a
	// scenario's nodes have map_slots/reduce_slots. False live, where YARN
	// runs every task in a container of one shared pool (the bridge never
	// sets it), and in a replay of histories, which predicts the live
	// cluster.
	SlotPools bool
	// JobOrder says the cluster applies a JobPrioritizer's order of jobs
	// to free slots: the simulator when its Config.JobOrder orders jobs
	// (exact, or the YARN model; not none, a history's default); live, the
	// bridge when serve runs with --rm-job-order (its Config.JobOrder set:
	// YARN application priorities follow the order). False otherwise: the
	// scheduler alone orders jobs, and a policy whose choices pay through
	// its order (auto) must not count on it. Live it is set from the flag,
	// not from the cluster's answer: a cluster with priorities off (0
	// levels) is known only at the order's first round, after jobs start.
	JobOrder bool
}

// Attempt is the engine's view of one task attempt.
//
// The fields a status report writes come first, in the first 128 bytes,
// and the attempt is 192 bytes (a size class of its own, so every attempt
// starts on a cache line): a report reads and writes two lines, not three.
// (Attempts made in per-job blocks instead of one by one were measured
// slower: the collector scans small objects span by span, and a block of
// attempts is a large object with pointers.)
type Attempt struct {
	ID          AttemptID
	State       AttemptState
	Phase       Phase
	Speculative bool

	Start Time // launch time
	// LastReport is the time of the latest status report (Start before any).
	LastReport Time
	// LastProgressChange is the time progress last moved (Start before any).
	LastProgressChange Time

	Progress float64
	Reports  int // status reports received

	// PhaseStart and PhaseStartProgress are the time and progress of the
	// first report in the current phase (Start and 0 before any report), so
	// that a policy can extrapolate from the current phase's rate alone
	// (PhaseTimeLeft).
	PhaseStart         Time
	PhaseStartProgress float64
	Counters           Counters

	Finish    Time // when the attempt ended; 0 while running
	Node      NodeID
	Container string

	// nodeAt is 1 + the attempt's node's index in Job.Nodes, 0 when unknown
	// (NodeIndex).
	nodeAt int32
	_      [20]byte // to 192 bytes, as above
}

// NodeIndex is the index of the attempt's node in its Job's Nodes, -1 when
// the attempt has no node or was not started by the Job's events: a
// policy's per-node tables indexed like Job.Nodes need no map lookup.
func (a *Attempt) NodeIndex() int { return int(a.nodeAt) - 1 }

// Running reports whether the attempt is still running.
func (a *Attempt) Running() bool { return a.State == StateRunning }

// Task is the engine's view of one task.
type Task struct {
	ID         TaskID
	InputBytes int64
	// Attempts in the order they started.
	Attempts []*Attempt
	// RunningAttempts counts attempts in state running.
	RunningAttempts int
	// Succeeded is the attempt whose output the job uses, nil until one
	// succeeds (and again after that output is lost).
	Succeeded *Attempt
	Finish    Time
	// Dropped: an approximation policy said the job does not need it.
	Dropped bool
	// OutputLost counts how many times a succeeded attempt's output was lost.
	OutputLost int
	// FetchFailures counts fetch-failure reports against this map since its
	// last success.
	FetchFailures int
	// PendingCopies is the task's line of the copy-request ledger
	// (Job.PendingCopies).
	PendingCopies int
	// first holds Attempts' first element, so that the one attempt most
	// tasks ever have costs no allocation of a list (started).
	first [1]*Attempt
}

// Done reports whether the task has a successful attempt.
func (t *Task) Done() bool { return t.Succeeded != nil }

// Attempt returns the attempt numbered n, or nil.
func (t *Task) Attempt(n int32) *Attempt {
	// Attempts are usually numbered in start order from 0.
	if n >= 0 && int(n) < len(t.Attempts) && t.Attempts[n].ID.N == n {
		return t.Attempts[n]
	}
	for _, a := range t.Attempts {
		if a.ID.N == n {
			return a
		}
	}
	return nil
}

// OnlyRunning returns the single running attempt of the task, or nil when
// none or more than one runs.
func (t *Task) OnlyRunning() *Attempt {
	if t.RunningAttempts != 1 {
		return nil
	}
	for _, a := range t.Attempts {
		if a.State == StateRunning {
			return a
		}
	}
	return nil
}

// NodeHealth is a node's health as the fault analyzer reports it.
type NodeHealth uint8

const (
	NodeHealthy NodeHealth = iota
	NodeSuspect
	NodeDown
)

// Node is the engine's view of a node: what this job's attempts did there and
// what the fault analyzer said about it.
type Node struct {
	ID          NodeID
	Health      NodeHealth
	HealthSince Time
	// RunningAttempts and SucceededAttempts count this job's attempts there.
	RunningAttempts   int
	SucceededAttempts int
	FailedAttempts    int
}

// Job is one job's state, folded from events. Policies read it; only the
// Engine writes it.
type Job struct {
	Info  JobInfo
	Tasks [NumTaskTypes][]*Task
	// Nodes in the order they were first seen, for deterministic iteration.
	Nodes  []*Node
	nodeIx map[NodeID]int
	// byHint[h-1] is 1 + the index in Nodes of the node events hint as h
	// (Event.NodeHint), 0 when none has been seen (nodeAt).
	byHint []int32
	// hot is the attempt of the status report being observed, so that the
	// policy's lookup of it (Attempt) costs nothing (Engine.ObserveStatus).
	hot *Attempt

	Now Time // latest time seen in an event or Decide

	Completed    [NumTaskTypes]int // tasks with a successful attempt
	RunningTasks [NumTaskTypes]int // tasks with at least one running attempt
	// Live[type] holds the tasks with at least one running attempt, so that
	// a policy that looks only at running tasks need not visit every task
	// of a big job (mantri's duplicate candidates at each slot offer).
	Live [NumTaskTypes]TaskSet
	// Open[type] holds the tasks without a successful attempt (not Done), so
	// that a policy that looks at the tasks left need not visit the done
	// ones of a big job (GRASS's candidates at each slot offer).
	Open            [NumTaskTypes]TaskSet
	RunningAttempts [NumTaskTypes]int
	// SpeculativeRunning counts running attempts started as speculative copies.
	SpeculativeRunning [NumTaskTypes]int
	ContainerNeeds     [NumTaskTypes]int

	// Durations holds the run times (finish - start, ms) of every attempt
	// that completed its task, per type, in completion order.
	Durations [NumTaskTypes]RunningStats
	// CompletedRuntimes lists the same run times, per type.
	CompletedRuntimes [NumTaskTypes][]float64
	// NormalizedRuntimes lists run time per input byte (ms/byte) of completed
	// tasks whose input size is known, per type.
	NormalizedRuntimes [NumTaskTypes][]float64
	// Normalized accumulates NormalizedRuntimes, so that their mean (t_new
	// per byte) costs nothing to read.
	Normalized [NumTaskTypes]RunningStats

	Deadline   Time
	ErrorBound float64

	// PendingCopies is the copy-request ledger: copies of the job's tasks
	// that the policy asked for (Speculate decisions the engine returned
	// from Decide) and that have not started; Task.PendingCopies holds each
	// task's part. The engine keeps it (Engine.Decide, Engine.Observe);
	// policies read it. A started attempt of a task with copies pending is
	// one of them, speculative or not (it is the attempt the request
	// produced), and a task's requests are forgotten when it succeeds or has
	// no running attempt left (the AM reruns it as an ordinary task, and a
	// request still waiting has nothing to copy). A request the AM refuses
	// without starting anything stays pending until then: the engine sees
	// no refusal, and erring towards fewer copies is the caps' side.
	PendingCopies int
}

// FreeSlots is how many more attempts the job could run now: its slots
// (JobInfo.Slots) less its running attempts, the containers it waits for
// and the copies pending (PendingCopies). With Slots unknown it is 1 less
// the copies pending: one copy at a time.
func (j *Job) FreeSlots() int {
	if j.Info.Slots <= 0 {
		return 1 - j.PendingCopies
	}
	used := j.PendingCopies
	for ty := range j.Tasks {
		used += j.RunningAttempts[ty] + j.ContainerNeeds[ty]
	}
	return j.Info.Slots - used
}

// askCopies enters a request of n copies of task id in the ledger.
func (j *Job) askCopies(id TaskID, n int) {
	t := j.Task(id)
	if t == nil {
		return
	}
	n = max(n, 1)
	t.PendingCopies += n
	j.PendingCopies += n
}

// settleCopies updates the ledger for a lifecycle event (see PendingCopies).
func (j *Job) settleCopies(ev *Event) {
	t := j.LifecycleTask(ev)
	if t == nil || t.PendingCopies == 0 {
		return
	}
	switch {
	case ev.Kind == AttemptStarted:
		t.PendingCopies--
		j.PendingCopies--
	case t.Done() || t.RunningAttempts == 0:
		j.PendingCopies -= t.PendingCopies
		t.PendingCopies = 0
	}
}

// MaxJobTasks bounds a job's tasks (task indexes are int32; 2^24 tasks
// take about 1.6 GB as built).
const MaxJobTasks = 1 << 24

// nodeIxHint bounds the size a job's map of node names starts at (NewJob):
// 256 names take about 10 KiB.
const nodeIxHint = 256

// NewJob builds the empty state of a job.
func NewJob(info JobInfo) (*Job, error) {
	if info.Maps < 0 || info.Reduces < 0 {
		return nil, fmt.Errorf("job %s: negative task count (%d maps, %d reduces)", info.ID, info.Maps, info.Reduces)
	}
	// Checked one at a time so that the sum cannot overflow: the slots
	// below are allocated from these counts.
	if info.Maps > MaxJobTasks || info.Reduces > MaxJobTasks-info.Maps {
		return nil, fmt.Errorf("job %s: %d maps and %d reduces: at most %d tasks", info.ID, info.Maps, info.Reduces, MaxJobTasks)
	}
	if info.MapInputBytes != nil && len(info.MapInputBytes) != info.Maps {
		return nil, fmt.Errorf("job %s: %d map input sizes for %d maps", info.ID, len(info.MapInputBytes), info.Maps)
	}
	if info.ReduceInputBytes != nil && len(info.ReduceInputBytes) != info.Reduces {
		return nil, fmt.Errorf("job %s: %d reduce input sizes for %d reduces", info.ID, len(info.ReduceInputBytes), info.Reduces)
	}
	// The map of node names starts at the size the job's tasks need when
	// each runs on a node of its own (at most nodeIxHint), so that it is not
	// grown and rehashed again and again as the job's attempts start.
	nodes := min(info.Maps+info.Reduces, nodeIxHint)
	j := &Job{Info: info, nodeIx: make(map[NodeID]int, nodes), Now: info.Start, Deadline: info.Deadline, ErrorBound: info.ErrorBound}
	counts := [NumTaskTypes]int{info.Maps, info.Reduces}
	sizes := [NumTaskTypes][]int64{info.MapInputBytes, info.ReduceInputBytes}
	for ty := range counts {
		tasks := make([]*Task, counts[ty])
		backing := make([]Task, counts[ty])
		for i := range tasks {
			backing[i].ID = TaskID{Type: TaskType(ty), Index: int32(i)}
			if sizes[ty] != nil {
				backing[i].InputBytes = sizes[ty][i]
			}
			tasks[i] = &backing[i]
		}
		j.Tasks[ty] = tasks
		j.Live[ty] = NewTaskSet(counts[ty])
		j.Open[ty] = NewTaskSet(counts[ty])
		for i := range counts[ty] {
			j.Open[ty].Set(i, true)
		}
	}
	return j, nil
}

// LifecycleTask is the task whose attempt ev starts or ends, or nil for any
// other event (or a task the job does not have).
func (j *Job) LifecycleTask(ev *Event) *Task {
	if !ev.Kind.Lifecycle() {
		return nil
	}
	return j.Task(ev.Attempt.Task)
}

// Task returns the task with the given id, or nil when the job has none.
func (j *Job) Task(id TaskID) *Task {
	if int(id.Type) >= NumTaskTypes || id.Index < 0 || int(id.Index) >= len(j.Tasks[id.Type]) {
		return nil
	}
	return j.Tasks[id.Type][id.Index]
}

// Attempt returns the attempt with the given id, or nil.
func (j *Job) Attempt(id AttemptID) *Attempt {
	if h := j.hot; h != nil && h.ID == id {
		return h
	}
	t := j.Task(id.Task)
	if t == nil {
		return nil
	}
	return t.Attempt(id.N)
}

// Node returns the node's record, or nil when no event has named it.
func (j *Job) Node(id NodeID) *Node {
	if i, ok := j.nodeIx[id]; ok {
		return j.Nodes[i]
	}
	return nil
}

// NodeIndexOf is the index of the node's record in Nodes, -1 when no
// event has named it.
func (j *Job) NodeIndexOf(id NodeID) int {
	if i, ok := j.nodeIx[id]; ok {
		return i
	}
	return -1
}

func (j *Job) node(id NodeID) *Node {
	return j.Nodes[j.nodeAt(id, 0)]
}

// MaxNodeHint is the largest Event.NodeHint the engine uses: a job keeps
// 4 bytes per hint up to the largest it has seen.
const MaxNodeHint = 1 << 20

// nodeAt is the index in Nodes of the node named id, adding its record
// when no event has named it yet. hint is the event's NodeHint: when it
// names a record with this id (one slice read, the names' data compared
// by pointer first), the map of names is not consulted.
func (j *Job) nodeAt(id NodeID, hint int32) int {
	if hint > 0 && int(hint) <= len(j.byHint) {
		if k := j.byHint[hint-1]; k > 0 && j.Nodes[k-1].ID == id {
			return int(k - 1)
		}
	}
	i, ok := j.nodeIx[id]
	if !ok {
		i = len(j.Nodes)
		j.nodeIx[id] = i
		j.Nodes = append(j.Nodes, &Node{ID: id})
	}
	if hint > 0 && hint <= MaxNodeHint {
		if int(hint) > len(j.byHint) {
			j.byHint = Grow(j.byHint, int(hint))
		}
		j.byHint[hint-1] = int32(i) + 1
	}
	return i
}

// TotalTasks is the number of tasks of the type.
func (j *Job) TotalTasks(ty TaskType) int { return len(j.Tasks[ty]) }

// Finished reports whether every task the job still needs has succeeded.
func (j *Job) Finished() bool {
	for ty := range j.Tasks {
		for _, t := range j.Tasks[ty] {
			if !t.Done() && !t.Dropped {
				return false
			}
		}
	}
	return true
}

// Errors Observe returns. The job's state is unchanged when one is returned.
var (
	ErrUnknownTask    = errors.New("unknown task")
	ErrUnknownAttempt = errors.New("unknown attempt")
	ErrDuplicate      = errors.New("attempt already started")
	ErrBadEvent       = errors.New("malformed event")
)

// reach moves the job's clock to t unless it is already later.
func (j *Job) reach(t Time) {
	if t > j.Now {
		j.Now = t
	}
}

// apply folds one event into the state.
func (j *Job) apply(ev *Event) error {
	j.reach(ev.Time)
	switch ev.Kind {
	case AttemptStarted:
		return j.started(ev)
	case AttemptStatus:
		return j.status(ev)
	case AttemptSucceeded, AttemptFailed, AttemptKilled:
		return j.ended(ev)
	case ContainerNeeds:
		if int(ev.TaskType) >= NumTaskTypes || ev.Count < 0 {
			return fmt.Errorf("%w: container needs %d of type %d", ErrBadEvent, ev.Count, ev.TaskType)
		}
		j.ContainerNeeds[ev.TaskType] = ev.Count
	case NodeSuspected, NodeFailed, NodeResumed:
		if ev.Node == "" {
			return fmt.Errorf("%w: %s without a node", ErrBadEvent, ev.Kind)
		}
		n := j.node(ev.Node)
		n.HealthSince = ev.Time
		switch ev.Kind {
		case NodeSuspected:
			n.Health = NodeSuspect
		case NodeFailed:
			n.Health = NodeDown
		default:
			n.Health = NodeHealthy
		}
	case JobBounds:
		if ev.ErrorBound < 0 || ev.ErrorBound >= 1 || ev.Deadline < 0 {
			return fmt.Errorf("%w: job bounds deadline %d error %g", ErrBadEvent, ev.Deadline, ev.ErrorBound)
		}
		j.Deadline, j.ErrorBound = ev.Deadline, ev.ErrorBound
	default:
		return fmt.Errorf("%w: kind %d", ErrBadEvent, ev.Kind)
	}
	return nil
}

func (j *Job) started(ev *Event) error {
	t := j.Task(ev.Attempt.Task)
	if t == nil {
		return fmt.Errorf("%w %s", ErrUnknownTask, ev.Attempt.Task)
	}
	if t.Attempt(ev.Attempt.N) != nil {
		return fmt.Errorf("%w: %s", ErrDuplicate, ev.Attempt)
	}
	a := &Attempt{ID: ev.Attempt, Node: ev.Node, Container: ev.Container, Speculative: ev.Speculative,
		Start: ev.Time, LastReport: ev.Time, LastProgressChange: ev.Time, PhaseStart: ev.Time}
	if t.ID.Type == Reduce {
		a.Phase = PhaseShuffle
	}
	if t.Attempts == nil {
		t.Attempts = t.first[:0:1]
	}
	t.Attempts = append(t.Attempts, a)
	ty := t.ID.Type
	if t.RunningAttempts == 0 {
		j.RunningTasks[ty]++
		j.Live[ty].Set(int(t.ID.Index), true)
	}
	t.RunningAttempts++
	j.RunningAttempts[ty]++
	if a.Speculative {
		j.SpeculativeRunning[ty]++
	}
	if ev.Node != "" {
		i := j.nodeAt(ev.Node, ev.NodeHint)
		n := j.Nodes[i]
		n.RunningAttempts++
		// The attempt keeps its node's copy of the id: the event's is one
		// string per attempt (decoded from its frame), the node's is shared.
		a.Node = n.ID
		a.nodeAt = int32(i) + 1
	}
	return nil
}

// attemptOf finds the task and attempt ev names; either unknown is an error.
func (j *Job) attemptOf(ev *Event) (*Task, *Attempt, error) {
	t := j.Task(ev.Attempt.Task)
	if t == nil {
		return nil, nil, fmt.Errorf("%w %s", ErrUnknownTask, ev.Attempt.Task)
	}
	a := t.Attempt(ev.Attempt.N)
	if a == nil {
		return nil, nil, fmt.Errorf("%w %s", ErrUnknownAttempt, ev.Attempt)
	}
	return t, a, nil
}

func (j *Job) status(ev *Event) error {
	_, a, err := j.attemptOf(ev)
	if err != nil {
		return err
	}
	return j.statusOf(a, ev)
}

// statusOf folds a status report into its attempt a, found by the caller;
// a report it refuses changes nothing.
func (j *Job) statusOf(a *Attempt, ev *Event) error {
	if ev.Progress < 0 || ev.Progress > 1 || ev.Progress != ev.Progress {
		return fmt.Errorf("%w: progress %g for %s", ErrBadEvent, ev.Progress, ev.Attempt)
	}
	if len(ev.FetchFailedMaps) > 0 {
		for _, m := range ev.FetchFailedMaps {
			if j.Task(m) == nil || m.Type != Map {
				return fmt.Errorf("%w: fetch failure names %s", ErrUnknownTask, m)
			}
		}
		for _, m := range ev.FetchFailedMaps {
			j.Task(m).FetchFailures++
		}
	}
	if !a.Running() || ev.Time < a.LastReport {
		return nil // a late report for an attempt that has ended, or reordered: ignore
	}
	if ev.Progress != a.Progress {
		a.LastProgressChange = ev.Time
	}
	if ev.Phase != a.Phase {
		a.PhaseStart, a.PhaseStartProgress = ev.Time, ev.Progress
	}
	a.Progress, a.Phase, a.Counters, a.LastReport = ev.Progress, ev.Phase, ev.Counters, ev.Time
	a.Reports++
	return nil
}

func (j *Job) ended(ev *Event) error {
	t, a, err := j.attemptOf(ev)
	if err != nil {
		return err
	}
	ty := t.ID.Type
	var n *Node
	if i := a.NodeIndex(); i >= 0 {
		n = j.Nodes[i] // what j.node(a.Node) finds, without the lookup
	} else if a.Node != "" {
		n = j.node(a.Node)
	}
	switch a.State {
	case StateRunning:
		t.RunningAttempts--
		j.RunningAttempts[ty]--
		if t.RunningAttempts == 0 {
			j.RunningTasks[ty]--
			j.Live[ty].Set(int(t.ID.Index), false)
		}
		if a.Speculative {
			j.SpeculativeRunning[ty]--
		}
		if n != nil {
			n.RunningAttempts--
		}
	case StateSucceeded:
		if ev.Kind == AttemptSucceeded {
			return nil // duplicate report
		}
		// A succeeded attempt killed or failed afterwards: its output is gone.
		if t.Succeeded == a {
			t.Succeeded = nil
			j.Open[ty].Set(int(t.ID.Index), true)
			t.Finish = 0
			t.OutputLost++
			t.FetchFailures = 0
			j.Completed[ty]--
		}
		if n != nil {
			n.SucceededAttempts--
		}
		a.State = stateOf(ev.Kind)
		return nil
	default:
		return nil // already ended
	}
	a.State = stateOf(ev.Kind)
	// An end reported before the attempt's start (a clock stepped back on
	// the AM's host, a corrupt event) counts as an end at the start: a
	// negative run time would skew every estimate of the job, and refusing
	// the end would leave the attempt running for good.
	a.Finish = max(ev.Time, a.Start)
	switch ev.Kind {
	case AttemptSucceeded:
		a.Progress = 1
		if n != nil {
			n.SucceededAttempts++
		}
		if t.Succeeded == nil {
			t.Succeeded = a
			j.Open[ty].Set(int(t.ID.Index), false)
			t.Finish = a.Finish
			t.FetchFailures = 0
			j.Completed[ty]++
			d := float64(a.Finish - a.Start)
			j.Durations[ty].Add(d)
			j.CompletedRuntimes[ty] = appendRuntime(j.CompletedRuntimes[ty], d, len(j.Tasks[ty]))
			if t.InputBytes > 0 {
				j.NormalizedRuntimes[ty] = appendRuntime(j.NormalizedRuntimes[ty], d/float64(t.InputBytes), len(j.Tasks[ty]))
				j.Normalized[ty].Add(d / float64(t.InputBytes))
			}
		}
	case AttemptFailed:
		if n != nil {
			n.FailedAttempts++
		}
	}
	return nil
}

// appendRuntime appends v to a list of run times of a task type, which
// holds one a task (more only where an output was lost and made again):
// its first append makes room for every task of the type at once, so a
// job of 400,000 maps does not copy the list at each doubling.
func appendRuntime(list []float64, v float64, tasks int) []float64 {
	if list == nil {
		list = make([]float64, 0, max(tasks, 1))
	}
	return append(list, v)
}

func stateOf(k EventKind) AttemptState {
	switch k {
	case AttemptSucceeded:
		return StateSucceeded
	case AttemptFailed:
		return StateFailed
	default:
		return StateKilled
	}
}
