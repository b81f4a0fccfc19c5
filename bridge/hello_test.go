package bridge

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/specbridge/specbridge/speculators"
)

// The hello of issue 24: maps + reduces overflows an int past the per-job
// task check, and the engine's job would have allocated 2^40 task slots
// (the runtime's out-of-memory death, which nothing recovers). It gets a
// bad-job error frame, and the server goes on serving.
func TestHelloOverflowingCountsIsRefused(t *testing.T) {
	ts := startServer(t, nil)
	c := dial(t, ts.url)
	c.sendRaw(websocket.TextMessage, []byte(`{"type":"hello","version":1,"token":"`+testToken+`","job":"job_1700000000000_0001","speculator":"none",`+
		`"maps":1099511627776,"reduces":9223372035755264033}`))
	f := c.expectError(CodeBadJob)
	if !f.Fatal || !strings.Contains(f.Text, "1099511627776 maps") {
		t.Errorf("refusal %+v: want fatal, naming the counts", f)
	}
	good, _ := open(t, ts, hello(testJob, "none", 2, 1, nil))
	good.alive()
}

// Every number and name of a hello is checked before anything is built
// from it: each of these is refused with an error naming what is wrong,
// and the server still serves.
func TestHelloNumbersAndNamesAreBounded(t *testing.T) {
	ts := startServer(t, nil)
	cases := []struct {
		name  string
		h     func(*Hello)
		code  string
		words string
	}{
		{"900 KB job id", func(h *Hello) { h.Job = "job_1700000000000_" + strings.Repeat("1", 900<<10) }, CodeBadJob, "job id of 921618 bytes is over the limit of 255"},
		{"long user", func(h *Hello) { h.User = strings.Repeat("u", 300) }, CodeBadJob, "user of 300 bytes"},
		{"negative maps", func(h *Hello) { h.Maps = -1 }, CodeBadJob, "-1 maps"},
		{"max int reduces", func(h *Hello) { h.Maps, h.Reduces = 1, math.MaxInt }, CodeBadJob, "total at most"},
		{"over the task limit", func(h *Hello) { h.Maps, h.Reduces = DefaultMaxTasksPerJob, 1 }, CodeBadJob, "total at most 1048576"},
		{"sizes not one per map", func(h *Hello) { h.MapInputBytes = []int64{1, 2, 3} }, CodeBadJob, "3 map_input_bytes for 2 maps"},
		{"negative size", func(h *Hello) { h.MapInputBytes = []int64{1, -2} }, CodeBadJob, "input size -2 of task 1"},
		{"slots", func(h *Hello) { h.Slots = math.MaxInt }, CodeBadJob, "slots"},
		{"deadline", func(h *Hello) { h.Deadline = math.MaxInt64 }, CodeBadJob, "deadline"},
		{"start", func(h *Hello) { h.Start = -5 }, CodeBadJob, "start"},
		{"many params", func(h *Hello) {
			h.Params = map[string]string{}
			for i := 0; i <= MaxParams; i++ {
				h.Params[fmt.Sprint(i)] = "x"
			}
		}, CodeBadParameter, "65 params"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := hello(testJob, "none", 2, 1, nil)
			tc.h(&h)
			c := dial(t, ts.url)
			c.send(h)
			f := c.expectError(tc.code)
			if !strings.Contains(f.Text, tc.words) || len(f.Text) > 1000 {
				t.Errorf("refusal %q: want it to say %q (and be short)", f.Text, tc.words)
			}
		})
	}
	good, _ := open(t, ts, hello(testJob, "none", 2, 1, nil))
	good.alive()
}

// The server's job memory budget: a job that does not fit beside the open
// sessions' is refused with memory-budget (named in the text and counted
// in the metrics), and fits again once a session ends.
func TestMemoryBudgetRefusesAJobThatDoesNotFit(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxJobMemory = jobMemory(1000, 0) + jobMemory(10, 0) })
	first, _ := open(t, ts, hello(testJob, "none", 1000, 0, nil))
	c := dial(t, ts.url)
	c.send(hello("job_1700000000000_0002", "none", 100, 0, nil))
	f := c.expectError(CodeMemoryBudget)
	if !f.Fatal || !strings.Contains(f.Text, "--max-job-memory") {
		t.Errorf("refusal %+v", f)
	}
	small, _ := open(t, ts, hello("job_1700000000000_0003", "none", 10, 0, nil))
	small.alive()
	if body := get(t, ts.http.URL+"/metrics"); !strings.Contains(body, `specbridge_bridge_sessions_opened_total{result="memory-budget"} 1`) ||
		!strings.Contains(body, fmt.Sprintf("specbridge_bridge_job_memory_reserved_bytes %d", jobMemory(1000, 0)+jobMemory(10, 0))) {
		t.Errorf("metrics do not show the refusal and the reservation")
	}
	_ = first.conn.Close()
	waitUntil(t, "the first session to end", func() bool { return ts.Sessions() == 1 })
	again, _ := open(t, ts, hello("job_1700000000000_0002", "none", 100, 0, nil))
	again.alive()
}

// 200 connections opened first, then 200 wrong tokens sent at once: the
// address's budget (10) is counted at the check, so 10 are tried and the
// rest refused unchecked (rate-limited); the address's good client,
// whose token worked before, still gets in.
func TestFailedHellosCountedAtTheCheck(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxPendingHellos = 300 })
	good, _ := open(t, ts, hello(testJob, "none", 1, 0, nil))
	const n = 200
	conns := make([]*client, n)
	for i := range conns {
		conns[i] = dial(t, ts.url)
	}
	codes := make([]string, n)
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := hello(fmt.Sprintf("job_1700000000000_%04d", i+10), "none", 1, 0, nil)
			h.Token = fmt.Sprintf("guess-%04d-xxxxxxxxxxxx", i)
			data, _ := json.Marshal(h)
			if err := c.conn.WriteMessage(websocket.TextMessage, data); err != nil {
				codes[i] = err.Error()
				return
			}
			var f frame
			if err := c.conn.ReadJSON(&f); err != nil {
				codes[i] = err.Error()
				return
			}
			codes[i] = f.Code
		}()
	}
	wg.Wait()
	count := map[string]int{}
	for _, c := range codes {
		count[c]++
	}
	if count[CodeUnauthorized] != 10 || count[CodeRateLimited] != n-10 {
		t.Fatalf("answers %v: want 10 unauthorized (the budget) and %d rate-limited", count, n-10)
	}
	// The good client's next session (same address, its token's prefix
	// known there) is let in; a new guesser is refused before the upgrade
	// only while no good client is known: here it is let in and refused
	// unchecked.
	again, _ := open(t, ts, hello("job_1700000000000_0002", "none", 1, 0, nil))
	again.alive()
	good.alive()
}

// A fresh address that only fails is refused before the upgrade once its
// budget is spent (429), as before.
func TestFailedHellosRefusedBeforeUpgrade(t *testing.T) {
	ts := startServer(t, nil)
	refused := 0
	for i := 0; i < 15; i++ {
		d := websocket.Dialer{HandshakeTimeout: waitFor}
		conn, resp, err := d.Dial(ts.url, nil)
		if err != nil {
			if resp == nil || resp.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("dial %d: %v", i, err)
			}
			refused++
			continue
		}
		c := &client{t: t, conn: conn}
		h := hello(testJob, "none", 1, 0, nil)
		h.Token = "wrong"
		c.send(h)
		c.expectError(CodeUnauthorized)
		_ = conn.Close()
	}
	if refused != 5 {
		t.Errorf("%d of 15 refused before the upgrade, want 5", refused)
	}
}

// A bad token learns nothing of the protocol versions: the token is
// checked first.
func TestTokenCheckedBeforeVersion(t *testing.T) {
	ts := startServer(t, nil)
	c := dial(t, ts.url)
	h := hello(testJob, "none", 1, 0, nil)
	h.Token, h.Version = "wrong", 99
	c.send(h)
	c.expectError(CodeUnauthorized)
	c = dial(t, ts.url)
	h.Token = testToken
	c.send(h)
	c.expectError(CodeUnsupportedVersion)
}

// FuzzHello feeds a hello's numbers and names, as the wire can carry
// them, through the check and, when it accepts them, through building the
// job: nothing may panic, and an accepted hello never asks for more than
// the task limit or the memory it was estimated at.
//
//	go test ./bridge -run '^$' -fuzz FuzzHello -fuzztime 60s
func FuzzHello(f *testing.F) {
	f.Add(1099511627776, 9223372035755264033, 0, int64(0), int64(0), 0.0, "job_1700000000000_0001", 0)
	f.Add(2, 1, 8, t0, int64(0), 0.1, testJob, 2)
	f.Add(-1, math.MaxInt, math.MaxInt, int64(-1), int64(math.MaxInt64), math.Inf(1), "job_1_2", 1)
	f.Add(DefaultMaxTasksPerJob, 0, 1, int64(0), int64(0), 0.5, "job_1_2", 5)
	f.Fuzz(func(t *testing.T, maps, reduces, slots int, start, deadline int64, bound float64, job string, sizes int) {
		h := Hello{Type: TypeHello, Version: Version, Token: testToken, Job: job, Speculator: "none",
			Maps: maps, Reduces: reduces, Slots: slots, Start: start, Deadline: deadline, ErrorBound: bound}
		if sizes > 0 && sizes < 1000 {
			h.MapInputBytes = make([]int64, sizes)
		}
		// Through the wire form too: what DecodeFrame gives back is checked.
		data, err := json.Marshal(h)
		if err != nil {
			return // NaN or Inf: JSON cannot carry it
		}
		fr, err := DecodeFrame(data)
		if err != nil {
			return // refused by the decoder (a time out of range): a named error, not a crash
		}
		hh := fr.Hello
		_, code, _ := checkHello(hh, 1<<12)
		if code != "" {
			return
		}
		if hh.Maps < 0 || hh.Reduces < 0 || hh.Maps+hh.Reduces > 1<<12 || len(hh.Job) > MaxNameBytes {
			t.Fatalf("accepted %d maps, %d reduces, job of %d bytes", hh.Maps, hh.Reduces, len(hh.Job))
		}
		j, err := speculators.NewJob(speculators.JobInfo{ID: hh.Job, Maps: hh.Maps, Reduces: hh.Reduces, MapInputBytes: hh.MapInputBytes,
			Slots: hh.Slots, Start: hh.Start, Deadline: hh.Deadline, ErrorBound: hh.ErrorBound})
		if err != nil {
			t.Fatalf("accepted hello, job refused: %v", err)
		}
		if len(j.Tasks[0])+len(j.Tasks[1]) != hh.Maps+hh.Reduces || jobMemory(hh.Maps, hh.Reduces) > jobMemory(1<<12, 0) {
			t.Fatal("job built differs from its hello")
		}
	})
}

// Connections that never say hello hold no session place: 200 of them
// open, a good AM still gets one of the two places (they wait in a pool of
// their own, MaxPendingHellos, and past it are refused before the upgrade).
func TestPreHelloConnectionsTakeNoSessionPlace(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxSessions, c.MaxPendingHellos = 2, 201 })
	for i := 0; i < 200; i++ {
		dial(t, ts.url)
	}
	good, _ := open(t, ts, hello(testJob, "none", 1, 0, nil))
	good.alive()
	dial(t, ts.url) // the good AM's place in the pool is free again
	d := websocket.Dialer{HandshakeTimeout: waitFor}
	_, resp, err := d.Dial(ts.url, nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("202nd connection waiting for hello: %v, want 503", err)
	}
}

// A connection that never says hello is closed once HandshakeTimeout has
// passed, and its place among those waiting for a hello is free again.
func TestSilentConnectionIsClosedAndItsPlaceFreed(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxPendingHellos, c.HandshakeTimeout = 1, 200*time.Millisecond })
	silent := dial(t, ts.url)
	_ = silent.conn.SetReadDeadline(time.Now().Add(waitFor))
	if _, _, err := silent.conn.ReadMessage(); err == nil {
		t.Fatal("the silent connection got a frame, want it closed")
	}
	waitUntil(t, "the silent connection's place to be free", func() bool { return ts.Sessions() == 0 })
	good, _ := open(t, ts, hello(testJob, "none", 1, 0, nil))
	good.alive()
}
