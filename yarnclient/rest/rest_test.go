package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Responses recorded from a Hadoop 3.5.0 mini cluster (trimmed), and the
// shapes of Hadoop's REST API documentation for the JobHistory server.
var recorded = map[string]string{
	"/ws/v1/cluster/info": `{"clusterInfo":{"id":1795283016531,"startedOn":1795283016531,"state":"STARTED","haState":"ACTIVE","resourceManagerVersion":"3.5.0","hadoopVersion":"3.5.0"}}`,
	"/ws/v1/cluster/nodes": `{"nodes":{"node":[{"rack":"/default-rack","state":"RUNNING","id":"localhost:44895","nodeHostName":"localhost","nodeHTTPAddress":"localhost:43443","lastHealthUpdate":1795282999811,"version":"3.5.0","healthReport":"","numContainers":0,"usedMemoryMB":0,"availMemoryMB":4096,"usedVirtualCores":0,"availableVirtualCores":8,"resourceUtilization":{"nodePhysicalMemoryMB":0}},
		{"rack":"/default-rack","state":"LOST","id":"h2:8041","nodeHostName":"h2","nodeHTTPAddress":"","lastHealthUpdate":1795283000851,"healthReport":"","numContainers":0}]}}`,
	"/ws/v1/node/info":                                          `{"nodeInfo":{"healthReport":"","totalVmemAllocatedContainersMB":8601,"lastNodeUpdateTime":1795282999811,"nodeHealthy":true,"nodeManagerVersion":"3.5.0","id":"localhost:44895","nodeHostName":"localhost","nmStartupTime":1795282994927}}`,
	"/ws/v1/history/mapreduce/jobs":                             `{"jobs":{"job":[{"submitTime":1326381344449,"state":"SUCCEEDED","user":"user1","reducesTotal":1,"mapsCompleted":1,"startTime":1326381344489,"id":"job_1326381300833_1_1","name":"word count","reducesCompleted":1,"mapsTotal":1,"queue":"default","finishTime":1326381356010}]}}`,
	"/ws/v1/history/mapreduce/jobs/job_1326381300833_2_2":       `{"job":{"submitTime":1326381446500,"avgReduceTime":124961,"failedReduceAttempts":0,"state":"SUCCEEDED","successfulReduceAttempts":1,"acls":[{"value":" ","name":"mapreduce.job.acl-modify-job"}],"user":"user1","reducesTotal":1,"mapsCompleted":1,"startTime":1326381446529,"id":"job_1326381300833_2_2","avgMapTime":2638,"successfulMapAttempts":1,"name":"Sleep job","avgShuffleTime":2540,"reducesCompleted":1,"diagnostics":"","failedMapAttempts":0,"avgMergeTime":2589,"killedReduceAttempts":0,"mapsTotal":1,"queue":"default","uberized":false,"killedMapAttempts":0,"finishTime":1326381582106}}`,
	"/ws/v1/history/mapreduce/jobs/job_1326381300833_2_2/tasks": `{"tasks":{"task":[{"progress":100,"elapsedTime":6777,"state":"SUCCEEDED","startTime":1326381446541,"id":"task_1326381300833_2_2_m_0","type":"MAP","successfulAttempt":"attempt_1326381300833_2_2_m_0_0","finishTime":1326381453318},{"progress":100,"elapsedTime":135559,"state":"SUCCEEDED","startTime":1326381446544,"id":"task_1326381300833_2_2_r_0","type":"REDUCE","successfulAttempt":"attempt_1326381300833_2_2_r_0_0","finishTime":1326381582103}]}}`,
	"/ws/v1/history/mapreduce/jobs/job_1326381300833_2_2/tasks/task_1326381300833_2_2_m_0/attempts": `{"taskAttempts":{"taskAttempt":{"assignedContainerId":"container_1326381300833_0002_01_000002","progress":100,"elapsedTime":2638,"state":"SUCCEEDED","diagnostics":"","rack":"/98.139.92.0","nodeHttpAddress":"host.domain.com:8042","startTime":1326381450680,"id":"attempt_1326381300833_2_2_m_0_0","type":"MAP","finishTime":1326381453318}}}`,
	"/ws/v1/history/mapreduce/jobs/job_empty/tasks":                                                 `{"tasks":""}`,
}

func server(t *testing.T) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := recorded[r.URL.Path]
		if r.URL.Path == "/ws/v1/cluster/nodes" && r.URL.Query().Get("states") == "LOST" {
			body = `{"nodes":null}`
		}
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"RemoteException":{"exception":"NotFoundException","message":"job, x, is not found","javaClassName":"org.apache.hadoop.yarn.webapp.NotFoundException"}}`))
			return
		}
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(s.Close)
	return s
}

func TestResourceManagerDecodes(t *testing.T) {
	s := server(t)
	rm, err := NewResourceManager(s.URL, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	info, err := rm.ClusterInfo(ctx)
	if err != nil || info.State != "STARTED" || info.HadoopVersion != "3.5.0" || info.StartedOn != 1795283016531 {
		t.Fatalf("cluster info %+v, %v", info, err)
	}
	nodes, err := rm.Nodes(ctx)
	if err != nil || len(nodes) != 2 {
		t.Fatalf("nodes %+v, %v", nodes, err)
	}
	n := nodes[0]
	if n.ID != "localhost:44895" || n.Host != "localhost" || n.HTTPAddress != "localhost:43443" || n.State != "RUNNING" ||
		n.LastHealthUpdate != 1795282999811 || n.AvailMemoryMB != 4096 || !n.Usable() {
		t.Errorf("node 0 = %+v", n)
	}
	if nodes[1].State != "LOST" || nodes[1].Usable() {
		t.Errorf("node 1 = %+v", nodes[1])
	}
	lost, err := rm.Nodes(ctx, "LOST")
	if err != nil || len(lost) != 0 {
		t.Errorf("null node list: %+v, %v", lost, err)
	}
}

func TestNodeManagerDecodes(t *testing.T) {
	s := server(t)
	nm, err := NewNodeManager(strings.TrimPrefix(s.URL, "http://"), time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	info, err := nm.Info(context.Background())
	if err != nil || !info.Healthy || info.Host != "localhost" || info.StartedAt != 1795282994927 || info.ID != "localhost:44895" {
		t.Fatalf("node info %+v, %v", info, err)
	}
}

func TestJobHistoryDecodes(t *testing.T) {
	s := server(t)
	h, err := NewJobHistory(s.URL+"/", time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	jobs, err := h.Jobs(ctx)
	if err != nil || len(jobs) != 1 || jobs[0].ID != "job_1326381300833_1_1" || jobs[0].State != "SUCCEEDED" || jobs[0].MapsTotal != 1 {
		t.Fatalf("jobs %+v, %v", jobs, err)
	}
	job, err := h.Job(ctx, "job_1326381300833_2_2")
	if err != nil || job.Name != "Sleep job" || job.AvgMapTime != 2638 || job.FinishTime != 1326381582106 {
		t.Fatalf("job %+v, %v", job, err)
	}
	tasks, err := h.Tasks(ctx, job.ID)
	if err != nil || len(tasks) != 2 || tasks[1].Type != "REDUCE" || tasks[0].SuccessfulAttempt != "attempt_1326381300833_2_2_m_0_0" {
		t.Fatalf("tasks %+v, %v", tasks, err)
	}
	// A one-element list written as an object.
	atts, err := h.Attempts(ctx, job.ID, tasks[0].ID)
	if err != nil || len(atts) != 1 || atts[0].Container != "container_1326381300833_0002_01_000002" || atts[0].NodeHTTPAddress != "host.domain.com:8042" {
		t.Fatalf("attempts %+v, %v", atts, err)
	}
	empty, err := h.Tasks(ctx, "job_empty")
	if err != nil || len(empty) != 0 {
		t.Fatalf(`{"tasks":""}: %+v, %v`, empty, err)
	}
}

func TestErrorsNameTheURL(t *testing.T) {
	s := server(t)
	h, err := NewJobHistory(s.URL, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.Job(context.Background(), "job_missing")
	if !IsNotFound(err) || !strings.Contains(err.Error(), s.URL+"/ws/v1/history/mapreduce/jobs/job_missing") ||
		!strings.Contains(err.Error(), "is not found") {
		t.Errorf("missing job: %v", err)
	}
	// A refused connection names the URL too.
	rm, err := NewResourceManager("http://127.0.0.1:1", time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rm.Nodes(context.Background()); err == nil || !strings.Contains(err.Error(), "http://127.0.0.1:1/ws/v1/cluster/nodes") {
		t.Errorf("refused: %v", err)
	}
	if _, err := NewResourceManager("ftp://x", 0, nil); err == nil {
		t.Error("ftp:// accepted")
	}
}

func TestTimeoutApplies(t *testing.T) {
	release := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer s.Close()
	defer close(release)
	nm, err := NewNodeManager(s.URL, 50*time.Millisecond, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = nm.Info(context.Background())
	if err == nil || !strings.Contains(err.Error(), s.URL) {
		t.Fatalf("hung server: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("timeout took %v", d)
	}
}
