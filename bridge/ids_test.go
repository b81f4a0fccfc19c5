package bridge

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

func TestHadoopIDsRoundTrip(t *testing.T) {
	key, err := parseJobID("job_1700000000000_0001")
	if err != nil || key != "1700000000000_0001" {
		t.Fatalf("parseJobID: %q, %v", key, err)
	}
	a, err := parseAttemptID(key, "attempt_1700000000000_0001_r_000012_3")
	want := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Reduce, Index: 12}, N: 3}
	if err != nil || a != want {
		t.Fatalf("parseAttemptID: %+v, %v; want %+v", a, err, want)
	}
	if s := formatAttemptID(key, a); s != "attempt_1700000000000_0001_r_000012_3" {
		t.Fatalf("formatAttemptID: %s", s)
	}
	task, err := parseTaskID(key, "task_1700000000000_0001_m_1234567")
	if err != nil || task != (speculators.TaskID{Type: speculators.Map, Index: 1234567}) {
		t.Fatalf("parseTaskID: %+v, %v", task, err)
	}
	if s := formatTaskID(key, task); s != "task_1700000000000_0001_m_1234567" {
		t.Fatalf("formatTaskID: %s", s)
	}
}

func TestBadHadoopIDs(t *testing.T) {
	for _, s := range []string{"", "job_", "job_1", "job_1_", "job__1", "job_a_1", "application_1_1", "job_1_1_1"} {
		if _, err := parseJobID(s); err == nil {
			t.Errorf("parseJobID(%q) accepted", s)
		}
	}
	key := jobKey("1700000000000_0001")
	for _, s := range []string{
		"", "attempt_", "task_1700000000000_0001_m_000001",
		"attempt_1700000000000_0002_m_000001_0", // another job
		"attempt_1700000000000_0001_x_000001_0", // task type
		"attempt_1700000000000_0001_m_000001",   // no attempt number
		"attempt_1700000000000_0001_m__0",
		"attempt_1700000000000_0001_m_-1_0",
		"attempt_1700000000000_0001_m_99999999999_0", // out of int32
		"attempt_1700000000000_0001_m_000001_x",
	} {
		if a, err := parseAttemptID(key, s); err == nil {
			t.Errorf("parseAttemptID(%q) = %+v, want an error", s, a)
		}
	}
	for _, s := range []string{"attempt_1700000000000_0001_m_000001_0", "task_1700000000000_0001_m", "task_1700000000000_0001_r_1_2"} {
		if _, err := parseTaskID(key, s); err == nil {
			t.Errorf("parseTaskID(%q) accepted", s)
		}
	}
}
