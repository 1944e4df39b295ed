package htmlreport

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
)

// colorPlateau marks the values of a search's plateau.
var colorPlateau = color.RGBA{44, 160, 44, 255}

// searchChart draws what a search visited: every visited value at its
// place on the grid with the mean of its objective and the 95 % CI,
// labelled with its visit numbers (#1 is the first window), the best
// ringed and the plateau's values marked; ok is false without a search
// or a visited value whose place is not a number.
func searchChart(ss *analysis.SearchSummary) (chart, bool) {
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
	col := palette[0]
	pts, err := plotter.NewScatter(all)
	if err != nil {
		c.Err = err.Error()
		return c, true
	}
	pts.GlyphStyle = draw.GlyphStyle{Color: col, Radius: 3.5, Shape: draw.CircleGlyph{}}
	p.Add(pts)
	if len(errPts.XYs) > 0 {
		eb, err := plotter.NewYErrorBars(errPts)
		if err != nil {
			c.Err = err.Error()
			return c, true
		}
		eb.Color, eb.Width, eb.CapWidth = col, 1.5, 8
		p.Add(eb)
	}
	if len(plateau) > 0 {
		sq, err := plotter.NewScatter(plateau)
		if err != nil {
			c.Err = err.Error()
			return c, true
		}
		sq.GlyphStyle = draw.GlyphStyle{Color: colorPlateau, Radius: 6, Shape: draw.BoxGlyph{}}
		p.Add(sq)
		p.Add(pts) // the point above its square
	}
	if err := labels(p, all, nums, vg.Point{X: 6, Y: -12}, 8, colorMuted); err != nil {
		c.Err = err.Error()
		return c, true
	}
	b := ss.Points[ss.Best]
	bxy := plotter.XYs{{X: xs[ss.Best], Y: b.Stats.Mean}}
	ring, err := plotter.NewScatter(bxy)
	if err != nil {
		c.Err = err.Error()
		return c, true
	}
	ring.GlyphStyle = draw.GlyphStyle{Color: colorBest, Radius: 8, Shape: draw.RingGlyph{}}
	p.Add(ring)
	bestLabel := "best: " + se.Key + " = " + b.Value + ", " + format.Number(b.Stats.Mean)
	if err := labels(p, bxy, []string{bestLabel}, vg.Point{X: 10, Y: 10}, 10, colorBest); err != nil {
		c.Err = err.Error()
		return c, true
	}
	c.Legend = []legendItem{
		{Name: "visited value (mean, 95 % CI)", Color: cssColor(col)},
		{Name: "plateau (lowest: " + se.Key + " = " + ss.Points[ss.PlateauLow].Value + ")", Color: cssColor(colorPlateau)},
		{Name: "best", Color: cssColor(colorBest)},
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
