// Package conformance runs a policy in the simulator and records what a
// live sidecar must decide for the AM's events to agree with it: the
// conformance suite's scenarios (sim/testdata/conformance) are read here,
// simulated, and turned into a Trace, the hello and the event frames the
// shim would send, each with the decisions the simulator's engine returned
// at that instant. conformance_test.go plays a Trace to a real bridge
// server; `specbridge conformance-trace` prints one as JSON for the shim's
// MRApp harness (java-shim, ConformanceMRAppTest), which plays it through
// Hadoop's ApplicationMaster to a real `serve`.
//
// The simulator also starts copies no Decide asked for: at slot offers
// (speculators.SlotChooser, its pull mode) and clones at launch
// (speculators.Cloner). Live these come from Decide, so each is expected as
// a speculate decision of the first Decide at or after the copy's start
// (at the same instant the simulator may tick before it offers the slot),
// and the copy's start (and anything after it) is sent only after that
// Decide, as live the copy starts after the decision.
package conformance

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/specbridge/specbridge/bridge"
	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
)

const (
	// AMZero is the AM's clock at the simulator's virtual zero.
	AMZero = int64(1_700_000_000_000)
	// JobName is the scenario job's id.
	JobName = "job_1700000000000_0001"
)

// Scenario is one file of sim/testdata/conformance: one job on a small
// cluster, the policies it checks, and the differences it pins. Lines:
//
//	policies NAME...            the policies run on it
//	param POLICY.NAME=VALUE     a parameter of one of them
//	differs POLICY REASON...    a pinned live difference (the suite fails if it goes away)
//	nodes N / slots N           the cluster: N nodes of N containers
//	slow NODE FACTOR            node NODE (0-based) runs FACTOR times slow
//	crash NODE AT-MS UNTIL-MS   node NODE crashes at AT-MS (UNTIL-MS 0: for good)
//	heartbeat-ms N / decide-ms N
//	maps MS... / reduces MS...  the tasks' work at nominal speed
//	deadline-ms N / error-bound X
//	task-mean-ms N / tail-index X   the job's a-priori task model (the shim's specbridge.job.*)
//	hello-slots                 the hello carries the cluster's slots (specbridge.cluster.slots)
//	resume                      the simulator resumes copies (live cannot: for a pinned case)
type Scenario struct {
	Path       string
	Policies   []string
	Params     map[string]map[string]string // policy -> name -> value
	Differs    map[string]string            // policy -> reason
	Nodes      []sim.Node
	Config     sim.Config
	Job        sim.Job
	HelloSlots bool
	TaskMeanMS float64
	TailIndex  float64
}

// badInput carries a reading error out of Read's line parser.
type badInput struct{ error }

// Read reads a scenario file; an error names the file and line.
func Read(path string) (s *Scenario, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s = &Scenario{Path: path, Params: map[string]map[string]string{}, Differs: map[string]string{}}
	defer func() {
		if e := recover(); e != nil {
			bad, ok := e.(badInput)
			if !ok {
				panic(e)
			}
			s, err = nil, error(bad)
		}
	}()
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
	fail := func(line int, format string, a ...any) {
		panic(badInput{fmt.Errorf("%s:%d: %s", path, line, fmt.Sprintf(format, a...))})
	}
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
	// The keywords that set one number.
	integers := map[string]*int64{"heartbeat-ms": &heartbeat, "decide-ms": &decide, "deadline-ms": &deadline}
	numbers := map[string]*float64{"error-bound": &errorBound, "task-mean-ms": &mean, "tail-index": &tail}
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
			s.Policies = append(s.Policies, fs[1:]...)
		case "param":
			want(2)
			k, v, ok := strings.Cut(fs[1], "=")
			pol, name, ok2 := strings.Cut(k, ".")
			if !ok || !ok2 {
				fail(line, "param %q is not POLICY.NAME=VALUE", fs[1])
			}
			if s.Params[pol] == nil {
				s.Params[pol] = map[string]string{}
			}
			s.Params[pol][name] = v
		case "differs":
			want(3)
			s.Differs[fs[1]] = strings.Join(fs[2:], " ")
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
		case "hello-slots":
			s.HelloSlots = true
		case "resume":
			resumeOn = true
		default:
			if p, ok := integers[fs[0]]; ok {
				want(2)
				*p = num(line, fs[1])
			} else if p, ok := numbers[fs[0]]; ok {
				want(2)
				*p = flt(line, fs[1])
			} else {
				fail(line, "unknown line %q", sc.Text())
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if nodes == 0 || slots == 0 || len(maps) == 0 || len(s.Policies) == 0 {
		return nil, fmt.Errorf("%s: needs nodes, slots, maps and policies", path)
	}
	if nodes > 64 || slots > 64 || len(maps)+len(reduces) > 1000 {
		return nil, fmt.Errorf("%s: at most 64 nodes of 64 slots and 1000 tasks", path)
	}
	for n := range slow {
		if n >= nodes {
			return nil, fmt.Errorf("%s: slow node %d of %d", path, n, nodes)
		}
	}
	s.Nodes = make([]sim.Node, nodes)
	for i := range s.Nodes {
		s.Nodes[i] = sim.Node{Name: fmt.Sprintf("node%d", i), Slots: slots, Slowdown: slow[i]}
	}
	for _, c := range crashes {
		if int(c.node) >= nodes {
			return nil, fmt.Errorf("%s: crash of node %d of %d", path, c.node, nodes)
		}
		s.Nodes[c.node].Episodes = append(s.Nodes[c.node].Episodes,
			sim.Episode{Start: speculators.Time(c.at), End: speculators.Time(c.until), Crash: true})
	}
	s.Config = sim.DefaultConfig(s.Nodes)
	s.Config.Heartbeat = time.Duration(heartbeat) * time.Millisecond
	s.Config.DecideInterval = time.Duration(decide) * time.Millisecond
	s.Config.RecordDecisions = true
	s.Config.Resume = resumeOn
	s.Config.Seed = 1
	tasks := func(ws []speculators.Time) []sim.Task {
		out := make([]sim.Task, len(ws))
		for i, w := range ws {
			out[i] = sim.Task{Work: w, InputBytes: 64 << 20}
		}
		return out
	}
	// MaxAttempts is Hadoop's default, which the live AM has: the shim keeps
	// one attempt of a task in reserve from copies (DecisionApplier.copyRoom)
	// and the simulator does the same only for a job with max attempts.
	s.Job = sim.Job{ID: JobName, Maps: tasks(maps), Reduces: tasks(reduces), ErrorBound: errorBound,
		TaskMillis: mean, TailIndex: tail, MaxAttempts: 4}
	if deadline > 0 {
		s.Job.Deadline = speculators.Time(deadline)
	}
	// Live, the sidecar drops what is left at a bound (deploy.md,
	// "Approximation jobs"); the simulator plays that rule when asked.
	s.Job.EnforceBounds = deadline > 0 || errorBound > 0
	s.TaskMeanMS, s.TailIndex = mean, tail
	return s, nil
}

// Step is one Decide of the simulator: the events its engine accepted since
// the previous one (wire form, times on the AM's clock) and the decisions
// it returned, with the copies it started on its own since (see the
// package doc). Ordered is false when such copies are among them: they
// have no order against Decide's.
type Step struct {
	Now     int64              `json:"now"`
	Events  []bridge.WireEvent `json:"events"`
	Want    []string           `json:"want"`
	Ordered bool               `json:"ordered"`
}

// Trace is a scenario simulated under one policy, as the live side must see
// and decide it.
type Trace struct {
	Scenario string       `json:"scenario"`
	Policy   string       `json:"policy"`
	Hello    bridge.Hello `json:"hello"`
	Steps    []Step       `json:"steps"`
}

// Simulate runs s under policy and returns its Trace. The hello is what
// the shim sends for the job (EventTranslator.hello): the job's shape and
// split sizes, its deadline and a-priori task model as configured, the
// cluster's slots where specbridge.cluster.slots is set; no token.
func Simulate(reg *speculators.Registry, s *Scenario, policy string) (*Trace, error) {
	rec := &recorder{}
	cfg := s.Config
	cfg.Trace = rec
	params := s.Params[policy]
	res, err := sim.Run(cfg, []sim.Job{s.Job}, func(info speculators.JobInfo) (*speculators.Engine, error) {
		return reg.NewEngine(info, policy, params, 1)
	})
	if err != nil {
		return nil, fmt.Errorf("%s: simulate %s: %w", s.Path, policy, err)
	}
	if res.Jobs[0].Finish < 0 {
		return nil, fmt.Errorf("%s: under %s the simulated job did not finish", s.Path, policy)
	}
	tr := &Trace{Scenario: s.Path, Policy: policy}
	h := &tr.Hello
	*h = bridge.Hello{Type: bridge.TypeHello, Version: bridge.Version, Job: JobName, User: "conformance", Queue: "default",
		Speculator: policy, Params: params, Maps: len(s.Job.Maps), Reduces: len(s.Job.Reduces), Start: AMZero, Now: AMZero,
		ErrorBound: s.Job.ErrorBound, TaskMeanMS: s.TaskMeanMS, TaskTailIndex: s.TailIndex}
	for _, m := range s.Job.Maps {
		h.MapInputBytes = append(h.MapInputBytes, m.InputBytes)
	}
	if s.Job.Deadline > 0 {
		h.Deadline = AMZero + s.Job.Deadline
	}
	if s.HelloSlots {
		for _, n := range s.Nodes {
			h.Slots += n.Slots
		}
	}
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
	if owed := owedAt[len(decides)]; len(owed) > 0 {
		return nil, fmt.Errorf("%s: under %s the simulator started copies of %v after its last Decide", s.Path, policy, owed)
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
		step := Step{Now: AMZero + st.now, Events: append([]bridge.WireEvent{}, pending...),
			Want: append(append([]string{}, st.decided...), ownCopies(owed)...), Ordered: len(owed) == 0}
		tr.Steps = append(tr.Steps, step)
		pending = append(pending[:0], held...)
		held = held[:0]
	}
	return tr, nil
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

// WireDecision is a live decision in the form of Step.Want.
func WireDecision(d bridge.WireDecision) string {
	switch d.Kind {
	case "speculate":
		return fmt.Sprintf("speculate %s x%d", d.Task, max(d.Copies, 1))
	case "kill", "rerun":
		return fmt.Sprintf("%s %s", d.Kind, d.Attempt)
	}
	return fmt.Sprintf("%s %s", d.Kind, d.Task)
}

func wireEvent(ev *speculators.Event) bridge.WireEvent {
	at := AMZero + ev.Time
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
