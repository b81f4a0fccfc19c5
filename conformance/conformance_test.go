package conformance

// The conformance suite: every scenario of sim/testdata/conformance, under
// each policy it lists, simulated (Simulate) and played frame by frame to a
// real bridge server (the sidecar's `serve` session, over a real
// websocket), the server's clock held at each Decide's time so that its
// estimate of the AM's clock is exact. The decisions the server sends must
// be the ones the simulator's engine returned, Decide by Decide: which task
// gets a copy (and how many), which attempt is killed or re-run, which task
// is dropped, at which report.
//
// A scenario may pin a known difference ("differs POLICY REASON"): the
// decisions must then differ (a fix makes the test fail, and the pin is
// removed), and docs/policies/_guide.md's live table must name the policy
// with what is simulator-only. A registered policy no scenario lists fails
// TestEveryPolicyHasAConformanceCase. java-shim's ConformanceMRAppTest
// plays the same traces through Hadoop's ApplicationMaster.

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/bridge"
	"github.com/specbridge/specbridge/internal/testclock"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/all/alltest"
)

const (
	scenarioDir = "../sim/testdata/conformance"
	guidePath   = "../docs/policies/_guide.md"
	token       = "conformance-token-0123456789"
	waitFor     = 10 * time.Second
)

func scenarios(t *testing.T) []*Scenario {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(scenarioDir, "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no conformance scenarios in %s (%v)", scenarioDir, err)
	}
	sort.Strings(paths)
	out := make([]*Scenario, len(paths))
	for i, p := range paths {
		if out[i], err = Read(p); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// live is a session of a real bridge server, its clock held by the test.
type live struct {
	t     *testing.T
	conn  *websocket.Conn
	clock *testclock.Clock
	nonce int64
	seq   int64
}

func startLive(t *testing.T, reg *speculators.Registry, clock *testclock.Clock) string {
	t.Helper()
	log := logrus.New()
	log.SetOutput(io.Discard)
	srv, err := bridge.NewServer(bridge.Config{Registry: reg, Tokens: []string{token}, Log: log,
		Now: clock.Now, DecideInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitFor)
		defer cancel()
		_ = srv.Shutdown(ctx)
		hs.Close()
	})
	return "ws" + strings.TrimPrefix(hs.URL, "http") + bridge.Path
}

func (l *live) send(v any) {
	l.t.Helper()
	if err := l.conn.WriteJSON(v); err != nil {
		l.t.Fatalf("send: %v", err)
	}
}

// frame is any frame the server sends, decoded loosely.
type frame struct {
	Type      string                `json:"type"`
	Code      string                `json:"code"`
	Text      string                `json:"text"`
	Nonce     int64                 `json:"nonce"`
	Time      int64                 `json:"time"`
	Decisions []bridge.WireDecision `json:"decisions"`
}

func (l *live) read() frame {
	l.t.Helper()
	_ = l.conn.SetReadDeadline(time.Now().Add(waitFor))
	var f frame
	if err := l.conn.ReadJSON(&f); err != nil {
		l.t.Fatalf("read: %v", err)
	}
	return f
}

// decide sends the events with now, then a ping, and returns the decisions
// the server sent before the pong.
func (l *live) decide(at int64, evs []bridge.WireEvent) []string {
	l.t.Helper()
	l.clock.Set(time.UnixMilli(at))
	l.seq++
	l.send(bridge.Events{Type: bridge.TypeEvents, Seq: l.seq, Now: at, Events: append([]bridge.WireEvent{}, evs...)})
	l.nonce++
	l.send(bridge.Ping{Type: bridge.TypePing, Nonce: l.nonce, Now: at})
	var out []string
	for {
		f := l.read()
		switch f.Type {
		case bridge.TypePong:
			if f.Nonce == l.nonce {
				return out
			}
		case bridge.TypeDecisions:
			acks := bridge.Ack{Type: bridge.TypeAck}
			for _, d := range f.Decisions {
				out = append(out, WireDecision(d))
				acks.Acks = append(acks.Acks, bridge.AckEntry{ID: d.ID, Result: bridge.AckApplied})
			}
			l.send(acks)
		case bridge.TypeError:
			l.t.Fatalf("the server answered the frame at %d ms with %s: %s", at-AMZero, f.Code, f.Text)
		}
	}
}

// run plays the simulator's trace of policy to a live session and returns
// the first difference ("" if none) and the decisions on both sides.
func run(t *testing.T, reg *speculators.Registry, s *Scenario, policy string) (diff string, simSide, liveSide []string) {
	return runAs(t, reg, s, policy, policy)
}

// runAs is run with livePolicy in the live session (a test of the suite).
func runAs(t *testing.T, reg *speculators.Registry, s *Scenario, policy, livePolicy string) (diff string, simSide, liveSide []string) {
	t.Helper()
	tr, err := Simulate(reg, s, policy)
	if err != nil {
		t.Fatal(err)
	}
	clock := testclock.New(time.UnixMilli(AMZero))
	url := startLive(t, reg, clock)
	d := websocket.Dialer{HandshakeTimeout: waitFor}
	conn, resp, err := d.Dial(url, nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	_ = resp.Body.Close()
	defer conn.Close()
	l := &live{t: t, conn: conn, clock: clock}
	hello := tr.Hello
	hello.Token, hello.Speculator, hello.Params = token, livePolicy, s.Params[livePolicy]
	l.send(hello)
	if f := l.read(); f.Type != bridge.TypeWelcome {
		t.Fatalf("%s: hello for %s answered with %s %s: %s", s.Path, livePolicy, f.Type, f.Code, f.Text)
	}
	for _, st := range tr.Steps {
		got := l.decide(st.Now, st.Events)
		for _, x := range st.Want {
			simSide = append(simSide, fmt.Sprintf("t=%d %s", st.Now-AMZero, x))
		}
		for _, x := range got {
			liveSide = append(liveSide, fmt.Sprintf("t=%d %s", st.Now-AMZero, x))
		}
		want := st.Want
		if !st.Ordered {
			want = append([]string(nil), want...)
			got = append([]string(nil), got...)
			sort.Strings(want)
			sort.Strings(got)
		}
		if diff == "" && strings.Join(want, "; ") != strings.Join(got, "; ") {
			diff = fmt.Sprintf("at %d ms: simulator %q, live %q", st.Now-AMZero, want, got)
		}
	}
	return diff, simSide, liveSide
}

// TestLiveDecidesAsTheSimulator runs every scenario under each policy it
// lists in the simulator and live, and compares the decisions.
func TestLiveDecidesAsTheSimulator(t *testing.T) {
	reg := alltest.Registry(t)
	guide, err := os.ReadFile(guidePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range scenarios(t) {
		for _, policy := range s.Policies {
			t.Run(filepath.Base(s.Path)+"/"+policy, func(t *testing.T) {
				diff, simSide, liveSide := run(t, reg, s, policy)
				t.Logf("simulator decided %d: %q", len(simSide), simSide)
				reason, pinned := s.Differs[policy]
				switch {
				case pinned && diff == "":
					t.Errorf("%s pins a live difference for %s (%s), but live now decides as the simulator: "+
						"remove the pin and the row's note in %s", s.Path, policy, reason, guidePath)
				case pinned:
					t.Logf("pinned difference (%s): %s", reason, diff)
					if !liveTableNames(string(guide), policy) {
						t.Errorf("%s differs live (%s) but the live table of %s does not name it", policy, reason, guidePath)
					}
				case diff != "":
					t.Errorf("%s: %s decides differently live, %s\n simulator: %q\n live:      %q", s.Path, policy, diff, simSide, liveSide)
				}
				if len(simSide) == 0 && !pinned && !s.quiet(policy) {
					t.Errorf("%s: %s decided nothing in the simulator: the scenario does not exercise it", s.Path, policy)
				}
			})
		}
	}
}

// quiet reports whether a policy is expected to decide nothing (none).
func (s *Scenario) quiet(policy string) bool { return policy == "none" }

// liveTableNames reports whether a row of the guide's live table names
// policy (as `policy`) with something in its "simulator only" column.
func liveTableNames(guide, policy string) bool {
	for _, line := range strings.Split(guide, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.Contains(cells[1], "`"+policy+"`") {
			continue
		}
		if strings.TrimSpace(cells[3]) != "" {
			return true
		}
	}
	return false
}

// TestEveryPolicyHasAConformanceCase: a registered policy that no scenario
// lists fails, so a new policy comes with its conformance case.
func TestEveryPolicyHasAConformanceCase(t *testing.T) {
	reg := alltest.Registry(t)
	listed := map[string]bool{}
	for _, s := range scenarios(t) {
		for _, p := range s.Policies {
			if _, ok := reg.Lookup(p); !ok {
				t.Errorf("%s lists %s, which is not registered", s.Path, p)
			}
			listed[p] = true
		}
	}
	for _, name := range reg.Names() {
		if !listed[name] {
			t.Errorf("policy %s has no conformance case: add it to a scenario of %s", name, scenarioDir)
		}
	}
}

// TestTheSuiteSeesADifference: the suite is not blind. The slow-node
// scenario simulated under late and played live to hadoop (which copies
// later) must differ.
func TestTheSuiteSeesADifference(t *testing.T) {
	reg := alltest.Registry(t)
	s, err := Read(filepath.Join(scenarioDir, "slow-nodes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	diff, simSide, liveSide := runAs(t, reg, s, "late", "hadoop")
	if diff == "" {
		t.Fatalf("late in the simulator and hadoop live decided alike: %q / %q", simSide, liveSide)
	}
	t.Log(diff)
}

// TestReadNamesTheBadLine: a scenario that cannot be read is an error that
// names the file and line, not a panic.
func TestReadNamesTheBadLine(t *testing.T) {
	for _, body := range []string{"nodes 2\nslots x\n", "nodes 2\nwhat 3\n", "nodes 2\nslots 2\nmaps 10\n", "nodes 2\nslots 2\nmaps 10\npolicies late\ncrash 5 0 0\n", "nodes 2\nslots 2\nmaps 10\npolicies late\nslow 2 3\n"} {
		p := filepath.Join(t.TempDir(), "bad.txt")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Read(p)
		if err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%q: error %v does not name %s", body, err, p)
		}
	}
}
