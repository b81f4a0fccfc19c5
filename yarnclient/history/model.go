// Package history reads recorded MapReduce jobs from Hadoop job-history
// files (.jhist Avro-JSON), Rumen JSON traces and SWIM workload TSV files,
// and returns them as plain Job values.
//
// The package only parses: it knows nothing of speculators or of the
// simulator, which convert its Jobs into workloads and event streams
// elsewhere (the replay package). It must not import speculators/ or sim/,
// it does no network I/O, and it never panics on bad input: every reader
// error names the file and the 1-based line it concerns, in the form
// "read FILE line N: what is wrong".
package history

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// TaskType is the kind of a MapReduce task. Only maps and reduces are
// returned; setup and cleanup tasks are skipped by every reader.
type TaskType string

// The task types a Job holds.
const (
	Map    TaskType = "MAP"
	Reduce TaskType = "REDUCE"
)

// Status values used by every reader for jobs, tasks and attempts. Rumen's
// "SUCCESS" is normalised to Succeeded; other recorded values are kept as
// they are.
const (
	Succeeded = "SUCCEEDED"
	Failed    = "FAILED"
	Killed    = "KILLED"
)

// Job is one recorded MapReduce job.
type Job struct {
	ID, Name, User, Queue string
	// Status is the final job status as recorded: SUCCEEDED, FAILED,
	// KILLED (or ERROR); empty when the history has no final event.
	Status string
	// Submit, Launch and Finish are epoch milliseconds, 0 if unknown.
	Submit, Launch, Finish int64
	// Tasks holds the maps first (by index), then the reduces (by index).
	Tasks []Task
	// Source is the file the job was read from.
	Source string
	// Conf is the job's configuration, the keys the replay reads
	// (ConfKept): from its conf.xml beside the history (read by the
	// replay) or a Rumen trace's jobProperties; nil when none was found.
	Conf *Conf
}

// checkTimes refuses a job whose recorded submit or launch time is after
// its finish time: a corrupt record, which replayed would put the job's
// arrival decades away from the others'.
func (j *Job) checkTimes() error {
	if j.Finish <= 0 {
		return nil
	}
	if j.Submit > j.Finish {
		return fmt.Errorf("submit time %d is after the job's finish time %d", j.Submit, j.Finish)
	}
	if j.Launch > j.Finish {
		return fmt.Errorf("launch time %d is after the job's finish time %d", j.Launch, j.Finish)
	}
	return nil
}

// Task is one map or reduce task of a Job.
type Task struct {
	ID   string
	Type TaskType
	// Index is parsed from the Hadoop id: task_..._m_000003 -> 3.
	Index         int
	Start, Finish int64 // epoch ms, 0 if unknown
	Status        string
	// InputBytes is, for a map, HDFS_BYTES_READ (or the split size when
	// the format records it); for a reduce, REDUCE_SHUFFLE_BYTES. 0 when
	// unknown.
	InputBytes int64
	// OutputBytes is, for a map, MAP_OUTPUT_MATERIALIZED_BYTES (or
	// HDFS_BYTES_WRITTEN for a map-only job); for a reduce,
	// HDFS_BYTES_WRITTEN. 0 when unknown.
	OutputBytes int64
	// SplitHosts are the hosts holding the map's input split.
	SplitHosts []string
	// Attempts are ordered by start time, then attempt number.
	Attempts []Attempt
}

// Attempt is one attempt of a Task.
type Attempt struct {
	ID string
	// N is the attempt number from the id: attempt_..._m_000003_1 -> 1.
	N                     int
	Host, Rack, Container string
	// Port is the port of the NodeManager that ran the attempt, its
	// NodeId's (host:port, as YARN and the ResourceManager's node list
	// name a NodeManager and as the shim names nodes live by default), 0
	// when the history does not record it. NodeKey uses it to tell apart
	// NodeManagers that share a host.
	Port int
	// Locality is the recorded data locality (NODE_LOCAL, RACK_LOCAL,
	// OFF_SWITCH) when the history has it (Hadoop 2.x+), else empty.
	Locality      string
	Start, Finish int64 // epoch ms, 0 if unknown
	// ShuffleFinish and SortFinish are set for reduces, 0 if unknown.
	ShuffleFinish, SortFinish int64
	// Status is SUCCEEDED, FAILED or KILLED; empty while unfinished.
	Status string
	// Startup is how long the attempt ran, from its container's launch,
	// before it began to progress (its JVM's start-up and the task's
	// set-up), in ms, from the progress splits of a job history (jhist.go's
	// startup); 0 when unknown.
	Startup int64
	// FirstReport is how long the attempt ran, from its container's
	// launch, before its first status report reached the AM (jhist.go's
	// firstReport, from the progress splits), in ms; 0 when unknown. At
	// least Startup: a task reports every few seconds at best, so an
	// attempt whose work began at Startup may still say nothing for
	// seconds more (live, a 40 s map first reported at 15 s, 6 of its 20
	// records read), and what a policy sees until then is no progress.
	FirstReport int64
	// ClockSplits is the ms the attempt spent in each twelfth of its
	// progress, from its container's launch (a job history's clockSplits,
	// Hadoop's ProgressSplitsBlock; jhist.go's clockSplits), nil when
	// unknown: the shape of its progress over its run, which its start and
	// finish alone do not give (a task silent until its end, a straggler
	// killed a sixth of the way).
	ClockSplits []int32
	// Speculative is true when the history records the attempt's avataar
	// as SPECULATIVE (Hadoop 2.x+); false otherwise, including when the
	// format does not record it.
	Speculative bool
	Error       string
	// Counters maps a flattened counter name ("HDFS_BYTES_READ",
	// "CPU_MILLISECONDS") to its value. When two groups hold a counter of
	// the same name, the first keeps the bare name and later ones are
	// stored as "GROUP.NAME".
	Counters map[string]int64
}

// hadoopID is what the readers need from a Hadoop task or attempt id.
type hadoopID struct {
	task    string // task_<cluster>_<job>_<type>_<index>
	letter  string // m, r, s (setup), c (cleanup), t (task cleanup)
	index   int
	attempt int // -1 for a task id
}

// parseTaskID parses task_<cluster>_<job>_<type>_<index>.
func parseTaskID(id string) (hadoopID, error) {
	parts := strings.Split(id, "_")
	if len(parts) != 5 || parts[0] != "task" {
		return hadoopID{}, fmt.Errorf("task id %q is not task_<cluster>_<job>_<m|r>_<index>", id)
	}
	return parseIDParts(id, parts[1:], -1)
}

// parseAttemptID parses attempt_<cluster>_<job>_<type>_<index>_<n>.
func parseAttemptID(id string) (hadoopID, error) {
	parts := strings.Split(id, "_")
	if len(parts) != 6 || parts[0] != "attempt" {
		return hadoopID{}, fmt.Errorf("attempt id %q is not attempt_<cluster>_<job>_<m|r>_<index>_<n>", id)
	}
	n, err := strconv.Atoi(parts[5])
	if err != nil || n < 0 {
		return hadoopID{}, fmt.Errorf("attempt id %q: attempt number %q is not a non-negative integer", id, parts[5])
	}
	return parseIDParts(id, parts[1:5], n)
}

func parseIDParts(id string, parts []string, attempt int) (hadoopID, error) {
	if parts[0] == "" || parts[1] == "" {
		return hadoopID{}, fmt.Errorf("id %q has an empty cluster or job part", id)
	}
	switch parts[2] {
	case "m", "r", "s", "c", "t":
	default:
		return hadoopID{}, fmt.Errorf("id %q: task type %q is not one of m, r, s, c, t", id, parts[2])
	}
	index, err := strconv.Atoi(parts[3])
	if err != nil || index < 0 {
		return hadoopID{}, fmt.Errorf("id %q: task index %q is not a non-negative integer", id, parts[3])
	}
	return hadoopID{
		task:    "task_" + strings.Join(parts[:4], "_"),
		letter:  parts[2],
		index:   index,
		attempt: attempt,
	}, nil
}

// taskType maps an id letter to the TaskType, with ok false for setup and
// cleanup tasks, which are skipped.
func (h hadoopID) taskType() (TaskType, bool) {
	switch h.letter {
	case "m":
		return Map, true
	case "r":
		return Reduce, true
	}
	return "", false
}

// sortTasks orders tasks maps first, then reduces, each by index, and each
// task's attempts by start time then attempt number.
func sortTasks(tasks []Task) {
	rank := func(t TaskType) int {
		if t == Map {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(tasks, func(a, b Task) int {
		if c := cmp.Compare(rank(a.Type), rank(b.Type)); c != 0 {
			return c
		}
		return cmp.Compare(a.Index, b.Index)
	})
	for i := range tasks {
		slices.SortStableFunc(tasks[i].Attempts, func(a, b Attempt) int {
			if c := cmp.Compare(a.Start, b.Start); c != 0 {
				return c
			}
			return cmp.Compare(a.N, b.N)
		})
	}
}

// taskBytes returns a task's input and output bytes from a set of
// flattened counters, following the rules documented on Task.
func taskBytes(typ TaskType, counters map[string]int64) (in, out int64) {
	if typ == Map {
		in = counters["HDFS_BYTES_READ"]
		out = counters["MAP_OUTPUT_MATERIALIZED_BYTES"]
		if out == 0 {
			out = counters["HDFS_BYTES_WRITTEN"]
		}
		return in, out
	}
	return counters["REDUCE_SHUFFLE_BYTES"], counters["HDFS_BYTES_WRITTEN"]
}

// splitHosts splits a comma-separated host list, dropping empty entries.
func splitHosts(list string) []string {
	var hosts []string
	for h := range strings.SplitSeq(list, ",") {
		if h = strings.TrimSpace(h); h != "" {
			hosts = append(hosts, h)
		}
	}
	return hosts
}

// NodeKey names the attempt's node as the replay does: its host, or
// host:port when shared says several NodeManagers ran on that host (a mini
// cluster's NodeManagers all report localhost) and the port is known.
// This is the shim's default node key (specbridge.node-key=host-port:
// the NodeId's host:port) wherever it tells nodes apart; where each host
// ran one NodeManager the host alone names the same node, and keeps the
// names (and so the replays) of histories read before ports were read.
func (a *Attempt) NodeKey(shared map[string]bool) string {
	if a.Port > 0 && shared[a.Host] {
		return a.Host + ":" + strconv.Itoa(a.Port)
	}
	return a.Host
}

// NodePorts gathers the NodeManager ports seen on each host, job by job,
// to find the hosts that several NodeManagers shared (Shared). It keeps
// at most two ports a host.
type NodePorts struct {
	ports map[string][2]int
}

// Add adds j's attempts' hosts and ports.
func (n *NodePorts) Add(j *Job) {
	for ti := range j.Tasks {
		for ai := range j.Tasks[ti].Attempts {
			n.add(&j.Tasks[ti].Attempts[ai])
		}
	}
}

func (n *NodePorts) add(a *Attempt) {
	if a.Host == "" || a.Port <= 0 {
		return
	}
	if n.ports == nil {
		n.ports = map[string][2]int{}
	}
	p := n.ports[a.Host]
	switch {
	case p[0] == 0:
		p[0] = a.Port
	case p[0] != a.Port && p[1] == 0:
		p[1] = a.Port
	}
	n.ports[a.Host] = p
}

// Clone returns a copy of n that Add does not share with n.
func (n *NodePorts) Clone() NodePorts {
	return NodePorts{ports: maps.Clone(n.ports)}
}

// Shared returns the hosts on which attempts ran under more than one
// NodeManager port (nil when there is none).
func (n *NodePorts) Shared() map[string]bool {
	var out map[string]bool
	for h, p := range n.ports {
		if p[1] != 0 {
			if out == nil {
				out = map[string]bool{}
			}
			out[h] = true
		}
	}
	return out
}
