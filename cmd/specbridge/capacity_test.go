package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/specbridge/specbridge/yarnclient/rmcapacity/rmtest"
)

// copiesAsked runs a live job of four maps under dolly (budget 0.5, up to 4
// attempts a task) through serve, starts every map, and returns the copies
// the first speculate decision asks for (0 when none comes before the
// pong that follows the batch's decisions).
func copiesAsked(t *testing.T, url, job string) int {
	t.Helper()
	conn := dialAM(t, url)
	const t0 = int64(1_700_000_000_000)
	if w := sayHello(t, conn, serveTestToken, job, map[string]any{"speculator": "dolly", "params": map[string]string{"budget": "0.5", "copies": "4"},
		"maps": 4, "reduces": 0, "start": t0, "now": t0}); w.Type != "welcome" {
		t.Fatalf("hello answered %+v", w)
	}
	suffix := strings.TrimPrefix(job, "job_")
	var evs []map[string]any
	for i := 0; i < 4; i++ {
		evs = append(evs, map[string]any{"kind": "attempt-started", "time": t0, "attempt": fmt.Sprintf("attempt_%s_m_%06d_0", suffix, i), "node": "h1", "container": "c"})
	}
	if err := conn.WriteJSON(map[string]any{"type": "events", "seq": 1, "now": t0 + 1000, "events": evs}); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	defer func() {
		_ = conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
	}()
	for {
		var f struct {
			Type      string
			Decisions []struct {
				Kind   string
				Copies int
			}
		}
		if err := conn.ReadJSON(&f); err != nil {
			t.Fatalf("%s: read: %v", job, err)
		}
		for _, d := range f.Decisions {
			if d.Kind == "speculate" {
				return d.Copies
			}
		}
	}
}

// serve --rm reads the ResourceManager's metrics and dolly sizes a live
// job's clones by them: a cluster of 8 containers holds a budget of 4
// extra attempts (2 attempts for each of 4 tasks), one of 64 lets every
// task have its 4. The RM here is a stand-in serving the RM's JSON; the
// mini-cluster integration test reads a real one.
func TestServeSizesClonesFromTheResourceManager(t *testing.T) {
	rm := rmtest.New(t, rmtest.Metrics(8*1024, 4*1024, 8, 4)) // 8 containers of 1 GB and 1 vcore, 4 free
	runServeFor(t, []string{"--rm", rm.URL, "--rm-refresh", "20ms", "--cfa-url", "off"}, func(url string) {
		metrics := "http://" + strings.TrimSuffix(strings.TrimPrefix(url, "ws://"), "/v1/am") + "/metrics"
		if got := scrape(t, metrics); got["specbridge_rm_capacity_containers"] != 8 || got["specbridge_rm_capacity_free_containers"] != 4 {
			t.Fatalf("capacity metrics %v, %v; want 8, 4", got["specbridge_rm_capacity_containers"], got["specbridge_rm_capacity_free_containers"])
		}
		if n := copiesAsked(t, url, "job_1700000000000_0001"); n != 1 {
			t.Errorf("8 containers: %d copies per task, want 1", n)
		}
		rm.Set(rmtest.Metrics(64*1024, 60*1024, 64, 60))
		deadline := time.Now().Add(10 * time.Second)
		for scrape(t, metrics)["specbridge_rm_capacity_containers"] != 64 {
			if time.Now().After(deadline) {
				t.Fatal("the new capacity was not read within 10 s")
			}
			time.Sleep(10 * time.Millisecond) // polling a condition, not standing in for one
		}
		if n := copiesAsked(t, url, "job_1700000000000_0002"); n != 3 {
			t.Errorf("64 containers: %d copies per task, want 3", n)
		}
	})
}

// --rm-job-order without a ResourceManager, or with a bad interval or level
// count, is refused at start with an error naming the flag: the operator
// asked for an order that could not be applied.
func TestServeJobOrderNeedsAResourceManager(t *testing.T) {
	rm := rmtest.New(t, rmtest.Metrics(8*1024, 4*1024, 8, 4))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--rm", "off", "--rm-job-order"}, "--rm-job-order needs a ResourceManager: off (--rm off)"},
		{[]string{"--rm", rm.URL, "--rm-job-order", "--rm-job-order-interval", "0s"}, "--rm-job-order-interval must be positive"},
		{[]string{"--rm", rm.URL, "--rm-job-order", "--rm-job-order-levels", "-1"}, "--rm-job-order-levels must be 0"},
	} {
		args := append([]string{"serve", "--token-file", tokenFile(t, serveTestToken), "--listen", "127.0.0.1:0", "--cfa-url", "off"}, tc.args...)
		_, stderr, code := run(t, args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("serve %v: exit %d, stderr %q; want a failure saying %q", tc.args, code, stderr, tc.want)
		}
	}
}

// With --rm-job-order the dashboard's state says what the job order did: the
// stand-in RM answers only its metrics, so the order cannot read the
// cluster's priority levels and says it is failing, naming the RM.
func TestServeJobOrderOnTheDashboard(t *testing.T) {
	rm := rmtest.New(t, rmtest.Metrics(8*1024, 4*1024, 8, 4))
	runServeFor(t, []string{"--rm", rm.URL, "--rm-job-order", "--rm-job-order-interval", "20ms", "--cfa-url", "off"}, func(url string) {
		base := httpBase(url)
		deadline := time.Now().Add(10 * time.Second)
		for {
			code, body := get(t, base+"/dashboard/state", serveTestToken)
			var st struct {
				JobOrder string `json:"job_order"`
			}
			if code == 200 && json.Unmarshal([]byte(body), &st) == nil && strings.HasPrefix(st.JobOrder, "failing") {
				if !strings.Contains(st.JobOrder, rm.URL) || !strings.Contains(st.JobOrder, "yarn.cluster.max-application-priority") {
					t.Errorf("job order on the dashboard: %q, want the RM and the key it could not read", st.JobOrder)
				}
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the dashboard's job order did not say it is failing within 10 s: %d %s", code, body)
			}
			time.Sleep(20 * time.Millisecond) // polling the dashboard's state for the next round
		}
	})
}
