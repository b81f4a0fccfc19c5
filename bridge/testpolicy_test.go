package bridge

import (
	"fmt"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/all"
	"github.com/specbridge/specbridge/speculators/xulau"
)

// stragglerPolicy is a test-only policy: it speculates every task whose only
// running attempt has run at least after_ms with progress below below, and
// kills the running attempts of a task that has succeeded.
type stragglerPolicy struct {
	below   float64
	afterMS int64
}

func (p stragglerPolicy) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	for ty := range job.Tasks {
		for _, t := range job.Tasks[ty] {
			if t.Done() {
				for _, a := range t.Attempts {
					if a.Running() {
						out = append(out, speculators.Decision{Kind: speculators.Kill, Task: t.ID, Attempt: a.ID, Reason: "another attempt succeeded"})
					}
				}
				continue
			}
			a := t.OnlyRunning()
			if a != nil && now-a.Start >= p.afterMS && a.Progress < p.below {
				out = append(out, speculators.Decision{Kind: speculators.Speculate, Task: t.ID, Copies: 1,
					Reason: fmt.Sprintf("progress %.2f after %d ms", a.Progress, now-a.Start)})
			}
		}
	}
	return out
}

// jobInfoPolicy is a test-only policy that shows the engine's JobInfo on the
// wire: it speculates every running task, with whether the job order is
// applied, the job's a-priori task-time model and its slots as the reason.
type jobInfoPolicy struct{}

func (jobInfoPolicy) Decide(job *speculators.Job, _ speculators.Time, out []speculators.Decision) []speculators.Decision {
	for _, t := range job.Tasks[speculators.Map] {
		if t.OnlyRunning() != nil {
			out = append(out, speculators.Decision{Kind: speculators.Speculate, Task: t.ID, Copies: 1,
				Reason: fmt.Sprintf("job_order %t task_mean_ms %g task_tail_index %g slots %d", job.Info.JobOrder, job.Info.TaskMillis, job.Info.TailIndex, job.Info.Slots)})
		}
	}
	return out
}

// viewPolicy is a test-only policy that shows the cluster as a cloner
// sees it live (xulau.LiveView) on the wire: it speculates every running
// map, the view's slots, idle slots and copies running as the reason.
type viewPolicy struct{}

func (viewPolicy) Decide(job *speculators.Job, _ speculators.Time, out []speculators.Decision) []speculators.Decision {
	v := xulau.LiveView(job, 1)
	for _, t := range job.Tasks[speculators.Map] {
		if t.OnlyRunning() != nil {
			out = append(out, speculators.Decision{Kind: speculators.Speculate, Task: t.ID, Copies: 1,
				Reason: fmt.Sprintf("slots %d idle %d copies %d", v.Slots, v.Idle, v.SpeculativeRunning)})
		}
	}
	return out
}

// panicPolicy is a test-only policy that panics when an attempt reports
// progress 0.13, to prove a policy bug closes only its own session.
type panicPolicy struct{}

func (panicPolicy) Decide(job *speculators.Job, _ speculators.Time, out []speculators.Decision) []speculators.Decision {
	for _, t := range job.Tasks[speculators.Map] {
		for _, a := range t.Attempts {
			if a.Progress == 0.13 {
				var xs []int
				xs[len(t.Attempts)]++ // an index out of range: a policy bug
			}
		}
	}
	return out
}

func testRegistry(t testing.TB) *speculators.Registry {
	t.Helper()
	reg, err := newTestRegistry()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// newTestRegistry is every policy plus the test-only ones.
func newTestRegistry() (*speculators.Registry, error) {
	reg, err := all.Registry()
	if err != nil {
		return nil, fmt.Errorf("all.Registry: %w", err)
	}
	err = reg.Add(speculators.Policy{
		Name: "test-straggler",
		Doc:  "test only",
		Params: []speculators.ParamSpec{
			{Name: "below", Kind: speculators.Float, Default: 0.5, Doc: "progress below which a task is a straggler"},
			{Name: "after_ms", Kind: speculators.Int, Default: int64(1000), Doc: "minimum run time before speculating"},
		},
		New: func(p speculators.Params, _ speculators.Env) (speculators.Speculator, error) {
			return stragglerPolicy{below: p.Float("below"), afterMS: p.Int("after_ms")}, nil
		},
	})
	if err != nil {
		return nil, fmt.Errorf("add test policy: %w", err)
	}
	err = reg.Add(speculators.Policy{Name: "test-jobinfo", Doc: "test only",
		New: func(speculators.Params, speculators.Env) (speculators.Speculator, error) { return jobInfoPolicy{}, nil }})
	if err != nil {
		return nil, fmt.Errorf("add test policy: %w", err)
	}
	err = reg.Add(speculators.Policy{Name: "test-view", Doc: "test only",
		New: func(speculators.Params, speculators.Env) (speculators.Speculator, error) { return viewPolicy{}, nil }})
	if err != nil {
		return nil, fmt.Errorf("add test policy: %w", err)
	}
	err = reg.Add(speculators.Policy{Name: "test-panic", Doc: "test only",
		New: func(speculators.Params, speculators.Env) (speculators.Speculator, error) { return panicPolicy{}, nil }})
	if err != nil {
		return nil, fmt.Errorf("add test policy: %w", err)
	}
	return reg, nil
}
