package bridge

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/specbridge/specbridge/internal/testclock"
)

func TestHandshakeReturnsEffectiveParameters(t *testing.T) {
	ts := startServer(t, nil)
	_, w := open(t, ts, hello(testJob, "test-straggler", 2, 1, map[string]string{"below": "0.3"}))
	if w.Version != Version || w.Speculator != "test-straggler" || !strings.HasPrefix(w.Session, "s-") {
		t.Fatalf("welcome %+v", w)
	}
	if w.Params["below"] != "0.3" || w.Params["after_ms"] != "1000" {
		t.Fatalf("effective params %v, want below=0.3 (override) and after_ms=1000 (default)", w.Params)
	}
	if ts.Sessions() != 1 {
		t.Fatalf("%d sessions, want 1", ts.Sessions())
	}
}

func TestEmptySpeculatorMeansNone(t *testing.T) {
	ts := startServer(t, nil)
	_, w := open(t, ts, hello(testJob, "", 1, 0, nil))
	if w.Speculator != "none" {
		t.Fatalf("speculator %q, want none", w.Speculator)
	}
}

func TestRefusedHandshakes(t *testing.T) {
	ts := startServer(t, nil)
	bad := func(mutate func(*Hello)) Hello {
		h := hello(testJob, "test-straggler", 2, 0, nil)
		mutate(&h)
		return h
	}
	cases := []struct {
		name  string
		first any
		code  string
	}{
		{"wrong token", bad(func(h *Hello) { h.Token = "t0ke" }), CodeUnauthorized},
		{"no token", bad(func(h *Hello) { h.Token = "" }), CodeUnauthorized},
		{"version 2", bad(func(h *Hello) { h.Version = 2 }), CodeUnsupportedVersion},
		{"unknown speculator", bad(func(h *Hello) { h.Speculator = "nope" }), CodeUnknownSpeculator},
		{"bad parameter value", bad(func(h *Hello) { h.Params = map[string]string{"below": "x"} }), CodeBadParameter},
		{"unknown parameter", bad(func(h *Hello) { h.Params = map[string]string{"nope": "1"} }), CodeBadParameter},
		{"bad job id", bad(func(h *Hello) { h.Job = "application_1_1" }), CodeBadJob},
		{"negative maps", bad(func(h *Hello) { h.Maps = -1 }), CodeBadJob},
		{"negative slots", bad(func(h *Hello) { h.Slots = -1 }), CodeBadJob},
		{"too many tasks", bad(func(h *Hello) { h.Maps = DefaultMaxTasksPerJob + 1 }), CodeBadJob},
		{"input sizes mismatch", bad(func(h *Hello) { h.MapInputBytes = []int64{1} }), CodeBadJob},
		{"events before hello", events(1, 0, started(0, "m_000000", 0, false)), CodeHelloRequired},
		{"ping before hello", Ping{Type: TypePing}, CodeHelloRequired},
		{"garbage before hello", "not an object", CodeHelloRequired},
	}
	t.Run("binary before hello", func(t *testing.T) {
		c := dial(t, ts.url)
		c.sendRaw(websocket.BinaryMessage, []byte{1, 2, 3})
		c.expectError(CodeHelloRequired)
		c.expectClosed(websocket.ClosePolicyViolation)
	})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, ts.url)
			c.send(tc.first)
			f := c.expectError(tc.code)
			if !f.Fatal {
				t.Fatalf("error %+v is not fatal", f)
			}
			c.expectClosed(websocket.ClosePolicyViolation)
		})
	}
	waitUntil(t, "all refused sessions released", func() bool { return ts.Sessions() == 0 })
}

func TestEventToDecisionRoundTrip(t *testing.T) {
	ts := startServer(t, nil)
	c, _ := open(t, ts, hello(testJob, "test-straggler", 2, 0, nil))

	c.send(events(1, 0, started(0, "m_000000", 0, false), started(0, "m_000001", 0, false)))
	c.alive() // nothing to decide yet: the next frame is the pong

	c.send(events(2, 2000, status(2000, "m_000000", 0, 0.9), status(2000, "m_000001", 0, 0.1)))
	d := c.expect(TypeDecisions)
	if len(d.Decisions) != 1 {
		t.Fatalf("decisions %+v, want one", d.Decisions)
	}
	want := WireDecision{ID: 1, Kind: "speculate", Task: "task_1700000000000_0001_m_000001", Copies: 1, Reason: "progress 0.10 after 2000 ms"}
	if d.Decisions[0] != want {
		t.Fatalf("decision %+v, want %+v", d.Decisions[0], want)
	}
	if d.Time != t0+2000 {
		t.Fatalf("decided at %d, want the AM's clock %d", d.Time, t0+2000)
	}

	// The policy keeps asking; the bridge does not repeat itself.
	c.send(events(3, 3000, status(3000, "m_000001", 0, 0.12)))
	c.alive()
	c.send(Ack{Type: TypeAck, Acks: []AckEntry{{ID: 1, Result: AckApplied}}})

	// The copy starts and wins; the original is killed.
	c.send(events(4, 4000, started(4000, "m_000001", 1, true)))
	c.alive()
	c.send(events(5, 5000, ended(5000, "attempt-succeeded", "m_000001", 1)))
	d = c.expect(TypeDecisions)
	want = WireDecision{ID: 2, Kind: "kill", Task: "task_1700000000000_0001_m_000001", Attempt: "attempt_1700000000000_0001_m_000001_0", Reason: "another attempt succeeded"}
	if len(d.Decisions) != 1 || d.Decisions[0] != want {
		t.Fatalf("decisions %+v, want [%+v]", d.Decisions, want)
	}
	c.send(Ack{Type: TypeAck, Acks: []AckEntry{{ID: 2, Result: AckRefused, Reason: "attempt already finished"}}})
	c.send(Ack{Type: TypeAck, Acks: []AckEntry{{ID: 3, Result: AckApplied}}})
	c.expectError(CodeUnknownDecision)
	c.alive()

	metrics := get(t, ts.http.URL+"/metrics")
	for _, line := range []string{
		`specbridge_bridge_decisions_total{kind="speculate",policy="test-straggler"} 1`,
		`specbridge_bridge_decisions_total{kind="kill",policy="test-straggler"} 1`,
		`specbridge_bridge_acks_total{result="applied"} 1`,
		`specbridge_bridge_acks_total{result="refused"} 1`,
		`specbridge_bridge_events_total 7`,
		`specbridge_bridge_sessions 1`,
	} {
		if !strings.Contains(metrics, line+"\n") {
			t.Errorf("/metrics lacks %q", line)
		}
	}
}

// The decide ticker runs on the server's clock: moving it 5 s (five
// periods) makes the session decide, at the AM's time then.
func TestPeriodicDecisionsFollowTheAMClock(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.DecideInterval = time.Second })
	c, _ := open(t, ts, hello(testJob, "test-straggler", 1, 0, map[string]string{"after_ms": "5000"}))
	c.send(events(1, 100, started(100, "m_000000", 0, false), status(100, "m_000000", 0, 0.01)))
	c.alive()
	// The AM's clock is 100 ms ahead of the server's; 5 s later by the
	// server's clock the attempt has run 5000 ms on the AM's.
	ts.clock.Advance(5 * time.Second)
	d := c.expect(TypeDecisions)
	if len(d.Decisions) != 1 || d.Decisions[0].Kind != "speculate" || d.Time != t0+5100 {
		t.Fatalf("decisions %+v at %d, want one speculate at %d", d.Decisions, d.Time, t0+5100)
	}
}

func TestEventRejectedKeepsTheSession(t *testing.T) {
	ts := startServer(t, nil)
	c, _ := open(t, ts, hello(testJob, "test-straggler", 2, 0, nil))
	c.send(events(9, 0,
		started(0, "m_000000", 0, false),
		started(0, "m_000007", 0, false), // no such task
		WireEvent{Kind: "attempt-started", Time: ms(0), Attempt: "attempt_1700000000000_0002_m_000001_0"}, // another job
		WireEvent{Kind: "attempt-status", Time: ms(0), Attempt: attempt("m_000000", 0), Progress: 1.5},
		WireEvent{Kind: "attempt-started", Attempt: attempt("m_000001", 0)}, // no time
		WireEvent{Kind: "explode", Time: ms(0)},
		started(0, "m_000000", 0, false), // duplicate
	))
	for _, idx := range []int{1, 2, 3, 4, 5, 6} {
		f := c.expectError(CodeEventRejected)
		if f.Seq != 9 || f.Index == nil || *f.Index != idx || f.Fatal {
			t.Fatalf("error %+v, want seq 9 index %d, not fatal", f, idx)
		}
	}
	c.alive()
}

func TestManyRejectedEventsAreSummarised(t *testing.T) {
	ts := startServer(t, nil)
	c, _ := open(t, ts, hello(testJob, "none", 1, 0, nil))
	var evs []WireEvent
	for i := 0; i < 25; i++ {
		evs = append(evs, WireEvent{Kind: "nope", Time: ms(0)})
	}
	c.send(events(1, 0, evs...))
	for i := 0; i < maxEventErrorsPerBatch; i++ {
		c.expectError(CodeEventRejected)
	}
	if f := c.expectError(CodeEventRejected); !strings.HasPrefix(f.Text, "15 more") {
		t.Fatalf("summary %q, want it to count 15 more", f.Text)
	}
	c.alive()
}

func TestMalformedFramesGetErrorsAndTheSessionSurvives(t *testing.T) {
	ts := startServer(t, nil)
	c, _ := open(t, ts, hello(testJob, "test-straggler", 1, 0, nil))
	cases := []struct {
		mt   int
		data string
		code string
	}{
		{websocket.TextMessage, `{"type":`, CodeMalformedFrame},
		{websocket.TextMessage, `[1,2,3]`, CodeMalformedFrame},
		{websocket.TextMessage, `{"kind":"events"}`, CodeMalformedFrame},
		{websocket.TextMessage, `{"type":"events","events":"many"}`, CodeMalformedFrame},
		{websocket.TextMessage, `{"type":"events","events":[{"kind":"attempt-status","time":"soon"}]}`, CodeMalformedFrame},
		{websocket.TextMessage, `{"type":"teleport"}`, CodeUnknownType},
		{websocket.TextMessage, `{"type":"decisions","decisions":[]}`, CodeUnknownType},
		{websocket.TextMessage, `{"type":"ack","acks":[{"id":1,"result":"maybe"}]}`, CodeUnknownDecision},
		{websocket.BinaryMessage, "\x00\x01\x02", CodeBinaryFrame},
		{websocket.TextMessage, `{"type":"hello","version":1,"token":"t0ken","job":"job_1_1"}`, CodeDuplicateHello},
	}
	for _, tc := range cases {
		c.sendRaw(tc.mt, []byte(tc.data))
		if f := c.expectError(tc.code); f.Fatal {
			t.Fatalf("%s: error %+v is fatal", tc.data, f)
		}
	}
	// Unknown fields are ignored.
	c.send(map[string]any{"type": "ping", "nonce": 77, "colour": "blue"})
	if f := c.expect(TypePong); f.Nonce != 77 {
		t.Fatalf("pong %+v, want nonce 77", f)
	}
	c.alive()
}

func TestOversizedFrames(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxFrameBytes = 1024 })
	c, w := open(t, ts, hello(testJob, "none", 1, 0, nil))
	if w.Params == nil {
		t.Fatalf("welcome %+v", w)
	}
	big := `{"type":"ping","pad":"` + strings.Repeat("x", 4000) + `"}`
	c.sendRaw(websocket.TextMessage, []byte(big))
	if f := c.expectError(CodeFrameTooLarge); f.Fatal || !strings.Contains(f.Text, "1024") {
		t.Fatalf("error %+v", f)
	}
	c.alive()
	// Beyond the hard limit the connection is closed without reading it.
	c.sendRaw(websocket.TextMessage, []byte(strings.Repeat("y", 1024*hardLimitFactor+1)))
	c.expectClosed(websocket.CloseMessageTooBig)
}

func TestRepeatedAbuseClosesOnlyThatSession(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxStrikes = 3 })
	good, _ := open(t, ts, hello(testJob, "test-straggler", 1, 0, nil))
	bad, _ := open(t, ts, hello("job_1700000000000_0002", "none", 1, 0, nil))
	for i := 0; i < 3; i++ {
		bad.sendRaw(websocket.TextMessage, []byte("garbage"))
		bad.expectError(CodeMalformedFrame)
	}
	bad.sendRaw(websocket.TextMessage, []byte("garbage"))
	if f := bad.expectError(CodeAbuse); !f.Fatal {
		t.Fatalf("abuse error %+v is not fatal", f)
	}
	bad.expectClosed(websocket.ClosePolicyViolation)
	good.alive()
	good.send(events(1, 2000, started(0, "m_000000", 0, false), status(2000, "m_000000", 0, 0.1)))
	if d := good.expect(TypeDecisions); len(d.Decisions) != 1 {
		t.Fatalf("decisions %+v", d.Decisions)
	}
	waitUntil(t, "the abusive session released", func() bool { return ts.Sessions() == 1 })
}

func TestAPolicyPanicClosesOnlyItsSession(t *testing.T) {
	ts := startServer(t, nil)
	good, _ := open(t, ts, hello(testJob, "test-straggler", 1, 0, nil))
	bad, _ := open(t, ts, hello("job_1700000000000_0002", "test-panic", 1, 0, nil))
	bad.send(Events{Type: TypeEvents, Events: []WireEvent{
		{Kind: "attempt-started", Time: ms(0), Attempt: "attempt_1700000000000_0002_m_000000_0"},
		{Kind: "attempt-status", Time: ms(1), Attempt: "attempt_1700000000000_0002_m_000000_0", Progress: 0.13},
	}})
	bad.expectError(CodeInternal)
	bad.expectClosed(websocket.CloseInternalServerErr)
	good.alive()
}

func TestResyncRebuildsStateAndReplacesTheOldSession(t *testing.T) {
	ts := startServer(t, nil)
	old, _ := open(t, ts, hello(testJob, "test-straggler", 3, 1, nil))
	old.send(events(1, 0, started(0, "m_000000", 0, false)))
	old.alive()

	// The AM reconnects (say the sidecar restarted) and sends its snapshot.
	c, _ := open(t, ts, hello(testJob, "test-straggler", 3, 1, nil))
	f := old.expectError(CodeReplaced)
	if !f.Fatal {
		t.Fatalf("replaced error %+v is not fatal", f)
	}
	old.expectClosed(websocket.CloseGoingAway)

	c.send(Resync{Type: TypeResync, Now: t0 + 10000, Attempts: []SnapshotAttempt{
		{Attempt: attempt("m_000000", 0), State: "SUCCEEDED", Node: "n1", Start: t0, Finish: t0 + 3000, Progress: 1},
		{Attempt: attempt("m_000001", 0), State: "RUNNING", Node: "n2", Start: t0, LastReport: t0 + 9000, Progress: 0.2},
		{Attempt: attempt("m_000002", 0), State: "RUNNING", Node: "n3", Start: t0, LastReport: t0 + 9000, Progress: 0.2},
		{Attempt: attempt("m_000002", 1), State: "RUNNING", Node: "n1", Start: t0 + 5000, Speculative: true, LastReport: t0 + 9000, Progress: 0.4},
		{Attempt: attempt("m_000009", 0), State: "RUNNING", Start: t0},                   // no such task
		{Attempt: attempt("r_000000", 0), State: "LIMBO", Start: t0},                     // bad state
		{Attempt: attempt("r_000000", 1), State: "SUCCEEDED", Start: t0 + 5, Finish: t0}, // ends before it starts
	}, ContainerNeeds: []ContainerNeed{{TaskType: "reduce", Count: 1}}})
	for _, idx := range []int{5, 6} {
		if f := c.expectError(CodeEventRejected); f.Index == nil || *f.Index != idx {
			t.Fatalf("error %+v, want index %d", f, idx)
		}
	}
	c.expectError(CodeEventRejected) // the engine refuses the unknown task
	r := c.expect(TypeResynced)
	if r.Attempts != 7 || r.Rejected != 3 {
		t.Fatalf("resynced %+v, want 7 attempts, 3 rejected", r)
	}
	// Task 1 is a lone straggler; task 2 already has a copy; task 0 is done.
	d := c.expect(TypeDecisions)
	if len(d.Decisions) != 1 || d.Decisions[0].Task != "task_1700000000000_0001_m_000001" || d.Decisions[0].ID != 1 {
		t.Fatalf("decisions %+v, want one speculate of m_000001 with id 1", d.Decisions)
	}
	waitUntil(t, "the replaced session released", func() bool { return ts.Sessions() == 1 })
}

func TestConcurrentSessionsAreIndependent(t *testing.T) {
	ts := startServer(t, nil)
	const n = 24
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			errs <- roundTrip(ts.url, i)
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// roundTrip runs one job's handshake and straggler decision on its own
// connection; it reports instead of failing so it can run in a goroutine.
func roundTrip(url string, i int) error {
	conn, resp, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		return fmt.Errorf("session %d: dial: %w", i, err)
	}
	_ = resp.Body.Close()
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(waitFor))
	job := fmt.Sprintf("job_1700000000000_%04d", i+1)
	key := strings.TrimPrefix(job, "job_")
	h := hello(job, "test-straggler", i+1, 0, nil)
	if err := conn.WriteJSON(h); err != nil {
		return fmt.Errorf("session %d: hello: %w", i, err)
	}
	var w frame
	if err := conn.ReadJSON(&w); err != nil || w.Type != TypeWelcome {
		return fmt.Errorf("session %d: welcome %+v: %v", i, w, err)
	}
	straggler := fmt.Sprintf("attempt_%s_m_%06d_0", key, i)
	ev := Events{Type: TypeEvents, Now: t0 + 2000, Events: []WireEvent{
		{Kind: "attempt-started", Time: ms(0), Attempt: straggler},
		{Kind: "attempt-status", Time: ms(2000), Attempt: straggler, Progress: 0.1},
	}}
	if err := conn.WriteJSON(ev); err != nil {
		return fmt.Errorf("session %d: events: %w", i, err)
	}
	var d frame
	if err := conn.ReadJSON(&d); err != nil {
		return fmt.Errorf("session %d: decisions: %w", i, err)
	}
	want := fmt.Sprintf("task_%s_m_%06d", key, i)
	if d.Type != TypeDecisions || len(d.Decisions) != 1 || d.Decisions[0].Task != want {
		return fmt.Errorf("session %d: got %+v, want one decision for %s", i, d, want)
	}
	return nil
}

func TestSessionLimit(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxSessions = 1 })
	first, _ := open(t, ts, hello(testJob, "none", 1, 0, nil))
	second := dial(t, ts.url)
	second.send(hello("job_1700000000000_0002", "none", 1, 0, nil))
	if f := second.expectError(CodeTooManySessions); !f.Fatal {
		t.Fatalf("error %+v is not fatal", f)
	}
	second.expectClosed(websocket.CloseTryAgainLater)
	first.alive()
}

func TestEventRateLimitAppliesBackpressure(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxEventsPerSecond = 1000 })
	c, _ := open(t, ts, hello(testJob, "none", 1, 0, nil))
	var evs []WireEvent
	for i := 0; i < 1499; i++ {
		evs = append(evs, WireEvent{Kind: "container-needs", Time: ms(int64(i)), TaskType: "map", Count: i})
	}
	c.send(events(1, 0, evs...)) // 1500 events with the frame: 501 over the burst with the hello
	// The session is told it is throttled, for how long and at what rate.
	f := c.expectError(CodeThrottled)
	if f.Fatal || f.RetryAfterMS != 501 || f.EventsPerSecond != 1000 {
		t.Fatalf("throttled frame %+v: want non-fatal, retry_after_ms 501, events_per_second 1000", f)
	}
	// The reader waits out the debt on the server's clock, which stands
	// still until the test moves it.
	if left := awaitTimers(t, ts.clock); left != 501*time.Millisecond {
		t.Fatalf("the reader waits %v, want 501ms", left)
	}
	ts.clock.Advance(500 * time.Millisecond)
	if left := ts.clock.Timers(); len(left) != 1 || left[0] != time.Millisecond {
		t.Fatalf("1 ms before the debt is paid, the reader's wait has %v left, want [1ms]", left)
	}
	ts.clock.Advance(time.Millisecond)
	c.alive() // read once the debt is paid
	// The ping spent the budget the 501 ms brought back and 1 token more:
	// 1 ms of debt, which a second of the clock more than pays.
	if left := awaitTimers(t, ts.clock); left != time.Millisecond {
		t.Fatalf("after the ping the reader waits %v, want 1ms", left)
	}
	ts.clock.Advance(time.Second)
	c.alive() // out of debt: no second throttled frame
}

// awaitTimers waits until a timer is set on clock (by the server's
// goroutines) and returns what it has left.
func awaitTimers(t *testing.T, clock *testclock.Clock) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	left, err := clock.AwaitTimers(ctx, 1)
	if err != nil {
		t.Fatalf("no timer set on the server's clock: %v", err)
	}
	return left[0]
}

func TestShutdownClosesSessions(t *testing.T) {
	ts := startServer(t, nil)
	c1, _ := open(t, ts, hello(testJob, "none", 1, 0, nil))
	c2, _ := open(t, ts, hello("job_1700000000000_0002", "none", 1, 0, nil))
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	for _, c := range []*client{c1, c2} {
		c.expectError(CodeShuttingDown)
		c.expectClosed(websocket.CloseGoingAway)
	}
	if ts.Sessions() != 0 {
		t.Fatalf("%d sessions after shutdown", ts.Sessions())
	}
	late := dial(t, ts.url)
	late.expectError(CodeShuttingDown)
}

func TestHealthzAndMetrics(t *testing.T) {
	ts := startServer(t, nil)
	if body := get(t, ts.http.URL+"/healthz"); body != "ok\n" {
		t.Fatalf("/healthz %q", body)
	}
	c := dial(t, ts.url)
	c.send(hello(testJob, "none", 1, 0, nil))
	c.expect(TypeWelcome)
	m := get(t, ts.http.URL+"/metrics")
	for _, want := range []string{`specbridge_bridge_sessions_opened_total{result="accepted"} 1`, "go_goroutines"} {
		if !strings.Contains(m, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

func TestNewServerNeedsARegistryAndAToken(t *testing.T) {
	if _, err := NewServer(Config{Tokens: []string{"x"}}); err == nil {
		t.Error("no registry accepted")
	}
	if _, err := NewServer(Config{Registry: testRegistry(t)}); err == nil {
		t.Error("no token accepted")
	}
	if _, err := NewServer(Config{Registry: testRegistry(t), Tokens: []string{""}}); err == nil {
		t.Error("empty token accepted")
	}
}

func get(t testing.TB, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return string(body)
}

// waitUntil polls cond until it holds or waitFor passes.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
