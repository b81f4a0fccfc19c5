package speculators

import "fmt"

// Time is a point in time in milliseconds. Live it is epoch milliseconds as
// Hadoop reports them; in the simulator it is virtual milliseconds since the
// start of the run. Policies only ever subtract times, so either works.
type Time = int64

// TaskType is the kind of a MapReduce task.
type TaskType uint8

const (
	Map TaskType = iota
	Reduce
)

// NumTaskTypes is the number of task types; arrays indexed by TaskType have
// this length.
const NumTaskTypes = 2

func (t TaskType) String() string {
	if t == Map {
		return "map"
	}
	return "reduce"
}

// Letter is the one-letter code Hadoop uses in task ids ("m" or "r").
func (t TaskType) Letter() string {
	if t == Map {
		return "m"
	}
	return "r"
}

// TaskID names a task within its job the way Hadoop does: the type and the
// task's index (task_<cluster>_<job>_m_000003 is {Map, 3}). The job is
// implicit: one engine holds one job.
type TaskID struct {
	Type  TaskType
	Index int32
}

func (t TaskID) String() string { return fmt.Sprintf("%s_%06d", t.Type.Letter(), t.Index) }

// AttemptID names one attempt of a task, numbered from 0 as Hadoop does.
type AttemptID struct {
	Task TaskID
	N    int32
}

func (a AttemptID) String() string { return fmt.Sprintf("%s_%d", a.Task, a.N) }

// NodeID is a node's host name (Hadoop's NodeId host, without the port).
type NodeID string

// AttemptState is the lifecycle state of an attempt as the engine sees it.
type AttemptState uint8

const (
	StateRunning AttemptState = iota
	StateSucceeded
	StateFailed
	StateKilled
)

func (s AttemptState) String() string {
	switch s {
	case StateRunning:
		return "RUNNING"
	case StateSucceeded:
		return "SUCCEEDED"
	case StateFailed:
		return "FAILED"
	default:
		return "KILLED"
	}
}

// Phase is the phase an attempt reports. Maps are always PhaseMap; reduces
// move through shuffle (copy), sort and reduce, each worth a third of the
// progress score (LATE §2.1).
type Phase uint8

const (
	PhaseMap Phase = iota
	PhaseShuffle
	PhaseSort
	PhaseReduce
)

func (p Phase) String() string {
	switch p {
	case PhaseMap:
		return "MAP"
	case PhaseShuffle:
		return "SHUFFLE"
	case PhaseSort:
		return "SORT"
	default:
		return "REDUCE"
	}
}

// ReduceProgress is the reduce progress score of LATE §2.1: copy, sort and
// reduce each account for a third, and within a phase the score is the
// fraction of that phase's data processed. A reduce halfway through copy
// scores 1/6; halfway through reduce, 5/6.
func ReduceProgress(phase Phase, fractionOfPhase float64) float64 {
	f := clamp01(fractionOfPhase)
	switch phase {
	case PhaseShuffle, PhaseMap:
		return f / 3
	case PhaseSort:
		return (1 + f) / 3
	default:
		return (2 + f) / 3
	}
}

func clamp01(f float64) float64 {
	if f < 0 {
		return 0
	}
	if f > 1 {
		return 1
	}
	return f
}

// Counters are the task counters policies use, as the latest status report
// carried them. Zero means "not reported".
type Counters struct {
	InputBytes     int64 // bytes of the split (maps) or of shuffled input (reduces) read so far
	OutputBytes    int64
	InputRecords   int64
	OutputRecords  int64
	CPUMillis      int64
	GCMillis       int64
	SpilledRecords int64
}
