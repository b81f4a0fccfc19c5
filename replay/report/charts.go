package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

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
	p.Add(plotter.NewGrid())
	if !logX {
		p.X.Tick.Marker = cleanTicks{p.X.Tick.Marker}
	}
	p.Y.Tick.Marker = cleanTicks{p.Y.Tick.Marker}
	return p, nil
}

func addLine(p *plot.Plot, name string, i int, pts plotter.XYs) error {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("report: %s: %w", name, err)
	}
	l.Color = seriesColor(i)
	l.Dashes = seriesDashes(i)
	l.Width = vg.Points(1.5)
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

// palette is the policies' colours: the Okabe-Ito set, told apart with the
// common colour-vision deficiencies, and black. With dashes (seriesDashes)
// every one of up to 24 policies has a line style of its own; plotutil's
// 7 soft colours cycled with its dashes every 7 gave two pairs of
// policies one look (mantri and srquant, farms and laser).
var palette = []color.RGBA{
	{0, 0, 0, 255}, {230, 159, 0, 255}, {86, 180, 233, 255}, {0, 158, 115, 255},
	{213, 94, 0, 255}, {0, 114, 178, 255}, {204, 121, 167, 255}, {150, 150, 150, 255},
}

// dashPatterns are solid, dashed and dotted, in points.
var dashPatterns = [][]float64{{}, {7, 3}, {2, 2}}

func seriesColor(i int) color.Color { return palette[i%len(palette)] }

func seriesDashes(i int) []vg.Length {
	var out []vg.Length
	for _, d := range dashPatterns[(i/len(palette))%len(dashPatterns)] {
		out = append(out, vg.Points(d))
	}
	return out
}

// seriesDashArray is seriesDashes as an SVG stroke-dasharray ("" solid).
func seriesDashArray(i int) string {
	var parts []string
	for _, d := range dashPatterns[(i/len(palette))%len(dashPatterns)] {
		parts = append(parts, strconv.FormatFloat(d, 'f', -1, 64))
	}
	return strings.Join(parts, " ")
}

// cleanTicks labels ticks as the shortest decimal of their value ("5000",
// not "5000.00"; "0.25"), keeping the wrapped ticker's choice of ticks and
// of which are labelled.
type cleanTicks struct{ plot.Ticker }

func (t cleanTicks) Ticks(min, max float64) []plot.Tick {
	ticks := t.Ticker.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'g', 6, 64)
			if strings.ContainsAny(ticks[i].Label, "e") {
				ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
			}
		}
	}
	return ticks
}

// tidy gives p's numeric axes clean tick labels and slants nominal x
// labels (policy names) so that they do not overlap.
func tidy(p *plot.Plot, nominalX bool) {
	p.Y.Tick.Marker = cleanTicks{p.Y.Tick.Marker}
	if nominalX {
		p.X.Tick.Label.Rotation = math.Pi / 5
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	} else {
		p.X.Tick.Marker = cleanTicks{p.X.Tick.Marker}
	}
}

// metricPlot shows each policy's metric (mean over runs) as a dot with the
// range over runs as a whisker: the spread the verdict's noise rule reads.
// Mean job times that span more than 20x go on a log axis, where a bar
// (which starts at zero) cannot: dots, so that a policy at 5,000 s does not
// flatten the ones at 100 s that matter.
func (c *Collector) metricPlot(results []replay.Result) (*plot.Plot, error) {
	m := chooseMetric(results)
	p := plot.New()
	p.Title.Text = strings.ToUpper(m.name[:1]) + m.name[1:] + " per policy (dot: mean over runs; whisker: min to max over runs)"
	p.Y.Label.Text = m.name
	if m.unit != "" {
		p.Y.Label.Text += " (" + m.unit + ")"
	}
	errs := rangeBars{}
	var names []string
	lo, hi := math.Inf(1), 0.0
	for i := range results {
		v, _ := m.of(&results[i])
		runs := c.perRun(results[i].Speculator, m)
		s := spreadOf(runs)
		if len(runs) == 0 {
			s = spread{Min: v, Max: v}
		}
		if v > 0 {
			lo, hi = math.Min(lo, s.Min), math.Max(hi, s.Max)
		}
		errs.XYs = append(errs.XYs, plotter.XY{X: float64(i), Y: v})
		errs.YErrors = append(errs.YErrors, struct{ Low, High float64 }{v - s.Min, s.Max - v})
		names = append(names, results[i].Speculator)
	}
	logY := m.unit == "s" && lo > 0 && hi/lo > 20
	if logY {
		for i := range errs.XYs { // a log axis has no zero
			errs.XYs[i].Y = math.Max(errs.XYs[i].Y, lo)
		}
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Y.Label.Text += ", log scale"
	} else {
		p.Y.Min = 0
	}
	dots, err := plotter.NewScatter(errs.XYs)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	dots.GlyphStyle.Shape = draw.CircleGlyph{}
	dots.GlyphStyle.Radius = vg.Points(4)
	dots.GlyphStyle.Color = palette[5]
	eb, err := plotter.NewYErrorBars(errs)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	eb.Width = vg.Points(1.5)
	p.Add(plotter.NewGrid(), eb, dots)
	p.NominalX(names...)
	tidy(p, true)
	return p, nil
}

// timeCostPlot is mean job time against container-hours per policy: down
// and left is better. The policies no other beats on both (the verdict's
// front) are filled dots joined by a line; the others hollow rings. The
// time axis is logarithmic when the times span more than 20x.
func timeCostPlot(results []replay.Result) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Time against cost per policy (filled, joined: not beaten on both by any other)"
	p.X.Label.Text = "container-hours per run"
	p.Y.Label.Text = "mean job time (s)"
	var front, rest plotter.XYs
	var labels plotter.XYLabels
	at := map[plotter.XY]int{} // policies at the same point share a label
	lo, hi := math.Inf(1), 0.0
	for i := range results {
		r := &results[i]
		if r.Jobs == 0 || r.MeanJobS <= 0 {
			continue
		}
		pt := plotter.XY{X: r.ContainerS / 3600, Y: r.MeanJobS}
		lo, hi = math.Min(lo, pt.Y), math.Max(hi, pt.Y)
		if k, ok := at[pt]; ok {
			labels.Labels[k] += " = " + r.Speculator
			continue
		}
		at[pt] = len(labels.XYs)
		if replay.Dominated(results, i) {
			rest = append(rest, pt)
		} else {
			front = append(front, pt)
		}
		labels.XYs = append(labels.XYs, pt)
		labels.Labels = append(labels.Labels, r.Speculator)
	}
	if len(labels.XYs) == 0 {
		return p, nil
	}
	if hi/lo > 20 {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Y.Label.Text = "mean job time (s), log scale"
	}
	sort.Slice(front, func(a, b int) bool { return front[a].X < front[b].X })
	if len(front) > 1 {
		l, err := plotter.NewLine(front)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		l.Color = palette[3]
		l.Width = vg.Points(1)
		p.Add(l)
	}
	for k, set := range []plotter.XYs{front, rest} {
		if len(set) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(set)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		sc.GlyphStyle.Radius = vg.Points(4)
		if k == 0 {
			sc.GlyphStyle.Shape, sc.GlyphStyle.Color = draw.CircleGlyph{}, palette[3]
		} else {
			sc.GlyphStyle.Shape, sc.GlyphStyle.Color = draw.RingGlyph{}, palette[7]
		}
		p.Add(sc)
	}
	p.Add(plotter.NewGrid())
	// Each label beside its dot, at the first of a few places (right and
	// above, right and below, left and above, left and below, then further
	// down on the right) where its box, estimated in points from the axes'
	// spans, overlaps no label placed before.
	logY := hi/lo > 20
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for _, pt := range labels.XYs {
		xlo, xhi = math.Min(xlo, pt.X), math.Max(xhi, pt.X)
	}
	xspan, areaW, areaH := math.Max(xhi-xlo, 1e-9)*1.25, 0.85*float64(chartW), 0.75*float64(chartH)
	toPt := func(pt plotter.XY) (float64, float64) {
		y := (pt.Y - lo) / math.Max(hi-lo, 1e-9)
		if logY {
			y = math.Log(pt.Y/lo) / math.Log(hi/lo)
		}
		return (pt.X - xlo) / xspan * areaW, y * areaH
	}
	type box struct{ x0, y0, x1, y1 float64 }
	var placed []box
	const fontPt, lineH = 8.0, 10.0
	for k, pt := range labels.XYs {
		text := labels.Labels[k]
		w := 0.56 * fontPt * float64(len(text))
		px, py := toPt(pt)
		type spot struct {
			dx, dy float64
			left   bool
		}
		spots := []spot{{6, 3, false}, {6, -3 - lineH, false}, {-6, 3, true}, {-6, -3 - lineH, true}, {6, -3 - 2*lineH, false}, {6, 3 + lineH, false}}
		chosen := spots[0]
		for _, sp := range spots {
			x0 := px + sp.dx
			if sp.left {
				x0 -= w
			}
			b := box{x0, py + sp.dy, x0 + w, py + sp.dy + lineH}
			clash := false
			for _, q := range placed {
				if b.x0 < q.x1 && q.x0 < b.x1 && b.y0 < q.y1 && q.y0 < b.y1 {
					clash = true
					break
				}
			}
			if !clash {
				chosen = sp
				placed = append(placed, b)
				break
			}
		}
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{pt}, Labels: []string{text}})
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		lb.TextStyle[0].Font.Size = vg.Points(fontPt)
		if chosen.left {
			lb.TextStyle[0].XAlign = draw.XRight
		}
		lb.Offset = vg.Point{X: vg.Points(chosen.dx), Y: vg.Points(chosen.dy)}
		p.Add(lb)
	}
	// Room for the labels right of the last dot.
	p.X.Max += 0.25 * (p.X.Max - p.X.Min)
	tidy(p, false)
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
		bars.Color = seriesColor(i)
		bars.LineStyle.Width = 0
		bars.Offset = w * vg.Length(float64(i)-float64(len(c.policies)-1)/2)
		p.Add(bars)
		p.Legend.Add(name, bars)
	}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	p.NominalX(c.groups...)
	tidy(p, true)
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
	tidy(p, true)
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
	tidy(p, true)
	return p, nil
}

// runningPlot shows the containers in use over simulated time per policy
// (the first run; time averages over stretches of the run).
func (c *Collector) runningPlot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Running containers over simulated time (first run)"
	// The axis spans the activity: up to the last stretch in which some
	// policy holds at least 5% of the cluster's containers (of its peak
	// when the cluster's size is unknown). A straggler's tail of one
	// container for days would otherwise squeeze hours of work into a
	// sliver at the left; the makespan column has the tail's length.
	floor := 0.05 * float64(c.cluster.Containers)
	end := 0.0
	for _, name := range c.policies {
		s := c.byPolicy[name].running
		f := floor
		if f <= 0 {
			for _, x := range s {
				f = math.Max(f, 0.05*x.Containers)
			}
		}
		for k := len(s) - 1; k >= 0; k-- {
			if s[k].Containers >= math.Max(f, 1e-9) {
				end = math.Max(end, float64(s[k].End))
				break
			}
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
		// Steps: a stretch's mean holds over the whole stretch (stretches
		// differ in length between policies; joining their midpoints drew
		// long slopes that no run had).
		pts := make(plotter.XYs, 0, 2*len(s))
		for _, x := range s {
			if end > 0 && float64(x.Start) >= end {
				break
			}
			pts = append(pts, plotter.XY{X: float64(x.Start) / div, Y: x.Containers}, plotter.XY{X: float64(x.End) / div, Y: x.Containers})
		}
		if err := addLine(p, name, i, pts); err != nil {
			return nil, err
		}
	}
	p.Y.Min = 0
	if c.cluster.Containers > 0 {
		p.Y.Max = float64(c.cluster.Containers) * 1.05
	}
	if end > 0 {
		p.X.Min, p.X.Max = 0, end/div
	}
	p.Add(plotter.NewGrid())
	tidy(p, false)
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
	cv, err := draw.NewFormattedCanvas(chartW+legendW, chartH, ext[1:])
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	drawBesideLegend(p, draw.New(cv))
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := cv.WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// legendW is the column the --plot file's legend gets right of the plot.
const legendW = 1.6 * vg.Inch

// drawBesideLegend draws p with its legend in a column of its own at the
// right, where it can cover no curve.
func drawBesideLegend(p *plot.Plot, dc draw.Canvas) {
	legend := p.Legend
	p.Legend = plot.NewLegend()
	p.Draw(draw.Crop(dc, 0, -legendW, 0, 0))
	legend.Top, legend.Left = true, true
	legend.XOffs = vg.Points(6)
	legend.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-legendW, 0, 0, -vg.Points(20)))
	p.Legend = legend
}
