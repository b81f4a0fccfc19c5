package speculators

import "fmt"

// Speculator is a policy: it reads a job's state and returns decisions. It
// must be deterministic given the job state, now and its seeded source.
type Speculator interface {
	// Decide appends the policy's decisions at now to out and returns it.
	Decide(job *Job, now Time, out []Decision) []Decision
}

// Observer is implemented by policies that keep state of their own beyond
// the Job (for example what they have already speculated). Observe is called
// after the event has been folded into job.
type Observer interface {
	Observe(job *Job, ev *Event)
}

// NodeGate is implemented by policies that choose where a speculative copy
// may run (LATE's SlowNodeThreshold). The simulator asks before placing a
// copy; live, the shim may kill a copy the policy refuses and retry later.
type NodeGate interface {
	AllowSpeculativeOn(job *Job, node NodeID, now Time) bool
}

// Engine is one job's state plus its policy: the unit the bridge and the
// simulator drive. It is not safe for concurrent use; the caller serialises
// Observe and Decide.
type Engine struct {
	Job    *Job
	Policy Speculator
	Name   string
	Params Params

	observer Observer
	gate     NodeGate
	buf      []Decision
}

// NewEngine builds an engine for job with an already constructed policy.
func NewEngine(info JobInfo, name string, policy Speculator, params Params) (*Engine, error) {
	job, err := NewJob(info)
	if err != nil {
		return nil, err
	}
	e := &Engine{Job: job, Policy: policy, Name: name, Params: params}
	e.observer, _ = policy.(Observer)
	e.gate, _ = policy.(NodeGate)
	return e, nil
}

// Observe folds one event into the job's state and lets the policy see it.
// An error leaves the state as it was and names what was wrong.
func (e *Engine) Observe(ev *Event) error {
	if err := e.Job.apply(ev); err != nil {
		return fmt.Errorf("job %s: %s at %d: %w", e.Job.Info.ID, ev.Kind, ev.Time, err)
	}
	if e.observer != nil {
		e.observer.Observe(e.Job, ev)
	}
	return nil
}

// Decide asks the policy for its decisions at now. The returned slice is
// reused by the next call; copy what must outlive it.
func (e *Engine) Decide(now Time) []Decision {
	if now > e.Job.Now {
		e.Job.Now = now
	}
	e.buf = e.Policy.Decide(e.Job, now, e.buf[:0])
	return e.buf
}

// AllowSpeculativeOn reports whether the policy lets a speculative copy run
// on node; policies without an opinion allow every node.
func (e *Engine) AllowSpeculativeOn(node NodeID, now Time) bool {
	if e.gate == nil {
		return true
	}
	return e.gate.AllowSpeculativeOn(e.Job, node, now)
}
