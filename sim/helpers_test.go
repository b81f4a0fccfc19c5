package sim

import (
	"math"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// step is one scripted decision and when (virtual ms) to make it.
type step struct {
	at speculators.Time
	d  speculators.Decision
}

// script is a test-only policy: it makes the given decisions at the given
// times, may refuse copies on some nodes, and records what it observed.
type script struct {
	steps   []step
	next    int
	refuse  map[speculators.NodeID]bool
	seen    []speculators.Event
	decided []speculators.Time
	// needsAt records the engine's ContainerNeeds at every Decide.
	needsAt map[speculators.Time][speculators.NumTaskTypes]int
}

func (p *script) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	p.decided = append(p.decided, now)
	if p.needsAt == nil {
		p.needsAt = map[speculators.Time][speculators.NumTaskTypes]int{}
	}
	p.needsAt[now] = job.ContainerNeeds
	for p.next < len(p.steps) && p.steps[p.next].at <= now {
		out = append(out, p.steps[p.next].d)
		p.next++
	}
	return out
}

func (p *script) Observe(_ *speculators.Job, ev *speculators.Event) { p.seen = append(p.seen, *ev) }

func (p *script) AllowSpeculativeOn(_ *speculators.Job, node speculators.NodeID, _ speculators.Time) bool {
	return !p.refuse[node]
}

// runScript runs jobs with one script policy per job (by index of creation).
func runScript(t *testing.T, cfg Config, jobs []Job, policies ...*script) *Result {
	t.Helper()
	k := 0
	res, err := Run(cfg, jobs, func(info speculators.JobInfo) (*speculators.Engine, error) {
		p := &script{}
		if k < len(policies) {
			p = policies[k]
		}
		k++
		return speculators.NewEngine(info, "script", p, speculators.Params{})
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

func nodes(slots ...int) []Node {
	out := make([]Node, len(slots))
	for i, s := range slots {
		out[i] = Node{Name: "n" + string(rune('0'+i)), Slots: s}
	}
	return out
}

func works(ms ...speculators.Time) []Task {
	out := make([]Task, len(ms))
	for i, w := range ms {
		out[i] = Task{Work: w, InputBytes: 1 << 20}
	}
	return out
}

func cfgFor(ns []Node) Config {
	cfg := DefaultConfig(ns)
	cfg.RecordDecisions = true
	return cfg
}

func speculate(at speculators.Time, ty speculators.TaskType, i int32) step {
	return step{at: at, d: speculators.Decision{Kind: speculators.Speculate, Task: speculators.TaskID{Type: ty, Index: i}, Reason: "test"}}
}

func attemptDecision(at speculators.Time, kind speculators.DecisionKind, ty speculators.TaskType, i, n int32) step {
	id := speculators.AttemptID{Task: speculators.TaskID{Type: ty, Index: i}, N: n}
	return step{at: at, d: speculators.Decision{Kind: kind, Task: id.Task, Attempt: id, Reason: "test"}}
}

func dropStep(at speculators.Time, ty speculators.TaskType, i int32) step {
	return step{at: at, d: speculators.Decision{Kind: speculators.Drop, Task: speculators.TaskID{Type: ty, Index: i}, Reason: "test"}}
}

func expectTime(t *testing.T, what string, got, want speculators.Time) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %d ms, want %d ms", what, got, want)
	}
}

func expectInt[T int | int64](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %d, want %d", what, got, want)
	}
}

// expectOnceAt checks that the script observed one event of kind for
// attempt id, at time at.
func expectOnceAt(t *testing.T, p *script, kind speculators.EventKind, id speculators.AttemptID, at speculators.Time) {
	t.Helper()
	if got := seenOf(p, kind, id); len(got) != 1 || got[0].Time != at {
		t.Errorf("%v events of %v = %+v, want one at %d ms", kind, id, got, at)
	}
}

// seenOf filters the events a script observed by kind and attempt.
func seenOf(p *script, kind speculators.EventKind, id speculators.AttemptID) []speculators.Event {
	var out []speculators.Event
	for _, ev := range p.seen {
		if ev.Kind == kind && ev.Attempt == id {
			out = append(out, ev)
		}
	}
	return out
}

func posInf() float64 { return math.Inf(1) }
