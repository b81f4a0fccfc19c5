package bridge

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
)

// A flood of hellos with bad tokens from one address: one log line with a
// sample (not one per attempt), and once the address has spent its budget
// its connections are refused with 429 before the upgrade.
func TestFailedHellosAreRateLimitedAndSampled(t *testing.T) {
	log, hook := logtest.NewNullLogger()
	ts := startServer(t, func(c *Config) { c.Log = log })
	refused := 0
	for i := 0; i < 30; i++ {
		d := websocket.Dialer{HandshakeTimeout: waitFor}
		conn, resp, err := d.Dial(ts.url, nil)
		if err != nil {
			if !errors.Is(err, websocket.ErrBadHandshake) || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("dial %d: %v", i, err)
			}
			refused++
			continue
		}
		c := &client{t: t, conn: conn}
		h := hello(testJob, "none", 1, 0, nil)
		h.Token = "guess-" + strings.Repeat("x", i)
		c.send(h)
		c.expectError(CodeUnauthorized)
		conn.Close()
	}
	if refused != 20 {
		t.Errorf("%d of 30 refused before the upgrade, want 20 (budget 10)", refused)
	}
	warns := 0
	for _, e := range hook.AllEntries() {
		if e.Level <= logrus.WarnLevel {
			warns++
		}
	}
	if warns != 1 {
		t.Errorf("%d warning lines for 30 failed hellos, want 1", warns)
	}
}

// /healthz answers 503 with the reason while Health reports a problem
// (the embedded analyzer's store cannot be written).
func TestHealthzDegraded(t *testing.T) {
	var bad atomic.Value
	bad.Store("")
	ts := startServer(t, func(c *Config) {
		c.Health = func() error {
			if s := bad.Load().(string); s != "" {
				return errors.New(s)
			}
			return nil
		}
	})
	get := func() (int, string) {
		resp, err := http.Get(ts.http.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get(); code != 200 {
		t.Fatalf("healthy: HTTP %d", code)
	}
	bad.Store("degraded: store /x: writes failing")
	if code, body := get(); code != 503 || !strings.Contains(body, "degraded: store /x") {
		t.Fatalf("degraded: HTTP %d %q", code, body)
	}
}

// Orphaned jobs (their AM left unfinished) are capped: beyond MaxOrphans
// the one orphaned first is ended in the analyzer at once instead of
// waiting out the grace period.
func TestOrphansAreCapped(t *testing.T) {
	feed := newRecordingFeed()
	ts := startServer(t, func(c *Config) { c.Feed = feed; c.OrphanGrace = time.Hour; c.MaxOrphans = 2 })
	ts.ExpectJobs([]string{"job_1_0001", "job_1_0002"})
	ts.ExpectJobs([]string{"job_1_0003"})
	feed.awaitEnded(t, "job_1_0001", "the oldest orphan past the cap")
	ts.mu.Lock()
	n := len(ts.feed.orphans)
	ts.mu.Unlock()
	if n != 2 {
		t.Errorf("%d orphans kept, cap 2", n)
	}
}

// Frames a lenient decoder would take silently get an error frame naming
// the field, and the session survives: invalid UTF-8, a key given twice,
// a time out of range. Keys match fields exactly (the strict decoder's
// semantics): a key in the wrong letter case is an unknown field, ignored,
// so the field it meant is missing.
func TestInvalidFieldsAreNamed(t *testing.T) {
	ts := startServer(t, nil)
	c, _ := open(t, ts, hello(testJob, "none", 2, 0, nil))
	for _, tc := range []struct {
		name, frame, code, want string
	}{
		{"invalid UTF-8", `{"type":"events","seq":1,"events":[{"kind":"attempt-started","time":1,"attempt":"attempt_1700000000000_0001_m_000000_0","node":"h\xff1"}]}`, CodeMalformedFrame, "events[0].node: not valid UTF-8"},
		{"invalid UTF-8 key", `{"type":"events","seq":1,"events":[{"kind":"attempt-started","time":1,"no\xffde":"x"}]}`, CodeMalformedFrame, "events[0]: not valid UTF-8"},
		{"duplicate key", `{"type":"events","seq":1,"events":[{"kind":"attempt-started","time":1,"time":2}]}`, CodeMalformedFrame, `events[0]: field "time" given twice`},
		{"duplicate param", `{"type":"events","seq":1,"events":[],"params":{"a":"1","a":"2"}}`, CodeMalformedFrame, `params: field "a" given twice`},
		{"wrong case", `{"type":"events","seq":1,"events":[{"kind":"attempt-started","Time":1}]}`, CodeEventRejected, "time"},
		{"wrong case at the top", `{"TYPE":"events","seq":1,"events":[]}`, CodeMalformedFrame, `no "type" field`},
		{"time too large", `{"type":"events","seq":1,"events":[{"kind":"attempt-status","time":9223372036854775807}]}`, CodeMalformedFrame, "events[0].time: time 9223372036854775807 out of range"},
		{"negative now", `{"type":"events","seq":1,"now":-5,"events":[]}`, CodeMalformedFrame, "now: time -5 out of range"},
		{"resync finish", `{"type":"resync","attempts":[{"attempt":"a","state":"SUCCEEDED","start":1,"finish":1e300}]}`, CodeMalformedFrame, "attempts[0].finish: a JSON number does not fit (want int64)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The frames spell a raw byte 0xff as \xff.
			c.sendRaw(websocket.TextMessage, []byte(strings.ReplaceAll(tc.frame, `\xff`, "\xff")))
			f := c.expectError(tc.code)
			if !strings.Contains(f.Text, tc.want) || f.Fatal {
				t.Fatalf("error %+v, want text with %q", f, tc.want)
			}
			c.alive()
		})
	}
	// A case-folded key is another key: ignored, no error.
	c.sendRaw(websocket.TextMessage, []byte(`{"type":"events","ſeq":1,"events":[]}`))
	c.alive()
	// A parameter map's keys are the client's: not checked for case.
	if _, err := DecodeFrame([]byte(`{"type":"hello","params":{"Type":"x","MAXSPEC":"2"}}`)); err != nil {
		t.Errorf("params keys checked: %v", err)
	}
}
