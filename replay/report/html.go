package report

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotutil"

	"github.com/specbridge/specbridge/replay"
)

type chartView struct {
	ID, Title, Caption string
	Src                template.URL
	Legend             []legendItem
}

// legendItem is one series of a chart, in the colour and line the chart
// draws it with. Legends are HTML beside the image, not drawn in the plot,
// where they would hide data.
type legendItem struct {
	Name, Color string
	Dashed      bool
}

// seriesLegend names series in plotutil's colour order, as addLine and the
// bar charts draw them.
func seriesLegend(names []string, firstColor int) []legendItem {
	out := make([]legendItem, len(names))
	for i, n := range names {
		r, g, b, _ := plotutil.Color(i + firstColor).RGBA()
		out[i] = legendItem{Name: n, Color: fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8), Dashed: firstColor == 0 && i >= 7}
	}
	return out
}

type rowView struct {
	Name                                           string
	Mean, P50, P95, P99, Spread                    string
	Container, Clones, Copies, Won, Killed, Wasted string
	Unfinished, Approx                             string
	Best                                           bool
}

type pageView struct {
	Input, Format, Seeds, Scheduler string
	Nodes, Containers, Jobs, Tasks  int
	Groups                          []string
	Verdict                         []string
	Rows                            []rowView
	ApproxHeader                    string
	Charts                          []chartView
}

// WriteHTML writes the self-contained report for results (Simulate's means
// over runs, in the collector's policy order).
func (c *Collector) WriteHTML(w io.Writer, results []replay.Result) error {
	m := chooseMetric(results)
	v := pageView{Input: c.Input, Format: c.Format, Nodes: c.cluster.Nodes, Containers: c.cluster.Containers,
		Scheduler: c.cluster.Scheduler, Jobs: c.cluster.Jobs, Tasks: c.cluster.Tasks, Groups: c.groups,
		Verdict: c.verdict(results)}
	v.Seeds = fmt.Sprintf("%d", c.Seed)
	if c.Runs > 1 {
		v.Seeds = fmt.Sprintf("%d to %d (%d runs; figures are means over runs)", c.Seed, c.Seed+uint64(c.Runs)-1, c.Runs)
	}
	bestName := ""
	bestV := 0.0
	for i := range results {
		if x, ok := m.of(&results[i]); ok && (bestName == "" || m.better(x, bestV)) {
			bestName, bestV = results[i].Speculator, x
		}
	}
	for i := range results {
		r := &results[i]
		s := spreadOf(c.perRun(r.Speculator, m))
		row := rowView{Name: r.Speculator, Mean: f1(r.MeanJobS), P50: f1(r.P50JobS), P95: f1(r.P95JobS), P99: f1(r.P99JobS),
			Container: f1(r.ContainerS / 3600), Clones: f1(r.Clones), Copies: f1(r.SpeculativeAttempts), Won: f1(r.SpeculativeWins),
			Killed: f1(r.KilledAttempts), Wasted: f1(r.WastedContainerS / 3600), Unfinished: f1(r.UnfinishedJobs),
			Best: r.Speculator == bestName}
		if c.Runs > 1 {
			row.Spread = fmt.Sprintf("%s to %s", m.format(s.Min), m.format(s.Max))
		} else {
			row.Spread = "one run"
		}
		switch {
		case r.Accuracy != nil:
			v.ApproxHeader = "accuracy"
			row.Approx = fmt.Sprintf("%.3f", *r.Accuracy)
		case r.MeanTimeToBoundS != nil:
			v.ApproxHeader = "time to bound s"
			row.Approx = f1(*r.MeanTimeToBoundS)
		}
		v.Rows = append(v.Rows, row)
	}
	type build struct {
		id, title, caption string
		make               func() (*plot.Plot, error)
		legend             []legendItem
	}
	policies := seriesLegend(c.policies, 0)
	builds := []build{
		{"cdf", "Job time CDF", "The share of jobs done within a given job time, every run's jobs pooled. Further left and higher is better.", c.CDFPlot, policies},
		{"metric", "Per policy, with the spread between seeds", "Bars are means over runs; whiskers span the lowest to the highest run. Overlapping whiskers mean the ranking is within the noise between seeds.", func() (*plot.Plot, error) { return c.metricPlot(results) }, nil},
		{"copies", "Speculative copies", "Copies launched per run, and those that finished before their original (won).", func() (*plot.Plot, error) { return copiesPlot(results) }, seriesLegend([]string{"launched", "won"}, 1)},
		{"waste", "Container time", "Container-hours per run: used, and wasted on attempts whose work the job did not use (race losers, kills, failures, lost outputs).", func() (*plot.Plot, error) { return wastePlot(results) }, []legendItem{seriesLegend([]string{"used"}, 2)[0], seriesLegend([]string{"wasted"}, 0)[0]}},
		{"running", "Running containers", "Containers in use over the first run's simulated time, averaged over short stretches.", c.runningPlot, policies},
	}
	if len(c.groups) > 1 {
		builds = append(builds[:2], append([]build{{"groups", "Per job group", "Mean job time of each job group, every run's jobs pooled.", c.groupPlot, policies}}, builds[2:]...)...)
	}
	for _, b := range builds {
		p, err := b.make()
		if err != nil {
			return err
		}
		if b.legend != nil {
			p.Legend = plot.NewLegend()
		}
		data, err := svg(p)
		if err != nil {
			return err
		}
		v.Charts = append(v.Charts, chartView{ID: b.id, Title: b.title, Caption: b.caption,
			Src: template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(data)), Legend: b.legend})
	}
	return page.Execute(w, v)
}

func f1(x float64) string { return fmt.Sprintf("%.1f", x) }

var page = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>specbridge replay: {{.Input}}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
tr.best { background: #eef7ee; font-weight: bold; }
.verdict { background: #f6f6f0; border-left: 4px solid #6a6; padding: 0.5em 1em; }
figure { margin: 1.5em 0; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { color: #555; font-size: 0.9em; }
.legend span { margin-right: 1.2em; white-space: nowrap; } .legend i { display: inline-block; width: 2em; margin-right: 0.3em; vertical-align: middle; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; } dt { color: #555; } dd { margin: 0; }
</style>
</head>
<body>
<h1>specbridge replay: {{.Input}}</h1>
<section class="verdict" id="verdict">
<h2>Verdict</h2>
{{range .Verdict}}<p>{{.}}</p>
{{end}}</section>
<h2>Input and cluster</h2>
<dl>
<dt>input</dt><dd>{{.Input}} ({{.Format}})</dd>
<dt>workload</dt><dd>{{.Jobs}} jobs, {{.Tasks}} tasks{{if gt (len .Groups) 1}}, groups: {{range $i, $g := .Groups}}{{if $i}}, {{end}}{{$g}}{{end}}{{end}}</dd>
<dt>cluster</dt><dd>{{.Nodes}} nodes, {{.Containers}} containers, {{.Scheduler}} scheduler</dd>
<dt>seeds</dt><dd>{{.Seeds}}</dd>
</dl>
<h2>Policies</h2>
<table id="policies">
<tr><th>policy</th><th>mean job s</th><th>p50 s</th><th>p95 s</th><th>p99 s</th><th>spread over runs</th>{{if .ApproxHeader}}<th>{{.ApproxHeader}}</th>{{end}}<th>container-h</th><th>clones</th><th>copies on detection</th><th>won</th><th>killed</th><th>wasted container-h</th><th>unfinished jobs</th></tr>
{{range .Rows}}<tr{{if .Best}} class="best"{{end}}><td>{{.Name}}</td><td>{{.Mean}}</td><td>{{.P50}}</td><td>{{.P95}}</td><td>{{.P99}}</td><td>{{.Spread}}</td>{{if $.ApproxHeader}}<td>{{.Approx}}</td>{{end}}<td>{{.Container}}</td><td>{{.Clones}}</td><td>{{.Copies}}</td><td>{{.Won}}</td><td>{{.Killed}}</td><td>{{.Wasted}}</td><td>{{.Unfinished}}</td></tr>
{{end}}</table>
<p>Figures are per run (means over runs). The spread column is the verdict's measure in the lowest and highest run.</p>
{{range .Charts}}<figure id="chart-{{.ID}}">
<h2>{{.Title}}</h2>
<img class="chart" alt="{{.Title}}" src="{{.Src}}">
{{if .Legend}}<p class="legend">{{range .Legend}}<span><i style="border-top: 3px {{if .Dashed}}dashed{{else}}solid{{end}} {{.Color}}"></i>{{.Name}}</span> {{end}}</p>
{{end}}<figcaption>{{.Caption}}</figcaption>
</figure>
{{end}}<p>Generated by specbridge replay. Charts: gonum/plot, static SVG; this page fetches nothing.</p>
</body>
</html>
`))
