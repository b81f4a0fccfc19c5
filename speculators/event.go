package speculators

// EventKind says what an Event reports.
type EventKind uint8

const (
	// AttemptStarted: an attempt was launched in a container on Node.
	AttemptStarted EventKind = iota
	// AttemptStatus: a progress report (Hadoop's ATTEMPT_STATUS_UPDATE).
	AttemptStatus
	// AttemptSucceeded, AttemptFailed, AttemptKilled end an attempt. A
	// Failed or Killed report for an attempt that had succeeded is a map
	// whose output was lost: its task runs again.
	AttemptSucceeded
	AttemptFailed
	AttemptKilled
	// ContainerNeeds: the AM has Count containers of TaskType it has asked
	// for and not yet got (Hadoop's TASK_CONTAINER_NEED_UPDATE, as a level,
	// not a delta).
	ContainerNeeds
	// NodeSuspected, NodeFailed, NodeResumed come from the fault analyzer.
	NodeSuspected
	NodeFailed
	NodeResumed
	// JobBounds sets an approximation job's deadline and/or error bound.
	JobBounds
)

var eventKindNames = [...]string{"attempt-started", "attempt-status", "attempt-succeeded", "attempt-failed",
	"attempt-killed", "container-needs", "node-suspected", "node-failed", "node-resumed", "job-bounds"}

func (k EventKind) String() string { return kindName(eventKindNames[:], int(k)) }

// Lifecycle reports whether k starts or ends an attempt: the events that
// change which attempts a task has running.
func (k EventKind) Lifecycle() bool {
	switch k {
	case AttemptStarted, AttemptSucceeded, AttemptFailed, AttemptKilled:
		return true
	}
	return false
}

// kindName is names[i], or "unknown" out of range: the String of the
// package's enums.
func kindName(names []string, i int) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return "unknown"
}

// Event is one observation folded into a job's state. It is a flat value so
// that the simulator can feed millions of them without allocating; which
// fields matter depends on Kind.
type Event struct {
	Kind EventKind
	Time Time

	Attempt AttemptID
	Node    NodeID // AttemptStarted; Node* events
	// NodeHint (AttemptStarted, optional) is 1 + the node's index in the
	// sender's own list of nodes, 0 for none: a dense id the simulator
	// gives each node once, at load, so that the engine finds the job's
	// record of the node by index instead of hashing its name at every
	// start (Job.nodeAt). The engine checks the record's name, so a wrong
	// hint costs one lookup by name, never a wrong node; hints above
	// MaxNodeHint are ignored. The bridge never sets it.
	NodeHint    int32
	Container   string // AttemptStarted, optional
	Speculative bool   // AttemptStarted: launched as a speculative copy
	// Restated (AttemptStarted): the start is restated from a resync's
	// snapshot, not news of a launch. Engines fold it like any start; the
	// fault analyzer does not take it as a sign of life of the node.
	Restated bool

	Progress float64 // AttemptStatus: progress score in [0,1]
	Phase    Phase   // AttemptStatus
	Counters Counters

	// FetchFailedMaps lists maps whose output this reduce attempt could not
	// fetch (AttemptStatus of a reduce).
	FetchFailedMaps []TaskID

	TaskType TaskType // ContainerNeeds
	Count    int      // ContainerNeeds

	Deadline   Time    // JobBounds: absolute deadline, 0 = none
	ErrorBound float64 // JobBounds: fraction of input tasks that may be left out, 0 = exact
}
