package report

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/specbridge/specbridge/replay"
	"github.com/specbridge/specbridge/speculators"
)

// chart sizes on the page and in --plot files.
const (
	chartW = 8 * vg.Inch
	chartH = 4.5 * vg.Inch
)

// CDFPlot is the papers' figure: for each policy, the share of jobs done
// within a job time (every run's jobs pooled). The time axis is
// logarithmic when job times span more than two orders of magnitude.
func (c *Collector) CDFPlot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Job time, CDF per policy"
	p.X.Label.Text = "job time (s)"
	p.Y.Label.Text = "share of jobs done within"
	p.Y.Min, p.Y.Max = 0, 1
	lo, hi := math.Inf(1), 0.0
	for _, name := range c.policies {
		for _, t := range c.byPolicy[name].times {
			if t > 0 {
				lo, hi = math.Min(lo, t), math.Max(hi, t)
			}
		}
	}
	logX := hi > 0 && hi/lo > 100
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for i, name := range c.policies {
		xs, ys := cdf(c.byPolicy[name].times)
		if len(xs) == 0 {
			continue
		}
		pts := make(plotter.XYs, 0, 2*len(xs)+1)
		prev := 0.0
		for k := range xs {
			x := xs[k]
			if logX && x <= 0 {
				x = lo
			}
			if k == 0 && !logX {
				pts = append(pts, plotter.XY{X: x, Y: 0})
			}
			pts = append(pts, plotter.XY{X: x, Y: prev}, plotter.XY{X: x, Y: ys[k]})
			prev = ys[k]
		}
		if err := addLine(p, name, i, pts); err != nil {
			return nil, err
		}
	}
	p.Legend.Top, p.Legend.Left = false, false
	p.Legend.XOffs, p.Legend.YOffs = 0, -vg.Inch/2
	p.Add(plotter.NewGrid())
	return p, nil
}

func addLine(p *plot.Plot, name string, i int, pts plotter.XYs) error {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("report: %s: %w", name, err)
	}
	l.Color = plotutil.Color(i)
	l.Dashes = plotutil.Dashes(i / 7)
	l.Width = vg.Points(1.5)
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

// metricPlot shows each policy's metric (mean over runs) with the range
// over runs as an error bar: the spread the verdict's noise rule reads.
func (c *Collector) metricPlot(results []replay.Result) (*plot.Plot, error) {
	m := chooseMetric(results)
	p := plot.New()
	p.Title.Text = strings.ToUpper(m.name[:1]) + m.name[1:] + " per policy (bar: mean over runs; whisker: min to max over runs)"
	p.Y.Label.Text = m.name
	if m.unit != "" {
		p.Y.Label.Text += " (" + m.unit + ")"
	}
	vals := make(plotter.Values, len(results))
	errs := rangeBars{}
	var names []string
	for i := range results {
		v, _ := m.of(&results[i])
		vals[i] = v
		s := spreadOf(c.perRun(results[i].Speculator, m))
		if len(c.perRun(results[i].Speculator, m)) == 0 {
			s = spread{Min: v, Max: v}
		}
		errs.XYs = append(errs.XYs, plotter.XY{X: float64(i), Y: v})
		errs.YErrors = append(errs.YErrors, struct{ Low, High float64 }{v - s.Min, s.Max - v})
		names = append(names, results[i].Speculator)
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(22))
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	bars.Color = plotutil.Color(0)
	eb, err := plotter.NewYErrorBars(errs)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	eb.Width = vg.Points(1.5)
	p.Add(bars, eb, plotter.NewGrid())
	p.NominalX(names...)
	p.Y.Min = 0
	return p, nil
}

// rangeBars holds points with asymmetric Y errors (plotter.YErrorer).
type rangeBars struct {
	plotter.XYs
	plotter.YErrors
}

// groupPlot is mean job time per job group, one bar per policy in each.
func (c *Collector) groupPlot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Mean job time per job group (all runs)"
	p.Y.Label.Text = "mean job time (s)"
	w := vg.Points(math.Max(3, math.Min(18, 300/float64(len(c.groups)*len(c.policies)))))
	for i, name := range c.policies {
		vals := make(plotter.Values, len(c.groups))
		for g, group := range c.groups {
			vals[g] = speculators.Mean(c.byPolicy[name].groups[group])
		}
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		bars.Color = plotutil.Color(i)
		bars.LineStyle.Width = 0
		bars.Offset = w * vg.Length(float64(i)-float64(len(c.policies)-1)/2)
		p.Add(bars)
		p.Legend.Add(name, bars)
	}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	p.NominalX(c.groups...)
	return p, nil
}

// pairPlot starts a bar plot of two values per run, titled and labelled,
// with the two series (of each result, in order) and the runs' policy names.
func pairPlot(results []replay.Result, title, yLabel string, of func(*replay.Result) (float64, float64)) (*plot.Plot, [2]plotter.Values, []string) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = yLabel
	series := [2]plotter.Values{make(plotter.Values, len(results)), make(plotter.Values, len(results))}
	names := make([]string, 0, len(results))
	for i := range results {
		series[0][i], series[1][i] = of(&results[i])
		names = append(names, results[i].Speculator)
	}
	return p, series, names
}

// copiesPlot shows speculative copies launched and won per policy (mean
// per run).
func copiesPlot(results []replay.Result) (*plot.Plot, error) {
	p, series, names := pairPlot(results, "Speculative copies per run: launched and won", "copies",
		func(r *replay.Result) (float64, float64) { return r.SpeculativeAttempts, r.SpeculativeWins })
	w := vg.Points(14)
	for k, v := range series {
		bars, err := plotter.NewBarChart(v, w)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		bars.Color = plotutil.Color(k + 1)
		bars.Offset = w * vg.Length(float64(k)-0.5)
		p.Add(bars)
		p.Legend.Add([]string{"launched", "won (finished first)"}[k], bars)
	}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	p.NominalX(names...)
	return p, nil
}

// wastePlot shows container time per policy, split into used and wasted
// (attempts whose work the job did not use), in container-hours per run.
func wastePlot(results []replay.Result) (*plot.Plot, error) {
	p, series, names := pairPlot(results, "Container time per run: used and wasted", "container-hours",
		func(r *replay.Result) (float64, float64) {
			return (r.ContainerS - r.WastedContainerS) / 3600, r.WastedContainerS / 3600
		})
	used, wasted := series[0], series[1]
	ub, err := plotter.NewBarChart(used, vg.Points(22))
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	ub.Color = plotutil.Color(2)
	wb, err := plotter.NewBarChart(wasted, vg.Points(22))
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	wb.Color = plotutil.Color(0)
	wb.StackOn(ub)
	p.Add(ub, wb, plotter.NewGrid())
	p.Legend.Add("used", ub)
	p.Legend.Add("wasted", wb)
	p.Legend.Top = true
	p.NominalX(names...)
	return p, nil
}

// runningPlot shows the containers in use over simulated time per policy
// (the first run; time averages over stretches of the run).
func (c *Collector) runningPlot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Running containers over simulated time (first run)"
	end := 0.0
	for _, name := range c.policies {
		if s := c.byPolicy[name].running; len(s) > 0 {
			end = math.Max(end, float64(s[len(s)-1].End))
		}
	}
	unit, div := "s", 1000.0
	switch {
	case end > 3*3600*1000:
		unit, div = "h", 3600*1000
	case end > 3*60*1000:
		unit, div = "min", 60*1000
	}
	p.X.Label.Text = "simulated time (" + unit + ")"
	p.Y.Label.Text = "containers in use"
	for i, name := range c.policies {
		s := c.byPolicy[name].running
		if len(s) == 0 {
			continue
		}
		pts := make(plotter.XYs, 0, len(s))
		for _, x := range s {
			pts = append(pts, plotter.XY{X: float64(x.Start+x.End) / 2 / div, Y: x.Containers})
		}
		if err := addLine(p, name, i, pts); err != nil {
			return nil, err
		}
	}
	p.Y.Min = 0
	if c.cluster.Containers > 0 {
		p.Y.Max = float64(c.cluster.Containers) * 1.05
	}
	p.Add(plotter.NewGrid())
	return p, nil
}

// svg renders p as SVG.
func svg(p *plot.Plot) ([]byte, error) {
	wt, err := p.WriterTo(chartW, chartH, "svg")
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return b.Bytes(), nil
}

// SavePlot writes the CDF alone to path, as SVG or PNG by its extension.
func (c *Collector) SavePlot(path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".svg" && ext != ".png" {
		return fmt.Errorf("--plot %s: want a .svg or .png file", path)
	}
	p, err := c.CDFPlot()
	if err != nil {
		return err
	}
	if err := p.Save(chartW, chartH, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
