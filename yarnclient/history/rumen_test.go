package history

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const rumenFixture = "testdata/2jobs-rumen.json"

func TestReadRumenFixture(t *testing.T) {
	jobs, err := readRumenFile(rumenFixture)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 {
		t.Fatalf("jobs = %d, want 2", len(jobs))
	}
	j1, j2 := jobs[0], jobs[1]
	if j1.ID != "job_1369942127770_1206" || j1.Status != Succeeded || j1.User != "jenkins" || j1.Queue != "sls_queue_1" ||
		j1.Submit != 1371222200000 || j1.Launch != 1371222202101 || j1.Finish != 1371222252160 || j1.Source != rumenFixture {
		t.Errorf("job 1 = %+v", *j1)
	}
	if len(j1.Tasks) != 3 || j1.Tasks[0].Type != Map || j1.Tasks[1].Type != Map || j1.Tasks[2].Type != Reduce {
		t.Fatalf("job 1 tasks = %+v", j1.Tasks)
	}
	m1 := j1.Tasks[1]
	if m1.Index != 1 || len(m1.Attempts) != 2 || m1.InputBytes != 98566185 {
		t.Fatalf("map 1 = %+v", m1)
	}
	fa, ok := m1.Attempts[0], m1.Attempts[1]
	if fa.Status != Failed || fa.N != 0 || fa.Host != "a2117.smile.com" || fa.Rack != "/default-rack" ||
		ok.Status != Succeeded || ok.N != 1 || ok.Host != "a2115.smile.com" {
		t.Errorf("map 1 attempts = %+v", m1.Attempts)
	}
	if fa.Counters["HDFS_BYTES_READ"] != 52428800 || fa.Counters["CPU_MILLISECONDS"] != 6100 {
		t.Errorf("failed attempt counters = %v", fa.Counters)
	}
	if _, has := fa.Counters["MAP_OUTPUT_BYTES"]; has {
		t.Error("a -1 (unknown) Rumen field became a counter")
	}
	if got := j1.Tasks[0].SplitHosts; len(got) != 2 || got[0] != "a2118.smile.com" {
		t.Errorf("split hosts = %v", got)
	}
	r := j1.Tasks[2]
	if r.InputBytes != 1818650 || r.Attempts[0].ShuffleFinish != 1371222243020 || r.Attempts[0].SortFinish != 1371222243391 {
		t.Errorf("reduce = %+v", r)
	}
	if j1.Tasks[0].Attempts[0].ShuffleFinish != 0 {
		t.Error("map shuffleFinished -1 not read as 0")
	}
	if len(j2.Tasks) != 1 || j2.Tasks[0].Type != Map || j2.Name != "TeraGen" {
		t.Errorf("job 2 = %+v", *j2)
	}
}

func TestRumenErrors(t *testing.T) {
	good, err := os.ReadFile(rumenFixture)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(good), "\n")
	secondJob := 0 // line of job 2's opening brace
	for i, l := range lines {
		if l == "{" && i > 0 {
			secondJob = i + 1
		}
	}
	cases := []badInput{
		{"syntax", "{\n  \"jobID\" : \"job_1_1\",\n  \"mapTasks\" : [ ,\n]}\n", 3, "invalid character"},
		{"type", "{\"jobID\":\"job_1_1\"}\n{\n\"jobID\" : \"job_1_2\",\n\"submitTime\" : \"late\"\n}", 4, "submitTime"},
		{"truncated", "{\"jobID\":\"job_1_1\"}\n{\n\"jobID\" : \"job_1_2\",\n\"mapTasks\" : [", 4, "unexpected end"},
		{"no jobID", "\n\n{ \"user\" : \"u\" }", 3, "no jobID"},
		{"bad task id", "{\"jobID\":\"j\"}\n{\"jobID\":\"j2\",\n\"mapTasks\":[{\"taskID\":\"task_1_2_m\"}]}", 2, "task id"},
		{"stray bracket", "{\"jobID\":\"j\"}\n]", 2, "invalid character"},
		{"array", "[ {\"jobID\":\"j\"} ]", 1, "cannot unmarshal"},
		{"cut real file", string(good[:len(good)-200]), strings.Count(string(good[:len(good)-200]), "\n") + 1, "unexpected end"},
		{"bad second job", strings.Replace(string(good), `"task_1369942127770_1207_m_000000"`, `"task_x"`, 1), secondJob, "task id"},
		{"submit after finish", strings.Replace(string(good), `"submitTime" : 1371222200000`, `"submitTime" : 9223372036854775807`, 1), 1,
			"submit time 9223372036854775807 is after the job's finish time"},
	}
	checkBadInputs(t, "bad.json", func(r io.Reader, file string) error {
		_, err := ReadRumenFrom(r, file)
		return err
	}, cases)
}

func TestReadRumenMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.json")
	if _, err := readRumenFile(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v does not name %s", err, path)
	}
}
