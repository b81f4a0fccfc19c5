package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ReadRumenFrom reads the jobs of a Rumen JSON trace, as written by
// Hadoop's Rumen TraceBuilder and read by the Scheduler Load Simulator
// (SLS "job trace" input): a stream of concatenated JSON job objects, not
// an array. name is used in errors and as each Job's Source.
//
// Fields follow Rumen's LoggedJob, LoggedTask and LoggedTaskAttempt: -1
// (Rumen's "unknown") becomes 0, "SUCCESS" becomes SUCCEEDED, an attempt's
// hostName "/rack/host" (or location.layers) gives Rack and Host, and the
// attempt's byte and record fields become counters under Hadoop's names
// (hdfsBytesRead -> HDFS_BYTES_READ, resourceUsageMetrics.cumulativeCpuUsage
// -> CPU_MILLISECONDS, ...). A task's InputBytes and OutputBytes are its
// recorded inputBytes and outputBytes when positive, else taken from its
// successful attempt's counters. otherTasks (setup, cleanup) are skipped.
// Syntax errors name the line where they occur; errors in a job's content
// name the line where that job's object starts.
func ReadRumenFrom(r io.Reader, name string) ([]*Job, error) {
	rr := NewRumenReader(r, name)
	var jobs []*Job
	for {
		job, _, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return jobs, nil
		}
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, job)
	}
}

// RumenReader reads a Rumen trace one job at a time (ReadRumenFrom's jobs
// and errors), so that a caller may keep what it needs of a job and let
// the rest go: a streamed replay holds one job's tasks at a time.
type RumenReader struct {
	name  string
	lines *lineCounter
	dec   *json.Decoder
	base  int64 // byte offset of the reader's start in the file
}

// RumenPos is where a job's object starts in a Rumen trace: its byte
// offset and 1-based line, for ReadRumenJobAt.
type RumenPos struct {
	Offset int64
	Line   int
}

// NewRumenReader reads the Rumen stream r; name is used in errors and as
// each Job's Source.
func NewRumenReader(r io.Reader, name string) *RumenReader {
	return newRumenReader(r, name, RumenPos{Line: 1})
}

// newRumenReader reads r, which starts at at in the trace.
func newRumenReader(r io.Reader, name string, at RumenPos) *RumenReader {
	lines := &lineCounter{r: r, base: at.Line - 1}
	return &RumenReader{name: name, lines: lines, dec: json.NewDecoder(lines), base: at.Offset}
}

// Next returns the next job and where its object starts; io.EOF (bare)
// after the last job.
func (rr *RumenReader) Next() (*Job, RumenPos, error) {
	dec, lines := rr.dec, rr.lines
	if !dec.More() {
		// More is false at EOF and at a stray ']' or '}'; Decode tells which.
		var extra json.RawMessage
		err := dec.Decode(&extra)
		if errors.Is(err, io.EOF) {
			return nil, RumenPos{}, io.EOF
		}
		return nil, RumenPos{}, rumenError(rr.name, lines, dec, dec.InputOffset(), err)
	}
	start := dec.InputOffset()
	pos := RumenPos{Offset: rr.base + start, Line: lines.lineAt(start)}
	var lj rumenJob
	if err := dec.Decode(&lj); err != nil {
		return nil, pos, rumenError(rr.name, lines, dec, start, err)
	}
	job, err := lj.job(rr.name)
	if err != nil {
		return nil, pos, fmt.Errorf("read %s line %d: job %q: %w", rr.name, pos.Line, lj.JobID, err)
	}
	lines.forget(dec.InputOffset())
	return job, pos, nil
}

// ReadRumenJobAt reads again the job whose object starts at pos in the
// Rumen trace r (a position RumenReader.Next gave), with the errors
// ReadRumenFrom gives for it; name is used in errors.
func ReadRumenJobAt(r io.ReadSeeker, name string, pos RumenPos) (*Job, error) {
	if _, err := r.Seek(pos.Offset, io.SeekStart); err != nil {
		return nil, fmt.Errorf("read %s line %d: %w", name, pos.Line, err)
	}
	job, _, err := newRumenReader(r, name, pos).Next()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read %s line %d: no job object here (the file changed since it was first read?)", name, pos.Line)
	}
	return job, err
}

// rumenError names the line of a decoding error that happened in the
// value starting at offset start.
func rumenError(name string, lines *lineCounter, dec *json.Decoder, start int64, err error) error {
	var (
		syntax    *json.SyntaxError
		typeError *json.UnmarshalTypeError
	)
	at := dec.InputOffset()
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		at = lines.total
		err = errors.New("unexpected end of file inside a JSON value (truncated?)")
	case errors.As(err, &syntax):
		at = start + syntax.Offset
	case errors.As(err, &typeError):
		at = start + typeError.Offset
	case err == nil:
		err = errors.New("unexpected JSON outside any job object")
	}
	return fmt.Errorf("read %s line %d: %w", name, lines.lineAt(at), err)
}

// lineCounter passes bytes through and remembers where the newlines are,
// so that a decoder offset can be turned into a line number. Newlines
// before an offset the caller is done with are forgotten (only counted).
type lineCounter struct {
	r        io.Reader
	total    int64   // bytes read so far
	base     int     // newlines forgotten
	newlines []int64 // offsets of newlines not forgotten
}

func (c *lineCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\n' {
			c.newlines = append(c.newlines, c.total+int64(i))
		}
	}
	c.total += int64(n)
	return n, err
}

// lineAt returns the 1-based line of byte offset off (off >= the last
// forgotten offset).
func (c *lineCounter) lineAt(off int64) int {
	n := 0
	for n < len(c.newlines) && c.newlines[n] < off {
		n++
	}
	return c.base + n + 1
}

// forget drops the newlines before off, keeping their count.
func (c *lineCounter) forget(off int64) {
	n := 0
	for n < len(c.newlines) && c.newlines[n] < off {
		n++
	}
	c.base += n
	c.newlines = append(c.newlines[:0], c.newlines[n:]...)
}

// rumenJob is the part of Rumen's LoggedJob this reader uses.
type rumenJob struct {
	JobID       string      `json:"jobID"`
	JobName     string      `json:"jobName"`
	User        string      `json:"user"`
	Queue       string      `json:"queue"`
	Outcome     string      `json:"outcome"`
	SubmitTime  int64       `json:"submitTime"`
	LaunchTime  int64       `json:"launchTime"`
	FinishTime  int64       `json:"finishTime"`
	MapTasks    []rumenTask `json:"mapTasks"`
	ReduceTasks []rumenTask `json:"reduceTasks"`
	// JobProperties is the job's configuration (rumenProperties keeps
	// the keys the replay reads).
	JobProperties map[string]json.RawMessage `json:"jobProperties"`
}

// rumenTask is the part of Rumen's LoggedTask this reader uses.
type rumenTask struct {
	TaskID             string          `json:"taskID"`
	TaskType           string          `json:"taskType"`
	TaskStatus         string          `json:"taskStatus"`
	StartTime          int64           `json:"startTime"`
	FinishTime         int64           `json:"finishTime"`
	InputBytes         int64           `json:"inputBytes"`
	OutputBytes        int64           `json:"outputBytes"`
	PreferredLocations []rumenLocation `json:"preferredLocations"`
	Attempts           []rumenAttempt  `json:"attempts"`
}

// rumenLocation is Rumen's LoggedLocation: layers [rack, host].
type rumenLocation struct {
	Layers []string `json:"layers"`
}

// rumenAttempt is the part of Rumen's LoggedTaskAttempt this reader uses.
type rumenAttempt struct {
	AttemptID       string         `json:"attemptID"`
	Result          string         `json:"result"`
	StartTime       int64          `json:"startTime"`
	FinishTime      int64          `json:"finishTime"`
	HostName        string         `json:"hostName"`
	Location        *rumenLocation `json:"location"`
	ShuffleFinished int64          `json:"shuffleFinished"`
	SortFinished    int64          `json:"sortFinished"`

	HDFSBytesRead       int64 `json:"hdfsBytesRead"`
	HDFSBytesWritten    int64 `json:"hdfsBytesWritten"`
	FileBytesRead       int64 `json:"fileBytesRead"`
	FileBytesWritten    int64 `json:"fileBytesWritten"`
	MapInputRecords     int64 `json:"mapInputRecords"`
	MapInputBytes       int64 `json:"mapInputBytes"`
	MapOutputBytes      int64 `json:"mapOutputBytes"`
	MapOutputRecords    int64 `json:"mapOutputRecords"`
	CombineInputRecords int64 `json:"combineInputRecords"`
	ReduceInputGroups   int64 `json:"reduceInputGroups"`
	ReduceInputRecords  int64 `json:"reduceInputRecords"`
	ReduceShuffleBytes  int64 `json:"reduceShuffleBytes"`
	ReduceOutputRecords int64 `json:"reduceOutputRecords"`
	SpilledRecords      int64 `json:"spilledRecords"`
	ResourceUsage       *struct {
		CumulativeCPUUsage  int64 `json:"cumulativeCpuUsage"`
		VirtualMemoryUsage  int64 `json:"virtualMemoryUsage"`
		PhysicalMemoryUsage int64 `json:"physicalMemoryUsage"`
		HeapUsage           int64 `json:"heapUsage"`
	} `json:"resourceUsageMetrics"`
}

// known turns Rumen's -1 (unknown) and other negatives into 0.
func known(v int64) int64 { return max(v, 0) }

// rumenStatus normalises Rumen's Pre21JobHistoryConstants values.
func rumenStatus(v string) string {
	if v == "SUCCESS" {
		return Succeeded
	}
	return v
}

func (lj *rumenJob) job(source string) (*Job, error) {
	if lj.JobID == "" {
		return nil, errors.New("no jobID")
	}
	job := &Job{
		ID: lj.JobID, Name: lj.JobName, User: lj.User, Queue: lj.Queue,
		Status: rumenStatus(lj.Outcome),
		Submit: known(lj.SubmitTime), Launch: known(lj.LaunchTime), Finish: known(lj.FinishTime),
		Source: source,
	}
	conf, err := rumenConf(lj.JobProperties, source)
	if err != nil {
		return nil, err
	}
	job.Conf = conf
	if err := job.checkTimes(); err != nil {
		return nil, err
	}
	for _, group := range [][]rumenTask{lj.MapTasks, lj.ReduceTasks} {
		for i := range group {
			t, keep, err := group[i].task()
			if err != nil {
				return nil, err
			}
			if keep {
				job.Tasks = append(job.Tasks, t)
			}
		}
	}
	sortTasks(job.Tasks)
	return job, nil
}

func (lt *rumenTask) task() (Task, bool, error) {
	id, err := parseTaskID(lt.TaskID)
	if err != nil {
		return Task{}, false, err
	}
	typ, ok := id.taskType()
	if !ok {
		return Task{}, false, nil
	}
	if lt.TaskType != "" && !strings.EqualFold(lt.TaskType, string(typ)) {
		return Task{}, false, fmt.Errorf("task %s: taskType %q does not match its id", lt.TaskID, lt.TaskType)
	}
	t := Task{
		ID: id.task, Type: typ, Index: id.index,
		Start: known(lt.StartTime), Finish: known(lt.FinishTime),
		Status: rumenStatus(lt.TaskStatus),
	}
	for _, loc := range lt.PreferredLocations {
		if n := len(loc.Layers); n > 0 && loc.Layers[n-1] != "" {
			t.SplitHosts = append(t.SplitHosts, loc.Layers[n-1])
		}
	}
	var succeeded map[string]int64
	for i := range lt.Attempts {
		a, err := lt.Attempts[i].attempt(id.task)
		if err != nil {
			return Task{}, false, fmt.Errorf("task %s: %w", lt.TaskID, err)
		}
		if a.Status == Succeeded {
			succeeded = a.Counters
		}
		t.Attempts = append(t.Attempts, a)
	}
	in, out := taskBytes(typ, succeeded)
	t.InputBytes, t.OutputBytes = in, out
	if lt.InputBytes > 0 {
		t.InputBytes = lt.InputBytes
	}
	if lt.OutputBytes > 0 {
		t.OutputBytes = lt.OutputBytes
	}
	return t, true, nil
}

func (la *rumenAttempt) attempt(task string) (Attempt, error) {
	id, err := parseAttemptID(la.AttemptID)
	if err != nil {
		return Attempt{}, err
	}
	if id.task != task {
		return Attempt{}, fmt.Errorf("attempt %s does not belong to the task", la.AttemptID)
	}
	a := Attempt{
		ID: la.AttemptID, N: id.attempt,
		Start: known(la.StartTime), Finish: known(la.FinishTime),
		ShuffleFinish: known(la.ShuffleFinished), SortFinish: known(la.SortFinished),
		Status: rumenStatus(la.Result),
	}
	// hostName is "/rack/host" (or a bare host); location.layers is [rack, host].
	if h := strings.TrimPrefix(la.HostName, "/"); h != "" {
		if rack, host, ok := strings.Cut(h, "/"); ok {
			a.Rack, a.Host = "/"+rack, host
		} else {
			a.Host = h
		}
	}
	if la.Location != nil && len(la.Location.Layers) == 2 {
		if a.Rack == "" {
			a.Rack = "/" + strings.TrimPrefix(la.Location.Layers[0], "/")
		}
		if a.Host == "" {
			a.Host = la.Location.Layers[1]
		}
	}
	counters := map[string]int64{}
	add := func(name string, v int64) {
		if v >= 0 {
			counters[name] = v
		}
	}
	add("HDFS_BYTES_READ", la.HDFSBytesRead)
	add("HDFS_BYTES_WRITTEN", la.HDFSBytesWritten)
	add("FILE_BYTES_READ", la.FileBytesRead)
	add("FILE_BYTES_WRITTEN", la.FileBytesWritten)
	add("MAP_INPUT_RECORDS", la.MapInputRecords)
	add("MAP_INPUT_BYTES", la.MapInputBytes)
	add("MAP_OUTPUT_BYTES", la.MapOutputBytes)
	add("MAP_OUTPUT_RECORDS", la.MapOutputRecords)
	add("COMBINE_INPUT_RECORDS", la.CombineInputRecords)
	add("REDUCE_INPUT_GROUPS", la.ReduceInputGroups)
	add("REDUCE_INPUT_RECORDS", la.ReduceInputRecords)
	add("REDUCE_SHUFFLE_BYTES", la.ReduceShuffleBytes)
	add("REDUCE_OUTPUT_RECORDS", la.ReduceOutputRecords)
	add("SPILLED_RECORDS", la.SpilledRecords)
	if ru := la.ResourceUsage; ru != nil {
		add("CPU_MILLISECONDS", ru.CumulativeCPUUsage)
		add("VIRTUAL_MEMORY_BYTES", ru.VirtualMemoryUsage)
		add("PHYSICAL_MEMORY_BYTES", ru.PhysicalMemoryUsage)
		add("COMMITTED_HEAP_BYTES", ru.HeapUsage)
	}
	if len(counters) > 0 {
		a.Counters = counters
	}
	return a, nil
}

// rumenLooksLike reports whether head looks like the start of a Rumen
// trace: a JSON object with a "jobID" or "mapTasks" key.
func rumenLooksLike(head []byte) bool {
	head = bytes.TrimSpace(head)
	return len(head) > 0 && head[0] == '{' &&
		(bytes.Contains(head, []byte(`"jobID"`)) || bytes.Contains(head, []byte(`"mapTasks"`)))
}
