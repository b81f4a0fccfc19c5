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
	Dash        string // SVG stroke-dasharray, "" for solid
}

// seriesLegend names policies in the colours and dashes addLine and the
// group bars draw them with.
func seriesLegend(names []string) []legendItem {
	out := make([]legendItem, len(names))
	for i, n := range names {
		r, g, b, _ := seriesColor(i).RGBA()
		out[i] = legendItem{Name: n, Color: fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8), Dash: seriesDashArray(i)}
	}
	return out
}

// plainLegend names the series of a two-series bar chart, in plotutil's
// colours from firstColor on.
func plainLegend(names []string, firstColor int) []legendItem {
	out := make([]legendItem, len(names))
	for i, n := range names {
		r, g, b, _ := plotutil.Color(i + firstColor).RGBA()
		out[i] = legendItem{Name: n, Color: fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)}
	}
	return out
}

type noteView struct{ Name, Note string }

type rowView struct {
	Name                                           string
	Mean, P50, P95, P99, Spread                    string
	Container, Clones, Copies, Won, Killed, Wasted string
	Unfinished, Approx                             string
	Best, Note                                     bool
}

type pageView struct {
	Input, Format, Seeds, Scheduler string
	JobOrder                        string
	Nodes, Containers, Jobs, Tasks  int
	Groups                          []string
	Verdict, TimeCost               []string
	Provenance                      *replay.Provenance
	Notes                           []noteView
	Rows                            []rowView
	ApproxHeader                    string
	Charts                          []chartView
}

// WriteHTML writes the self-contained report for results (Simulate's means
// over runs, in the collector's policy order).
func (c *Collector) WriteHTML(w io.Writer, results []replay.Result) error {
	m := chooseMetric(results)
	v := pageView{Input: c.Input, Format: c.Format, Nodes: c.cluster.Nodes, Containers: c.cluster.Containers,
		Scheduler: c.cluster.Scheduler, JobOrder: c.cluster.JobOrder, Jobs: c.cluster.Jobs, Tasks: c.cluster.Tasks, Groups: c.groups,
		Verdict: c.verdict(results), Provenance: c.Provenance}
	if tv := replay.NewVerdict(results); tv != nil {
		v.TimeCost = tv.Summary
	}
	for i := range results {
		if results[i].Note != "" {
			v.Notes = append(v.Notes, noteView{results[i].Speculator, results[i].Note})
		}
	}
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
			Container: f1(r.ContainerS / 3600), Clones: replay.Count(r.Clones), Copies: replay.Count(r.SpeculativeAttempts), Won: replay.Count(r.SpeculativeWins),
			Killed: replay.Count(r.KilledAttempts), Wasted: f1(r.WastedContainerS / 3600), Unfinished: replay.Count(r.UnfinishedJobs),
			Best: r.Speculator == bestName, Note: r.Note != ""}
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
	policies := seriesLegend(c.policies)
	builds := []build{
		{"timecost", "Time against cost", "Mean job time against container-hours per run, one dot per policy: down and left is better. Filled dots joined by a line are the policies no other beats on both; between the fastest and the cheapest of them, each buys time with container-hours.", func() (*plot.Plot, error) { return timeCostPlot(results) }, nil},
		{"cdf", "Job time CDF", "The share of jobs done within a given job time (finish - submit, plus a replayed history's recorded AM start-up, as in the table), every run's jobs pooled. Further left and higher is better.", c.CDFPlot, policies},
		{"metric", "Per policy, with the spread between seeds", "Dots are means over runs; whiskers span the lowest to the highest run. Overlapping whiskers mean the ranking is within the noise between seeds.", func() (*plot.Plot, error) { return c.metricPlot(results) }, nil},
		{"copies", "Speculative copies", "Copies launched per run, and those that finished before their original (won).", func() (*plot.Plot, error) { return copiesPlot(results) }, plainLegend([]string{"launched", "won"}, 1)},
		{"waste", "Container time", "Container-hours per run: used, and wasted on attempts whose work the job did not use (race losers, kills, failures, lost outputs).", func() (*plot.Plot, error) { return wastePlot(results) }, []legendItem{plainLegend([]string{"used"}, 2)[0], plainLegend([]string{"wasted"}, 0)[0]}},
		{"running", "Running containers", "Containers in use over the first run's simulated time, averaged over short stretches; the axis ends when every policy holds under 5% of the cluster's containers (a straggler's tail beyond shows in the makespan column).", c.runningPlot, policies},
	}
	if len(c.groups) > 1 {
		builds = append(builds[:3], append([]build{{"groups", "Per job group", "Mean job time of each job group, every run's jobs pooled.", c.groupPlot, policies}}, builds[3:]...)...)
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
.legend span { margin-right: 1.2em; white-space: nowrap; } .legend svg { vertical-align: middle; }
.provenance code { font-size: 0.9em; word-break: break-all; } #notes li { margin: 0.3em 0; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; } dt { color: #555; } dd { margin: 0; }
</style>
</head>
<body>
<h1>specbridge replay: {{.Input}}</h1>
{{with .Provenance}}<section class="provenance" id="provenance">
<h2>What was run</h2>
<dl>
<dt>command</dt><dd><code>{{.Command}}</code></dd>
<dt>parameters</dt><dd>{{if .Params}}changed: {{range $i, $p := .Params}}{{if $i}}, {{end}}<code>{{$p}}</code>{{end}}{{else}}every parameter at its default{{end}}</dd>
<dt>version</dt><dd>specbridge {{.Version}}</dd>
<dt>seeds</dt><dd>{{.Seeds}}</dd>
{{if .Date}}<dt>date</dt><dd>{{.Date}}</dd>
{{end}}</dl>
</section>
{{end}}<section class="verdict" id="verdict">
<h2>Verdict</h2>
{{range .Verdict}}<p>{{.}}</p>
{{end}}{{if .TimeCost}}<h3>Time against cost</h3>
{{range .TimeCost}}<p>{{.}}</p>
{{end}}{{end}}</section>
<h2>Input and cluster</h2>
<dl>
<dt>input</dt><dd>{{.Input}} ({{.Format}})</dd>
<dt>workload</dt><dd>{{.Jobs}} jobs, {{.Tasks}} tasks{{if gt (len .Groups) 1}}, groups: {{range $i, $g := .Groups}}{{if $i}}, {{end}}{{$g}}{{end}}{{end}}</dd>
<dt>cluster</dt><dd>{{.Nodes}} nodes, {{.Containers}} containers, {{.Scheduler}} scheduler</dd>
<dt>job order</dt><dd>{{.JobOrder}} (for the policies that order jobs: sca, sda, ese, auto; --job-order)</dd>
<dt>seeds</dt><dd>{{.Seeds}}</dd>
</dl>
<h2>Policies</h2>
<table id="policies">
<tr><th>policy</th><th>mean job s</th><th>p50 s</th><th>p95 s</th><th>p99 s</th><th>spread over runs</th>{{if .ApproxHeader}}<th>{{.ApproxHeader}}</th>{{end}}<th>container-h</th><th>clones</th><th>copies on detection</th><th>won</th><th>killed</th><th>wasted container-h</th><th>unfinished jobs</th></tr>
{{range .Rows}}<tr{{if .Best}} class="best"{{end}}><td>{{.Name}}{{if .Note}} <a href="#note-{{.Name}}" title="could not act: see the notes">*</a>{{end}}</td><td>{{.Mean}}</td><td>{{.P50}}</td><td>{{.P95}}</td><td>{{.P99}}</td><td>{{.Spread}}</td>{{if $.ApproxHeader}}<td>{{.Approx}}</td>{{end}}<td>{{.Container}}</td><td>{{.Clones}}</td><td>{{.Copies}}</td><td>{{.Won}}</td><td>{{.Killed}}</td><td>{{.Wasted}}</td><td>{{.Unfinished}}</td></tr>
{{end}}</table>
<p>Figures are per run (means over runs). The spread column is the verdict's measure in the lowest and highest run.</p>
{{if .Notes}}<section id="notes">
<h2>Policies that could not act on this input</h2>
<ul>
{{range .Notes}}<li id="note-{{.Name}}"><b>{{.Name}}</b>: {{.Note}}.</li>
{{end}}</ul>
</section>
{{end}}
{{range .Charts}}<figure id="chart-{{.ID}}">
<h2>{{.Title}}</h2>
<img class="chart" alt="{{.Title}}" src="{{.Src}}">
{{if .Legend}}<p class="legend">{{range .Legend}}<span><svg width="36" height="8" aria-hidden="true"><line x1="0" y1="4" x2="36" y2="4" stroke="{{.Color}}" stroke-width="3"{{if .Dash}} stroke-dasharray="{{.Dash}}"{{end}}/></svg> {{.Name}}</span> {{end}}</p>
{{end}}<figcaption>{{.Caption}}</figcaption>
</figure>
{{end}}<p>Generated by specbridge replay. Charts: gonum/plot, static SVG; this page fetches nothing.</p>
</body>
</html>
`))
