package spectest

import (
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// Job configures one harness: the policy (by registry name), the job's
// shape, parameter overrides, the policy's seed and what earlier jobs taught
// (Prior, nil: nothing).
type Job struct {
	Policy string
	Info   speculators.JobInfo
	Params map[string]string
	Seed   uint64 // 0 is read as 1
	Prior  speculators.Prior
	// LaterAttemptsAreCopies marks every attempt Start launches after a
	// task's first as a speculative copy (as Hadoop numbers them when no
	// attempt failed); otherwise only StartCopy launches copies.
	LaterAttemptsAreCopies bool
}

// Harness drives one real speculators.Engine through events at times the
// test gives. Every helper fails the test on an error the engine returns.
type Harness struct {
	T      testing.TB
	Engine *speculators.Engine
	// LaterAttemptsAreCopies: see Job.
	LaterAttemptsAreCopies bool
	next                   map[speculators.TaskID]int32
	latest                 map[speculators.TaskID]speculators.AttemptID
	// learned accumulates what the engine handed out (Engine.Learned)
	// after every Observe and Decide, as a driver would persist it.
	learned speculators.Learned
}

// Registry returns a registry holding policies, failing t on an error.
func Registry(t testing.TB, policies ...speculators.Policy) *speculators.Registry {
	t.Helper()
	r := speculators.NewRegistry()
	for _, p := range policies {
		if err := r.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// New builds an engine running job.Policy from reg for job.Info (ID
// "job_test_0001" when empty).
func New(t testing.TB, reg *speculators.Registry, job Job) *Harness {
	t.Helper()
	if job.Info.ID == "" {
		job.Info.ID = "job_test_0001"
	}
	e, err := reg.NewEngineWith(job.Info, job.Policy, job.Params, max(job.Seed, 1), job.Prior)
	if err != nil {
		t.Fatal(err)
	}
	return newHarness(t, e, job)
}

func newHarness(t testing.TB, e *speculators.Engine, job Job) *Harness {
	return &Harness{T: t, Engine: e, LaterAttemptsAreCopies: job.LaterAttemptsAreCopies,
		next: map[speculators.TaskID]int32{}, latest: map[speculators.TaskID]speculators.AttemptID{}}
}

// For builds an engine running policy alone for a job shaped by info
// (ID "job_test_0001" when empty), with parameter overrides and seed 1: the
// common case of a policy's own tests.
func For(t testing.TB, policy speculators.Policy, info speculators.JobInfo, overrides map[string]string) *Harness {
	t.Helper()
	return New(t, Registry(t, policy), Job{Policy: policy.Name, Info: info, Params: overrides})
}

// Policy is the engine's policy, for a test that inspects its own type.
func (h *Harness) Policy() speculators.Speculator { return h.Engine.Policy }

// Job is the engine's job state.
func (h *Harness) Job() *speculators.Job { return h.Engine.Job }

// Sec converts seconds to engine time (ms).
func Sec(s float64) speculators.Time { return speculators.Time(s * 1000) }

// Map names map task i.
func Map(i int) speculators.TaskID { return speculators.TaskID{Type: speculators.Map, Index: int32(i)} }

// Reduce names reduce task i.
func Reduce(i int) speculators.TaskID {
	return speculators.TaskID{Type: speculators.Reduce, Index: int32(i)}
}

// Maps names map tasks from..to-1.
func Maps(from, to int) []speculators.TaskID { return tasks(Map, from, to) }

// Reduces names reduce tasks from..to-1.
func Reduces(from, to int) []speculators.TaskID { return tasks(Reduce, from, to) }

func tasks(of func(int) speculators.TaskID, from, to int) []speculators.TaskID {
	var out []speculators.TaskID
	for i := from; i < to; i++ {
		out = append(out, of(i))
	}
	return out
}

// Tasks is its arguments as a slice, for comparisons.
func Tasks(ids ...speculators.TaskID) []speculators.TaskID { return ids }

// Observe folds ev into the engine, failing the test on an error.
func (h *Harness) Observe(ev speculators.Event) {
	h.T.Helper()
	if err := h.TryObserve(ev); err != nil {
		h.T.Fatal(err)
	}
}

// TryObserve folds ev into the engine and returns its error.
func (h *Harness) TryObserve(ev speculators.Event) error {
	err := h.Engine.Observe(&ev)
	if err == nil && ev.Kind == speculators.AttemptStarted {
		t := ev.Attempt.Task
		h.latest[t] = ev.Attempt
		if ev.Attempt.N >= h.next[t] {
			h.next[t] = ev.Attempt.N + 1
		}
	}
	h.drain()
	return err
}

func (h *Harness) drain() {
	l := h.Engine.Learned()
	h.learned.Runtimes = append(h.learned.Runtimes, l.Runtimes...)
	h.learned.Samples = append(h.learned.Samples, l.Samples...)
	h.learned.Tails = append(h.learned.Tails, l.Tails...)
}

// NextAttempt is the id the task's next attempt gets (attempts are numbered
// from 0 in start order).
func (h *Harness) NextAttempt(task speculators.TaskID) speculators.AttemptID {
	return speculators.AttemptID{Task: task, N: h.next[task]}
}

// Latest is the task's latest started attempt.
func (h *Harness) Latest(task speculators.TaskID) (speculators.AttemptID, bool) {
	a, ok := h.latest[task]
	return a, ok
}

// Start launches the task's next attempt on node at at.
func (h *Harness) Start(task speculators.TaskID, node speculators.NodeID, at speculators.Time) speculators.AttemptID {
	h.T.Helper()
	return h.launch(task, node, at, false)
}

// StartCopy launches the task's next attempt as a speculative copy.
func (h *Harness) StartCopy(task speculators.TaskID, node speculators.NodeID, at speculators.Time) speculators.AttemptID {
	h.T.Helper()
	return h.launch(task, node, at, true)
}

// StartAttempt launches attempt a (its number given) on node at at, as a
// speculative copy when copy is set.
func (h *Harness) StartAttempt(a speculators.AttemptID, node speculators.NodeID, at speculators.Time, copy bool) {
	h.T.Helper()
	h.Observe(speculators.Event{Kind: speculators.AttemptStarted, Time: at, Attempt: a, Node: node, Speculative: copy})
}

func (h *Harness) launch(task speculators.TaskID, node speculators.NodeID, at speculators.Time, spec bool) speculators.AttemptID {
	h.T.Helper()
	id := h.NextAttempt(task)
	spec = spec || (h.LaterAttemptsAreCopies && id.N > 0)
	h.Observe(speculators.Event{Kind: speculators.AttemptStarted, Time: at, Attempt: id, Node: node, Speculative: spec})
	return id
}

// Status reports progress (a progress score in [0,1]) of attempt a at at.
func (h *Harness) Status(a speculators.AttemptID, at speculators.Time, progress float64) {
	h.T.Helper()
	h.Observe(speculators.Event{Kind: speculators.AttemptStatus, Time: at, Attempt: a, Progress: progress})
}

// FetchFailed sends reduce attempt a's status report in its shuffle phase
// with the given progress, naming maps whose output it could not fetch.
func (h *Harness) FetchFailed(a speculators.AttemptID, at speculators.Time, progress float64, maps ...speculators.TaskID) {
	h.T.Helper()
	h.Observe(speculators.Event{Kind: speculators.AttemptStatus, Time: at, Attempt: a,
		Progress: progress, Phase: speculators.PhaseShuffle, FetchFailedMaps: maps})
}

// End ends attempt a at at: kind is AttemptSucceeded, AttemptFailed or
// AttemptKilled.
func (h *Harness) End(kind speculators.EventKind, a speculators.AttemptID, at speculators.Time) {
	h.T.Helper()
	h.Observe(speculators.Event{Kind: kind, Time: at, Attempt: a})
}

// Succeed ends attempt a successfully at at.
func (h *Harness) Succeed(a speculators.AttemptID, at speculators.Time) {
	h.T.Helper()
	h.End(speculators.AttemptSucceeded, a, at)
}

// Fail ends attempt a as failed at at.
func (h *Harness) Fail(a speculators.AttemptID, at speculators.Time) {
	h.T.Helper()
	h.End(speculators.AttemptFailed, a, at)
}

// Kill ends attempt a as killed at at.
func (h *Harness) Kill(a speculators.AttemptID, at speculators.Time) {
	h.T.Helper()
	h.End(speculators.AttemptKilled, a, at)
}

// Node reports a fault analyzer's node event (NodeSuspected, NodeFailed,
// NodeResumed) for node at at.
func (h *Harness) Node(kind speculators.EventKind, node speculators.NodeID, at speculators.Time) {
	h.T.Helper()
	h.Observe(speculators.Event{Kind: kind, Time: at, Node: node})
}

// Needs reports that the AM waits for count containers of type ty.
func (h *Harness) Needs(ty speculators.TaskType, count int, at speculators.Time) {
	h.T.Helper()
	h.Observe(speculators.Event{Kind: speculators.ContainerNeeds, Time: at, TaskType: ty, Count: count})
}

// Run starts the task on node at from and reports the progress a constant
// rate (score per second) gives it by at.
func (h *Harness) Run(task speculators.TaskID, node speculators.NodeID, from speculators.Time, rate float64, at speculators.Time) speculators.AttemptID {
	h.T.Helper()
	a := h.Start(task, node, from)
	h.Status(a, at, rate*float64(at-from)/1000)
	return a
}

// Complete starts the task on node at from and lets it succeed at to.
func (h *Harness) Complete(task speculators.TaskID, node speculators.NodeID, from, to speculators.Time) speculators.AttemptID {
	h.T.Helper()
	a := h.Start(task, node, from)
	h.Succeed(a, to)
	return a
}

// Running starts the task's next attempt on node at from and reports
// progress at at.
func (h *Harness) Running(task speculators.TaskID, node speculators.NodeID, from, at speculators.Time, progress float64) speculators.AttemptID {
	h.T.Helper()
	a := h.Start(task, node, from)
	h.Status(a, at, progress)
	return a
}

// AllRunning starts the next attempt of each task on node at from and
// reports the same progress for each at at.
func (h *Harness) AllRunning(node speculators.NodeID, from, at speculators.Time, progress float64, tasks ...speculators.TaskID) {
	h.T.Helper()
	for _, task := range tasks {
		h.Running(task, node, from, at, progress)
	}
}

// Completed runs the next attempt of each task on node from from to
// from+runtime.
func (h *Harness) Completed(node speculators.NodeID, from, runtime speculators.Time, tasks ...speculators.TaskID) {
	h.T.Helper()
	for _, task := range tasks {
		h.Complete(task, node, from, from+runtime)
	}
}

// Decide asks the engine for its decisions at now and returns a copy.
func (h *Harness) Decide(now speculators.Time) []speculators.Decision {
	ds := slices.Clone(h.Engine.Decide(now))
	h.drain()
	return ds
}

// Speculated asks the engine for its decisions at now and returns the tasks
// to speculate, failing the test on anything but one-copy speculations with
// a reason (see Speculated).
func (h *Harness) Speculated(now speculators.Time) []speculators.TaskID {
	h.T.Helper()
	return Speculated(h.T, h.Decide(now))
}

// WantNone fails the test when the engine speculates anything at now; what
// says which check it was ("" for none).
func (h *Harness) WantNone(now speculators.Time, what string) {
	h.T.Helper()
	if got := h.Speculated(now); len(got) != 0 {
		if what != "" {
			what += ": "
		}
		h.T.Fatalf("%sgot %v, want nothing", what, got)
	}
}

// Learned returns what the engine has handed out so far (runtimes, samples
// and map-time spreads, in the order given) and forgets it.
func (h *Harness) Learned() speculators.Learned {
	l := h.learned
	h.learned = speculators.Learned{}
	return l
}

// Speculated lists the tasks of Speculate decisions in order and fails t on
// any decision that is not a Speculate of one copy with a reason.
func Speculated(t testing.TB, ds []speculators.Decision) []speculators.TaskID {
	t.Helper()
	var out []speculators.TaskID
	for _, d := range ds {
		if d.Kind != speculators.Speculate || d.Copies != 1 || d.ReasonText() == "" {
			t.Fatalf("decision %v: want speculate x1 with a reason", d)
		}
		out = append(out, d.Task)
	}
	return out
}

// WantSpeculated fails t unless ds speculate exactly want, in order, one
// copy each.
func WantSpeculated(t testing.TB, ds []speculators.Decision, want ...speculators.TaskID) {
	t.Helper()
	got := Speculated(t, ds)
	if !slices.Equal(got, want) {
		t.Fatalf("speculated %v, want %v\ndecisions: %v", got, want, ds)
	}
}

// Only returns the decisions of one kind, in order.
func Only(ds []speculators.Decision, kind speculators.DecisionKind) []speculators.Decision {
	var out []speculators.Decision
	for _, d := range ds {
		if d.Kind == kind {
			out = append(out, d)
		}
	}
	return out
}

// SpeculatedTasks lists the tasks of the Speculate decisions among ds, in
// order, ignoring the others.
func SpeculatedTasks(ds []speculators.Decision) []speculators.TaskID {
	var out []speculators.TaskID
	for _, d := range Only(ds, speculators.Speculate) {
		out = append(out, d.Task)
	}
	return out
}

// Attempts lists the attempts of the decisions of kind, in order.
func Attempts(ds []speculators.Decision, kind speculators.DecisionKind) []speculators.AttemptID {
	var out []speculators.AttemptID
	for _, d := range Only(ds, kind) {
		out = append(out, d.Attempt)
	}
	return out
}

// Want fails t unless got equals want, printing what and the decisions.
func Want[T comparable](t testing.TB, what string, got, want []T, ds []speculators.Decision) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s %v, want %v\ndecisions: %v", what, got, want, ds)
	}
}

// Tails is a Prior holding only earlier jobs' map-time spreads, oldest
// first (speculators.TailPrior): no samples, no run-time prior.
type Tails []speculators.TailFit

var _ speculators.TailPrior = Tails(nil)

// Samples is none (speculators.Prior).
func (Tails) Samples(int) []speculators.Sample { return nil }

// PriorRuntime is none (speculators.Prior).
func (Tails) PriorRuntime(speculators.TaskType, int64) (float64, bool) { return 0, false }

// TailFits returns the fits (speculators.TailPrior).
func (t Tails) TailFits() []speculators.TailFit { return t[:len(t):len(t)] }

// Records is a Prior holding earlier jobs' map-time spreads (Tails) and
// completed tasks' run times: PriorRuntime is the median of the run times
// of the type asked, whatever the input size (a GRASS store's median within
// an input-size class); no samples.
type Records struct {
	Tails
	Runtimes []speculators.RuntimeRecord
}

var _ speculators.TailPrior = Records{}

// PriorRuntime is the median run time of the type's records (speculators.Prior).
func (r Records) PriorRuntime(ty speculators.TaskType, _ int64) (float64, bool) {
	var ms []float64
	for _, x := range r.Runtimes {
		if x.Type == ty {
			ms = append(ms, x.Ms)
		}
	}
	if len(ms) == 0 {
		return 0, false
	}
	slices.Sort(ms)
	n := len(ms)
	if n%2 == 1 {
		return ms[n/2], true
	}
	return (ms[n/2-1] + ms[n/2]) / 2, true
}
