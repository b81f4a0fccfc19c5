package sim

import (
	"math"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// The running-containers series integrates to the container time the jobs
// report, copies are counted apart, and JobDone reports every job once, in
// order.
func TestRunningSeriesAndJobDone(t *testing.T) {
	cfg := cfgFor(nodes(2, 2))
	cfg.RunningSamples = 7
	var done []int
	cfg.JobDone = func(d, total int, now speculators.Time) {
		if total != 2 {
			t.Errorf("JobDone total %d, want 2", total)
		}
		done = append(done, d)
	}
	jobs := []Job{
		{ID: "a", Maps: works(20000, 20000, 60000)},
		{ID: "b", Submit: 5000, Maps: works(10000, 10000)},
	}
	res := runScript(t, cfg, jobs, &script{steps: []step{speculate(20000, speculators.Map, 2)}})
	if len(done) != 2 || done[0] != 1 || done[1] != 2 {
		t.Errorf("JobDone counts %v, want [1 2]", done)
	}
	if len(res.Running) != 7 {
		t.Fatalf("%d samples, want 7", len(res.Running))
	}
	var area, spec, want float64
	for _, s := range res.Running {
		w := float64(s.End - s.Start)
		area += s.Containers * w
		spec += s.Speculative * w
		if s.Containers > 4+1e-9 || s.Speculative > s.Containers+1e-9 {
			t.Errorf("sample %+v exceeds the cluster's 4 containers or its own total", s)
		}
	}
	for _, j := range res.Jobs {
		want += float64(j.ContainerMs)
	}
	if math.Abs(area-want) > 1 {
		t.Errorf("series integrates to %.0f container-ms, jobs report %.0f", area, want)
	}
	if res.Jobs[0].SpeculativeLaunched != 1 || spec <= 0 {
		t.Errorf("copy launched %d, speculative container-ms %.0f: want a copy counted", res.Jobs[0].SpeculativeLaunched, spec)
	}
	if res.Running[0].Start != 0 || res.Running[6].End != res.End {
		t.Errorf("series spans [%d, %d], want [0, %d]", res.Running[0].Start, res.Running[6].End, res.End)
	}
}
