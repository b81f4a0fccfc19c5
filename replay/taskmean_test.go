package replay

import (
	"sync"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// meanProbe records the mean task time its job was given and teaches its
// maps' run times as GRASS does (a job's completed tasks, for later jobs'
// t_new): the prior TaskMeanFromPrior reads.
type meanProbe struct {
	means *sync.Map
	done  []speculators.RuntimeRecord
}

func (p *meanProbe) Decide(job *speculators.Job, _ speculators.Time, out []speculators.Decision) []speculators.Decision {
	p.means.Store(job.Info.ID, job.Info.TaskMillis)
	return out
}

func (p *meanProbe) Observe(job *speculators.Job, ev *speculators.Event) {
	if ev.Kind == speculators.AttemptSucceeded && ev.Attempt.Task.Type == speculators.Map {
		if t := job.Task(ev.Attempt.Task); t != nil && t.Succeeded != nil {
			p.done = append(p.done, speculators.RuntimeRecord{Type: speculators.Map,
				Ms: float64(t.Succeeded.Finish - t.Succeeded.Start), InputBytes: t.InputBytes})
		}
	}
}

func (p *meanProbe) TakeLearned(l *speculators.Learned) {
	l.Runtimes = append(l.Runtimes, p.done...)
	p.done = p.done[:0]
}

// TestTaskMeanFromPrior: under Options.TaskMeanFromPrior a job without an
// a-priori mean (SWIM jobs) is given the run time earlier jobs taught for
// tasks of its input size, as serve --task-mean-from-prior gives it live;
// without the option no job is given one, and the first job, with nothing
// taught before it, none either way.
func TestTaskMeanFromPrior(t *testing.T) {
	in := load(t, "../scenarios/heldout59/swim-map-only-sjf-sum-three-uniform-noise-0.3-1.8-containers-fifo.yaml")
	for _, on := range []bool{false, true} {
		var means sync.Map
		reg := speculators.NewRegistry()
		if err := reg.Add(speculators.Policy{Name: "mean-probe", Doc: "test only",
			New: func(speculators.Params, speculators.Env) (speculators.Speculator, error) {
				return &meanProbe{means: &means}, nil
			}}); err != nil {
			t.Fatal(err)
		}
		opts := Options{Speculators: []string{"mean-probe"}, Seed: 1, Runs: 1, Registry: reg, TaskMeanFromPrior: on, Parallel: 1}
		w, err := WorkloadOf(in, opts.Cluster)(1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Simulate(WorkloadOf(in, opts.Cluster), opts); err != nil {
			t.Fatal(err)
		}
		given, seen := 0, 0
		means.Range(func(_, v any) bool {
			seen++
			if v.(float64) > 0 {
				given++
			}
			return true
		})
		first, _ := means.Load(w.Jobs[0].ID)
		switch {
		case seen < len(w.Jobs)/2:
			t.Fatalf("option %v: %d of %d jobs decided", on, seen, len(w.Jobs))
		case !on && given > 0:
			t.Errorf("without the option %d of %d jobs were given a mean task time", given, seen)
		case on && given < seen/2:
			t.Errorf("with the option only %d of %d jobs were given the prior's mean task time", given, seen)
		case first != 0.0:
			t.Errorf("option %v: the first job, with nothing taught before it, was given %v ms", on, first)
		}
	}
}
