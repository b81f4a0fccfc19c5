package report

import (
	"math"
	"strconv"
	"testing"

	"gonum.org/v1/plot"

	"github.com/specbridge/specbridge/replay"
)

// Every policy of the registry gets a line style of its own, in the chart
// and in the HTML legend that names it.
func TestEveryPolicyHasItsOwnLineStyle(t *testing.T) {
	names := make([]string, 24)
	for i := range names {
		names[i] = string(rune('a' + i))
	}
	seen := map[legendItem]string{}
	for _, l := range seriesLegend(names) {
		key := legendItem{Color: l.Color, Dash: l.Dash}
		if other, dup := seen[key]; dup {
			t.Errorf("%s and %s share colour %s and dashes %q", other, l.Name, l.Color, l.Dash)
		}
		seen[key] = l.Name
	}
}

// Tick labels are the shortest decimals: "5000", not "5000.00".
func TestCleanTickLabels(t *testing.T) {
	for _, span := range [][2]float64{{0, 10000}, {0, 1}, {3, 7}} {
		labelled := 0
		for _, tk := range (cleanTicks{plot.DefaultTicks{}}).Ticks(span[0], span[1]) {
			if tk.Label == "" {
				continue
			}
			labelled++
			if want := strconv.FormatFloat(tk.Value, 'f', -1, 64); tk.Label != want {
				t.Errorf("tick %v labelled %q, want %q", tk.Value, tk.Label, want)
			}
		}
		if labelled < 2 {
			t.Errorf("%v: %d labelled ticks", span, labelled)
		}
	}
}

// The charts of a report on a workload whose policies differ by 50x: the
// per-policy time chart is on a log axis, the time-cost chart marks the
// front, the running-containers axis ends with the activity, not with a
// lone straggler's tail, and the CDF measures job time as the table does.
func TestChartsReadAcrossWideRanges(t *testing.T) {
	col, res := collect(t, "../../scenarios/grass-exact.yaml", []string{"none", "hadoop", "grass"}, 1)
	p, err := col.metricPlot(res)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Y.Scale.(plot.LogScale); !ok {
		t.Errorf("mean job times %.0f to %.0f s on a linear axis", res[2].MeanJobS, res[0].MeanJobS)
	}
	if _, err := timeCostPlot(res); err != nil {
		t.Fatal(err)
	}
	if !replay.Dominated(res, 0) || replay.Dominated(res, 2) {
		t.Errorf("none dominated %v, grass dominated %v; want none beaten on both, grass not", replay.Dominated(res, 0), replay.Dominated(res, 2))
	}
	rp, err := col.runningPlot()
	if err != nil {
		t.Fatal(err)
	}
	last := 0.0
	for _, name := range col.policies {
		s := col.byPolicy[name].running
		last = math.Max(last, float64(s[len(s)-1].End))
	}
	unitMs := map[string]float64{"simulated time (s)": 1000, "simulated time (min)": 60000, "simulated time (h)": 3600000}[rp.X.Label.Text]
	if unitMs == 0 || rp.X.Max*unitMs > last/2 {
		t.Errorf("running-containers axis (%s) ends at %.0f ms of a run to %.0f ms: the idle tail is on it", rp.X.Label.Text, rp.X.Max*unitMs, last)
	}
	for i, name := range col.policies {
		mean := 0.0
		for _, x := range col.byPolicy[name].times {
			mean += x / float64(len(col.byPolicy[name].times))
		}
		if math.Abs(mean-res[i].MeanJobS) > 0.01 {
			t.Errorf("%s: the CDF's jobs average %.3f s, the table %.3f s", name, mean, res[i].MeanJobS)
		}
	}
}

// The CDF measures a replayed history's job time as the table and the CSV
// do: with the recorded AM start-up.
func TestCDFMeasuresJobTimeAsTheTable(t *testing.T) {
	col, res := collect(t, "../../data/jhist/job_2.4.0-FAILED.jhist", []string{"hadoop", "late"}, 1)
	for i, name := range col.policies {
		times := col.byPolicy[name].times
		if len(times) == 0 {
			t.Fatalf("%s: no finished job", name)
		}
		mean := 0.0
		for _, x := range times {
			mean += x / float64(len(times))
		}
		if math.Abs(mean-res[i].MeanJobS) > 0.001 {
			t.Errorf("%s: the CDF's jobs average %.3f s, the table %.3f s", name, mean, res[i].MeanJobS)
		}
	}
}
