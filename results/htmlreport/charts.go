package htmlreport

import (
	"fmt"
	"html/template"
	"image/color"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/softratio"
)

// chart is one figure of the report.
type chart struct {
	// ID is the figure's HTML id ("chart-rate").
	ID    string
	Title string
	// Caption says how to read the chart.
	Caption string
	// SVG is the inline <svg> element; empty when Err is set.
	SVG template.HTML
	// Legend is drawn in HTML under the chart, so it never hides data.
	Legend []legendItem
	// Err says why the chart could not be drawn.
	Err string
}

// legendItem is one entry of a chart legend.
type legendItem struct {
	Name  string
	Color string
	// Line draws a line swatch instead of a box.
	Line bool
	// Dashed draws the line dashed.
	Dashed bool
}

// finish turns the result of renderSVG into the chart's SVG or Err.
func (c chart) finish(svg string, err error) chart {
	if err != nil {
		c.Err = err.Error()
		return c
	}
	c.SVG = template.HTML(svg) // generated here; vgsvg escapes every text it draws
	return c
}

// variantLegend returns a legend entry per variant.
func variantLegend(vs []variantData) []legendItem {
	items := make([]legendItem, len(vs))
	for i, v := range vs {
		name := v.V.Name
		if v.Sum.IsBaseline {
			name += " (baseline)"
		}
		items[i] = legendItem{Name: name, Color: cssColor(v.Color)}
	}
	return items
}

// xyErrors is a set of points with asymmetric errors on one axis.
type xyErrors struct {
	plotter.XYs
	plotter.Errors
}

// XError implements plotter.XErrorer.
func (e xyErrors) XError(i int) (float64, float64) { return e.Errors[i].Low, e.Errors[i].High }

// YError implements plotter.YErrorer.
func (e xyErrors) YError(i int) (float64, float64) { return e.Errors[i].Low, e.Errors[i].High }

// rateChart draws each measured variant's mean total rate as a horizontal
// bar, its 95 % confidence interval as an error bar, every repetition as
// a dot, and the baseline's mean as a dashed line. The first variant is at
// the top.
func rateChart(vs []variantData) chart {
	c := chart{
		ID:    "chart-rate",
		Title: "Throughput per variant",
		Caption: "Bar: mean total req/s over the repetitions; whisker: 95 % confidence interval of the mean (needs ≥ 2 repetitions); " +
			"dots: the repetitions; dashed line: the baseline's mean. The label gives the mean and the difference from the baseline.",
	}
	ms := measured(vs)
	if len(ms) == 0 {
		c.Err = "no variant has a completed repetition"
		return c
	}
	n := len(ms)
	p := newPlot("", "total req/s", "")
	p.X.Tick.Marker = rateTicks{}
	lightGrid(p, true, false)
	names := make([]string, n)
	var base *variantData // nil when the baseline has no completed repetition
	for i := range ms {
		if ms[i].Sum.IsBaseline {
			base = &ms[i]
		}
	}
	var errPts xyErrors
	var dots plotter.XYs
	var lblPts plotter.XYs
	var lblStrs []string
	for i := range ms {
		v := &ms[i]
		pos := float64(n - 1 - i) // first variant on top
		names[n-1-i] = v.V.Name
		if v.Sum.IsBaseline {
			names[n-1-i] += " (baseline)"
		}
		if err := bar(p, pos, v.Sum.Stats.Mean, 18, 0, v.Color, true); err != nil {
			c.Err = err.Error()
			return c
		}
		right := v.Sum.Stats.Mean
		if v.Sum.Stats.HasCI {
			errPts.XYs = append(errPts.XYs, plotter.XY{X: v.Sum.Stats.Mean, Y: pos})
			errPts.Errors = append(errPts.Errors, struct{ Low, High float64 }{v.Sum.Stats.Mean - v.Sum.Stats.CI95Low, v.Sum.Stats.CI95High - v.Sum.Stats.Mean})
			right = v.Sum.Stats.CI95High
		}
		for _, r := range v.Rates {
			dots = append(dots, plotter.XY{X: r, Y: pos})
			right = math.Max(right, r)
		}
		label := format.Rate(v.Sum.Stats.Mean)
		if !v.Sum.IsBaseline && hasDelta(v, base) {
			label += "  (" + format.Delta(v.Sum.Comparison.DeltaPct) + ")"
		}
		lblPts = append(lblPts, plotter.XY{X: right, Y: pos})
		lblStrs = append(lblStrs, label)
	}
	p.NominalY(names...)
	if len(errPts.XYs) > 0 {
		eb, err := plotter.NewXErrorBars(errPts)
		if err != nil {
			c.Err = err.Error()
			return c
		}
		eb.Color, eb.Width, eb.CapWidth = colorInk, 1.5, 8
		p.Add(eb)
	}
	s, err := plotter.NewScatter(dots)
	if err != nil {
		c.Err = err.Error()
		return c
	}
	s.GlyphStyle = draw.GlyphStyle{Color: colorInk, Radius: 2.5, Shape: draw.CircleGlyph{}}
	p.Add(s)
	if base != nil {
		if err := refLine(p, base.Sum.Stats.Mean, -0.5, base.Sum.Stats.Mean, float64(n)-0.5, colorMuted); err != nil {
			c.Err = err.Error()
			return c
		}
	}
	if err := labels(p, lblPts, lblStrs, vg.Point{X: 6, Y: -4}, 9.5, colorInk); err != nil {
		c.Err = err.Error()
		return c
	}
	p.X.Min = 0
	p.X.Max *= 1.22 // room for the labels right of the bars
	if base != nil {
		c.Legend = []legendItem{{Name: "baseline mean", Color: cssColor(colorMuted), Line: true, Dashed: true}}
	}
	return c.finish(renderSVG(p, chartWidth, vg.Length(70+30*n), "total req/s per variant"))
}

// sweepCharts draws one chart per sweep series: mean req/s per swept
// value with 95 % CI whiskers, the best point marked when the analysis
// found one, and the baseline's mean as a dashed line. A numeric sweep
// (series.Numeric) is a line over the swept number; a categorical one
// (certificate names, engines) is a bar per value, since a line between
// names would suggest values between them. verdicts are the sweeps'
// conclusions in words (tables.PlateauLine) by series name: each
// chart's caption ends with its own.
func sweepCharts(ss []series, base *variantData, verdicts map[string]string, pred *softratio.Prediction) []chart {
	var out []chart
	for i, s := range ss {
		var c chart
		if s.Numeric {
			c = sweepLineChart(i, s, base, pred)
		} else {
			c = sweepBarChart(i, s, base)
		}
		if v := verdicts[s.Name]; v != "" {
			c.Caption += " Verdict: " + v + "."
		}
		out = append(out, c)
	}
	return out
}

// sweepErrors returns the points' 95 % CI whiskers at their X, for the
// points that have one.
func sweepErrors(pts []seriesPoint) xyErrors {
	var e xyErrors
	for _, pt := range pts {
		st := pt.D.Sum.Stats
		if st.HasCI {
			e.XYs = append(e.XYs, plotter.XY{X: pt.X, Y: st.Mean})
			e.Errors = append(e.Errors, struct{ Low, High float64 }{st.Mean - st.CI95Low, st.CI95High - st.Mean})
		}
	}
	return e
}

// bestPoint is the index of the point analysis.SummarizeRun marks best of
// its sweep, -1 when it marks none (no value is significantly faster
// than every other).
func bestPoint(pts []seriesPoint) int {
	for j, pt := range pts {
		if pt.D.Sum.Best {
			return j
		}
	}
	return -1
}

// bestLegend is the legend entry of the ring markBest draws.
var bestLegend = legendItem{Name: "best (significantly faster than every other value)", Color: cssColor(colorBest)}

// markBest rings the best point b at its mean and labels it, offset by
// off from (b.X, labelY) and aligned as given.
func markBest(p *plot.Plot, b seriesPoint, labelY float64, off vg.Point, align text.XAlignment) error {
	ring, err := plotter.NewScatter(plotter.XYs{{X: b.X, Y: b.D.Sum.Stats.Mean}})
	if err != nil {
		return err
	}
	ring.GlyphStyle = draw.GlyphStyle{Color: colorBest, Radius: 8, Shape: draw.RingGlyph{}}
	p.Add(ring)
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: b.X, Y: labelY}}, Labels: []string{"best: " + b.D.V.Name + ", " + format.Rate(b.D.Sum.Stats.Mean) + " req/s"}})
	if err != nil {
		return err
	}
	l.TextStyle[0] = textStyle(10)
	l.TextStyle[0].Color = colorBest
	l.TextStyle[0].XAlign = align
	l.Offset = off
	p.Add(l)
	return nil
}

// sweepLineChart draws a numeric sweep series as a line over the swept
// number (see sweepCharts), with the soft-ratio model's curve when pred
// predicts and the swept number is the soft ratio.
func sweepLineChart(i int, s series, base *variantData, pred *softratio.Prediction) chart {
	c := chart{
		ID:    "chart-sweep-" + strconv.Itoa(i),
		Title: "Sweep " + s.Name + ": req/s against " + s.Key,
		Caption: "Points: mean total req/s of each variant of the series; whiskers: 95 % confidence interval; " +
			"ring: the best value, when one is significantly faster than every other; dashed line: the baseline's mean.",
	}
	p := newPlot("", s.Key, "mean total req/s")
	p.Y.Tick.Marker = rateTicks{}
	lightGrid(p, false, true)
	var line plotter.XYs
	for _, pt := range s.Points {
		line = append(line, plotter.XY{X: pt.X, Y: pt.D.Sum.Stats.Mean})
	}
	col := s.Points[0].D.Color
	l, pts, err := plotter.NewLinePoints(line)
	if err != nil {
		c.Err = err.Error()
		return c
	}
	l.Color, l.Width = col, 2
	pts.GlyphStyle = draw.GlyphStyle{Color: col, Radius: 3.5, Shape: draw.CircleGlyph{}}
	p.Add(l, pts)
	if errPts := sweepErrors(s.Points); len(errPts.XYs) > 0 {
		eb, err := plotter.NewYErrorBars(errPts)
		if err != nil {
			c.Err = err.Error()
			return c
		}
		eb.Color, eb.Width, eb.CapWidth = col, 1.5, 8
		p.Add(eb)
	}
	lo, hi := s.Points[0].X, s.Points[len(s.Points)-1].X
	if lo == hi {
		lo, hi = lo-1, hi+1
	}
	c.Legend = []legendItem{{Name: s.Name, Color: cssColor(col), Line: true}}
	xs, ratios := make([]float64, len(s.Points)), make([]string, len(s.Points))
	for j, pt := range s.Points {
		xs[j], ratios[j] = pt.X, pt.D.V.Env[analysis.SoftRatioEnv]
	}
	if item, ok, err := modelCurve(p, pred, xs, ratios); err != nil {
		c.Err = err.Error()
		return c
	} else if ok {
		c.Legend = append(c.Legend, item)
	}
	// The label starts right of the ring, or ends left of it for a best
	// point in the right half, so it stays inside the chart.
	if bi := bestPoint(s.Points); bi >= 0 {
		b := s.Points[bi]
		off, align := vg.Point{X: 10, Y: 10}, draw.XLeft
		if b.X > (lo+hi)/2 {
			off, align = vg.Point{X: -10, Y: 10}, draw.XRight
		}
		if err := markBest(p, b, b.D.Sum.Stats.Mean, off, align); err != nil {
			c.Err = err.Error()
			return c
		}
		c.Legend = append(c.Legend, bestLegend)
	}
	pad := (hi - lo) * 0.05 // room beside the outermost points
	lo, hi = lo-pad, hi+pad
	if base != nil && len(base.V.Reps) > 0 {
		if err := refLine(p, lo, base.Sum.Stats.Mean, hi, base.Sum.Stats.Mean, colorMuted); err != nil {
			c.Err = err.Error()
			return c
		}
		c.Legend = append(c.Legend, legendItem{Name: "baseline mean (" + base.V.Name + ")", Color: cssColor(colorMuted), Line: true, Dashed: true})
	}
	// Leave room above the highest whisker for the best label.
	p.Y.Max += (p.Y.Max - p.Y.Min) * 0.15
	p.X.Min, p.X.Max = math.Min(p.X.Min, lo), math.Max(p.X.Max, hi)
	return c.finish(renderSVG(p, chartWidth, 300, c.Title))
}

// sweepBarChart draws a categorical sweep series as a bar per variant in
// its colour, in plan order, from zero (see sweepCharts).
func sweepBarChart(i int, s series, base *variantData) chart {
	xName := s.Key
	if xName == "" {
		xName = "swept values"
	}
	c := chart{
		ID:    "chart-sweep-" + strconv.Itoa(i),
		Title: "Sweep " + s.Name + ": req/s per " + xName,
	}
	why := "the swept values are names, not numbers"
	if s.Key == "" {
		why = "several swept values change at once"
	}
	c.Caption = "Bars: mean total req/s of each variant of the series, in plan order (" + why + ", so no line joins them); " +
		"whiskers: 95 % confidence interval; ring: the best value, when one is significantly faster than every other; dashed line: the baseline's mean."
	n := len(s.Points)
	p := newPlot("", xName, "mean total req/s")
	p.Y.Tick.Marker = rateTicks{}
	lightGrid(p, false, true)
	w := max(min((chartWidth-100)/vg.Length(n)*0.6, 60), 4)
	ticks := make([]string, n)
	var ds []variantData
	for j, pt := range s.Points {
		ticks[j] = pt.Label
		ds = append(ds, pt.D)
		if err := bar(p, pt.X, pt.D.Sum.Stats.Mean, w, 0, pt.D.Color, false); err != nil {
			c.Err = err.Error()
			return c
		}
	}
	if errPts := sweepErrors(s.Points); len(errPts.XYs) > 0 {
		eb, err := plotter.NewYErrorBars(errPts)
		if err != nil {
			c.Err = err.Error()
			return c
		}
		eb.Color, eb.Width, eb.CapWidth = colorInk, 1.5, 8
		p.Add(eb)
	}
	c.Legend = variantLegend(ds)
	// The label sits above the best bar's whisker.
	if bi := bestPoint(s.Points); bi >= 0 {
		b := s.Points[bi]
		top := b.D.Sum.Stats.Mean
		if b.D.Sum.Stats.HasCI {
			top = math.Max(top, b.D.Sum.Stats.CI95High)
		}
		if err := markBest(p, b, top, vg.Point{X: 0, Y: 10}, draw.XCenter); err != nil {
			c.Err = err.Error()
			return c
		}
		c.Legend = append(c.Legend, bestLegend)
	}
	if base != nil && len(base.V.Reps) > 0 {
		if err := refLine(p, -0.5, base.Sum.Stats.Mean, float64(n)-0.5, base.Sum.Stats.Mean, colorMuted); err != nil {
			c.Err = err.Error()
			return c
		}
		c.Legend = append(c.Legend, legendItem{Name: "baseline mean (" + base.V.Name + ")", Color: cssColor(colorMuted), Line: true, Dashed: true})
	}
	p.NominalX(ticks...)
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	if n > 8 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
	}
	p.Y.Min = 0
	// Leave room above the highest whisker for the best label.
	p.Y.Max *= 1.15
	return c.finish(renderSVG(p, chartWidth, 300, c.Title))
}

// cdfChart draws, for every measured variant, the CDF of one latency
// histogram merged over the variant's repetitions, on a log ms axis.
func cdfChart(vs []variantData, id, name string, pick func(*analysis.VariantSummary) *results.Histogram) chart {
	c := chart{
		ID:    id,
		Title: "Latency CDF: " + name,
		Caption: "Fraction of requests whose " + name + " took at most x ms, from the HDR histograms of every repetition merged exactly. " +
			"Further left is faster; the upper end of each curve is the tail.",
	}
	p := newPlot("", name+" (ms, log scale)", "requests ≤ x")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = logMsTicks{}
	p.Y.Tick.Marker = fractionTicks{}
	lightGrid(p, true, true)
	var legend []variantData
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range measured(vs) {
		pts := cdf(pick(v.Sum))
		if len(pts) == 0 {
			continue
		}
		xys := make(plotter.XYs, len(pts))
		for i, pt := range pts {
			xys[i] = plotter.XY{X: pt.X, Y: pt.Y}
		}
		lo, hi = math.Min(lo, pts[0].X), math.Max(hi, pts[len(pts)-1].X)
		l, err := plotter.NewLine(xys)
		if err != nil {
			c.Err = err.Error()
			return c
		}
		l.Color, l.Width = v.Color, 1.8
		p.Add(l)
		legend = append(legend, v)
	}
	if len(legend) == 0 {
		c.Err = "no " + name + " latencies recorded"
		return c
	}
	// Whole decades around the data, so the log axis has labelled ticks.
	p.X.Min = math.Pow10(int(math.Floor(math.Log10(lo))))
	p.X.Max = math.Pow10(int(math.Ceil(math.Log10(hi))))
	if p.X.Max <= p.X.Min {
		p.X.Max = p.X.Min * 10
	}
	p.Y.Min, p.Y.Max = 0, 1
	c.Legend = variantLegend(legend)
	return c.finish(renderSVG(p, chartWidth, 280, c.Title))
}

// groupChart draws every group's rate for every measured variant, as the
// mean over the repetitions, in bars grouped by group index.
func groupChart(vs []variantData) chart {
	c := chart{
		ID:    "chart-groups",
		Title: "Throughput per worker group",
		Caption: "Each group's req/s (its own window), mean over the variant's repetitions. " +
			"Uneven bars within a variant mean uneven CPUs or connection counts between groups.",
	}
	ms := measured(vs)
	cpusOf := map[int]string{} // group index -> CPUs, from the first variant that has the group
	var order []int
	for _, v := range ms {
		for _, g := range groups(v.V) {
			if _, ok := cpusOf[g.Index]; !ok {
				cpusOf[g.Index] = g.CPUs
				order = append(order, g.Index)
			}
		}
	}
	sort.Ints(order)
	index := make(map[int]int, len(order)) // group index -> position on the x axis
	ticks := make([]string, len(order))
	for i, k := range order {
		index[k] = i
		ticks[i] = "group " + strconv.Itoa(k)
		if cpusOf[k] != "" {
			ticks[i] += " (" + cpusOf[k] + ")"
		}
	}
	if len(order) == 0 {
		c.Err = "no group results"
		return c
	}
	p := newPlot("", "", "req/s (mean over repetitions)")
	p.Y.Tick.Marker = rateTicks{}
	lightGrid(p, false, true)
	slot := (chartWidth - 100) / vg.Length(len(order)*(len(ms)+1))
	w := max(min(slot, 40), 2)
	for j, v := range ms {
		off := vg.Length(float64(j)-float64(len(ms)-1)/2) * w
		for _, g := range groups(v.V) {
			if err := bar(p, float64(index[g.Index]), mean(g.Rates), w, off, v.Color, false); err != nil {
				c.Err = err.Error()
				return c
			}
		}
	}
	p.NominalX(ticks...)
	p.X.Min, p.X.Max = -0.5, float64(len(order))-0.5
	if len(ticks) > 8 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
	}
	p.Y.Min = 0
	p.Y.Max *= 1.08
	c.Legend = variantLegend(ms)
	return c.finish(renderSVG(p, chartWidth, 280, c.Title))
}

// cpuChart draws, per measured variant, how busy the client's busiest
// group, the client's groups on average and the server were (means over
// repetitions), with the client-bound threshold as a line. It returns
// false when no CPU figure was measured.
func cpuChart(vs []variantData) (chart, bool) {
	if !hasCPU(vs) {
		return chart{}, false
	}
	c := chart{
		ID:    "chart-cpu",
		Title: "CPU use during the window",
		Caption: fmt.Sprintf("Busy %% of the CPUs measured (anything that ran on them), mean over repetitions. A client group "+
			"whose CPUs kaeload itself used %.0f %% or more of (red line) makes the result client-bound: it then measures kaeload, "+
			"not the server; busy time of other processes does not.", results.ClientBoundBusy*100),
	}
	ms := measured(vs)
	kinds := []struct {
		name string
		col  color.RGBA
		val  func(repCPU) float64
	}{
		{"client, busiest group", color.RGBA{230, 85, 13, 255}, func(r repCPU) float64 { return r.ClientMax }},
		{"client, mean of groups", color.RGBA{253, 174, 107, 255}, func(r repCPU) float64 { return r.ClientMean }},
		{"server", color.RGBA{49, 130, 189, 255}, func(r repCPU) float64 { return r.Server }},
	}
	p := newPlot("", "", "busy")
	p.Y.Tick.Marker = percentTicks{}
	lightGrid(p, false, true)
	names := make([]string, len(ms))
	slot := (chartWidth - 100) / vg.Length(len(ms)*(len(kinds)+1))
	w := max(min(slot, 40), 2)
	used := make([]bool, len(kinds))
	for i, v := range ms {
		names[i] = v.V.Name
		for k, kind := range kinds {
			var xs []float64
			for r := range v.V.Reps {
				if x := kind.val(cpuOf(&v.V.Reps[r], &v.Reps[r])); !math.IsNaN(x) {
					xs = append(xs, x)
				}
			}
			if len(xs) == 0 {
				continue
			}
			used[k] = true
			off := vg.Length(float64(k)-float64(len(kinds)-1)/2) * w
			if err := bar(p, float64(i), mean(xs)*100, w, off, kind.col, false); err != nil {
				c.Err = err.Error()
				return c, true
			}
		}
	}
	for k, kind := range kinds {
		if used[k] {
			c.Legend = append(c.Legend, legendItem{Name: kind.name, Color: cssColor(kind.col)})
		}
	}
	limit := results.ClientBoundBusy * 100
	if err := refLine(p, -0.5, limit, float64(len(ms))-0.5, limit, colorAlarm); err != nil {
		c.Err = err.Error()
		return c, true
	}
	c.Legend = append(c.Legend, legendItem{Name: fmt.Sprintf("client-bound threshold (%.0f %%)", limit), Color: cssColor(colorAlarm), Line: true, Dashed: true})
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, float64(len(ms))-0.5
	p.Y.Min, p.Y.Max = 0, 100
	return c.finish(renderSVG(p, chartWidth, 260, c.Title)), true
}
