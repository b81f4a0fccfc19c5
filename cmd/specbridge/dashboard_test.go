package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gorilla/websocket"

	"github.com/specbridge/specbridge/internal/browsertest"
)

// dashAM is an AM client of the dashboard tests: a real websocket session
// that reads in the background, acks every decision as applied, and
// answers pings.
type dashAM struct {
	t    *testing.T
	conn *websocket.Conn
	job  string
	mu   sync.Mutex
	seq  int
}

func newDashAM(t *testing.T, url, job, policy string, params map[string]string, maps int) *dashAM {
	t.Helper()
	conn := dialAM(t, url)
	a := &dashAM{t: t, conn: conn, job: job}
	if w := sayHello(t, conn, serveTestToken, job, map[string]any{"user": "alice", "queue": "etl",
		"speculator": policy, "params": params, "maps": maps, "start": amT0, "now": amT0}); w.Type != "welcome" {
		t.Fatalf("%s: hello answered %+v", job, w)
	}
	go func() {
		for {
			var f struct {
				Type      string
				Decisions []struct{ ID uint64 }
			}
			if err := conn.ReadJSON(&f); err != nil {
				return
			}
			if f.Type == "decisions" {
				var acks []map[string]any
				for _, d := range f.Decisions {
					acks = append(acks, map[string]any{"id": d.ID, "result": "applied"})
				}
				a.send(map[string]any{"type": "ack", "acks": acks})
			}
		}
	}()
	return a
}

const amT0 = int64(1_700_000_000_000)

func (a *dashAM) send(v any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.conn.WriteJSON(v); err != nil {
		a.t.Errorf("%s: send: %v", a.job, err)
	}
}

func (a *dashAM) attempt(i int) string {
	return fmt.Sprintf("attempt_%s_m_%06d_0", strings.TrimPrefix(a.job, "job_"), i)
}

func (a *dashAM) events(now int64, evs ...map[string]any) {
	a.mu.Lock()
	a.seq++
	seq := a.seq
	a.mu.Unlock()
	a.send(map[string]any{"type": "events", "seq": seq, "now": now, "events": evs})
}

func httpBase(wsURL string) string {
	return "http://" + strings.TrimSuffix(strings.TrimPrefix(wsURL, "ws://"), "/v1/am")
}

// The dashboard opens only with a token: an AM's, or a read-only one from
// --dashboard-token-file, which opens the page but is no AM token;
// --dashboard=false turns it off.
func TestDashboardAccess(t *testing.T) {
	ro := tokenFile(t, "read-only-token")
	runServeFor(t, []string{"--dashboard-token-file", ro}, func(url string) {
		base := httpBase(url)
		if code, body := get(t, base+"/", ""); code != 401 || !strings.Contains(body, `name="token"`) {
			t.Errorf("GET / without a token: %d, want 401 and the login form", code)
		}
		if code, _ := get(t, base+"/dashboard/state", "wrong"); code != 401 {
			t.Errorf("state with a wrong token: %d, want 401", code)
		}
		for _, tok := range []string{serveTestToken, "read-only-token"} {
			if code, body := get(t, base+"/", tok); code != 200 || !strings.Contains(body, "Connected ApplicationMasters") {
				t.Errorf("GET / with token %s: %d", tok, code)
			}
			code, body := get(t, base+"/dashboard/state", tok)
			var st struct{ Sidecar bool }
			if code != 200 || json.Unmarshal([]byte(body), &st) != nil || !st.Sidecar {
				t.Errorf("state with token %s: %d %s", tok, code, body)
			}
		}
		if f := sayHello(t, dialAM(t, url), "read-only-token", "job_1700000000000_0001", nil); f.Code != "unauthorized" {
			t.Errorf("a read-only token as an AM's: %+v, want unauthorized", f)
		}
		if code, _ := get(t, base+"/healthz", ""); code != 200 {
			t.Errorf("/healthz beside the dashboard: %d", code)
		}
	})
	runServeFor(t, []string{"--dashboard=false"}, func(url string) {
		if code, _ := get(t, httpBase(url)+"/", serveTestToken); code != 404 {
			t.Errorf("GET / with --dashboard=false: %d, want 404", code)
		}
	})
}

// A live serve with AMs connected over real websockets: headless Chromium
// logs in through the form and the page shows the AMs, their policy and
// parameters, a decision with its reason and the AM's answer, the nodes,
// and follows as tasks finish and a new AM connects.
func TestDashboardInChromium(t *testing.T) {
	browsertest.Chromium(t) // skip (or fail in CI) before any work
	// The nodes must read healthy whatever the machine's load: the AMs here
	// report once, and a node silent longer than the analyzer's threshold
	// (wall time) would turn failed before a slow browser looks.
	runServeFor(t, []string{"--gather-interval", "100ms", "--initial-threshold", "10m", "--gap", "5m"}, func(url string) {
		base := httpBase(url)
		// LATE without its one-minute wait: map 3 crawls while the others
		// are nearly done, so it is speculated at once.
		a := newDashAM(t, url, "job_1700000000000_0001", "late", map[string]string{"min-runtime-ms": "0"}, 4)
		var starts, status []map[string]any
		for i := 0; i < 4; i++ {
			starts = append(starts, map[string]any{"kind": "attempt-started", "time": amT0, "attempt": a.attempt(i),
				"node": fmt.Sprintf("worker-%d:8041", i), "container": fmt.Sprintf("c%d", i)})
			p := 0.9
			if i == 3 {
				p = 0.05
			}
			status = append(status, map[string]any{"kind": "attempt-status", "time": amT0 + 20_000, "attempt": a.attempt(i), "progress": p, "phase": "MAP"})
		}
		a.events(amT0+1000, starts...)
		a.events(amT0+20_000, status...)
		b := newDashAM(t, url, "job_1700000000000_0002", "hadoop", nil, 2)

		ctx := browsertest.Context(t, 60*time.Second)
		problems := browsertest.Watch(t, ctx)
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#token")),
			chromedp.SendKeys(chromedp.CSS("#token"), serveTestToken), chromedp.Submit(chromedp.CSS("#token")),
			chromedp.WaitVisible(chromedp.CSS("#sessions"))); err != nil {
			t.Fatalf("log in: %v", err)
		}
		// waitFor polls a page expression until it is true.
		waitFor := func(what, expr string) {
			t.Helper()
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
				page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
				t.Fatalf("page never showed %s: %v\n%s", what, err, page)
			}
		}
		rowText := func(table, job string) string {
			return fmt.Sprintf(`((document.querySelector('#%s tbody tr[data-job="%s"]')||{}).innerText||"")`, table, job)
		}
		waitFor("both AMs", rowText("sessions", a.job)+`.includes("late") && `+rowText("sessions", b.job)+`.includes("hadoop")`)
		waitFor("the AM's user, queue and parameters", rowText("sessions", a.job)+`.includes("alice") && `+rowText("sessions", a.job)+`.includes("etl") && `+
			rowText("sessions", a.job)+`.includes("min-runtime-ms=0")`)
		waitFor("LATE's decision with its reason, applied", rowText("decisions", a.job)+`.includes("speculate") && `+
			rowText("decisions", a.job)+`.includes("task_1700000000000_0001_m_000003") && `+rowText("decisions", a.job)+`.includes("applied")`)
		waitFor("the nodes", `document.querySelectorAll('#nodes tbody tr').length >= 4 && document.querySelector('#nodes tbody tr[data-node="worker-3:8041"]').innerText.includes("healthy")`)
		waitFor("the node tiles", `document.getElementById("nodes-healthy").innerText === "4" && document.getElementById("nodes-failed").innerText === "0"`)
		waitFor("the AMs' answers", `document.getElementById("acks-applied").innerText === "1" && document.getElementById("acks-refused").innerText === "0"`)
		waitFor("the build", `document.getElementById("version").innerText === "version `+buildVersion()+`"`)
		waitFor("the throughput charts", `["events-chart", "decisions-chart"].every(id => { const l = document.querySelector("#" + id + " polyline"); return l && l.getAttribute("points").split(" ").length >= 2; })`)

		// Live: maps finish, a new AM connects, and the page follows.
		var done []map[string]any
		for i := 0; i < 3; i++ {
			done = append(done, map[string]any{"kind": "attempt-succeeded", "time": amT0 + 21_000, "attempt": a.attempt(i)})
		}
		a.events(amT0+21_000, done...)
		waitFor("3 tasks done", `Array.from(document.querySelectorAll('#sessions tbody tr[data-job="`+a.job+`"] td')).map(td => td.innerText)[7] === "3"`)
		waitFor("the job's progress", rowText("sessions", a.job)+`.includes("75%") && document.querySelector('#sessions tbody tr[data-job="`+a.job+`"] .bar span').style.width === "75%"`)
		c := newDashAM(t, url, "job_1700000000000_0003", "late", nil, 1)
		waitFor("the AM that connected later", rowText("sessions", c.job)+`.includes("late")`)
		b.conn.Close()
		waitFor("the AM that left gone", `!document.querySelector('#sessions tbody tr[data-job="`+b.job+`"]')`)
		waitFor("throughput", `Number(document.getElementById("events-total").innerText) >= 11`)
		problems.Check(t)
	})
}

// A standalone analyzer serves the page too (nodes only), with its API
// token, and its API still answers beside it.
func TestCFADashboard(t *testing.T) {
	err := runCFAFor(t, []string{"--store", t.TempDir()}, func(base string) {
		if code, _ := get(t, base+"/", ""); code != 401 {
			t.Errorf("GET / without a token: %d, want 401", code)
		}
		code, body := get(t, base+"/dashboard/state", cfaTestToken)
		var st struct {
			Sidecar bool
			Nodes   []any
		}
		if code != 200 || json.Unmarshal([]byte(body), &st) != nil || st.Sidecar || st.Nodes == nil {
			t.Errorf("state: %d %s, want the analyzer's view with an empty node list", code, body)
		}
		if code, _ := get(t, base+"/v1/nodes", cfaTestToken); code != 200 {
			t.Errorf("/v1/nodes beside the dashboard: %d", code)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}
