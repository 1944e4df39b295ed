package htmlreport

import (
	"cmp"
	"fmt"
	"html"
	"html/template"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/stats"
)

// chartWidth is a chart's width in points (CSS scales it); gonum/plot measures text in its
// Liberation Sans, the SVG names fallbacks too.
const chartWidth = 720 * vg.Length(1)

var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// palette colours the variants in plan order ("category10").
var palette = []color.RGBA{
	{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255},
	{188, 189, 34, 255}, {23, 190, 207, 255},
}

var (
	colorInk       = color.RGBA{34, 34, 34, 255}
	colorMuted     = color.RGBA{110, 110, 110, 255}
	colorAlarm     = color.RGBA{200, 0, 0, 255}
	colorGridLight = color.RGBA{225, 225, 225, 255}
	colorPlateau   = color.RGBA{44, 160, 44, 255}
	colorModel     = color.RGBA{102, 51, 153, 255}
	colorP50       = palette[0]
	colorP99       = palette[1]
	colorEvent     = color.RGBA{204, 0, 0, 255}
	colorWarmup    = color.RGBA{238, 238, 238, 255}
)

func variantColor(i int) color.RGBA { return palette[i%len(palette)] }

func cssColor(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Legend entries: a filled box, a line, a dashed line.
func boxItem(n string, c color.RGBA) legendItem    { return legendItem{n, cssColor(c), false, false} }
func lineItem(n string, c color.RGBA) legendItem   { return legendItem{n, cssColor(c), true, false} }
func dashedItem(n string, c color.RGBA) legendItem { return legendItem{n, cssColor(c), true, true} }

// figure is chart c drawn by gonum/plot, its legend in c.Legend; its marks' first error replaces the drawing.
type figure struct {
	*plot.Plot
	c     chart
	err   error
	label string // the SVG's name, else c.Title
}

// newFigure starts c with the report's fonts and axis labels; an axis given ticks has them and grid lines.
func newFigure(c chart, xLabel, yLabel string, xTicks, yTicks plot.Ticker) *figure {
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	g := plotter.NewGrid()
	g.Vertical.Dashes, g.Horizontal.Dashes = nil, nil
	axes := []struct {
		*plot.Axis
		ticks plot.Ticker
		grid  *draw.LineStyle
	}{{&p.X, xTicks, &g.Vertical}, {&p.Y, yTicks, &g.Horizontal}}
	for _, a := range axes {
		a.Label.TextStyle.Font = font.From(sans, 11)
		a.Tick.Label.Font = font.From(sans, 9.5)
		a.grid.Color = nil // a grid line only where the axis has ticks
		if a.ticks != nil {
			a.Tick.Marker, a.grid.Color = a.ticks, colorGridLight
		}
	}
	p.Add(g)
	return &figure{Plot: p, c: c}
}

// add styles ps with set and adds them, unless err or an earlier error spoils the figure.
func (f *figure) add(err error, set func(), ps ...plot.Plotter) {
	f.err = cmp.Or(f.err, err)
	if f.err == nil {
		set()
		f.Add(ps...)
	}
}

// none is the chart not drawn, saying why.
func (f *figure) none(why string) chart {
	f.c.Err = why
	return f.c
}

func (f *figure) key(items ...legendItem) { f.c.Legend = append(f.c.Legend, items...) }

// bar adds a bar of value v at pos, shifted by offset along the category axis.
func (f *figure) bar(pos, v float64, width, offset vg.Length, c color.Color, horizontal bool) {
	b, err := plotter.NewBarChart(plotter.Values{v}, width)
	f.add(err, func() {
		b.XMin, b.Offset, b.Color, b.LineStyle.Width, b.Horizontal = pos, offset, c, 0, horizontal
	}, b)
}

// line adds a line through xys; dashes nil for a solid one.
func (f *figure) line(xys plotter.XYs, c color.Color, width vg.Length, dashes ...vg.Length) {
	l, err := plotter.NewLine(xys)
	f.add(err, func() { l.Color, l.Width, l.Dashes = c, width, dashes }, l)
}

// refLine adds a dashed reference line from (x0, y0) to (x1, y1) and its legend entry.
func (f *figure) refLine(x0, y0, x1, y1 float64, c color.RGBA, name string) {
	f.line(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y1}}, c, 1.2, 5, 3)
	f.key(dashedItem(name, c))
}

// linePoints adds a line through xys with a dot on every point, and its legend entry.
func (f *figure) linePoints(xys plotter.XYs, c color.RGBA, name string) {
	l, pts, err := plotter.NewLinePoints(xys)
	f.add(err, func() {
		l.Color, l.Width = c, 2
		pts.GlyphStyle = draw.GlyphStyle{Color: c, Radius: 3.5, Shape: draw.CircleGlyph{}}
	}, l, pts)
	f.key(lineItem(name, c))
}

// glyphs adds a mark of the given shape and radius at each of xys.
func (f *figure) glyphs(xys plotter.XYs, c color.Color, radius vg.Length, shape draw.GlyphDrawer) *plotter.Scatter {
	s, err := plotter.NewScatter(xys)
	f.add(err, func() { s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: radius, Shape: shape} }, s)
	return s
}

// whiskers adds e's confidence intervals, along x when horizontal.
func (f *figure) whiskers(e xyErrors, c color.Color, horizontal bool) {
	style := draw.LineStyle{Color: c, Width: 1.5}
	switch {
	case len(e.XYs) == 0:
	case horizontal:
		eb, err := plotter.NewXErrorBars(e)
		f.add(err, func() { eb.LineStyle, eb.CapWidth = style, 8 }, eb)
	default:
		eb, err := plotter.NewYErrorBars(e)
		f.add(err, func() { eb.LineStyle, eb.CapWidth = style, 8 }, eb)
	}
}

// labels adds text at the points, offset by off, in size pt.
func (f *figure) labels(xys plotter.XYs, strs []string, off vg.Point, size vg.Length, c color.Color, align text.XAlignment) {
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: strs})
	f.add(err, func() {
		for i := range l.TextStyle {
			l.TextStyle[i] = text.Style{Color: c, Font: font.From(sans, size), Handler: plot.DefaultTextHandler,
				XAlign: align}
		}
		l.Offset = off
	}, l)
}

// nominalX names the categories of the x axis, slanting more than eight.
func (f *figure) nominalX(names []string, slant bool) {
	f.NominalX(names...)
	f.X.Min, f.X.Max = -0.5, float64(len(names))-0.5
	if slant && len(names) > 8 {
		f.X.Tick.Label.Rotation = math.Pi / 6
		f.X.Tick.Label.XAlign = draw.XRight
	}
}

// xyErrors are points with asymmetric errors, on x or y.
type xyErrors struct {
	plotter.XYs
	plotter.XErrors
	plotter.YErrors
}

// add adds st's 95 % confidence interval at xy, when it has one.
func (e *xyErrors) add(xy plotter.XY, st stats.Stats) {
	if st.HasCI {
		ci := struct{ Low, High float64 }{st.Mean - st.CI95Low, st.CI95High - st.Mean}
		e.XYs, e.XErrors, e.YErrors = append(e.XYs, xy), append(e.XErrors, ci), append(e.YErrors, ci)
	}
}

// draw renders f h points high as a labelled <svg>, or says in Err why not, gonum/plot's panics (a log
// axis over values ≤ 0) included.
func (f *figure) draw(h vg.Length) (c chart) {
	c, label := f.c, cmp.Or(f.label, f.c.Title)
	defer func() {
		if e := recover(); e != nil {
			c.Err = fmt.Sprintf("draw chart %q: %v", label, e)
		}
	}()
	if f.err != nil {
		return f.none(f.err.Error())
	}
	cv := vgsvg.New(chartWidth, h)
	f.Plot.Draw(draw.New(cv))
	var buf strings.Builder
	if _, err := cv.WriteTo(&buf); err != nil {
		return f.none(fmt.Sprintf("write chart %q: %v", label, err))
	}
	_, s, ok := strings.Cut(buf.String(), "<svg ")
	if !ok {
		return f.none(fmt.Sprintf("chart %q: no <svg> element in the canvas output", label))
	}
	s = strings.ReplaceAll(s, "font-family:Liberation Sans;", "font-family:"+fontFamily+";")
	c.SVG = template.HTML(`<svg role="img" aria-label="` + html.EscapeString(label) + `" ` + s)
	return c
}

// rateTicks are linear ticks labelled by rateLabel.
var rateTicks = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	allK := !slices.ContainsFunc(ts, func(t plot.Tick) bool { return t.Label != "" && math.Mod(t.Value, 1000) != 0 })
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = rateLabel(ts[i].Value, allK)
		}
	}
	return ts
})

// rateLabel is a rate tick's label: "50k" in thousands, else "1,500".
func rateLabel(v float64, thousands bool) string {
	if thousands && v != 0 {
		return format.Float(v/1000, 0) + "k"
	}
	return format.Float(v, -1)
}

// Ticks of a 0..100 axis (every 10 %, labelled every 20 %) and of a 0..1 one.
var percentTicks = ticksAt([]float64{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, func(v float64) bool { return int(v)%20 == 0 }, 1)

var fractionTicks = ticksAt([]float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.99, 1},
	func(v float64) bool { return v == 0 || v == 0.5 || v == 0.9 || v == 1 }, 100)

// ticksAt are ticks at vs, those labelled in percent (v × scale).
func ticksAt(vs []float64, labelled func(float64) bool, scale float64) plot.ConstantTicks {
	var ts plot.ConstantTicks
	for _, v := range vs {
		t := plot.Tick{Value: v}
		if labelled(v) {
			t.Label = strconv.FormatFloat(v*scale, 'f', -1, 64) + " %"
		}
		ts = append(ts, t)
	}
	return ts
}

// logMsTicks tick a log ms axis at 1..9 × 10^k, labelled at 1, 2 and 5.
var logMsTicks = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > 0) {
		return nil
	}
	return decades(lo, hi, []int{1, 2, 3, 4, 5, 6, 7, 8, 9}, func(m int) bool { return m == 1 || m == 2 || m == 5 })
})

// decades are ticks at m×10^e (m of ms) in lo..hi, labelled where labelled(m), exact as parsed from decimal.
func decades(lo, hi float64, ms []int, labelled func(m int) bool) []plot.Tick {
	var ts []plot.Tick
	for e := int(math.Floor(math.Log10(lo))); e <= int(math.Ceil(math.Log10(hi))); e++ {
		for _, m := range ms {
			v, _ := strconv.ParseFloat(strconv.Itoa(m)+"e"+strconv.Itoa(e), 64)
			if v >= lo/1.0001 && v <= hi*1.0001 {
				t := plot.Tick{Value: v}
				if labelled(m) {
					t.Label = strconv.FormatFloat(v, 'f', -1, 64)
				}
				ts = append(ts, t)
			}
		}
	}
	return ts
}
