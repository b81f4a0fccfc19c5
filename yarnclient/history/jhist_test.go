package history

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const (
	sharedData = "../../data" // the bundled inputs (data/README.md)
	jhist023   = sharedData + "/jhist/job_0.23.9-FAILED.jhist"
	jhist24    = sharedData + "/jhist/job_2.4.0-FAILED.jhist"
	jhistSpec  = "testdata/job_2.4-SUCCEEDED-speculative.jhist"
)

// readFile fails the test (it does not skip) when a sample is absent.
func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("sample data missing: %v", err)
	}
	return b
}

// checkTimes asserts finish >= start wherever both are known.
func checkTimes(t *testing.T, job *Job) {
	t.Helper()
	if job.Submit <= 0 || job.Launch < job.Submit || job.Finish < job.Launch {
		t.Errorf("job times submit %d launch %d finish %d", job.Submit, job.Launch, job.Finish)
	}
	for _, task := range job.Tasks {
		if task.Start <= 0 || task.Finish < task.Start {
			t.Errorf("%s: start %d finish %d", task.ID, task.Start, task.Finish)
		}
		for _, a := range task.Attempts {
			if a.Start <= 0 || a.Finish < a.Start {
				t.Errorf("%s: start %d finish %d", a.ID, a.Start, a.Finish)
			}
		}
	}
}

// attempts returns the job's attempts with the given status.
func attempts(job *Job, status string) []Attempt {
	var out []Attempt
	for _, task := range job.Tasks {
		for _, a := range task.Attempts {
			if a.Status == status {
				out = append(out, a)
			}
		}
	}
	return out
}

func TestReadJhist023Failed(t *testing.T) {
	readFile(t, jhist023)
	job, err := readJhistFile(jhist023)
	if err != nil {
		t.Fatal(err)
	}
	if job.ID != "job_1399356417814_19732" || job.Status != Failed || job.User != "rushabhs" ||
		job.Queue != "unfunded" || job.Name != "Fail job" || job.Source != jhist023 {
		t.Errorf("job = %+v", *job)
	}
	if len(job.Tasks) != 3 {
		t.Fatalf("tasks = %d, want 2 maps + 1 reduce", len(job.Tasks))
	}
	wantTasks := []struct {
		typ      TaskType
		index    int
		status   string
		attempts int
	}{{Map, 0, Killed, 4}, {Map, 1, Failed, 4}, {Reduce, 0, Killed, 0}}
	for i, w := range wantTasks {
		got := job.Tasks[i]
		if got.Type != w.typ || got.Index != w.index || got.Status != w.status || len(got.Attempts) != w.attempts {
			t.Errorf("task %d = %s %s #%d %s with %d attempts, want %s #%d %s with %d",
				i, got.ID, got.Type, got.Index, got.Status, len(got.Attempts), w.typ, w.index, w.status, w.attempts)
		}
	}
	failed, killed := attempts(job, Failed), attempts(job, Killed)
	if len(failed) != 7 || len(killed) != 1 {
		t.Fatalf("failed %d killed %d attempts, want 7 and 1", len(failed), len(killed))
	}
	k := killed[0]
	if k.ID != "attempt_1399356417814_19732_m_000000_3" || k.N != 3 || k.Host != "localhost" ||
		k.Rack != "/default-rack" || k.Container != "container_1399356417814_19732_01_000008" {
		t.Errorf("killed attempt = %+v", k)
	}
	for _, a := range failed {
		if a.Host != "localhost" || !strings.Contains(a.Error, "Intentional map failure") || a.Speculative {
			t.Errorf("failed attempt %s: host %q error %.30q speculative %v", a.ID, a.Host, a.Error, a.Speculative)
		}
	}
	// Attempts ordered by start: _0.._3.
	for i, a := range job.Tasks[0].Attempts {
		if a.N != i {
			t.Errorf("map 0 attempt %d has N %d", i, a.N)
		}
	}
	if got := job.Tasks[0].SplitHosts; len(got) != 3 || got[0] != "localhost" {
		t.Errorf("split hosts = %v", got)
	}
	// 0.23 records no counters on unsuccessful attempts.
	if c := failed[0].Counters; c != nil {
		t.Errorf("0.23 failed attempt counters = %v, want none", c)
	}
	checkTimes(t, job)
}

func TestReadJhist24Failed(t *testing.T) {
	readFile(t, jhist24)
	job, err := readJhistFile(jhist24)
	if err != nil {
		t.Fatal(err)
	}
	if job.ID != "job_1400204860297_0001" || job.Status != Failed || job.User != "user" || job.Queue != "unfunded" {
		t.Errorf("job = %+v", *job)
	}
	if len(job.Tasks) != 3 || job.Tasks[0].Type != Map || job.Tasks[1].Type != Map || job.Tasks[2].Type != Reduce {
		t.Fatalf("tasks = %+v", job.Tasks)
	}
	if s := []string{job.Tasks[0].Status, job.Tasks[1].Status, job.Tasks[2].Status}; s[0] != Failed || s[1] != Killed || s[2] != Killed {
		t.Errorf("task statuses = %v, want FAILED KILLED KILLED", s)
	}
	failed := attempts(job, Failed)
	if len(failed) != 4 || len(job.Tasks[0].Attempts) != 4 {
		t.Fatalf("failed attempts = %d, want 4 (all of map 0)", len(failed))
	}
	for i, a := range failed {
		if a.N != i || a.Host != "localhost" || a.Rack != "/default-rack" || a.Locality != "NODE_LOCAL" || a.Speculative {
			t.Errorf("attempt %d = %+v", i, a)
		}
		if len(a.Counters) == 0 {
			t.Errorf("%s: no counters", a.ID)
		}
		if _, ok := a.Counters["CPU_MILLISECONDS"]; !ok {
			t.Errorf("%s: counters %v lack CPU_MILLISECONDS", a.ID, a.Counters)
		}
	}
	// The sample's killed map 1 and reduce 0 never started an attempt.
	if n := len(attempts(job, Killed)); n != 0 {
		t.Errorf("killed attempts = %d, want 0", n)
	}
	checkTimes(t, job)
}

func TestReadJhistSpeculativeFixture(t *testing.T) {
	job, err := readJhistFile(jhistSpec)
	if err != nil {
		t.Fatal(err)
	}
	if job.Status != Succeeded || len(job.Tasks) != 3 {
		t.Fatalf("status %s, %d tasks", job.Status, len(job.Tasks))
	}
	m1 := job.Tasks[1]
	if m1.ID != "task_1400204860297_0002_m_000001" || len(m1.Attempts) != 2 {
		t.Fatalf("map 1 = %+v", m1)
	}
	orig, spec := m1.Attempts[0], m1.Attempts[1]
	if orig.N != 0 || orig.Speculative || orig.Status != Killed || orig.Host != "node2.example.com" || orig.Rack != "/rack2" {
		t.Errorf("original attempt = %+v", orig)
	}
	if spec.N != 1 || !spec.Speculative || spec.Status != Succeeded || spec.Host != "node1.example.com" || spec.Locality != "RACK_LOCAL" {
		t.Errorf("speculative attempt = %+v", spec)
	}
	if m1.InputBytes != 5118898 || m1.OutputBytes != 40287 {
		t.Errorf("map 1 bytes in %d out %d", m1.InputBytes, m1.OutputBytes)
	}
	r := job.Tasks[2]
	ra := r.Attempts[0]
	if r.InputBytes != 79234 || r.OutputBytes != 59617 || ra.ShuffleFinish != 1400205128560 || ra.SortFinish != 1400205128581 {
		t.Errorf("reduce = in %d out %d shuffle %d sort %d", r.InputBytes, r.OutputBytes, ra.ShuffleFinish, ra.SortFinish)
	}
	if ra.Counters["BYTES_WRITTEN"] != 59617 || ra.Counters["Shuffle Errors.BAD_ID"] != 0 {
		t.Errorf("reduce counters = %v", ra.Counters)
	}
	checkTimes(t, job)
}

// TestJhistUnionsAndSkips covers the Hadoop 2.7+/3.x union encoding, a
// setup task and an unknown event type.
func TestJhistUnionsAndSkips(t *testing.T) {
	const in = "Avro-Json\n{\"type\":\"record\"}\n" +
		`{"type":"JOB_SUBMITTED","event":{"x.JobSubmitted":{"jobid":"job_1_2","jobName":"n","userName":"u","submitTime":10,"jobQueueName":"q","workflowId":{"string":""}}}}` + "\n" +
		`{"type":"SOMETHING_NEW","event":{"x.New":{"whatever":[1,2]}}}` + "\n" +
		`{"type":"SETUP_ATTEMPT_STARTED","event":{"x.TaskAttemptStarted":{"taskid":"task_1_2_s_000000","taskType":"SETUP","attemptId":"attempt_1_2_s_000000_0","startTime":11}}}` + "\n" +
		`{"type":"MAP_ATTEMPT_STARTED","event":{"x.TaskAttemptStarted":{"taskid":"task_1_2_m_000004","taskType":"MAP","attemptId":"attempt_1_2_m_000004_2","startTime":{"long":20},"trackerName":"h","containerId":"c","locality":{"string":"OFF_SWITCH"},"avataar":{"string":"SPECULATIVE"}}}}` + "\n" +
		`{"type":"MAP_ATTEMPT_FAILED","event":{"x.TaskAttemptUnsuccessfulCompletion":{"taskid":"task_1_2_m_000004","taskType":"MAP","attemptId":"attempt_1_2_m_000004_2","finishTime":30,"hostname":"h2","rackname":"/r","status":"FAILED","error":"boom","counters":{"org.apache.hadoop.mapreduce.jobhistory.JhCounters":{"name":"C","groups":[{"name":"g","displayName":"G","counts":[{"name":"CPU_MILLISECONDS","displayName":"c","value":7}]}]}}}}}` + "\n" +
		`{"type":"JOB_KILLED","event":{"x.JobUnsuccessfulCompletion":{"jobid":"job_1_2","finishTime":40,"jobStatus":"KILLED","diagnostics":null}}}`
	job, err := ReadJhistFrom(strings.NewReader(in), "u.jhist")
	if err != nil {
		t.Fatal(err)
	}
	if job.Status != Killed || job.Finish != 40 || len(job.Tasks) != 1 {
		t.Fatalf("job = %+v", *job)
	}
	task := job.Tasks[0]
	a := task.Attempts[0]
	if task.Index != 4 || a.N != 2 || !a.Speculative || a.Locality != "OFF_SWITCH" || a.Start != 20 || a.Host != "h2" ||
		a.Status != Failed || a.Counters["CPU_MILLISECONDS"] != 7 {
		t.Errorf("task %+v", task)
	}
}

func TestJhistErrors(t *testing.T) {
	const (
		header = "Avro-Json\n{\"type\":\"record\"}\n"
		start  = `{"type":"MAP_ATTEMPT_STARTED","event":{"x.TaskAttemptStarted":{"taskid":"task_1_2_m_000000","attemptId":"attempt_1_2_m_000000_0","startTime":1}}}`
	)
	cases := []badInput{
		{"empty", "", 1, "Avro-Json or Avro-Binary header"},
		{"no header", "{\"type\":\"record\"}\n" + start + "\n", 1, "missing"},
		{"no schema", "Avro-Json\n", 2, "schema"},
		{"bad schema", "Avro-Json\nnot json\n", 2, "schema"},
		{"malformed", header + start + "\n\n{\"type\":\n", 5, "malformed"},
		{"truncated last line", header + start + "\n" + start[:40], 4, "truncated"},
		{"bad task id", header + strings.Replace(start, "task_1_2_m_000000", "task_1_2_m_x", 1) + "\n", 3, "task index"},
		{"bad attempt id", header + strings.Replace(start, "attempt_1_2_m_000000_0", "attempt_1_2_m_000000", 1) + "\n", 3, "attempt id"},
		{"attempt of another task", header + strings.Replace(start, "attempt_1_2_m_000000_0", "attempt_1_2_m_000001_0", 1) + "\n", 3, "does not belong"},
		{"wrong field type", header + strings.Replace(start, `"startTime":1`, `"startTime":"soon"`, 1) + "\n", 3, "want an integer"},
		{"no body", header + `{"type":"TASK_STARTED","event":null}` + "\n", 3, "want one record"},
		// A submit after the job's finish put the job's arrival centuries
		// from the other jobs of a directory.
		{"submit after finish", header + `{"type":"JOB_SUBMITTED","event":{"x.JobSubmitted":{"jobid":"job_1_2","submitTime":9000000000000000000}}}` + "\n" +
			`{"type":"JOB_FINISHED","event":{"x.JobFinished":{"jobid":"job_1_2","finishTime":50}}}` + "\n", 4, "submit time 9000000000000000000 is after the job's finish time 50"},
		{"launch after finish", header + `{"type":"JOB_FINISHED","event":{"x.JobFinished":{"jobid":"job_1_2","finishTime":50}}}` + "\n" +
			`{"type":"JOB_INITED","event":{"x.JobInited":{"jobid":"job_1_2","launchTime":60}}}` + "\n", 4, "launch time 60"},
	}
	checkBadInputs(t, "bad.jhist", func(r io.Reader, file string) error {
		_, err := ReadJhistFrom(r, file)
		return err
	}, cases)
}

// TestJhistTruncatedRealFile cuts the 2.4 sample inside its last event.
func TestJhistTruncatedRealFile(t *testing.T) {
	data := readFile(t, jhist24)
	path := filepath.Join(t.TempDir(), "cut.jhist")
	if err := os.WriteFile(path, data[:len(data)-30], 0o644); err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(string(data), "\n") // the last event is on this line
	_, err := readJhistFile(path)
	if err == nil || !strings.HasPrefix(err.Error(), "read "+path+" line "+strconv.Itoa(lines)+": truncated") {
		t.Fatalf("error %v, want truncated at line %d", err, lines)
	}
}

// A line longer than MaxJhistLine is a clear error naming the file and
// line, read without holding the whole line.
func TestJhistLineLimit(t *testing.T) {
	huge := io.MultiReader(strings.NewReader("Avro-Json\n"), strings.NewReader(strings.Repeat("x", MaxJhistLine+10)))
	_, err := ReadJhistFrom(huge, "big.jhist")
	if err == nil || !strings.Contains(err.Error(), "big.jhist line 2") || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("huge line: %v", err)
	}
}
