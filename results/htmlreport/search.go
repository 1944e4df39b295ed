package htmlreport

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/softratio"
)

// colorPlateau marks the values of a search's plateau.
var colorPlateau = color.RGBA{44, 160, 44, 255}

// searchChart draws what a search visited: every visited value at its
// place on the grid with the mean of its objective and the 95 % CI,
// labelled with its visit numbers (#1 is the first window), the best
// ringed and the plateau's values marked; ok is false without a search
// or a visited value whose place is not a number. With a prediction
// (pred) over a search of req/s whose values are the soft ratios
// (ratioOf: KAE_GO_SOFT_RATIO by variant name), the model's curve too.
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
	xs := make([]float64, len(ss.Points))
	for i, p := range ss.Points {
		x, ok := analysis.SweptNumber(p.Value)
		if !ok {
			return chart{}, false
		}
		xs[i] = x
	}
	p := newPlot("", se.Key, unit)
	lightGrid(p, false, true)
	if err := searchMarks(p, ss, xs); err != nil {
		c.Err = err.Error()
		return c, true
	}
	col := palette[0]
	c.Legend = []legendItem{
		{Name: "visited value (mean, 95 % CI)", Color: cssColor(col)},
		{Name: "plateau (lowest: " + se.Key + " = " + ss.Points[ss.PlateauLow].Value + ")", Color: cssColor(colorPlateau)},
		{Name: "best", Color: cssColor(colorBest)},
	}
	if se.Maximize == results.ObjectiveRate {
		ratios := make([]string, len(ss.Points))
		for i, pt := range ss.Points {
			ratios[i] = ratioOf[pt.Variant]
		}
		if item, ok, err := modelCurve(p, pred, xs, ratios); err != nil {
			c.Err = err.Error()
			return c, true
		} else if ok {
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
	p.Y.Max += (p.Y.Max - p.Y.Min) * 0.15
	p.X.Min, p.X.Max = math.Min(p.X.Min, lo-pad), math.Max(p.X.Max, hi+pad)
	return c.finish(renderSVG(p, chartWidth, 320, c.Title)), true
}

// colorModel is the soft-ratio model's curve.
var colorModel = color.RGBA{102, 51, 153, 255}

// modelCurve draws the soft-ratio model's rate (Model.Curve), dashed,
// across the points' x when pred is a prediction and every point's soft
// ratio in percent (ratios) is its x; ok is false when it draws nothing.
func modelCurve(p *plot.Plot, pred *softratio.Prediction, xs []float64, ratios []string) (legendItem, bool, error) {
	if pred == nil || pred.Status != softratio.OK || len(xs) == 0 {
		return legendItem{}, false, nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, x := range xs {
		if pct, err := strconv.ParseFloat(ratios[i], 64); err != nil || pct != x {
			return legendItem{}, false, nil
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
		return legendItem{}, false, nil
	}
	l, err := plotter.NewLine(line)
	if err != nil {
		return legendItem{}, false, err
	}
	l.Color, l.Width, l.Dashes = colorModel, 1.5, []vg.Length{6, 3}
	p.Add(l)
	return legendItem{Name: "model: predicted req/s (best soft ratio " + format.Number(100*pred.Ratio.Value) + ")", Color: cssColor(colorModel), Line: true, Dashed: true}, true, nil
}

// searchMarks draws the search's visited values at xs: means, whiskers,
// the plateau's squares, the visit numbers and the best's ring.
func searchMarks(p *plot.Plot, ss *analysis.SearchSummary, xs []float64) error {
	col := palette[0]
	var all, plateau plotter.XYs
	var errPts xyErrors
	var nums []string
	for i, pt := range ss.Points {
		xy := plotter.XY{X: xs[i], Y: pt.Stats.Mean}
		all = append(all, xy)
		if pt.Plateau {
			plateau = append(plateau, xy)
		}
		if pt.Stats.HasCI {
			errPts.XYs = append(errPts.XYs, xy)
			errPts.Errors = append(errPts.Errors, struct{ Low, High float64 }{pt.Stats.Mean - pt.Stats.CI95Low, pt.Stats.CI95High - pt.Stats.Mean})
		}
		n := make([]string, len(pt.Visits))
		for j, v := range pt.Visits {
			n[j] = "#" + strconv.Itoa(v)
		}
		nums = append(nums, strings.Join(n, ","))
	}
	pts, err := plotter.NewScatter(all)
	if err != nil {
		return err
	}
	pts.GlyphStyle = draw.GlyphStyle{Color: col, Radius: 3.5, Shape: draw.CircleGlyph{}}
	p.Add(pts)
	if len(errPts.XYs) > 0 {
		eb, err := plotter.NewYErrorBars(errPts)
		if err != nil {
			return err
		}
		eb.Color, eb.Width, eb.CapWidth = col, 1.5, 8
		p.Add(eb)
	}
	if len(plateau) > 0 {
		sq, err := plotter.NewScatter(plateau)
		if err != nil {
			return err
		}
		sq.GlyphStyle = draw.GlyphStyle{Color: colorPlateau, Radius: 6, Shape: draw.BoxGlyph{}}
		p.Add(sq)
		p.Add(pts) // the point above its square
	}
	if err := labels(p, all, nums, vg.Point{X: 6, Y: -12}, 8, colorMuted); err != nil {
		return err
	}
	b := ss.Points[ss.Best]
	bxy := plotter.XYs{{X: xs[ss.Best], Y: b.Stats.Mean}}
	ring, err := plotter.NewScatter(bxy)
	if err != nil {
		return err
	}
	ring.GlyphStyle = draw.GlyphStyle{Color: colorBest, Radius: 8, Shape: draw.RingGlyph{}}
	p.Add(ring)
	bestLabel := "best: " + ss.Search.Key + " = " + b.Value + ", " + format.Number(b.Stats.Mean)
	return labels(p, bxy, []string{bestLabel}, vg.Point{X: 10, Y: 10}, 10, colorBest)
}
