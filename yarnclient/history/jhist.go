package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hamba/avro/v2"
)

// jhistEnvelope is one event line: {"type":"...","event":{"<record>":{...}}}.
type jhistEnvelope struct {
	Type  string                     `json:"type"`
	Event map[string]json.RawMessage `json:"event"`
}

// jhistBody holds every field of the job-history records this reader
// uses; a record fills the fields it has. Field names follow Hadoop's
// Events.avpr (JSON matching is case-insensitive, as in encoding/json).
type jhistBody struct {
	JobID        avroString `json:"jobid"`
	JobName      avroString `json:"jobName"`
	UserName     avroString `json:"userName"`
	JobQueueName avroString `json:"jobQueueName"`
	JobStatus    avroString `json:"jobStatus"`
	SubmitTime   avroLong   `json:"submitTime"`
	LaunchTime   avroLong   `json:"launchTime"`
	StartTime    avroLong   `json:"startTime"`
	FinishTime   avroLong   `json:"finishTime"`

	TaskID         avroString `json:"taskid"`
	TaskType       avroString `json:"taskType"`
	SplitLocations avroString `json:"splitLocations"`
	Status         avroString `json:"status"`
	Error          avroString `json:"error"`

	AttemptID         avroString  `json:"attemptId"`
	TrackerName       avroString  `json:"trackerName"`
	ContainerID       avroString  `json:"containerId"`
	Locality          avroString  `json:"locality"`
	Avataar           avroString  `json:"avataar"`
	Hostname          avroString  `json:"hostname"`
	Port              avroLong    `json:"port"`
	HTTPPort          avroLong    `json:"httpPort"`
	Rackname          avroString  `json:"rackname"`
	TaskStatus        avroString  `json:"taskStatus"`
	ShuffleFinishTime avroLong    `json:"shuffleFinishTime"`
	SortFinishTime    avroLong    `json:"sortFinishTime"`
	Counters          *jhCounters `json:"counters"`
	ClockSplits       avroLongs   `json:"clockSplits"`
}

// jhistParser folds events into a Job.
type jhistParser struct {
	// binary is set by an Avro-Binary header, schema then by the schema
	// line of such a file.
	binary bool
	schema avro.Schema
	job    *Job
	tasks  map[string]*Task
	order  []string // task ids in first-seen order
	// taskCounters are the counters of TASK_FINISHED, by task id.
	taskCounters map[string]map[string]int64
	// httpPorts are the NodeManager HTTP ports of the attempts started
	// (TaskAttemptStarted records that port, not the NodeId's), by
	// attempt id: nodePorts fills an attempt's Port from them.
	httpPorts map[string]int
}

// line handles one line (already trimmed of surrounding space).
func (p *jhistParser) line(n int, text []byte) error {
	switch n {
	case 1:
		switch string(text) {
		case jhistHeader:
		case jhistBinaryHeader:
			p.binary = true
		default:
			return fmt.Errorf("missing %q or %q header, found %.40q", jhistHeader, jhistBinaryHeader, text)
		}
		return nil
	case 2:
		if len(text) == 0 || text[0] != '{' || !json.Valid(text) {
			return errors.New("the Avro schema line is not a JSON object")
		}
		if p.binary {
			schema, err := parseJhistSchema(text)
			if err != nil {
				return err
			}
			p.schema = schema
		}
		return nil
	}
	if len(text) == 0 {
		return nil // Hadoop 2.x separates events with blank lines
	}
	return p.event(text)
}

// event handles one event in Avro's JSON encoding; the binary reader
// turns each datum into this form too (see jhistread.go).
func (p *jhistParser) event(text []byte) error {
	var env jhistEnvelope
	if err := json.Unmarshal(text, &env); err != nil {
		return fmt.Errorf("malformed event: %w", err)
	}
	if env.Type == "" {
		return errors.New("event has no type")
	}
	if !jhistKnown(env.Type) {
		return nil
	}
	if len(env.Event) != 1 {
		return fmt.Errorf("%s event: want one record in \"event\", found %d", env.Type, len(env.Event))
	}
	var body jhistBody
	for record, raw := range env.Event {
		if err := json.Unmarshal(raw, &body); err != nil {
			return fmt.Errorf("%s event (%s): %w", env.Type, record, err)
		}
	}
	if err := p.apply(env.Type, &body); err != nil {
		return fmt.Errorf("%s event: %w", env.Type, err)
	}
	return nil
}

// jhistKnown reports whether the reader uses events of this type.
func jhistKnown(typ string) bool {
	switch typ {
	case "JOB_SUBMITTED", "JOB_INITED", "JOB_INFO_CHANGED", "JOB_QUEUE_CHANGED",
		"JOB_STATUS_CHANGED", "JOB_FINISHED", "JOB_FAILED", "JOB_KILLED",
		"JOB_ERROR", "JOB_UNSUCCESSFUL_COMPLETION",
		"TASK_STARTED", "TASK_FINISHED", "TASK_FAILED":
		return true
	}
	return (strings.HasPrefix(typ, "MAP_ATTEMPT_") || strings.HasPrefix(typ, "REDUCE_ATTEMPT_")) &&
		attemptOutcome(typ) != "?"
}

// attemptOutcome is the last word of an attempt event type: STARTED,
// FINISHED, FAILED, KILLED, or "?" for anything else.
func attemptOutcome(typ string) string {
	word := typ[strings.LastIndexByte(typ, '_')+1:]
	switch word {
	case "STARTED", "FINISHED", "FAILED", "KILLED":
		return word
	}
	return "?"
}

func (p *jhistParser) apply(typ string, b *jhistBody) error {
	job := p.job
	setString := func(dst *string, v avroString) {
		if v != "" {
			*dst = string(v)
		}
	}
	setTime := func(dst *int64, v avroLong) {
		if v > 0 {
			*dst = int64(v)
		}
	}
	switch typ {
	case "JOB_SUBMITTED":
		setString(&job.ID, b.JobID)
		setString(&job.Name, b.JobName)
		setString(&job.User, b.UserName)
		setString(&job.Queue, b.JobQueueName)
		setTime(&job.Submit, b.SubmitTime)
	case "JOB_INITED":
		setString(&job.ID, b.JobID)
		setTime(&job.Launch, b.LaunchTime)
	case "JOB_INFO_CHANGED":
		setTime(&job.Submit, b.SubmitTime)
		setTime(&job.Launch, b.LaunchTime)
	case "JOB_QUEUE_CHANGED":
		setString(&job.Queue, b.JobQueueName)
	case "JOB_STATUS_CHANGED":
		setString(&job.Status, b.JobStatus)
	case "JOB_FINISHED":
		setString(&job.ID, b.JobID)
		setTime(&job.Finish, b.FinishTime)
		job.Status = Succeeded
	case "JOB_FAILED", "JOB_KILLED", "JOB_ERROR", "JOB_UNSUCCESSFUL_COMPLETION":
		setString(&job.ID, b.JobID)
		setTime(&job.Finish, b.FinishTime)
		job.Status = strings.TrimPrefix(typ, "JOB_")
		setString(&job.Status, b.JobStatus)
	case "TASK_STARTED", "TASK_FINISHED", "TASK_FAILED":
		return p.applyTask(typ, b)
	default:
		return p.applyAttempt(typ, b)
	}
	return job.checkTimes()
}

// task returns the task for a parsed id, creating it; nil for setup and
// cleanup tasks.
func (p *jhistParser) task(id hadoopID) *Task {
	typ, ok := id.taskType()
	if !ok {
		return nil
	}
	t := p.tasks[id.task]
	if t == nil {
		t = &Task{ID: id.task, Type: typ, Index: id.index}
		p.tasks[id.task] = t
		p.order = append(p.order, id.task)
	}
	return t
}

func (p *jhistParser) applyTask(typ string, b *jhistBody) error {
	if skippedTaskType(b.TaskType) {
		return nil
	}
	id, err := parseTaskID(string(b.TaskID))
	if err != nil {
		return err
	}
	t := p.task(id)
	if t == nil {
		return nil
	}
	switch typ {
	case "TASK_STARTED":
		if b.StartTime > 0 {
			t.Start = int64(b.StartTime)
		}
		if hosts := splitHosts(string(b.SplitLocations)); hosts != nil {
			t.SplitHosts = hosts
		}
	case "TASK_FINISHED", "TASK_FAILED":
		if b.FinishTime > 0 {
			t.Finish = int64(b.FinishTime)
		}
		t.Status = string(b.Status)
		if t.Status == "" {
			t.Status = map[string]string{"TASK_FINISHED": Succeeded, "TASK_FAILED": Failed}[typ]
		}
		if b.Counters != nil {
			if c := b.Counters.flatten(); c != nil {
				if p.taskCounters == nil {
					p.taskCounters = map[string]map[string]int64{}
				}
				p.taskCounters[t.ID] = c
			}
		}
	}
	return nil
}

// skippedTaskType reports a setup or cleanup taskType field.
func skippedTaskType(v avroString) bool {
	switch strings.ToUpper(string(v)) {
	case "SETUP", "CLEANUP", "JOB_SETUP", "JOB_CLEANUP", "TASK_CLEANUP":
		return true
	}
	return false
}

func (p *jhistParser) applyAttempt(typ string, b *jhistBody) error {
	if skippedTaskType(b.TaskType) {
		return nil
	}
	if b.AttemptID == "" {
		return errors.New("no attemptId")
	}
	aid, err := parseAttemptID(string(b.AttemptID))
	if err != nil {
		return err
	}
	taskID := string(b.TaskID)
	if taskID == "" {
		taskID = aid.task
	}
	tid, err := parseTaskID(taskID)
	if err != nil {
		return err
	}
	if tid.task != aid.task {
		return fmt.Errorf("attempt %s does not belong to task %s", b.AttemptID, taskID)
	}
	t := p.task(tid)
	if t == nil {
		return nil
	}
	a := attemptOf(t, string(b.AttemptID), aid.attempt)
	switch outcome := attemptOutcome(typ); outcome {
	case "STARTED":
		if b.StartTime > 0 {
			a.Start = int64(b.StartTime)
		}
		if a.Host == "" {
			a.Host = string(b.TrackerName)
		}
		if port, ok := nodePort(b.HTTPPort); ok {
			if p.httpPorts == nil {
				p.httpPorts = map[string]int{}
			}
			p.httpPorts[a.ID] = port
		}
		a.Container = string(b.ContainerID)
		a.Locality = string(b.Locality)
		a.Speculative = strings.EqualFold(string(b.Avataar), "SPECULATIVE")
	default: // FINISHED, FAILED, KILLED
		if b.FinishTime > 0 {
			a.Finish = int64(b.FinishTime)
		}
		if b.Hostname != "" {
			a.Host = string(b.Hostname)
		}
		if port, ok := nodePort(b.Port); ok {
			a.Port = port
		}
		if b.Rackname != "" {
			a.Rack = string(b.Rackname)
		}
		a.Status = string(b.TaskStatus)
		if outcome != "FINISHED" || a.Status == "" {
			a.Status = string(b.Status)
		}
		if a.Status == "" {
			a.Status = map[string]string{"FINISHED": Succeeded, "FAILED": Failed, "KILLED": Killed}[outcome]
		}
		a.Error = string(b.Error)
		if b.ShuffleFinishTime > 0 {
			a.ShuffleFinish = int64(b.ShuffleFinishTime)
		}
		if b.SortFinishTime > 0 {
			a.SortFinish = int64(b.SortFinishTime)
		}
		if b.Counters != nil {
			if c := b.Counters.flatten(); c != nil {
				a.Counters = c
			}
		}
		a.ClockSplits = clockSplits(b.ClockSplits)
		a.Startup = startup(a.ClockSplits)
		a.FirstReport = max(firstReport(a.ClockSplits), a.Startup)
	}
	return nil
}

// clockSplits is the wall-clock splits Hadoop records with an attempt's
// end (clockSplits, ProgressSplitsBlock's wall clock: the ms the attempt
// spent in each twelfth of its progress, from its container's launch; an
// attempt ended before 100% has its remaining time spread over the
// twelfths it did not reach). nil when the history has no such splits, not
// Hadoop's 12, or a value out of range (negative, or over an int32 of ms:
// 24 days in one twelfth is a damaged time): the attempt's times still
// stand.
func clockSplits(splits avroLongs) []int32 {
	const twelfths = 12
	if len(splits) != twelfths {
		return nil
	}
	out := make([]int32, twelfths)
	for i, v := range splits {
		if v < 0 || v > math.MaxInt32 {
			return nil
		}
		out[i] = int32(v)
	}
	return out
}

// startup is how long an attempt ran before it began to progress, from its
// clock splits (clockSplits): the first twelfth's time less the median
// twelfth's of the other eleven, that is the part of the first twelfth
// that was no progress (the JVM's start-up, the task's set-up). 0 when the
// splits are unknown.
func startup(splits []int32) int64 {
	if len(splits) < 2 {
		return 0
	}
	rest := slices.Clone(splits[1:])
	slices.Sort(rest)
	return max(int64(splits[0])-int64(rest[len(rest)/2]), 0)
}

// firstReport is when an attempt first reported progress, from its clock
// splits: Hadoop fills the twelfths between two reports by a straight line
// (ProgressSplitsBlock), the first from the launch at progress 0, so the
// leading twelfths of equal time (within a ms) lie before the first
// report, which came at their end or within the next twelfth: their total
// is taken (a lower bound). All twelfths equal: one line from the launch
// to the end, no report before it. 0 when the splits are unknown.
func firstReport(splits []int32) int64 {
	if len(splits) == 0 {
		return 0
	}
	k := 1
	for k < len(splits) && SameTwelfth(splits[k], splits[0]) {
		k++
	}
	var t int64
	for _, v := range splits[:k] {
		t += int64(v)
	}
	return t
}

// SameTwelfth reports whether two clock-split twelfths took the same time
// within Hadoop's rounding to the ms: twelfths it filled from one straight
// line (between two reports, or spread over the twelfths an attempt never
// reached at its end).
func SameTwelfth(a, b int32) bool {
	d := int64(a) - int64(b)
	return d >= -1 && d <= 1
}

// attemptOf returns the task's attempt with this id, adding it.
func attemptOf(t *Task, id string, n int) *Attempt {
	for i := range t.Attempts {
		if t.Attempts[i].ID == id {
			return &t.Attempts[i]
		}
	}
	t.Attempts = append(t.Attempts, Attempt{ID: id, N: n})
	return &t.Attempts[len(t.Attempts)-1]
}

// nodePort is a recorded port when it is one (1-65535); Hadoop writes -1
// for an attempt that never ran on a node.
func nodePort(v avroLong) (int, bool) {
	if v >= 1 && v <= 65535 {
		return int(v), true
	}
	return 0, false
}

// nodePorts gives an attempt whose end records no NodeManager port (one
// still running when the history was cut) the port of another attempt of
// the job started on the same host and NodeManager HTTP port.
func (p *jhistParser) nodePorts() {
	if len(p.httpPorts) == 0 {
		return
	}
	type hostHTTP struct {
		host string
		http int
	}
	known := map[hostHTTP]int{}
	for _, t := range p.tasks {
		for _, a := range t.Attempts {
			if h, ok := p.httpPorts[a.ID]; ok && a.Port > 0 {
				known[hostHTTP{a.Host, h}] = a.Port
			}
		}
	}
	for _, t := range p.tasks {
		for i := range t.Attempts {
			a := &t.Attempts[i]
			if h, ok := p.httpPorts[a.ID]; ok && a.Port == 0 {
				a.Port = known[hostHTTP{a.Host, h}]
			}
		}
	}
}

// finish builds the Job: tasks in order, bytes from counters.
func (p *jhistParser) finish() *Job {
	p.nodePorts()
	job := p.job
	job.Tasks = make([]Task, 0, len(p.order))
	for _, id := range p.order {
		t := *p.tasks[id]
		counters := p.taskCounters[id]
		if counters == nil {
			for _, a := range t.Attempts {
				if a.Status == Succeeded && a.Counters != nil {
					counters = a.Counters
				}
			}
		}
		t.InputBytes, t.OutputBytes = taskBytes(t.Type, counters)
		job.Tasks = append(job.Tasks, t)
	}
	sortTasks(job.Tasks)
	return job
}
