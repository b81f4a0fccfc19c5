package bridge

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/speculators/all/alltest"
)

// docExample is one ```json block of PROTOCOL.md with the annotation
// before it: <!-- example: ACTION [ARG] -->.
type docExample struct {
	line   int
	action string // send, send-quiet, send-error, answer, decode
	arg    string // send-error: the code; answer: vary=k1,k2
	frame  map[string]any
	raw    []byte
}

var exampleNote = regexp.MustCompile(`^<!-- example: ([a-z-]+)(?: (\S+))? -->$`)

// protocolExamples reads every JSON example of path; an example without an
// annotation is an error, so that a new one cannot escape the test.
func protocolExamples(t *testing.T, path string) []docExample {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []docExample
	var note []string
	lines := strings.Split(string(raw), "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if m := exampleNote.FindStringSubmatch(l); m != nil {
			note = m
			continue
		}
		if l != "```json" {
			continue
		}
		start := i + 1
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			body = append(body, lines[i])
		}
		if note == nil {
			t.Fatalf("%s:%d: a JSON example without <!-- example: ... --> before it", path, start)
		}
		ex := docExample{line: start, action: note[1], arg: note[2], raw: []byte(strings.Join(body, "\n"))}
		if err := json.Unmarshal(ex.raw, &ex.frame); err != nil {
			t.Fatalf("%s:%d: example is not a JSON object: %v", path, start, err)
		}
		out = append(out, ex)
		note = nil
	}
	return out
}

// Every example frame of PROTOCOL.md, in the document's order, is sent to a
// running server over a real websocket and gets the answer the document
// shows; the sidecar's frames that a test cannot provoke with fixed values
// (a policy's decisions, an error frame) are decoded strictly into the
// types the server writes.
func TestProtocolDocumentExamplesRun(t *testing.T) {
	reg := alltest.Registry(t)
	log := logrus.New()
	log.SetOutput(io.Discard)
	// A small server-wide budget, so that the throttling example is over
	// its share after a few dozen frames (the welcome shows the
	// per-session limit, which stays the default).
	srv, err := NewServer(Config{Registry: reg, Tokens: []string{"s3cret"}, Log: log, MaxTotalEventsPerSecond: 200})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(hs.URL, "http")+Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// next reads the next frame that is not a decisions frame (the policy
	// may decide on its own tick).
	next := func() map[string]any {
		t.Helper()
		for {
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			var f map[string]any
			if err := conn.ReadJSON(&f); err != nil {
				t.Fatalf("read: %v", err)
			}
			if f["type"] != TypeDecisions {
				return f
			}
		}
	}
	send := func(ex docExample) {
		t.Helper()
		if err := conn.WriteMessage(websocket.TextMessage, ex.raw); err != nil {
			t.Fatalf("PROTOCOL.md:%d: send: %v", ex.line, err)
		}
	}
	// check compares a frame with the document's answer example.
	check := func(want docExample, got map[string]any) {
		t.Helper()
		vary := map[string]bool{}
		if v, ok := strings.CutPrefix(want.arg, "vary="); ok {
			for _, k := range strings.Split(v, ",") {
				vary[k] = true
			}
		}
		for k, w := range want.frame {
			g, ok := got[k]
			if !ok {
				t.Errorf("PROTOCOL.md:%d: answer lacks %q: got %v", want.line, k, got)
			} else if !vary[k] && !reflect.DeepEqual(g, w) {
				t.Errorf("PROTOCOL.md:%d: answer's %q is %v, the document says %v", want.line, k, g, w)
			}
		}
		for k := range got {
			if _, ok := want.frame[k]; !ok {
				t.Errorf("PROTOCOL.md:%d: answer has %q, which the document does not show", want.line, k)
			}
		}
	}
	exs := protocolExamples(t, "PROTOCOL.md")
	kinds := map[string]int{}
	for i := 0; i < len(exs); i++ {
		ex := exs[i]
		kinds[ex.action]++
		switch ex.action {
		case "send":
			send(ex)
			if i+1 >= len(exs) || exs[i+1].action != "answer" {
				t.Fatalf("PROTOCOL.md:%d: a send example must be followed by its answer", ex.line)
			}
			i++
			kinds["answer"]++
			check(exs[i], next())
		case "send-until":
			// The frame, again and again, each followed by a ping, until an
			// error of code arg arrives before the pong; that error is the
			// answer the next example shows.
			if i+1 >= len(exs) || exs[i+1].action != "answer" {
				t.Fatalf("PROTOCOL.md:%d: a send-until example must be followed by its answer", ex.line)
			}
			var got map[string]any
			for round := 0; got == nil; round++ {
				if round == 5000 {
					t.Fatalf("PROTOCOL.md:%d: no %s error after %d frames", ex.line, ex.arg, round)
				}
				send(ex)
				if err := conn.WriteJSON(Ping{Type: TypePing, Nonce: 779}); err != nil {
					t.Fatal(err)
				}
				for f := next(); f["type"] != TypePong; f = next() {
					if f["type"] == TypeError && f["code"] == ex.arg {
						got = f
					} else {
						t.Fatalf("PROTOCOL.md:%d: answered %v, want nothing but decisions or %s", ex.line, f, ex.arg)
					}
				}
			}
			i++
			kinds["answer"]++
			check(exs[i], got)
		case "send-quiet":
			send(ex)
			if err := conn.WriteJSON(Ping{Type: TypePing, Nonce: 777}); err != nil {
				t.Fatal(err)
			}
			if f := next(); f["type"] != TypePong || f["nonce"] != 777.0 {
				t.Errorf("PROTOCOL.md:%d: answered %v, want nothing but decisions before the pong", ex.line, f)
			}
		case "send-error":
			send(ex)
			if err := conn.WriteJSON(Ping{Type: TypePing, Nonce: 778}); err != nil {
				t.Fatal(err)
			}
			n := 0
			for f := next(); f["type"] != TypePong; f = next() {
				n++
				if f["type"] != TypeError || f["code"] != ex.arg || f["fatal"] == true {
					t.Errorf("PROTOCOL.md:%d: answered %v, want non-fatal errors %s", ex.line, f, ex.arg)
				}
			}
			if n == 0 {
				t.Errorf("PROTOCOL.md:%d: no error %s before the pong", ex.line, ex.arg)
			}
		case "decode":
			var into any
			switch ex.frame["type"] {
			case TypeDecisions:
				into = &Decisions{}
			case TypeError:
				into = &ErrorFrame{}
			default:
				t.Fatalf("PROTOCOL.md:%d: no type to decode a %v frame into", ex.line, ex.frame["type"])
			}
			dec := json.NewDecoder(bytes.NewReader(ex.raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(into); err != nil {
				t.Errorf("PROTOCOL.md:%d: %v", ex.line, err)
			}
			if d, ok := into.(*Decisions); ok {
				for _, wd := range d.Decisions {
					if !strings.HasPrefix(wd.Task, "task_1700000000000_0001_") || wd.ID == 0 || wd.Reason == "" {
						t.Errorf("PROTOCOL.md:%d: decision %+v: want an id, a task of the example job and a reason", ex.line, wd)
					}
				}
			}
		default:
			t.Fatalf("PROTOCOL.md:%d: unknown example action %q", ex.line, ex.action)
		}
	}
	// The document's every frame type is exercised.
	if kinds["send"] < 3 || kinds["answer"] < 3 || kinds["send-quiet"] < 1 || kinds["decode"] < 2 {
		t.Errorf("examples by action %v: fewer than the document has today", kinds)
	}
}
