package htmlreport

import (
	"cmp"
	"html/template"
	"image/color"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/softratio"
	"github.com/kaeload/kaeload/results/stats"
)

// chart is one figure: its SVG or Err saying why not; its legend is HTML, hiding no data.
type chart struct {
	ID, Class, Title, Caption string
	SVG                       template.HTML
	Legend                    []legendItem
	Err                       string
}

// legendItem is one legend entry: a box, or a (dashed) line when Line.
type legendItem struct {
	Name, Color  string
	Line, Dashed bool
}

func variantItem(v *measure.Variant) legendItem { return boxItem(baselineName(v), variantColor(v.I)) }

func baselineName(v *measure.Variant) string {
	if v.S.IsBaseline {
		return v.V.Name + " (baseline)"
	}
	return v.V.Name
}

// ciTop is the top of st's whisker, its mean without a CI.
func ciTop(st stats.Stats) float64 {
	if st.HasCI {
		return math.Max(st.Mean, st.CI95High)
	}
	return st.Mean
}

// rateChart draws each measured variant's mean rate as a bar with its 95 % CI and repetitions.
func rateChart(ms []measure.Variant) chart {
	f := newFigure(chart{ID: "chart-rate", Title: "Throughput per variant",
		Caption: "Bar: mean total req/s over the repetitions; whisker: 95 % confidence interval of the mean (needs ≥ 2 repetitions); " +
			"dots: the repetitions; dashed line: the baseline's mean. The label gives the mean and the difference from the baseline.",
	}, "total req/s", "", rateTicks, nil)
	n := len(ms)
	if n == 0 {
		return f.none("no variant has a completed repetition")
	}
	f.label = "total req/s per variant"
	b := slices.IndexFunc(ms, func(v measure.Variant) bool { return v.S.IsBaseline }) // -1: not measured
	names, lbls := make([]string, n), make([]string, n)
	var whisk xyErrors
	var dots, at plotter.XYs
	for i := range ms {
		v, pos := &ms[i], float64(n-1-i)
		st := v.S.Stats
		names[n-1-i] = baselineName(v)
		f.bar(pos, st.Mean, 18, 0, variantColor(v.I), true)
		whisk.add(plotter.XY{X: st.Mean, Y: pos}, st)
		right := ciTop(st)
		for _, r := range v.V.Rates() {
			dots = append(dots, plotter.XY{X: r, Y: pos})
			right = math.Max(right, r)
		}
		at, lbls[i] = append(at, plotter.XY{X: right, Y: pos}), format.Rate(st.Mean)
		if !v.S.IsBaseline && b >= 0 && st.N > 0 && ms[b].S.Stats.N > 0 { // the difference is defined
			lbls[i] += "  (" + format.Delta(v.S.Comparison.DeltaPct) + ")"
		}
	}
	f.NominalY(names...)
	f.whiskers(whisk, colorInk, true)
	f.glyphs(dots, colorInk, 2.5, draw.CircleGlyph{})
	if b >= 0 {
		mean := ms[b].S.Stats.Mean
		f.refLine(mean, -0.5, mean, float64(n)-0.5, colorMuted, "baseline mean")
	}
	f.labels(at, lbls, vg.Point{X: 6, Y: -4}, 9.5, colorInk, draw.XLeft)
	f.X.Min, f.X.Max = 0, f.X.Max*1.22 // room for the labels right of the bars
	return f.draw(vg.Length(70 + 30*n))
}

// sweepChart draws the i-th sweep series sw of vs, its caption ending with verdict: a line over numbers, else a
// bar per value at its position (a line between names would suggest values between).
func sweepChart(i int, sw *analysis.SweepSummary, vs []measure.Variant, base *measure.Variant, verdict string,
	pred *softratio.Prediction) chart {
	xName, why := "swept values", "several swept values change at once"
	if len(sw.Keys) == 1 && sw.Keys[0] != "" {
		xName, why = sw.Keys[0], "the swept values are names, not numbers"
	}
	c := chart{ID: "chart-sweep-" + strconv.Itoa(i), Title: "Sweep " + sw.Series + ": req/s per " + xName,
		Caption: "Bars: mean total req/s of each variant of the series, in plan order (" + why +
			", so no line joins them); "}
	if sw.Numeric {
		c.Title = "Sweep " + sw.Series + ": req/s against " + sw.Keys[0]
		c.Caption = "Points: mean total req/s of each variant of the series; "
	}
	c.Caption += "whiskers: 95 % confidence interval; ring: the best value, when one is significantly faster " +
		"than every other; dashed line: the baseline's mean."
	if verdict != "" {
		c.Caption += " Verdict: " + verdict + "."
	}
	f := newFigure(c, xName, "mean total req/s", nil, rateTicks)
	n := len(sw.Variants)
	ds := measure.Map(sw.Variants, func(k int) *measure.Variant { return &vs[k] })
	means, ticks, xs, ratios := make(plotter.XYs, n), make([]string, n), make([]float64, n), make([]string, n)
	var whisk xyErrors
	for j, d := range ds {
		xs[j] = float64(j)
		if sw.Numeric {
			xs[j] = sw.Values[j]
		}
		means[j] = plotter.XY{X: xs[j], Y: d.S.Stats.Mean}
		whisk.add(means[j], d.S.Stats)
		ticks[j], ratios[j] = cmp.Or(sw.Labels[j], d.V.Name), d.V.Env[analysis.SoftRatioEnv]
	}
	lo, hi := xs[0]-0.5, xs[n-1]+0.5 // the baseline's line
	if sw.Numeric {
		f.linePoints(means, variantColor(ds[0].I), sw.Series)
		f.whiskers(whisk, variantColor(ds[0].I), false)
		f.modelCurve(pred, xs, ratios)
		lo, hi = padded(xs[0], xs[n-1])
	} else {
		w := max(min((chartWidth-100)/vg.Length(n)*0.6, 60), 4)
		for j, d := range ds {
			f.bar(xs[j], d.S.Stats.Mean, w, 0, variantColor(d.I), false)
			f.key(variantItem(d))
		}
		f.whiskers(whisk, colorInk, false)
		f.nominalX(ticks, true)
	}
	if j := slices.IndexFunc(ds, func(d *measure.Variant) bool { return d.S.Best }); j >= 0 {
		b := ds[j]
		f.bestMark(xs[j], b.S.Stats, "best: "+b.V.Name+", "+format.Rate(b.S.Stats.Mean)+" req/s",
			"best (significantly faster than every other value)", !sw.Numeric, (lo+hi)/2)
	}
	if base != nil && len(base.V.Reps) > 0 {
		f.refLine(lo, base.S.Stats.Mean, hi, base.S.Stats.Mean, colorMuted, "baseline mean ("+base.V.Name+")")
	}
	if sw.Numeric {
		f.spanX(lo, hi)
	} else {
		f.Y.Min, f.Y.Max = 0, f.Y.Max*1.15
	}
	return f.draw(300)
}

// bestMark rings the best point (x, st.Mean), labelled on the side that keeps it in the chart.
func (f *figure) bestMark(x float64, st stats.Stats, label, legend string, bar bool, mid float64) {
	y, off, align := st.Mean, vg.Point{X: 10, Y: 10}, draw.XLeft
	switch {
	case bar:
		y, off, align = ciTop(st), vg.Point{X: 0, Y: 10}, draw.XCenter
	case x > mid:
		off, align = vg.Point{X: -10, Y: 10}, draw.XRight
	}
	f.glyphs(plotter.XYs{{X: x, Y: st.Mean}}, colorAlarm, 8, draw.RingGlyph{})
	f.labels(plotter.XYs{{X: x, Y: y}}, []string{label}, off, 10, colorAlarm, align)
	f.key(boxItem(legend, colorAlarm))
}

// spanX widens the x axis to lo..hi and leaves room above for the best's label.
func (f *figure) spanX(lo, hi float64) {
	f.Y.Max += (f.Y.Max - f.Y.Min) * 0.15
	f.X.Min, f.X.Max = math.Min(f.X.Min, lo), math.Max(f.X.Max, hi)
}

// cdfChart draws each measured variant's CDF of one latency on a log ms axis.
func cdfChart(ms []measure.Variant, id, name string, pick func(*analysis.VariantSummary) *results.Histogram) chart {
	f := newFigure(chart{ID: id, Title: "Latency CDF: " + name,
		Caption: "Fraction of requests whose " + name + " took at most x ms, from the HDR histograms of every repetition merged exactly. " +
			"Further left is faster; the upper end of each curve is the tail.",
	}, name+" (ms, log scale)", "requests ≤ x", logMsTicks, fractionTicks)
	f.X.Scale = plot.LogScale{}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range ms {
		if pts := cdf(pick(v.S)); len(pts) > 0 {
			lo, hi = math.Min(lo, pts[0].X), math.Max(hi, pts[len(pts)-1].X)
			f.line(pts, variantColor(v.I), 1.8)
			f.key(variantItem(&v))
		}
	}
	if len(f.c.Legend) == 0 {
		return f.none("no " + name + " latencies recorded")
	}
	// Whole decades around the data, so the log axis has labelled ticks.
	f.X.Min = math.Pow10(int(math.Floor(math.Log10(lo))))
	f.X.Max = math.Pow10(int(math.Ceil(math.Log10(hi))))
	if f.X.Max <= f.X.Min {
		f.X.Max = f.X.Min * 10
	}
	f.Y.Min, f.Y.Max = 0, 1
	return f.draw(280)
}

func groupName(index int, cpus string) string {
	if cpus == "" {
		return "group " + strconv.Itoa(index)
	}
	return "group " + strconv.Itoa(index) + " (" + cpus + ")"
}

// groupChart draws each group's mean rate, the variants side by side per group.
func groupChart(ms []measure.Variant) chart {
	f := newFigure(chart{ID: "chart-groups", Title: "Throughput per worker group",
		Caption: "Each group's req/s (its own window), mean over the variant's repetitions. " +
			"Uneven bars within a variant mean uneven CPUs or connection counts between groups."},
		"", "req/s (mean over repetitions)", nil, rateTicks)
	rates := map[[2]int]float64{} // (variant, group index) -> mean rate
	cpusOf := map[int]string{}    // group index -> CPUs, from the first variant that has the group
	for j, v := range ms {
		for _, g := range measure.VariantGroups(v.V) {
			rates[[2]int{j, g.Index}] = stat.Mean(g.Rates, nil)
			if _, ok := cpusOf[g.Index]; !ok {
				cpusOf[g.Index] = g.CPUs
			}
		}
	}
	if len(cpusOf) == 0 {
		return f.none("no group results")
	}
	order := slices.Sorted(maps.Keys(cpusOf))
	ticks := measure.Map(order, func(k int) string { return groupName(k, cpusOf[k]) })
	col := func(j int) color.RGBA { return variantColor(ms[j].I) }
	f.groupedBars(len(order), len(ms), col, func(i, j int) float64 {
		if r, ok := rates[[2]int{j, order[i]}]; ok {
			return r
		}
		return math.NaN()
	})
	f.nominalX(ticks, true)
	f.Y.Min, f.Y.Max = 0, f.Y.Max*1.08
	for _, v := range ms {
		f.key(variantItem(&v))
	}
	return f.draw(280)
}

// groupedBars draws m bars side by side at each of n categories (NaN: none), reporting which of m drew.
func (f *figure) groupedBars(n, m int, col func(k int) color.RGBA, value func(cat, k int) float64) []bool {
	w := max(min((chartWidth-100)/vg.Length(n*(m+1)), 40), 2)
	used := make([]bool, m)
	for i := range n {
		for k := range m {
			if v := value(i, k); !math.IsNaN(v) {
				used[k] = true
				f.bar(float64(i), v, w, vg.Length(float64(k)-float64(m-1)/2)*w, col(k), false)
			}
		}
	}
	return used
}

// cpuSeries pairs the CPU chart's bars (key, name) with the timeline's lines (class, name, reading) of their
// colour. Not one quantity: the busiest group's bar counts anything on its CPUs, the line only kaeload's.
var cpuSeries = []struct {
	key, bar, class, line string
	at                    func(*results.Point) *float64
	col                   color.RGBA
}{
	{"client_busy_max", "client, busiest group", "process", "worker processes (kaeload itself)",
		func(p *results.Point) *float64 { return p.ProcessBusy }, color.RGBA{230, 85, 13, 255}},
	{"client_busy_mean", "client, mean of groups", "cpus", "groups' CPUs (anything on them)",
		func(p *results.Point) *float64 { return p.CPUsBusy }, color.RGBA{253, 174, 107, 255}},
	{"server_busy", "server", "server", "server", func(p *results.Point) *float64 { return p.ServerBusy },
		color.RGBA{49, 130, 189, 255}},
}

// cpuChart draws the mean busy shares against the client-bound threshold; none if unmeasured.
func cpuChart(ms []measure.Variant) []chart {
	f := newFigure(chart{ID: "chart-cpu", Title: "CPU use during the window",
		Caption: "Busy % of the CPUs measured (anything that ran on them), mean over repetitions. A client group " +
			"whose CPUs kaeload itself used " + clientBound + " or more of (red line) makes the result client-bound: it then " +
			"measures kaeload, not the server; busy time of other processes does not."}, "", "busy", nil, percentTicks)
	col := func(k int) color.RGBA { return cpuSeries[k].col }
	used := f.groupedBars(len(ms), len(cpuSeries), col, func(i, k int) float64 {
		key, v := cpuSeries[k].key, &ms[i]
		at := slices.IndexFunc(measure.Catalogue, func(m measure.Measure) bool { return m.Key == key && m.Rep != nil })
		mc := measure.Column{Measure: &measure.Catalogue[at], Key: key} // the catalogue's measure of a repetition
		var xs []float64
		for r := range v.V.Reps {
			x := mc.OfRep(measure.NewRep(v.R, v.I, r))
			if x.Kind != measure.None && !math.IsNaN(x.F) {
				xs = append(xs, x.F*100)
			}
		}
		return stat.Mean(xs, nil)
	})
	for k, cs := range cpuSeries {
		if used[k] {
			f.key(boxItem(cs.bar, cs.col))
		}
	}
	if len(f.c.Legend) == 0 {
		return nil
	}
	limit := results.ClientBoundBusy * 100
	f.refLine(-0.5, limit, float64(len(ms))-0.5, limit, colorAlarm, "client-bound threshold ("+clientBound+")")
	f.nominalX(measure.Map(ms, func(v measure.Variant) string { return v.V.Name }), false)
	f.Y.Min, f.Y.Max = 0, 100
	return []chart{f.draw(260)}
}

// searchChart draws a search's visited values and, for req/s by soft ratio, the model's curve; none for a non-number.
func searchChart(ss *analysis.SearchSummary, pred *softratio.Prediction, ratioOf map[string]string) []chart {
	if ss == nil || ss.Best < 0 { // no point scored
		return nil
	}
	xs, ratios := make([]float64, len(ss.Points)), make([]string, len(ss.Points))
	var all, plateau plotter.XYs
	var whisk xyErrors
	var nums []string
	for i, p := range ss.Points {
		x, ok := analysis.SweptNumber(p.Value)
		if !ok {
			return nil
		}
		xy := plotter.XY{X: x, Y: p.Stats.Mean}
		xs[i], ratios[i] = x, ratioOf[p.Variant]
		all = append(all, xy)
		if p.Plateau {
			plateau = append(plateau, xy)
		}
		whisk.add(xy, p.Stats)
		visits := measure.Map(p.Visits, func(v int) string { return "#" + strconv.Itoa(v) })
		nums = append(nums, strings.Join(visits, ","))
	}
	se := ss.Search
	unit := string(se.Maximize)
	if se.Maximize == results.ObjectiveP99 {
		unit = "p99 handshake ms (lower is better)"
	}
	f := newFigure(chart{ID: "chart-search", Title: "Search " + se.Series + ": " + unit + " against " + se.Key,
		Caption: "Every value the search measured (" + strconv.Itoa(ss.Windows) + " windows; the full grid: " + strconv.Itoa(ss.Grid) +
			"), labelled with its visit numbers in order (#1 first); whiskers: 95 % confidence interval; ring: the best; " +
			"green squares: the plateau, the values not significantly worse than the best (Holm-adjusted t-test on the log scale); " +
			"values measured once are tested against nothing and are on no plateau.",
	}, se.Key, unit, nil, plot.DefaultTicks{})
	pts := f.glyphs(all, palette[0], 3.5, draw.CircleGlyph{})
	f.whiskers(whisk, palette[0], false)
	if len(plateau) > 0 {
		f.glyphs(plateau, colorPlateau, 6, draw.BoxGlyph{})
		if pts != nil {
			f.Add(pts) // the point above its square
		}
	}
	f.labels(all, nums, vg.Point{X: 6, Y: -12}, 8, colorMuted, draw.XLeft)
	f.key(boxItem("visited value (mean, 95 % CI)", palette[0]),
		boxItem("plateau (lowest: "+se.Key+" = "+ss.Points[ss.PlateauLow].Value+")", colorPlateau))
	b := ss.Points[ss.Best]
	f.bestMark(xs[ss.Best], b.Stats, "best: "+se.Key+" = "+b.Value+", "+format.Number(b.Stats.Mean),
		"best", false, math.Inf(1))
	if se.Maximize == results.ObjectiveRate {
		f.modelCurve(pred, xs, ratios)
	}
	lo, hi := xs[0], xs[len(xs)-1]
	if g, ok := analysis.SweptNumber(se.Values[0]); ok {
		lo = math.Min(lo, g)
	}
	if g, ok := analysis.SweptNumber(se.Values[len(se.Values)-1]); ok {
		hi = math.Max(hi, g)
	}
	f.spanX(padded(lo, hi))
	return []chart{f.draw(320)}
}

// padded is lo..hi widened by 5 % each side (first by 1 when empty).
func padded(lo, hi float64) (float64, float64) {
	if lo == hi {
		lo, hi = lo-1, hi+1
	}
	pad := (hi - lo) * 0.05
	return lo - pad, hi + pad
}

// modelCurve draws pred's rate across xs when it predicts and each point's soft ratio in percent is its x.
func (f *figure) modelCurve(pred *softratio.Prediction, xs []float64, ratios []string) {
	if pred == nil || pred.Status != softratio.OK || len(xs) == 0 {
		return
	}
	for i, x := range xs {
		if pct, err := strconv.ParseFloat(ratios[i], 64); err != nil || pct != x {
			return
		}
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	var line plotter.XYs
	rs, ts := pred.Model.Curve(100)
	for i, r := range rs {
		if x := 100 * r; x >= lo-1e-9 && x <= hi+1e-9 && !math.IsInf(ts[i], 0) && !math.IsNaN(ts[i]) {
			line = append(line, plotter.XY{X: x, Y: ts[i]})
		}
	}
	if len(line) >= 2 {
		f.line(line, colorModel, 1.5, 6, 3)
		f.key(dashedItem("model: predicted req/s (best soft ratio "+format.Number(100*pred.Ratio.Value)+")", colorModel))
	}
}

// capacityChart draws each step's bounded p99 against the rate asked, failures ringed.
func capacityChart(r *results.Run, c *results.Capacity) chart {
	spec, name := r.Capacity, r.Variants[c.Variant].Name
	what, target := "p99 handshake", spec.P99Handshake
	pick := func(g *results.Group) *results.Histogram { return g.Latency.Handshake }
	if target == 0 {
		what, target = "p99 total from the intended start", spec.P99Total
		pick = func(g *results.Group) *results.Histogram { return g.Latency.Intended }
	}
	knee := notes.KneeWords(c, spec.From)
	f := newFigure(chart{ID: "chart-capacity-" + strconv.Itoa(c.Variant),
		Title: "Capacity of " + name + ": " + what + " against the rate asked",
		Caption: "Points: one step of the search each (one open-loop window), " + what + " in ms (log scale) at the rate asked; " +
			"ringed: steps that missed a target (latency, errors or missed starts); dashed line: the target; dotted line: the knee, " + knee + ".",
	}, "rate asked (new connections/s)", what+" ms", rateTicks, plot.LogTicks{Prec: -1})
	ms := float64(target) / float64(time.Millisecond)
	ymin, ymax := ms, ms
	var line, fails plotter.XYs // the steps' p99 latencies in ms by rate asked, and the failing steps'
	byRate := func(a, b *results.Rep) int { return cmp.Compare(a.Step.Rate, b.Step.Rate) }
	for _, rep := range slices.SortedStableFunc(slices.Values(c.Steps), byRate) {
		if h := pick(&rep.Total); !results.EmptyHistogram(h) {
			xy := plotter.XY{X: rep.Step.Rate, Y: math.Max(float64(h.ValueAtQuantile(99))/1e3, 0.001)}
			line, ymin, ymax = append(line, xy), math.Min(ymin, xy.Y), math.Max(ymax, xy.Y)
			if !rep.Step.Pass {
				fails = append(fails, xy)
			}
		}
	}
	if len(line) == 0 {
		return f.none("no step measured a latency")
	}
	f.Y.Scale = plot.LogScale{}
	f.linePoints(line, variantColor(c.Variant), name+": "+what)
	if len(fails) > 0 {
		f.glyphs(fails, colorAlarm, 7, draw.RingGlyph{})
	}
	lo, hi := line[0].X, line[len(line)-1].X
	tms := strings.TrimSuffix(strings.TrimRight(format.Millis(target.Microseconds()), "0"), ".")
	f.refLine(lo, ms, hi, ms, colorMuted, "target "+tms+" ms")
	f.key(boxItem("missed a target", colorAlarm))
	if c.Knee > 0 {
		f.line(plotter.XYs{{X: c.Knee, Y: ymin}, {X: c.Knee, Y: ymax}}, colorAlarm, 1.2, 1.5, 2.5)
		f.labels(plotter.XYs{{X: c.Knee, Y: ymax}}, []string{"knee " + knee}, vg.Point{X: 6, Y: -12}, 10,
			colorAlarm, draw.XLeft)
		f.key(dashedItem("knee", colorAlarm))
	}
	pad := (hi - lo) * 0.05
	f.X.Min, f.X.Max = math.Max(0, lo-pad), hi+pad
	f.Y.Min, f.Y.Max = ymin/1.5, ymax*1.5
	return f.draw(300)
}

// cdf is h's (µs) CDF in ms, exact at each non-empty bucket's bounds, x ≥ 1 µs (log axis); nil when empty.
func cdf(h *results.Histogram) plotter.XYs {
	if results.EmptyHistogram(h) {
		return nil
	}
	total := float64(h.TotalCount())
	var pts plotter.XYs
	var cum int64
	for _, b := range h.Distribution() {
		if b.Count == 0 {
			continue
		}
		from := max(b.From, results.HistogramMin)
		pts = append(pts, plotter.XY{X: float64(from) / 1000, Y: float64(cum) / total})
		cum += b.Count
		pts = append(pts, plotter.XY{X: float64(max(b.To, from)) / 1000, Y: float64(cum) / total})
	}
	return pts
}
