package sim

import (
	"reflect"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	nonepolicy "github.com/specbridge/specbridge/speculators/none"
)

// watchedNone decides as none does but is not Inert, so its engine is told
// every event.
type watchedNone struct{}

func (watchedNone) Decide(_ *speculators.Job, _ speculators.Time, out []speculators.Decision) []speculators.Decision {
	return out
}
func (watchedNone) IgnoresReports() {}
func (watchedNone) NeverReruns()    {}

// An inert engine (speculators.Engine.Inert: the none policy) is told no
// event, and the run is the same as one whose engine is told every event:
// plain and streamed jobs, with and without a fault analyzer (which brings
// the heartbeats back), slow nodes and a crash.
func TestInertEngineIsToldNothing(t *testing.T) {
	nodes := make([]Node, 12)
	for i := range nodes {
		nodes[i] = Node{Name: "node" + itoa(i), Slots: 4, Slowdown: 1 + 2*float64(i%5/4)}
	}
	nodes[3].Episodes = []Episode{{Start: 40000, Crash: true}}
	for _, analyzer := range []bool{false, true} {
		for _, stream := range []bool{false, true} {
			cfg := DefaultConfig(nodes)
			cfg.Seed = 3
			if !analyzer {
				cfg.Faults.Analyzer.Gather = 0
			}
			jobs := workload(4, 12, 5, 80, 5000, Resample)
			if stream {
				jobs = streamed(jobs)
			}
			var engines []*speculators.Engine
			inert := func(info speculators.JobInfo) (*speculators.Engine, error) {
				p, err := nonepolicy.Policy().New(speculators.Params{}, speculators.Env{})
				if err != nil {
					return nil, err
				}
				e, err := speculators.NewEngine(info, nonepolicy.Name, p, speculators.Params{})
				engines = append(engines, e)
				return e, err
			}
			watched := func(info speculators.JobInfo) (*speculators.Engine, error) {
				return speculators.NewEngine(info, "watched", watchedNone{}, speculators.Params{})
			}
			want, err := Run(cfg, jobs, watched)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Run(cfg, jobs, inert)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("analyzer %v, streamed %v: the inert engines' run differs from the watched one", analyzer, stream)
			}
			if len(engines) != len(jobs) {
				t.Fatalf("%d engines for %d jobs", len(engines), len(jobs))
			}
			for _, e := range engines {
				if !e.Inert() {
					t.Fatalf("none's engine is not Inert")
				}
				for ty := range e.Job.Tasks {
					for _, task := range e.Job.Tasks[ty] {
						if len(task.Attempts) > 0 {
							t.Fatalf("job %s: the inert engine was told of %s's attempts", e.Job.Info.ID, task.ID)
						}
					}
				}
			}
		}
	}
}
