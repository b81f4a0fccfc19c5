package replay

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/grass"
)

// BenchmarkPullPolicies replays 1,000 jobs of 10 maps each, all submitted
// in the first 10 s, on 1,250 nodes of 8 containers: 10,000 tasks running at
// once, Pareto task times (tail index 1.5) so that there are stragglers to
// copy. One sub-benchmark per pull-based policy (speculators.SlotChooser:
// the simulator offers it free slots) and hadoop as the reference; each
// reports ms of one whole replay. Issue 31: a pull-based policy's replay
// costs at most 3x hadoop's (scripts/bench-policies.sh has the matrix).
func BenchmarkPullPolicies(b *testing.B) {
	reg := registry(b)
	rng := rand.New(rand.NewPCG(31, 1))
	jobs := make([]sim.Job, 1000)
	for i := range jobs {
		maps := make([]sim.Task, 10)
		for k := range maps {
			work := 20000 / math.Pow(1-rng.Float64(), 1/1.5)
			maps[k] = sim.Task{Work: speculators.Time(min(work, 600000)), InputBytes: 128 << 20}
		}
		jobs[i] = sim.Job{ID: fmt.Sprintf("job_%04d", i), Submit: speculators.Time(i * 10), Maps: maps}
	}
	nodes := make([]sim.Node, 1250)
	for i := range nodes {
		nodes[i] = sim.Node{Name: fmt.Sprintf("n%04d", i), Slots: 8}
	}
	w := &Workload{Jobs: jobs, Config: sim.DefaultConfig(nodes)}
	names := []string{"hadoop"}
	for _, name := range reg.Names() {
		e, err := reg.NewEngine(speculators.JobInfo{ID: "probe", Maps: 1}, name, nil, 1)
		if err != nil {
			b.Fatal(err)
		}
		if e.ChoosesSlots() {
			names = append(names, name)
		}
	}
	if len(names) < 4 {
		b.Fatalf("pull-based policies %v: want gs, ras, grass and mantri at least", names[1:])
	}
	for _, name := range names {
		b.Run(name, func(b *testing.B) {
			var events int64
			for b.Loop() {
				res, _, err := runOne(w, name, Options{Registry: reg}, 1, grass.NewMemoryStore())
				if err != nil {
					b.Fatal(err)
				}
				if res.Unfinished > 0 {
					b.Fatalf("%s: %d jobs unfinished", name, res.Unfinished)
				}
				events += res.Events
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/replay")
			b.ReportMetric(float64(events)/float64(b.N), "events/op")
		})
	}
}
