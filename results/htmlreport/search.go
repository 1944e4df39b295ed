package htmlreport

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/softratio"
)

// searchChart draws every value a search visited at its place on the
// grid: the mean of its objective with its 95 % CI, its visit numbers,
// the best ringed, the plateau marked and, for a search of req/s over the
// soft ratio (ratioOf: its value by variant), the model's curve. It is
// false without a search or when a visited value is not a number.
func searchChart(ss *analysis.SearchSummary, pred *softratio.Prediction, ratioOf map[string]string) (chart, bool) {
	if ss == nil || len(ss.Points) == 0 {
		return chart{}, false
	}
	se := ss.Search
	unit := string(se.Maximize)
	if se.Maximize == results.ObjectiveP99 {
		unit = "p99 handshake ms (lower is better)"
	}
	c := chart{
		ID:    "chart-search",
		Title: "Search " + se.Series + ": " + unit + " against " + se.Key,
		Caption: "Every value the search measured (" + strconv.Itoa(ss.Windows) + " windows; the full grid: " + strconv.Itoa(ss.Grid) +
			"), labelled with its visit numbers in order (#1 first); whiskers: 95 % confidence interval; ring: the best; " +
			"green squares: the plateau, the values not significantly worse than the best (Holm-adjusted t-test on the log scale); " +
			"values measured once are tested against nothing and are on no plateau.",
	}
	xs, ratios := make([]float64, len(ss.Points)), make([]string, len(ss.Points))
	for i, p := range ss.Points {
		x, ok := analysis.SweptNumber(p.Value)
		if !ok {
			return chart{}, false
		}
		xs[i], ratios[i] = x, ratioOf[p.Variant]
	}
	f := newFigure(se.Key, unit, false, true)
	f.searchMarks(ss, xs)
	c.Legend = []legendItem{
		boxItem("visited value (mean, 95 % CI)", palette[0]),
		boxItem("plateau (lowest: "+se.Key+" = "+ss.Points[ss.PlateauLow].Value+")", colorPlateau),
		boxItem("best", colorBest),
	}
	if se.Maximize == results.ObjectiveRate {
		if item, ok := f.modelCurve(pred, xs, ratios); ok {
			c.Legend = append(c.Legend, item)
		}
	}
	lo, hi := xs[0], xs[len(xs)-1]
	if g, ok := analysis.SweptNumber(se.Values[0]); ok {
		lo = math.Min(lo, g)
	}
	if g, ok := analysis.SweptNumber(se.Values[len(se.Values)-1]); ok {
		hi = math.Max(hi, g)
	}
	if lo == hi {
		lo, hi = lo-1, hi+1
	}
	pad := (hi - lo) * 0.05
	f.Y.Max += (f.Y.Max - f.Y.Min) * 0.15
	f.X.Min, f.X.Max = math.Min(f.X.Min, lo-pad), math.Max(f.X.Max, hi+pad)
	return f.draw(c, 320), true
}

// modelCurve draws the soft-ratio model's rate, dashed, across the points
// at xs when pred predicts and each point's soft ratio in percent
// (ratios) is its x; false when it draws nothing.
func (f *figure) modelCurve(pred *softratio.Prediction, xs []float64, ratios []string) (legendItem, bool) {
	if pred == nil || pred.Status != softratio.OK || len(xs) == 0 {
		return legendItem{}, false
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, x := range xs {
		if pct, err := strconv.ParseFloat(ratios[i], 64); err != nil || pct != x {
			return legendItem{}, false
		}
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	var line plotter.XYs
	rs, ts := pred.Model.Curve(100)
	for i, r := range rs {
		if x := 100 * r; x >= lo-1e-9 && x <= hi+1e-9 && !math.IsInf(ts[i], 0) && !math.IsNaN(ts[i]) {
			line = append(line, plotter.XY{X: x, Y: ts[i]})
		}
	}
	if len(line) < 2 {
		return legendItem{}, false
	}
	f.line(line, colorModel, 1.5, 6, 3)
	return dashedItem("model: predicted req/s (best soft ratio "+format.Number(100*pred.Ratio.Value)+")", colorModel), true
}

// searchMarks draws the visited values at xs: means, whiskers, the
// plateau's squares, the visit numbers and the best's ring.
func (f *figure) searchMarks(ss *analysis.SearchSummary, xs []float64) {
	var all, plateau plotter.XYs
	var whisk xyErrors
	var nums []string
	for i, pt := range ss.Points {
		xy := plotter.XY{X: xs[i], Y: pt.Stats.Mean}
		all = append(all, xy)
		if pt.Plateau {
			plateau = append(plateau, xy)
		}
		whisk.add(xy, pt.Stats)
		n := make([]string, len(pt.Visits))
		for j, v := range pt.Visits {
			n[j] = "#" + strconv.Itoa(v)
		}
		nums = append(nums, strings.Join(n, ","))
	}
	pts := f.glyphs(all, palette[0], 3.5, draw.CircleGlyph{})
	f.whiskers(whisk, palette[0], false)
	if len(plateau) > 0 {
		f.glyphs(plateau, colorPlateau, 6, draw.BoxGlyph{})
		if pts != nil {
			f.Add(pts) // the point above its square
		}
	}
	f.labels(all, nums, vg.Point{X: 6, Y: -12}, 8, colorMuted, draw.XLeft)
	b := ss.Points[ss.Best]
	bxy := plotter.XYs{{X: xs[ss.Best], Y: b.Stats.Mean}}
	f.glyphs(bxy, colorBest, 8, draw.RingGlyph{})
	f.labels(bxy, []string{"best: " + ss.Search.Key + " = " + b.Value + ", " + format.Number(b.Stats.Mean)}, vg.Point{X: 10, Y: 10}, 10, colorBest, draw.XLeft)
}
