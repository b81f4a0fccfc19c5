package report

import (
	"strings"
	"testing"

	"github.com/specbridge/specbridge/replay"
)

// collector with hand-made per-run figures: the verdict's arithmetic is pure
// logic, so a fake input is enough here.
func fakeCollector(perRun map[string][]float64, container map[string]float64) (*Collector, []replay.Result) {
	var names []string
	for _, n := range []string{"hadoop", "late", "grass"} {
		if _, ok := perRun[n]; ok {
			names = append(names, n)
		}
	}
	c := NewCollector("in", "scenario", names, 1, len(perRun[names[0]]))
	var results []replay.Result
	for _, n := range names {
		mean := 0.0
		for _, v := range perRun[n] {
			c.byPolicy[n].runs = append(c.byPolicy[n].runs, replay.Result{Speculator: n, Figures: replay.Figures{Jobs: 10, MeanJobS: v}})
			mean += v / float64(len(perRun[n]))
		}
		results = append(results, replay.Result{Speculator: n, Figures: replay.Figures{Jobs: 10, MeanJobS: mean, ContainerS: container[n]}})
	}
	return c, results
}

// The verdict's lines: the best policy and each other one against it and
// against hadoop, within or beyond the noise between seeds; with one seed,
// that it is one seed only.
func TestVerdict(t *testing.T) {
	for _, tc := range []struct {
		name      string
		perRun    map[string][]float64
		container map[string]float64
		want      []string
	}{{
		name: "beyond and within the noise",
		perRun: map[string][]float64{
			"hadoop": {100, 104, 98, 102},
			"late":   {80, 85, 79, 82},
			"grass":  {81, 84, 80, 83},
		},
		container: map[string]float64{"hadoop": 36000, "late": 39600, "grass": 37800},
		want: []string{
			"Best on this input by mean job time: late (81.5 s).",
			// The container-hours are late's own beside hadoop's, not the
			// difference, which read as late's use.
			"Against hadoop (101.0 s): 19.3% lower mean job time (1.24x faster), using 10.0% more container time than hadoop (11.0 container-hours per run against 10.0; 0 speculative copies against 0,",
			"late is ahead of grass on 3 of 4 seeds",
			"within the noise",
			"late is ahead of hadoop on all 4 seeds",
			"beyond the noise between seeds",
		},
	}, {
		name:      "one seed, hadoop best",
		perRun:    map[string][]float64{"hadoop": {90}, "late": {95}},
		container: map[string]float64{"hadoop": 1, "late": 1},
		want:      []string{"Best on this input by mean job time: hadoop", "already the best", "One seed only", "--runs 5"},
	}} {
		c, res := fakeCollector(tc.perRun, tc.container)
		v := strings.Join(c.verdict(res), "\n")
		for _, want := range tc.want {
			if !strings.Contains(v, want) {
				t.Errorf("%s: verdict lacks %q:\n%s", tc.name, want, v)
			}
		}
	}
}

func TestCDF(t *testing.T) {
	x, y := cdf([]float64{3, 1, 2, 2})
	if len(x) != 3 || x[0] != 1 || y[0] != 0.25 || x[1] != 2 || y[1] != 0.75 || y[2] != 1 {
		t.Errorf("cdf: %v %v", x, y)
	}
}
