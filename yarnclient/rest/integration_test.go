//go:build integration

package rest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/itest"
)

func TestIntegrationResourceManagerAndNodeManagers(t *testing.T) {
	ctx := context.Background()
	rm, err := NewResourceManager(itest.Env(t, "SPECBRIDGE_RM_WEB"), 10*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	info, err := rm.ClusterInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State != "STARTED" || info.HadoopVersion == "" || info.StartedOn == 0 {
		t.Errorf("cluster info %+v", info)
	}
	nodes, err := rm.Nodes(ctx, AllNodeStates...)
	if err != nil {
		t.Fatal(err)
	}
	running := 0
	for _, n := range nodes {
		if !n.Usable() {
			continue
		}
		running++
		if n.ID == "" || n.Host == "" || n.HTTPAddress == "" || n.LastHealthUpdate == 0 {
			t.Errorf("node %+v", n)
		}
		nm, err := NewNodeManager(n.HTTPAddress, 10*time.Second, nil)
		if err != nil {
			t.Fatal(err)
		}
		ni, err := nm.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ni.Healthy || ni.ID != n.ID || ni.StartedAt == 0 {
			t.Errorf("NM %s says %+v", n.ID, ni)
		}
	}
	if running < 1 {
		t.Fatalf("no RUNNING NodeManager among %+v", nodes)
	}
	t.Logf("%d NodeManagers RUNNING", running)
}

// intermediateDoneDir asks the JHS where finished jobs' histories arrive.
func intermediateDoneDir(t *testing.T, jhs *JobHistory) string {
	t.Helper()
	ctx := context.Background()
	dir, err := jhs.ConfValue(ctx, "mapreduce.jobhistory.intermediate-done-dir")
	if err != nil {
		t.Fatal(err)
	}
	const staging = "${yarn.app.mapreduce.am.staging-dir}"
	if strings.Contains(dir, staging) {
		s, err := jhs.ConfValue(ctx, "yarn.app.mapreduce.am.staging-dir")
		if err != nil {
			t.Fatal(err)
		}
		dir = strings.ReplaceAll(dir, staging, s)
	}
	if strings.Contains(dir, "${") || !strings.HasPrefix(dir, "/") {
		t.Fatalf("intermediate done dir %q: cannot expand", dir)
	}
	return dir
}

// The JobHistory server serves a history put where finished jobs' histories
// arrive (its done_intermediate directory): the fixture job, under a fresh
// id, with its 2 maps, 1 reduce, and map 1's killed original and
// successful speculative attempt.
func TestIntegrationJobHistory(t *testing.T) {
	ctx := context.Background()
	jhs, err := NewJobHistory(itest.Env(t, "SPECBRIDGE_JHS_WEB"), 10*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := itest.DialHDFS(t)
	inter := intermediateDoneDir(t, jhs)
	fixture, err := os.ReadFile("../history/testdata/job_2.4-SUCCEEDED-speculative.jhist")
	if err != nil {
		t.Fatal(err)
	}
	cluster := fmt.Sprint(time.Now().UnixMilli())
	jobID := "job_" + cluster + "_0002"
	body := bytes.ReplaceAll(fixture, []byte("1400204860297_0002"), []byte(cluster+"_0002"))
	// The JHS reads a job's summary from the file name (JobIndexInfo) and
	// deletes histories older than its max age, so the name carries now.
	now := time.Now().UnixMilli()
	dir := inter + "/user"
	name := fmt.Sprintf("%s-%d-user-word+count-%d-2-1-SUCCEEDED-default-%d.jhist", jobID, now-60_000, now, now-50_000)
	conf := `<?xml version="1.0"?><configuration><property><name>mapreduce.job.name</name><value>word count</value></property></configuration>`
	for _, f := range []struct{ name, body string }{{jobID + "_conf.xml", conf}, {jobID + ".summary", "jobId=" + jobID + "\n"}, {name, string(body)}} {
		if err := c.MkdirAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := c.WriteFile(dir+"/"+f.name, []byte(f.body)); err != nil {
			t.Fatal(err)
		}
	}
	var listed *Job
	deadline := time.Now().Add(60 * time.Second)
	for listed == nil {
		jobs, err := jhs.Jobs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for i := range jobs {
			if jobs[i].ID == jobID {
				listed = &jobs[i]
			}
		}
		if listed == nil && time.Now().After(deadline) {
			t.Fatalf("%s not listed within 60 s: %+v", jobID, jobs)
		}
		if listed == nil {
			time.Sleep(time.Second) // polling the JHS's scan of done_intermediate
		}
	}
	if listed.State != "SUCCEEDED" || listed.MapsTotal != 2 || listed.ReducesTotal != 1 || listed.User != "user" {
		t.Errorf("listed %+v", listed)
	}
	job, err := jhs.Job(ctx, jobID)
	if err != nil {
		t.Fatal(err)
	}
	if job.Name != "word count" || job.MapsCompleted != 2 || job.SuccessfulMapAttempts != 2 || job.KilledMapAttempts != 1 {
		t.Errorf("job %+v", job)
	}
	tasks, err := jhs.Tasks(ctx, jobID)
	if err != nil || len(tasks) != 3 {
		t.Fatalf("tasks %+v, %v", tasks, err)
	}
	m1 := "task_" + cluster + "_0002_m_000001"
	atts, err := jhs.Attempts(ctx, jobID, m1)
	if err != nil || len(atts) != 2 {
		t.Fatalf("attempts of %s: %+v, %v", m1, atts, err)
	}
	states := map[string]string{}
	for _, a := range atts {
		states[a.ID] = a.State + " " + a.NodeHTTPAddress
	}
	want := map[string]string{"attempt_" + cluster + "_0002_m_000001_0": "KILLED node2.example.com:8042",
		"attempt_" + cluster + "_0002_m_000001_1": "SUCCEEDED node1.example.com:8042"}
	if fmt.Sprint(states) != fmt.Sprint(want) {
		t.Errorf("attempts %v, want %v", states, want)
	}
	if _, err := jhs.Job(ctx, "job_1_0001"); !IsNotFound(err) {
		t.Errorf("unknown job: %v", err)
	}
}
