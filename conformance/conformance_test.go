// Package conformance checks that every registered policy decides live as
// it does in replay. Each scenario of sim/testdata/conformance/ is run in
// the simulator with each policy it lists; the simulator's trace (every
// event the job's engine accepted, every Decide and what it returned) is
// then played, frame by frame, to a real bridge server (the sidecar's
// `serve` session, over a real websocket) running the same policy: the
// events as the shim's events frames, each Decide as a frame stamped with
// the Decide's time on the AM's clock (the server's clock is held at that
// time, so its estimate of the AM's clock is exact). The decisions the
// server sends must be the ones the simulator's engine returned, decide by
// decide: which task gets a copy (and how many), which attempt is killed or
// re-run, which task is dropped, at which report.
//
// The simulator also starts copies no Decide asked for: at slot offers
// (speculators.SlotChooser, its pull mode) and clones at launch
// (speculators.Cloner). Live these come from Decide, so each is expected as
// a speculate decision of the first Decide at or after the copy's start,
// and the live session hears of the copy only after that Decide.
//
// A scenario may pin a known difference ("differs POLICY REASON"): the
// decisions must then differ (a fix makes the test fail, and the pin is
// removed), and docs/policies/_guide.md's live table must name the policy
// with what is simulator-only. A registered policy no scenario lists fails
// TestEveryPolicyHasAConformanceCase.
//
// What this does not cover is the AM side: that Hadoop carries a decision
// out as the simulator does (where the copy is placed, when it starts).
// That is the shim's MRApp tests' part (java-shim), and the live table's
// "simulator only" column says where it differs.
package conformance

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/bridge"
	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/all"
)

const (
	scenarioDir = "../sim/testdata/conformance"
	guidePath   = "../docs/policies/_guide.md"
	token       = "conformance-token-0123456789"
	// amZero is the AM's clock at the simulator's virtual zero.
	amZero  = int64(1_700_000_000_000)
	jobName = "job_1700000000000_0001"
	waitFor = 10 * time.Second
)

// scenario is one file of sim/testdata/conformance.
type scenario struct {
	path     string
	policies []string
	params   map[string]map[string]string // policy -> name -> value
	differs  map[string]string            // policy -> reason
	nodes    []sim.Node
	cfg      sim.Config
	job      sim.Job
	// hello: what the shim's hello carries beyond the job's shape.
	helloSlots                bool
	helloTaskMeanMS, helloAlp float64
}

func readScenario(t *testing.T, path string) *scenario {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := &scenario{path: path, params: map[string]map[string]string{}, differs: map[string]string{}}
	var (
		nodes, slots           int
		slow                   = map[int]float64{}
		crashes                []struct{ node, at, until int64 }
		heartbeat, decide      int64 = 3000, 1000
		maps, reduces          []speculators.Time
		deadline               int64
		errorBound, mean, tail float64
		resumeOn               bool
	)
	fail := func(line int, format string, a ...any) { t.Fatalf("%s:%d: %s", path, line, fmt.Sprintf(format, a...)) }
	num := func(line int, v string) int64 {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			fail(line, "%q is not a non-negative integer", v)
		}
		return n
	}
	flt := func(line int, v string) float64 {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !(x >= 0) {
			fail(line, "%q is not a non-negative number", v)
		}
		return x
	}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		want := func(n int) {
			if len(fs) < n {
				fail(line, "%s needs %d values", fs[0], n-1)
			}
		}
		switch fs[0] {
		case "policies":
			want(2)
			s.policies = append(s.policies, fs[1:]...)
		case "param":
			want(2)
			k, v, ok := strings.Cut(fs[1], "=")
			pol, name, ok2 := strings.Cut(k, ".")
			if !ok || !ok2 {
				fail(line, "param %q is not POLICY.NAME=VALUE", fs[1])
			}
			if s.params[pol] == nil {
				s.params[pol] = map[string]string{}
			}
			s.params[pol][name] = v
		case "differs":
			want(3)
			s.differs[fs[1]] = strings.Join(fs[2:], " ")
		case "nodes":
			want(2)
			nodes = int(num(line, fs[1]))
		case "slots":
			want(2)
			slots = int(num(line, fs[1]))
		case "slow":
			want(3)
			slow[int(num(line, fs[1]))] = flt(line, fs[2])
		case "crash":
			want(4)
			crashes = append(crashes, struct{ node, at, until int64 }{num(line, fs[1]), num(line, fs[2]), num(line, fs[3])})
		case "heartbeat-ms":
			want(2)
			heartbeat = num(line, fs[1])
		case "decide-ms":
			want(2)
			decide = num(line, fs[1])
		case "maps", "reduces":
			want(2)
			for _, v := range fs[1:] {
				w := speculators.Time(num(line, v))
				if fs[0] == "maps" {
					maps = append(maps, w)
				} else {
					reduces = append(reduces, w)
				}
			}
		case "deadline-ms":
			want(2)
			deadline = num(line, fs[1])
		case "error-bound":
			want(2)
			errorBound = flt(line, fs[1])
		case "task-mean-ms":
			want(2)
			mean = flt(line, fs[1])
		case "tail-index":
			want(2)
			tail = flt(line, fs[1])
		case "hello-slots":
			s.helloSlots = true
		case "resume":
			resumeOn = true
		default:
			fail(line, "unknown line %q", sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if nodes == 0 || slots == 0 || len(maps) == 0 || len(s.policies) == 0 {
		t.Fatalf("%s: needs nodes, slots, maps and policies", path)
	}
	s.nodes = make([]sim.Node, nodes)
	for i := range s.nodes {
		s.nodes[i] = sim.Node{Name: fmt.Sprintf("node%d", i), Slots: slots, Slowdown: slow[i]}
	}
	for _, c := range crashes {
		if int(c.node) >= nodes {
			t.Fatalf("%s: crash of node %d of %d", path, c.node, nodes)
		}
		s.nodes[c.node].Episodes = append(s.nodes[c.node].Episodes,
			sim.Episode{Start: speculators.Time(c.at), End: speculators.Time(c.until), Crash: true})
	}
	s.cfg = sim.DefaultConfig(s.nodes)
	s.cfg.Heartbeat = time.Duration(heartbeat) * time.Millisecond
	s.cfg.DecideInterval = time.Duration(decide) * time.Millisecond
	s.cfg.RecordDecisions = true
	s.cfg.Resume = resumeOn
	s.cfg.Seed = 1
	tasks := func(ws []speculators.Time) []sim.Task {
		out := make([]sim.Task, len(ws))
		for i, w := range ws {
			out[i] = sim.Task{Work: w, InputBytes: 64 << 20}
		}
		return out
	}
	s.job = sim.Job{ID: jobName, Maps: tasks(maps), Reduces: tasks(reduces), ErrorBound: errorBound,
		TaskMillis: mean, TailIndex: tail}
	if deadline > 0 {
		s.job.Deadline = speculators.Time(deadline)
	}
	// Live, the sidecar drops what is left at a bound (deploy.md,
	// "Approximation jobs"); the simulator plays that rule when asked.
	s.job.EnforceBounds = deadline > 0 || errorBound > 0
	s.helloTaskMeanMS, s.helloAlp = mean, tail
	return s
}

func scenarios(t *testing.T) []*scenario {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(scenarioDir, "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no conformance scenarios in %s (%v)", scenarioDir, err)
	}
	sort.Strings(paths)
	out := make([]*scenario, len(paths))
	for i, p := range paths {
		out[i] = readScenario(t, p)
	}
	return out
}

// step is one thing the simulator's engine did: accept an event, or decide.
type step struct {
	ev      *speculators.Event // nil: a Decide
	now     speculators.Time
	decided []string
}

// recorder is the simulator's sim.Tracer. It also marks the copies the
// simulator started that no Decide asked for: those a policy chose at a
// slot offer (speculators.SlotChooser, the simulator's pull mode) or
// cloned at launch (speculators.Cloner). Live Hadoop has neither: there
// the same copies must come from Decide (see run).
type recorder struct {
	steps     []step
	requested map[speculators.TaskID]int
	own       map[speculators.AttemptID]bool
}

func (r *recorder) Event(_ string, ev *speculators.Event) {
	e := *ev
	e.FetchFailedMaps = append([]speculators.TaskID(nil), ev.FetchFailedMaps...)
	r.steps = append(r.steps, step{ev: &e})
	if ev.Kind == speculators.AttemptStarted && ev.Speculative {
		if r.requested[ev.Attempt.Task] > 0 {
			r.requested[ev.Attempt.Task]--
		} else {
			if r.own == nil {
				r.own = map[speculators.AttemptID]bool{}
			}
			r.own[ev.Attempt] = true
		}
	}
}

func (r *recorder) Decided(_ string, now speculators.Time, ds []speculators.Decision) {
	st := step{now: now}
	for _, d := range ds {
		st.decided = append(st.decided, simDecision(d))
		if d.Kind == speculators.Speculate {
			if r.requested == nil {
				r.requested = map[speculators.TaskID]int{}
			}
			r.requested[d.Task] += max(d.Copies, 1)
		}
	}
	r.steps = append(r.steps, st)
}

func taskID(id speculators.TaskID) string {
	return fmt.Sprintf("task_1700000000000_0001_%s_%06d", id.Type.Letter(), id.Index)
}

func attemptID(id speculators.AttemptID) string {
	return fmt.Sprintf("attempt_1700000000000_0001_%s_%06d_%d", id.Task.Type.Letter(), id.Task.Index, id.N)
}

// simDecision is a decision as the wire carries it (Resume does not cross
// the wire; see speculators.Decision.Resume).
func simDecision(d speculators.Decision) string {
	switch d.Kind {
	case speculators.Speculate:
		return fmt.Sprintf("speculate %s x%d", taskID(d.Task), max(d.Copies, 1))
	case speculators.Kill, speculators.Rerun:
		return fmt.Sprintf("%s %s", d.Kind, attemptID(d.Attempt))
	}
	return fmt.Sprintf("%s %s", d.Kind, taskID(d.Task))
}

func wireDecision(d bridge.WireDecision) string {
	switch d.Kind {
	case "speculate":
		return fmt.Sprintf("speculate %s x%d", d.Task, max(d.Copies, 1))
	case "kill", "rerun":
		return fmt.Sprintf("%s %s", d.Kind, d.Attempt)
	}
	return fmt.Sprintf("%s %s", d.Kind, d.Task)
}

func wireEvent(ev *speculators.Event) bridge.WireEvent {
	at := amZero + ev.Time
	w := bridge.WireEvent{Kind: ev.Kind.String(), Time: &at}
	switch ev.Kind {
	case speculators.AttemptStarted:
		w.Attempt, w.Node, w.Container, w.Speculative = attemptID(ev.Attempt), string(ev.Node), ev.Container, ev.Speculative
	case speculators.AttemptStatus:
		w.Attempt, w.Progress, w.Phase = attemptID(ev.Attempt), ev.Progress, ev.Phase.String()
		c := ev.Counters
		w.Counters = &bridge.Counters{InputBytes: c.InputBytes, OutputBytes: c.OutputBytes, InputRecords: c.InputRecords,
			OutputRecords: c.OutputRecords, CPUMillis: c.CPUMillis, GCMillis: c.GCMillis, SpilledRecords: c.SpilledRecords}
		for _, m := range ev.FetchFailedMaps {
			w.FetchFailedMaps = append(w.FetchFailedMaps, taskID(m))
		}
	case speculators.AttemptSucceeded, speculators.AttemptFailed, speculators.AttemptKilled:
		w.Attempt = attemptID(ev.Attempt)
	case speculators.ContainerNeeds:
		w.TaskType, w.Count = ev.TaskType.String(), ev.Count
	case speculators.NodeSuspected, speculators.NodeFailed, speculators.NodeResumed:
		w.Node = string(ev.Node)
	case speculators.JobBounds:
		w.Deadline, w.ErrorBound = ev.Deadline, ev.ErrorBound
	}
	return w
}

// live is a session of a real bridge server, its clock held by the test.
type live struct {
	t     *testing.T
	conn  *websocket.Conn
	clock *atomic.Int64
	nonce int64
	seq   int64
}

func startLive(t *testing.T, reg *speculators.Registry, clock *atomic.Int64) string {
	t.Helper()
	log := logrus.New()
	log.SetOutput(io.Discard)
	srv, err := bridge.NewServer(bridge.Config{Registry: reg, Tokens: []string{token}, Log: log,
		Now: func() time.Time { return time.UnixMilli(clock.Load()) }, DecideInterval: time.Hour})
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
func (l *live) decide(now speculators.Time, evs []bridge.WireEvent) []string {
	l.t.Helper()
	at := amZero + now
	l.clock.Store(at)
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
				out = append(out, wireDecision(d))
				acks.Acks = append(acks.Acks, bridge.AckEntry{ID: d.ID, Result: bridge.AckApplied})
			}
			l.send(acks)
		case bridge.TypeError:
			l.t.Fatalf("the server answered the frame at %d ms with %s: %s", now, f.Code, f.Text)
		}
	}
}

// run plays the simulator's trace to a live session of policy and returns
// the first difference ("" if none) and the decisions on both sides.
func run(t *testing.T, reg *speculators.Registry, s *scenario, policy string) (diff string, simSide, liveSide []string) {
	return runAs(t, reg, s, policy, policy)
}

// runAs is run with livePolicy in the live session (a test of the suite).
func runAs(t *testing.T, reg *speculators.Registry, s *scenario, policy, livePolicy string) (diff string, simSide, liveSide []string) {
	t.Helper()
	rec := &recorder{}
	cfg := s.cfg
	cfg.Trace = rec
	params := s.params[policy]
	res, err := sim.Run(cfg, []sim.Job{s.job}, func(info speculators.JobInfo) (*speculators.Engine, error) {
		return reg.NewEngine(info, policy, params, 1)
	})
	if err != nil {
		t.Fatalf("%s: simulate %s: %v", s.path, policy, err)
	}
	if res.Jobs[0].Finish < 0 {
		t.Fatalf("%s: under %s the simulated job did not finish", s.path, policy)
	}
	clock := &atomic.Int64{}
	clock.Store(amZero)
	url := startLive(t, reg, clock)
	d := websocket.Dialer{HandshakeTimeout: waitFor}
	conn, resp, err := d.Dial(url, nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	_ = resp.Body.Close()
	defer conn.Close()
	l := &live{t: t, conn: conn, clock: clock}
	// The hello the shim sends (EventTranslator.hello): the job's shape,
	// split sizes, its bounds and a-priori task model as configured, and
	// the cluster's slots where specbridge.cluster.slots is set.
	hello := bridge.Hello{Type: bridge.TypeHello, Version: bridge.Version, Token: token, Job: jobName, User: "conformance",
		Queue: "default", Speculator: livePolicy, Params: s.params[livePolicy], Maps: len(s.job.Maps), Reduces: len(s.job.Reduces),
		Start: amZero, Now: amZero, ErrorBound: s.job.ErrorBound, TaskMeanMS: s.helloTaskMeanMS, TaskTailIndex: s.helloAlp}
	for _, m := range s.job.Maps {
		hello.MapInputBytes = append(hello.MapInputBytes, m.InputBytes)
	}
	if s.job.Deadline > 0 {
		hello.Deadline = amZero + s.job.Deadline
	}
	if s.helloSlots {
		for _, n := range s.nodes {
			hello.Slots += n.Slots
		}
	}
	l.send(hello)
	if f := l.read(); f.Type != bridge.TypeWelcome {
		t.Fatalf("%s: hello for %s answered with %s %s: %s", s.path, policy, f.Type, f.Code, f.Text)
	}
	// A copy the simulator started on its own (a slot offer, a clone at
	// launch) is, live, a speculate decision of the first Decide at or
	// after its start (at the same instant, the simulator may tick before
	// it offers the slot): that Decide's expected decisions get it, and
	// the live session is told of the copy's start (and anything after it)
	// only once it has decided, as live the copy starts after the decision.
	var decides []speculators.Time
	for _, st := range rec.steps {
		if st.ev == nil {
			decides = append(decides, st.now)
		}
	}
	owedAt := map[int][]speculators.TaskID{}
	target := map[speculators.AttemptID]int{}
	for _, st := range rec.steps {
		if ev := st.ev; ev != nil && ev.Kind == speculators.AttemptStarted && rec.own[ev.Attempt] {
			k := sort.Search(len(decides), func(i int) bool { return decides[i] >= ev.Time })
			target[ev.Attempt] = k
			owedAt[k] = append(owedAt[k], ev.Attempt.Task)
		}
	}
	var pending, held []bridge.WireEvent
	k := 0
	for _, st := range rec.steps {
		if ev := st.ev; ev != nil {
			if t, own := target[ev.Attempt]; own && t >= k && ev.Kind.Lifecycle() {
				held = append(held, wireEvent(ev))
			} else {
				pending = append(pending, wireEvent(ev))
			}
			continue
		}
		owed := owedAt[k]
		k++
		got := l.decide(st.now, pending)
		pending = append(pending[:0], held...)
		held = held[:0]
		want := append([]string(nil), st.decided...)
		ordered := len(owed) == 0
		want = append(want, ownCopies(owed)...)
		for _, x := range want {
			simSide = append(simSide, fmt.Sprintf("t=%d %s", st.now, x))
		}
		for _, x := range got {
			liveSide = append(liveSide, fmt.Sprintf("t=%d %s", st.now, x))
		}
		if !ordered {
			// Copies offered at a slot have no order against Decide's.
			got = append([]string(nil), got...)
			sort.Strings(want)
			sort.Strings(got)
		}
		if diff == "" && strings.Join(want, "; ") != strings.Join(got, "; ") {
			diff = fmt.Sprintf("at %d ms: simulator %q, live %q", st.now, want, got)
		}
	}
	if owed := owedAt[len(decides)]; diff == "" && len(owed) > 0 {
		diff = fmt.Sprintf("the simulator started copies of %v after its last Decide", owed)
	}
	return diff, simSide, liveSide
}

// ownCopies is the simulator's own copies as the speculate decisions that
// would start them live: one per task, with the number of copies.
func ownCopies(tasks []speculators.TaskID) []string {
	n := map[speculators.TaskID]int{}
	var order []speculators.TaskID
	for _, t := range tasks {
		if n[t] == 0 {
			order = append(order, t)
		}
		n[t]++
	}
	out := make([]string, len(order))
	for i, t := range order {
		out[i] = fmt.Sprintf("speculate %s x%d", taskID(t), n[t])
	}
	return out
}

// TestLiveDecidesAsTheSimulator runs every scenario under each policy it
// lists in the simulator and live, and compares the decisions.
func TestLiveDecidesAsTheSimulator(t *testing.T) {
	reg, err := all.Registry()
	if err != nil {
		t.Fatal(err)
	}
	guide, err := os.ReadFile(guidePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range scenarios(t) {
		for _, policy := range s.policies {
			t.Run(filepath.Base(s.path)+"/"+policy, func(t *testing.T) {
				diff, simSide, liveSide := run(t, reg, s, policy)
				t.Logf("simulator decided %d: %q", len(simSide), simSide)
				reason, pinned := s.differs[policy]
				switch {
				case pinned && diff == "":
					t.Errorf("%s pins a live difference for %s (%s), but live now decides as the simulator: "+
						"remove the pin and the row's note in %s", s.path, policy, reason, guidePath)
				case pinned:
					t.Logf("pinned difference (%s): %s", reason, diff)
					if !liveTableNames(string(guide), policy) {
						t.Errorf("%s differs live (%s) but the live table of %s does not name it", policy, reason, guidePath)
					}
				case diff != "":
					t.Errorf("%s: %s decides differently live, %s\n simulator: %q\n live:      %q", s.path, policy, diff, simSide, liveSide)
				}
				if len(simSide) == 0 && !pinned && !s.quiet(policy) {
					t.Errorf("%s: %s decided nothing in the simulator: the scenario does not exercise it", s.path, policy)
				}
			})
		}
	}
}

// quiet reports whether a policy is expected to decide nothing (none).
func (s *scenario) quiet(policy string) bool { return policy == "none" }

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
	reg, err := all.Registry()
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, s := range scenarios(t) {
		for _, p := range s.policies {
			if _, ok := reg.Lookup(p); !ok {
				t.Errorf("%s lists %s, which is not registered", s.path, p)
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
	reg, err := all.Registry()
	if err != nil {
		t.Fatal(err)
	}
	s := readScenario(t, filepath.Join(scenarioDir, "slow-nodes.txt"))
	diff, simSide, liveSide := runAs(t, reg, s, "late", "hadoop")
	if diff == "" {
		t.Fatalf("late in the simulator and hadoop live decided alike: %q / %q", simSide, liveSide)
	}
	t.Log(diff)
}
