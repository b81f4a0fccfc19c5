package bridge

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/specbridge/specbridge/internal/hadoopid"
	"github.com/specbridge/specbridge/speculators"
)

// jobKey is the "<cluster timestamp>_<job number>" part shared by a job's
// job, task and attempt ids.
type jobKey string

// parseJobID checks a Hadoop job id ("job_1700000000000_0001") and returns
// its key ("1700000000000_0001").
func parseJobID(s string) (jobKey, error) {
	if !strings.HasPrefix(s, "job_") {
		return "", fmt.Errorf("job id %q does not start with job_", truncate(s, 80))
	}
	key, ok := hadoopid.JobKey(s)
	if !ok {
		return "", fmt.Errorf("job id %q is not job_<cluster>_<number>", truncate(s, 80))
	}
	return jobKey(key), nil
}

// parseTaskID parses "task_<cluster>_<job>_<m|r>_<index>" of job key.
func parseTaskID(key jobKey, s string) (speculators.TaskID, error) {
	rest, ok := strings.CutPrefix(s, "task_")
	if !ok {
		return speculators.TaskID{}, fmt.Errorf("task id %q does not start with task_", truncate(s, 80))
	}
	return parseTaskPart(key, rest, s)
}

// parseTaskPart parses "<cluster>_<job>_<m|r>_<index>".
func parseTaskPart(key jobKey, rest, whole string) (speculators.TaskID, error) {
	// Not CutPrefix(rest, key+"_"): that concatenation allocates per event.
	taskPart, ok := strings.CutPrefix(rest, string(key))
	if ok {
		taskPart, ok = strings.CutPrefix(taskPart, "_")
	}
	if !ok {
		return speculators.TaskID{}, fmt.Errorf("%q does not belong to job_%s", truncate(whole, 80), key)
	}
	letter, index, ok := strings.Cut(taskPart, "_")
	if !ok {
		return speculators.TaskID{}, fmt.Errorf("%q has no task index", truncate(whole, 80))
	}
	var t speculators.TaskID
	switch letter {
	case "m":
		t.Type = speculators.Map
	case "r":
		t.Type = speculators.Reduce
	default:
		return speculators.TaskID{}, fmt.Errorf("%q: task type %q is not m or r", truncate(whole, 80), truncate(letter, 8))
	}
	n, err := parseIndex(index)
	if err != nil {
		return speculators.TaskID{}, fmt.Errorf("%q: task index: %w", truncate(whole, 80), err)
	}
	t.Index = n
	return t, nil
}

// parseAttemptID parses "attempt_<cluster>_<job>_<m|r>_<index>_<n>".
func parseAttemptID(key jobKey, s string) (speculators.AttemptID, error) {
	rest, ok := strings.CutPrefix(s, "attempt_")
	if !ok {
		return speculators.AttemptID{}, fmt.Errorf("attempt id %q does not start with attempt_", truncate(s, 80))
	}
	i := strings.LastIndexByte(rest, '_')
	if i < 0 {
		return speculators.AttemptID{}, fmt.Errorf("attempt id %q has no attempt number", truncate(s, 80))
	}
	task, err := parseTaskPart(key, rest[:i], s)
	if err != nil {
		return speculators.AttemptID{}, err
	}
	n, err := parseIndex(rest[i+1:])
	if err != nil {
		return speculators.AttemptID{}, fmt.Errorf("%q: attempt number: %w", truncate(s, 80), err)
	}
	return speculators.AttemptID{Task: task, N: n}, nil
}

func parseIndex(s string) (int32, error) {
	if !hadoopid.Digits(s) {
		return 0, fmt.Errorf("%q is not a number", truncate(s, 16))
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%q is out of range", truncate(s, 16))
	}
	return int32(n), nil
}

// formatTaskID formats a task the way Hadoop's TaskID.toString does.
func formatTaskID(key jobKey, t speculators.TaskID) string {
	return fmt.Sprintf("task_%s_%s_%06d", key, t.Type.Letter(), t.Index)
}

// formatAttemptID formats an attempt the way Hadoop's TaskAttemptID.toString does.
func formatAttemptID(key jobKey, a speculators.AttemptID) string {
	return fmt.Sprintf("attempt_%s_%s_%06d_%d", key, a.Task.Type.Letter(), a.Task.Index, a.N)
}
