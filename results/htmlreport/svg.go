package htmlreport

import (
	"bytes"
	"fmt"
	"html"
	"image/color"
	"math"
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
)

// chartWidth is the width of every chart; heights vary with the content.
// SVG user units are points; the page's CSS scales the charts to the
// column width.
const chartWidth = 720 * vg.Length(1)

// sans is the typeface of every chart. gonum/plot measures text with the
// Liberation fonts it bundles; the SVG names the family without embedding
// it (svgFont adds fallbacks), so a browser without Liberation Sans uses a
// metric-compatible sans-serif (Arial) or its default sans-serif.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// palette holds the variant colours (the "category10" palette), assigned in
// plan order and reused by every chart and legend of the report.
var palette = []color.RGBA{
	{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255},
	{188, 189, 34, 255}, {23, 190, 207, 255},
}

// Fixed colours of marks that are not variants.
var (
	colorInk       = color.RGBA{34, 34, 34, 255}
	colorMuted     = color.RGBA{110, 110, 110, 255}
	colorAlarm     = color.RGBA{200, 0, 0, 255}
	colorBest      = color.RGBA{200, 0, 0, 255}
	colorGridLight = color.RGBA{225, 225, 225, 255}
)

// variantColor is the colour of the i-th variant of the run.
func variantColor(i int) color.RGBA { return palette[i%len(palette)] }

// cssColor renders c as a CSS hex colour.
func cssColor(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// textStyle returns a sans text style of the given size in points.
func textStyle(size vg.Length) text.Style {
	return text.Style{Color: colorInk, Font: font.From(sans, size), Handler: plot.DefaultTextHandler}
}

// newPlot returns a plot with the report's fonts, a title and axis labels.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, 13)
	p.Title.Padding = 8
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, 11)
		a.Tick.Label.Font = font.From(sans, 9.5)
	}
	p.Legend.TextStyle.Font = font.From(sans, 10)
	return p
}

// renderSVG draws p on a w×h SVG canvas and returns the <svg> element
// ready to inline into HTML: without the XML prolog and comment, with a
// fallback font list and an accessible label. gonum/plot panics on some
// degenerate inputs (a log axis over non-positive values…); such a panic
// becomes an error naming the chart.
func renderSVG(p *plot.Plot, w, h vg.Length, label string) (svg string, err error) {
	defer func() {
		if e := recover(); e != nil {
			err = fmt.Errorf("draw chart %q: %v", label, e)
		}
	}()
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("write chart %q: %w", label, err)
	}
	return inlineSVG(buf.String(), label)
}

// inlineSVG turns a standalone SVG document written by vgsvg into an
// element for an HTML page: it drops everything before <svg (the XML
// prolog and the generator comment), gives the family names fallbacks and
// labels the element for screen readers.
func inlineSVG(doc, label string) (string, error) {
	i := strings.Index(doc, "<svg")
	if i < 0 {
		return "", fmt.Errorf("chart %q: no <svg> element in the canvas output", label)
	}
	s := doc[i:]
	s = strings.ReplaceAll(s, "font-family:Liberation Sans;", "font-family:Liberation Sans,Arimo,Arial,Helvetica,sans-serif;")
	s = strings.Replace(s, "<svg ", `<svg role="img" aria-label="`+html.EscapeString(label)+`" `, 1)
	return s, nil
}

// rateTicks are linear ticks labelled with thousands separators, or with a
// "k" suffix when every label is a multiple of 1000.
type rateTicks struct{}

// Ticks implements plot.Ticker.
func (rateTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	allK := true
	for _, t := range ts {
		if t.Label != "" && math.Mod(t.Value, 1000) != 0 {
			allK = false
		}
	}
	for i := range ts {
		if ts[i].Label == "" {
			continue
		}
		if allK && ts[i].Value != 0 {
			ts[i].Label = format.Float(ts[i].Value/1000, 0) + "k"
		} else {
			ts[i].Label = format.Float(ts[i].Value, -1)
		}
	}
	return ts
}

// percentTicks are ticks every 10 % over a 0..100 axis, labelled every 20 %.
type percentTicks struct{}

// Ticks implements plot.Ticker.
func (percentTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for v := 0.0; v <= math.Max(hi, 100); v += 10 {
		t := plot.Tick{Value: v}
		if int(v)%20 == 0 {
			t.Label = strconv.Itoa(int(v)) + " %"
		}
		ts = append(ts, t)
	}
	return ts
}

// logMsTicks are log-axis ticks for milliseconds: majors labelled at 1, 2
// and 5 times each power of ten, minors at the other multiples.
type logMsTicks struct{}

// Ticks implements plot.Ticker.
func (logMsTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > 0) {
		return nil
	}
	var ts []plot.Tick
	for e := int(math.Floor(math.Log10(lo))); e <= int(math.Ceil(math.Log10(hi))); e++ {
		for m := 1; m <= 9; m++ {
			v, _ := strconv.ParseFloat(fmt.Sprintf("%de%d", m, e), 64) // exact decimal, not m·10^e rounded twice
			if v < lo/1.0001 || v > hi*1.0001 {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'f', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// fractionTicks label a 0..1 axis in percent of requests: labels at 0, 50,
// 90 and 100 %, a tick at 99 %.
type fractionTicks struct{}

// Ticks implements plot.Ticker.
func (fractionTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for _, v := range []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.99, 1} {
		t := plot.Tick{Value: v}
		if v == 0 || v == 0.5 || v == 0.9 || v == 1 {
			t.Label = strconv.FormatFloat(v*100, 'f', -1, 64) + " %"
		}
		ts = append(ts, t)
	}
	return ts
}

// bar adds one bar of value v at position pos (plus offset along the
// category axis) to p.
func bar(p *plot.Plot, pos, v float64, width, offset vg.Length, c color.Color, horizontal bool) error {
	b, err := plotter.NewBarChart(plotter.Values{v}, width)
	if err != nil {
		return err
	}
	b.XMin = pos
	b.Offset = offset
	b.Color = c
	b.LineStyle.Width = 0
	b.Horizontal = horizontal
	p.Add(b)
	return nil
}

// refLine adds a dashed straight line from (x0, y0) to (x1, y1).
func refLine(p *plot.Plot, x0, y0, x1, y1 float64, c color.Color) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y1}})
	if err != nil {
		return err
	}
	l.Color = c
	l.Width = 1.2
	l.Dashes = []vg.Length{5, 3}
	p.Add(l)
	return nil
}

// labels adds text labels at the given points, offset by off, in size pt.
func labels(p *plot.Plot, xys plotter.XYs, strs []string, off vg.Point, size vg.Length, c color.Color) error {
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: strs})
	if err != nil {
		return err
	}
	for i := range l.TextStyle {
		l.TextStyle[i] = textStyle(size)
		l.TextStyle[i].Color = c
	}
	l.Offset = off
	p.Add(l)
	return nil
}

// lightGrid adds light grid lines at the major ticks of the chosen axes.
func lightGrid(p *plot.Plot, vertical, horizontal bool) {
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = colorGridLight, colorGridLight
	g.Vertical.Dashes, g.Horizontal.Dashes = nil, nil
	if !vertical {
		g.Vertical.Color = nil
	}
	if !horizontal {
		g.Horizontal.Color = nil
	}
	p.Add(g)
}
