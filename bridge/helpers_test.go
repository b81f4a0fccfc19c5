package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/internal/testclock"
)

const (
	testToken = "t0ken"
	testJob   = "job_1700000000000_0001"
	// t0 is the AM clock at the start of every test job.
	t0 = int64(1_700_000_000_000)
	// waitFor bounds every wait for a frame.
	waitFor = 5 * time.Second
)

// newFakeClock is a server clock the test moves by hand, at t0.
func newFakeClock() *testclock.Clock { return testclock.New(time.UnixMilli(t0)) }

// testServer runs a bridge Server behind httptest.
type testServer struct {
	*Server
	http  *httptest.Server
	url   string
	clock *testclock.Clock
}

func startServer(t testing.TB, mutate func(*Config)) *testServer {
	t.Helper()
	clock := newFakeClock()
	log := logrus.New()
	log.SetOutput(io.Discard)
	if testing.Verbose() {
		log.SetOutput(testWriter{t})
		log.SetLevel(logrus.DebugLevel)
	}
	cfg := Config{Registry: testRegistry(t), Tokens: []string{"other-token", testToken}, Log: log, Clock: clock,
		DecideInterval: time.Hour}
	if mutate != nil {
		mutate(&cfg)
	}
	srv, err := NewServer(cfg)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	hs := httptest.NewServer(srv.Handler())
	ts := &testServer{Server: srv, http: hs, url: "ws" + strings.TrimPrefix(hs.URL, "http") + Path, clock: clock}
	t.Cleanup(func() {
		ctx, cancel := contextWithTimeout(waitFor)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		hs.Close()
	})
	return ts
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// frame is any frame the server sends, decoded loosely.
type frame struct {
	Type       string            `json:"type"`
	Code       string            `json:"code"`
	Text       string            `json:"text"`
	Fatal      bool              `json:"fatal"`
	Seq        int64             `json:"seq"`
	Index      *int              `json:"index"`
	Version    int               `json:"version"`
	Session    string            `json:"session"`
	Speculator string            `json:"speculator"`
	Params     map[string]string `json:"params"`
	Decisions  []WireDecision    `json:"decisions"`
	Time       int64             `json:"time"`
	Nonce      int64             `json:"nonce"`
	Attempts   int               `json:"attempts"`
	Rejected   int               `json:"rejected"`

	TaskMeanMS      float64 `json:"task_mean_ms"`
	TaskTailIndex   float64 `json:"task_tail_index"`
	TaskModelSource string  `json:"task_model_source"`

	RetryAfterMS    int64   `json:"retry_after_ms"`
	EventsPerSecond float64 `json:"events_per_second"`
}

type client struct {
	t     testing.TB
	conn  *websocket.Conn
	nonce int64
}

func dial(t testing.TB, url string) *client {
	t.Helper()
	d := websocket.Dialer{HandshakeTimeout: waitFor}
	conn, resp, err := d.Dial(url, nil)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	_ = resp.Body.Close()
	t.Cleanup(func() { _ = conn.Close() })
	return &client{t: t, conn: conn}
}

func (c *client) send(v any) {
	c.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		c.t.Fatalf("marshal: %v", err)
	}
	c.sendRaw(websocket.TextMessage, data)
}

func (c *client) sendRaw(mt int, data []byte) {
	c.t.Helper()
	_ = c.conn.SetWriteDeadline(time.Now().Add(waitFor))
	if err := c.conn.WriteMessage(mt, data); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// recv returns the next frame from the server.
func (c *client) recv() frame {
	c.t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(waitFor))
	mt, data, err := c.conn.ReadMessage()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	if mt != websocket.TextMessage {
		c.t.Fatalf("got a frame of message type %d, want text", mt)
	}
	var f frame
	if err := json.Unmarshal(data, &f); err != nil {
		c.t.Fatalf("decode %s: %v", data, err)
	}
	return f
}

// expect returns the next frame and fails unless it has type typ.
func (c *client) expect(typ string) frame {
	c.t.Helper()
	f := c.recv()
	if f.Type != typ {
		c.t.Fatalf("got %+v, want a %s frame", f, typ)
	}
	return f
}

// expectError returns the next frame and fails unless it is an error with code.
func (c *client) expectError(code string) frame {
	c.t.Helper()
	f := c.expect(TypeError)
	if f.Code != code {
		c.t.Fatalf("got error %s (%s), want %s", f.Code, f.Text, code)
	}
	return f
}

// expectClosed fails unless the server closes the connection with code.
func (c *client) expectClosed(code int) {
	c.t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(waitFor))
	for {
		_, data, err := c.conn.ReadMessage()
		if err == nil {
			c.t.Fatalf("got frame %s, want the connection closed with %d", data, code)
		}
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			if ce.Code != code {
				c.t.Fatalf("closed with %d (%s), want %d", ce.Code, ce.Text, code)
			}
			return
		}
		c.t.Fatalf("read: %v, want a close frame with %d", err, code)
	}
}

// alive proves the session still answers: ping, expect the pong.
func (c *client) alive() {
	c.t.Helper()
	c.nonce++
	c.send(Ping{Type: TypePing, Nonce: c.nonce})
	f := c.expect(TypePong)
	if f.Nonce != c.nonce {
		c.t.Fatalf("pong nonce %d, want %d", f.Nonce, c.nonce)
	}
}

func hello(job, speculator string, maps, reduces int, params map[string]string) Hello {
	return Hello{Type: TypeHello, Version: Version, Token: testToken, Job: job, User: "alice", Queue: "default",
		Speculator: speculator, Params: params, Maps: maps, Reduces: reduces, Slots: 8, Start: t0, Now: t0}
}

// open dials and completes a handshake.
func open(t testing.TB, ts *testServer, h Hello) (*client, frame) {
	t.Helper()
	c := dial(t, ts.url)
	c.send(h)
	return c, c.expect(TypeWelcome)
}

func ms(n int64) *int64 { v := t0 + n; return &v }

func attempt(task string, n int) string {
	return "attempt_1700000000000_0001_" + task + "_" + string(rune('0'+n))
}

func started(at int64, task string, n int, spec bool) WireEvent {
	return WireEvent{Kind: "attempt-started", Time: ms(at), Attempt: attempt(task, n), Node: "node-" + task,
		Container: "container_1", Speculative: spec}
}

func status(at int64, task string, n int, progress float64) WireEvent {
	return WireEvent{Kind: "attempt-status", Time: ms(at), Attempt: attempt(task, n), Progress: progress}
}

func ended(at int64, kind, task string, n int) WireEvent {
	return WireEvent{Kind: kind, Time: ms(at), Attempt: attempt(task, n)}
}

func events(seq, now int64, evs ...WireEvent) Events {
	return Events{Type: TypeEvents, Seq: seq, Now: t0 + now, Events: evs}
}

func contextWithTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

func newHTTPTestServer(srv *Server) *httptest.Server { return httptest.NewServer(srv.Handler()) }
