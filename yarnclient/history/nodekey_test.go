package history

import (
	"fmt"
	"strings"
	"testing"
)

// A mini cluster's NodeManagers all report the host localhost; the history
// tells them apart by the port of MapAttemptFinished (the NodeId's), and an
// attempt still running has its start's NodeManager HTTP port only.
func TestJhistNodePortsOfAMiniCluster(t *testing.T) {
	j, err := readJhistFile("../../replay/testdata/minicluster-3nm.jhist")
	if err != nil {
		t.Fatal(err)
	}
	var np NodePorts
	np.Add(j)
	shared := np.Shared()
	if !shared["localhost"] || len(shared) != 1 {
		t.Fatalf("shared hosts %v, want localhost alone", shared)
	}
	keys := map[string]bool{}
	for _, task := range j.Tasks {
		for i := range task.Attempts {
			a := &task.Attempts[i]
			if a.Host != "localhost" || a.Port <= 0 {
				t.Errorf("%s: host %q port %d, want localhost and a port", a.ID, a.Host, a.Port)
			}
			keys[a.NodeKey(shared)] = true
		}
	}
	if len(keys) != 3 {
		t.Errorf("node keys %v, want the 3 NodeManagers", keys)
	}
	for k := range keys {
		if !strings.HasPrefix(k, "localhost:") {
			t.Errorf("node key %q, want localhost:PORT", k)
		}
	}
}

func TestJhistNodePortFromTheStartsHTTPPort(t *testing.T) {
	const (
		head  = "Avro-Json\n{\"type\":\"record\",\"name\":\"Event\",\"fields\":[]}\n"
		start = `{"type":"MAP_ATTEMPT_STARTED","event":{"org.apache.hadoop.mapreduce.jobhistory.TaskAttemptStarted":{"taskid":"task_1_0001_m_00000%d","taskType":"MAP","attemptId":"attempt_1_0001_m_00000%d_0","startTime":%d,"trackerName":"localhost","httpPort":%d}}}` + "\n"
		done  = `{"type":"MAP_ATTEMPT_FINISHED","event":{"org.apache.hadoop.mapreduce.jobhistory.MapAttemptFinished":{"taskid":"task_1_0001_m_000000","attemptId":"attempt_1_0001_m_000000_0","taskType":"MAP","taskStatus":"SUCCEEDED","finishTime":2000,"hostname":"localhost","port":4321,"rackname":"/r"}}}` + "\n"
	)
	text := head + fmtStart(start, 0, 1000, 8042) + fmtStart(start, 1, 1100, 8042) + fmtStart(start, 2, 1200, 8043) + done
	j, err := ReadJhistFrom(strings.NewReader(text), "ports.jhist")
	if err != nil {
		t.Fatal(err)
	}
	ports := map[int]int{}
	for _, task := range j.Tasks {
		ports[task.Index] = task.Attempts[0].Port
	}
	// Map 1 started on the same NodeManager (HTTP port 8042) as map 0,
	// which finished there on NodeId port 4321; map 2's NodeManager never
	// recorded its NodeId.
	if ports[0] != 4321 || ports[1] != 4321 || ports[2] != 0 {
		t.Errorf("ports %v, want 0:4321 1:4321 2:0", ports)
	}
}

func fmtStart(f string, i int, at int64, http int) string {
	return fmt.Sprintf(f, i, i, at, http)
}

// A host that ran one NodeManager keeps its bare name whatever its port;
// a port of -1 (an attempt that never ran) or out of range is none.
func TestNodeKeyKeepsAHostOfOneNodeManager(t *testing.T) {
	var np NodePorts
	j := &Job{Tasks: []Task{{Attempts: []Attempt{
		{Host: "h1", Port: 8041}, {Host: "h1", Port: 8041}, {Host: "h2", Port: 8041},
		{Host: "h3", Port: 1}, {Host: "h3", Port: 2}, {Host: "h3"},
	}}}}
	np.Add(j)
	shared := np.Shared()
	want := []string{"h1", "h1", "h2", "h3:1", "h3:2", "h3"}
	for i, a := range j.Tasks[0].Attempts {
		if got := a.NodeKey(shared); got != want[i] {
			t.Errorf("attempt %d: key %q, want %q", i, got, want[i])
		}
	}
	for _, v := range []avroLong{-1, 0, 65536, 1 << 40} {
		if p, ok := nodePort(v); ok {
			t.Errorf("nodePort(%d) = %d, want none", v, p)
		}
	}
}
