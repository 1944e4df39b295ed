package htmlreport

import (
	"html"
	"html/template"
	"image/color"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
)

// The timeline charts are drawn as SVG by hand, not with gonum/plot: a
// repetition has hundreds of bars (groups × intervals), and a run many
// repetitions, so every bar of a group is one subpath of a single <path>
// and every line one <polyline>, which keeps 11 groups × 35 intervals
// under 20 KB per repetition. The charts of a repetition share one time
// axis (same range, same plot-area margins), so they line up when stacked.

// Timeline chart geometry, in SVG user units; the page scales the chart
// to the column's width (about 1:1 at the widest).
const (
	tlWidth  = 1100.0
	tlLeft   = 58.0 // room for the y tick labels
	tlRight  = 12.0
	tlTop    = 10.0
	tlBottom = 20.0 // room for the time tick labels
	tlMarks  = 12.0 // the kernel events' strip under the rate chart's axis
	tlFont   = "Liberation Sans,Arimo,Arial,Helvetica,sans-serif"
	// minTipWidth is the narrowest interval, on average, that gets a
	// tooltip of its own.
	minTipWidth = 4.0
)

// Colours of the timeline's marks that are not groups.
var (
	colorP50     = color.RGBA{31, 119, 180, 255}
	colorP99     = color.RGBA{255, 127, 14, 255}
	colorProcess = color.RGBA{230, 85, 13, 255}
	colorCPUs    = color.RGBA{253, 174, 107, 255}
	colorServer  = color.RGBA{49, 130, 189, 255}
	colorEvent   = color.RGBA{204, 0, 0, 255}
	colorWarmup  = color.RGBA{238, 238, 238, 255}
)

// groupPalette colours the worker groups in the stacked rate chart
// (ColorBrewer's "Paired", its pale yellow darkened to show on white);
// group i gets groupPalette[i % 12].
var groupPalette = []color.RGBA{
	{166, 206, 227, 255}, {31, 120, 180, 255}, {178, 223, 138, 255}, {51, 160, 44, 255},
	{251, 154, 153, 255}, {227, 26, 28, 255}, {253, 191, 111, 255}, {255, 127, 0, 255},
	{202, 178, 214, 255}, {106, 61, 154, 255}, {220, 205, 60, 255}, {177, 89, 40, 255},
}

// timeAxis is the time axis a repetition's charts share, in seconds from
// the window's start.
type timeAxis struct {
	Lo, Hi float64
	Ticks  []float64
}

// newTimeAxis spans t's points, from the first's start to the last's end,
// with ticks at a round step (about ten of them), 0 among them.
func newTimeAxis(t *results.Timeline) timeAxis {
	ax := timeAxis{Lo: t.Points[0].Start.Seconds(), Hi: t.Points[len(t.Points)-1].End().Seconds()}
	if ax.Hi <= ax.Lo {
		ax.Hi = ax.Lo + 1
	}
	step := niceStep((ax.Hi - ax.Lo) / 10)
	for v := math.Ceil(ax.Lo/step) * step; v <= ax.Hi+step*1e-9; v += step {
		ax.Ticks = append(ax.Ticks, math.Round(v/step)*step)
	}
	return ax
}

// niceStep is the smallest 1, 2 or 5 × 10^k at least x (x > 0).
func niceStep(x float64) float64 {
	if !(x > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// niceBelow is the largest 1, 2 or 5 × 10^k at most x (x > 0).
func niceBelow(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{5, 2, 1} {
		if m*p <= x*(1+1e-9) {
			return m * p
		}
	}
	return p
}

// svgCanvas is one timeline chart being written: its size, plot area and
// scales.
type svgCanvas struct {
	b          strings.Builder
	w, h       float64
	x0, x1     float64 // the plot area's left and right edges
	y0, y1     float64 // its top and bottom edges
	ax         timeAxis
	ylo, yhi   float64
	logY       bool
	bottomText float64 // baseline of the time tick labels
}

// newCanvas starts a chart of the given height whose plot area leaves
// extra room under the axis, on the time axis ax.
func newCanvas(h, extra float64, ax timeAxis, label string) *svgCanvas {
	c := &svgCanvas{w: tlWidth, h: h, x0: tlLeft, x1: tlWidth - tlRight, y0: tlTop, y1: h - tlBottom - extra, ax: ax}
	c.bottomText = h - 6
	c.b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 `)
	c.b.WriteString(num(c.w) + " " + num(c.h))
	c.b.WriteString(`" role="img" aria-label="` + html.EscapeString(label) + `" font-family="` + tlFont + `" font-size="11" fill="#222">`)
	return c
}

// num writes a coordinate to a tenth of a unit, without trailing zeros.
func num(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// x maps seconds to the plot area.
func (c *svgCanvas) x(sec float64) float64 {
	return c.x0 + (sec-c.ax.Lo)/(c.ax.Hi-c.ax.Lo)*(c.x1-c.x0)
}

// y maps a value to the plot area, on a log scale when logY.
func (c *svgCanvas) y(v float64) float64 {
	f := (v - c.ylo) / (c.yhi - c.ylo)
	if c.logY {
		f = (math.Log10(v) - math.Log10(c.ylo)) / (math.Log10(c.yhi) - math.Log10(c.ylo))
	}
	return c.y1 - min(max(f, 0), 1)*(c.y1-c.y0)
}

// backdrop draws the warm-up's band and a band over every interval with
// kernel events.
func (c *svgCanvas) backdrop(marks []eventMark) {
	if c.ax.Lo < 0 {
		c.b.WriteString(`<rect class="warmup" x="` + num(c.x0) + `" y="` + num(c.y0) + `" width="` + num(c.x(0)-c.x0) +
			`" height="` + num(c.y1-c.y0) + `" fill="` + cssColor(colorWarmup) + `"/>`)
	}
	for _, m := range marks {
		x0, x1 := c.x(m.Start.Seconds()), c.x((m.Start + m.Length).Seconds())
		c.b.WriteString(`<rect class="event-band" x="` + num(x0) + `" y="` + num(c.y0) + `" width="` + num(max(x1-x0, 1)) +
			`" height="` + num(c.y1-c.y0) + `" fill="` + cssColor(colorEvent) + `" fill-opacity=".1"/>`)
	}
}

// yGrid draws the horizontal grid lines at ticks with their labels.
func (c *svgCanvas) yGrid(ticks []float64, label func(float64) string) {
	var d strings.Builder
	for _, t := range ticks {
		y := num(c.y(t))
		d.WriteString("M" + num(c.x0) + " " + y + "H" + num(c.x1))
	}
	c.b.WriteString(`<path class="grid" d="` + d.String() + `" stroke="` + cssColor(colorGridLight) + `" fill="none"/>`)
	for _, t := range ticks {
		c.b.WriteString(`<text x="` + num(c.x0-5) + `" y="` + num(c.y(t)+4) + `" text-anchor="end">` + html.EscapeString(label(t)) + `</text>`)
	}
}

// timeFrame draws the time axis (line, ticks, labels), the window's
// start as a dashed line, and the warm-up's label when label.
func (c *svgCanvas) timeFrame(label bool) {
	var d strings.Builder
	d.WriteString("M" + num(c.x0) + " " + num(c.y1) + "H" + num(c.x1))
	for _, t := range c.ax.Ticks {
		d.WriteString("M" + num(c.x(t)) + " " + num(c.y1) + "v4")
	}
	c.b.WriteString(`<path class="axis" d="` + d.String() + `" stroke="#666" fill="none"/>`)
	for _, t := range c.ax.Ticks {
		c.b.WriteString(`<text x="` + num(c.x(t)) + `" y="` + num(c.bottomText) + `" text-anchor="middle">` + seconds(t) + `</text>`)
	}
	if c.ax.Lo < 0 {
		x := num(c.x(0))
		c.b.WriteString(`<path class="window-start" d="M` + x + " " + num(c.y0) + "V" + num(c.y1) + `" stroke="#444" stroke-dasharray="4 3" fill="none"/>`)
		if label {
			c.b.WriteString(`<text class="warmup-label" x="` + num(c.x0+4) + `" y="` + num(c.y0+12) + `" fill="#555">warm-up</text>`)
			c.b.WriteString(`<text x="` + num(c.x(0)+4) + `" y="` + num(c.y0+12) + `" fill="#555">window</text>`)
		}
	}
}

// seconds labels a time tick: "−5 s", "0", "2.5 s".
func seconds(v float64) string {
	if v == 0 {
		return "0"
	}
	s := strconv.FormatFloat(math.Abs(v), 'f', -1, 64) + " s"
	if v < 0 {
		s = "−" + s
	}
	return s
}

// span names an interval: "3 s to 4 s", "−1 s to 0".
func span(start, length time.Duration) string {
	return seconds(round3(start.Seconds())) + " to " + seconds(round3((start + length).Seconds()))
}

// round3 rounds to milliseconds, which is what a tooltip's times show.
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// close ends the chart and returns it.
func (c *svgCanvas) close() template.HTML {
	c.b.WriteString(`</svg>`)
	return template.HTML(c.b.String()) // generated here; every text is escaped
}

// polyline draws a line through pts (SVG coordinates), broken where a
// point is missing (NaN y): one <polyline> per run of points, a dot for a
// run of one.
func (c *svgCanvas) polyline(class string, col color.RGBA, pts [][2]float64, dashed bool) {
	var run [][2]float64
	flush := func() {
		switch len(run) {
		case 0:
		case 1:
			c.b.WriteString(`<circle class="` + class + `" cx="` + num(run[0][0]) + `" cy="` + num(run[0][1]) + `" r="2" fill="` + cssColor(col) + `"/>`)
		default:
			var s strings.Builder
			for i, p := range run {
				if i > 0 {
					s.WriteByte(' ')
				}
				s.WriteString(num(p[0]) + "," + num(p[1]))
			}
			dash := ""
			if dashed {
				dash = ` stroke-dasharray="5 3"`
			}
			c.b.WriteString(`<polyline class="` + class + `" points="` + s.String() + `" stroke="` + cssColor(col) + `" stroke-width="1.8"` + dash + ` fill="none"/>`)
		}
		run = run[:0]
	}
	for _, p := range pts {
		if math.IsNaN(p[1]) {
			flush()
			continue
		}
		run = append(run, p)
	}
	flush()
}

// eventTriangles draws a mark under the time axis per interval with kernel
// events, its tooltip (an SVG <title>) naming the interval and each
// counter with its host and count.
func (c *svgCanvas) eventTriangles(marks []eventMark) {
	for _, m := range marks {
		x := c.x((m.Start + m.Length/2).Seconds())
		var t strings.Builder
		t.WriteString("kernel events, " + span(m.Start, m.Length) + ":")
		for _, e := range m.Events {
			t.WriteString("\n" + e.Counter + " +" + format.Count(e.Count) + " on " + e.Host)
		}
		c.b.WriteString(`<path class="event" d="M` + num(x) + " " + num(c.y1+1) + `l5 9h-10z" fill="` + cssColor(colorEvent) + `"><title>` +
			html.EscapeString(t.String()) + `</title></path>`)
	}
}

// rateTick labels a rate tick: "50k" when step is a multiple of 1,000,
// else with thousands separators.
func rateTick(step float64) func(float64) string {
	return func(v float64) string {
		if v != 0 && math.Mod(step, 1000) == 0 {
			return format.Float(v/1000, 0) + "k"
		}
		return format.Float(v, -1)
	}
}

// linearTicks are 0 and multiples of a round step up to about hi, with
// the step; hi is raised to the last tick.
func linearTicks(hi float64) ([]float64, float64) {
	if !(hi > 0) {
		hi = 1
	}
	step := niceStep(hi / 4)
	var ts []float64
	for v := 0.0; v < hi+step*0.999; v += step {
		ts = append(ts, v)
	}
	return ts, step
}

// rateTimeline draws a repetition's successful responses per second over
// time, one bar per interval stacked by group (group 0 at the bottom),
// the warm-up's intervals faded at negative times, the analysis's stalls
// outlined and labelled, and the kernel events marked under the time
// axis.
func rateTimeline(rep *results.Rep, ax timeAxis, marks []eventMark, stalls []diagnosis.Stall) timelineChart {
	ch := timelineChart{Class: "tl-rate", Title: "Rate: successful responses per second, stacked by worker group"}
	type bar struct {
		g          int
		key        time.Duration // the interval's start
		start, end float64
		rate       float64
	}
	var bars []bar
	top := map[time.Duration]float64{} // stack height by interval start
	for g := range rep.Groups {
		for _, iv := range rep.GroupTimeline(g) {
			r := iv.Rate()
			if r <= 0 || iv.Length <= 0 {
				continue
			}
			bars = append(bars, bar{g: g, key: iv.Start, start: iv.Start.Seconds(), end: iv.End().Seconds(), rate: r})
		}
	}
	hi := 0.0
	for _, b := range bars {
		top[b.key] += b.rate
		hi = max(hi, top[b.key])
	}
	ticks, step := linearTicks(hi * 1.05)
	c := newCanvas(190, tlMarks, ax, "successful responses per second over time, stacked by group")
	c.ylo, c.yhi = 0, ticks[len(ticks)-1]
	c.backdrop(marks)
	c.yGrid(ticks, rateTick(step))
	base := map[time.Duration]float64{}
	for g := range rep.Groups {
		var d strings.Builder
		for _, b := range bars {
			if b.g != g {
				continue
			}
			k := b.key
			x0, x1 := c.x(b.start), c.x(b.end)
			gap := min(1, (x1-x0)*0.1)
			yb, yt := c.y(base[k]), c.y(base[k]+b.rate)
			base[k] += b.rate
			d.WriteString("M" + num(x0+gap) + " " + num(yb) + "V" + num(yt) + "H" + num(x1-gap) + "V" + num(yb) + "z")
		}
		if d.Len() > 0 {
			c.b.WriteString(`<path class="group" data-group="` + strconv.Itoa(rep.Groups[g].Index) + `" d="` + d.String() + `" fill="` + cssColor(groupColor(g)) + `"/>`)
		}
	}
	if ax.Lo < 0 { // fade the warm-up's bars
		c.b.WriteString(`<rect x="` + num(c.x0) + `" y="` + num(c.y0) + `" width="` + num(c.x(0)-c.x0) + `" height="` + num(c.y1-c.y0) + `" fill="#fff" fill-opacity=".45"/>`)
	}
	c.stalls(stalls)
	c.tips(rep.Timeline.Points)
	c.timeFrame(true)
	c.eventTriangles(marks)
	ch.SVG = c.close()
	ch.Legend, ch.Note = rateLegend(rep, stalls, marks)
	return ch
}

// stalls frames each stall and names it in a tooltip.
func (c *svgCanvas) stalls(stalls []diagnosis.Stall) {
	for _, st := range stalls {
		x0, x1 := c.x(st.Start.Seconds()), c.x(st.End.Seconds())
		c.b.WriteString(`<rect class="stall" x="` + num(x0) + `" y="` + num(c.y0) + `" width="` + num(max(x1-x0, 1)) + `" height="` + num(c.y1-c.y0) +
			`" fill="none" stroke="#444" stroke-dasharray="3 2"/>`)
		c.b.WriteString(`<text class="stall-label" x="` + num((x0+x1)/2) + `" y="` + num(c.y0+12) + `" text-anchor="middle" fill="#444">stall<title>` +
			html.EscapeString("stall: "+measure.StallSpan(st)+" at "+format.Rate(st.Rate)+" req/s (median "+format.Rate(st.Median)+" req/s)") + `</title></text>`)
	}
}

// tips lays one invisible column per interval carrying its figures.
func (c *svgCanvas) tips(tips []results.Point) {
	// One invisible column per interval carries its figures as a tooltip,
	// unless the intervals are too narrow to point at (a long window in
	// intervals of 100 ms), where the tooltips would be a third of the
	// page's weight.
	if (c.x1-c.x0)/float64(len(tips)) < minTipWidth {
		tips = nil
	}
	for _, p := range tips {
		x0, x1 := c.x(p.Start.Seconds()), c.x(p.End().Seconds())
		tip := span(p.Start, p.Length) + ": " + format.Rate(p.Rate()) + " req/s, " + format.Count(p.Requests) + " responses"
		if n := p.Errors.Total(); n > 0 {
			tip += ", " + format.Count(n) + " errors"
		}
		if p.Start < 0 {
			tip += " (warm-up)"
		}
		c.b.WriteString(`<rect class="tip" x="` + num(x0) + `" y="` + num(c.y0) + `" width="` + num(max(x1-x0, 0.1)) + `" height="` + num(c.y1-c.y0) +
			`" fill="#fff" fill-opacity="0"><title>` + html.EscapeString(tip) + `</title></rect>`)
	}
}

// rateLegend is the rate chart's legend and note.
func rateLegend(rep *results.Rep, stalls []diagnosis.Stall, marks []eventMark) (legend []legendItem, note string) {
	for g := range rep.Groups {
		gr := &rep.Groups[g]
		name := "group " + strconv.Itoa(gr.Index)
		if gr.CPUs != "" {
			name += " (" + gr.CPUs + ")"
		}
		legend = append(legend, legendItem{Name: name, Color: cssColor(groupColor(g))})
	}
	legend = append(legend, legendItem{Name: "warm-up (faded, not counted)", Color: cssColor(colorWarmup)})
	if len(stalls) > 0 {
		legend = append(legend, legendItem{Name: "stall (dashed: under half the window's median rate)", Color: "#444444", Line: true, Dashed: true})
	}
	if len(marks) > 0 {
		legend = append(legend, legendItem{Name: "▲ kernel event: " + strings.Join(eventCounters(marks), ", "), Color: cssColor(colorEvent)})
		note = "▲ and the red bands mark the intervals in which a kernel TCP trouble counter grew; hover a ▲ for the counters, hosts and counts, a bar for the interval's figures."
	} else {
		note = "No kernel TCP trouble counter grew in this repetition. Hover a bar for the interval's figures."
	}
	return legend, note
}

// groupColor is the colour of the g-th group of a repetition.
func groupColor(g int) color.RGBA { return groupPalette[g%len(groupPalette)] }

// eventCounters lists the counters of marks, each once, in order of
// first appearance.
func eventCounters(marks []eventMark) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range marks {
		for _, e := range m.Events {
			if !seen[e.Counter] {
				seen[e.Counter] = true
				out = append(out, e.Counter)
			}
		}
	}
	return out
}

// handshakeTimeline draws the TLS handshake's p50 and p99 per interval,
// in ms on a log scale (a p99 of a second beside a p50 of milliseconds
// stays readable); an interval without handshakes leaves a gap.
func handshakeTimeline(t *results.Timeline, ax timeAxis, marks []eventMark) timelineChart {
	ch := timelineChart{Class: "tl-handshake", Title: "TLS handshake time: p50 and p99 per interval (ms, log scale)"}
	lo, hi := math.Inf(1), math.Inf(-1)
	ms := func(d time.Duration) float64 {
		if d <= 0 {
			return math.NaN()
		}
		return float64(d) / float64(time.Millisecond)
	}
	for _, p := range t.Points {
		for _, v := range []float64{ms(p.HandshakeP50), ms(p.HandshakeP99)} {
			if !math.IsNaN(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	c := newCanvas(150, 0, ax, "TLS handshake p50 and p99 over time")
	if math.IsInf(lo, 1) {
		lo, hi = 1, 10
	}
	c.logY = true
	// The lowest line clear of the axis, and at least a decade, so that a
	// labelled tick shows.
	c.ylo, c.yhi = niceBelow(lo*0.8), niceStep(hi)
	if c.yhi/c.ylo < 10 {
		c.ylo, c.yhi = niceBelow(math.Sqrt(c.ylo*c.yhi)/3.2), niceStep(math.Sqrt(c.ylo*c.yhi)*3.2)
	}
	c.backdrop(marks)
	c.yGrid(logTicks(c.ylo, c.yhi), func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) })
	for _, s := range []struct {
		class string
		col   color.RGBA
		v     func(results.Point) time.Duration
	}{
		{"p50", colorP50, func(p results.Point) time.Duration { return p.HandshakeP50 }},
		{"p99", colorP99, func(p results.Point) time.Duration { return p.HandshakeP99 }},
	} {
		pts := make([][2]float64, len(t.Points))
		for i, p := range t.Points {
			y := math.NaN()
			if v := ms(s.v(p)); !math.IsNaN(v) {
				y = c.y(v)
			}
			pts[i] = [2]float64{c.x((p.Start + p.Length/2).Seconds()), y}
		}
		c.polyline(s.class, s.col, pts, false)
	}
	c.timeFrame(false)
	ch.SVG = c.close()
	ch.Legend = []legendItem{{Name: "p50", Color: cssColor(colorP50), Line: true}, {Name: "p99", Color: cssColor(colorP99), Line: true}}
	return ch
}

// logTicks are the powers of ten from lo to hi, with 2 and 5 times each
// when the axis spans two decades or fewer.
func logTicks(lo, hi float64) []float64 {
	var ts []float64
	few := math.Log10(hi/lo) <= 2.01
	for e := int(math.Floor(math.Log10(lo))); e <= int(math.Ceil(math.Log10(hi))); e++ {
		for _, m := range []int{1, 2, 5} {
			if m != 1 && !few {
				continue
			}
			v, _ := strconv.ParseFloat(strconv.Itoa(m)+"e"+strconv.Itoa(e), 64)
			if v >= lo/1.0001 && v <= hi*1.0001 {
				ts = append(ts, v)
			}
		}
	}
	return ts
}

// cpuTimeline draws, per interval, how busy the worker processes kept
// their groups' CPUs, how busy those CPUs were with anything, and the
// server's CPU, against the client-bound threshold; false when none of
// them was measured.
func cpuTimeline(t *results.Timeline, ax timeAxis, marks []eventMark) (timelineChart, bool) {
	ch := timelineChart{Class: "tl-cpu", Title: "CPU busy per interval: client and server"}
	series := []struct {
		class, name string
		col         color.RGBA
		v           func(*results.Point) *float64
	}{
		{"process", "worker processes (kaeload itself)", colorProcess, func(p *results.Point) *float64 { return p.ProcessBusy }},
		{"cpus", "groups' CPUs (anything on them)", colorCPUs, func(p *results.Point) *float64 { return p.CPUsBusy }},
		{"server", "server", colorServer, func(p *results.Point) *float64 { return p.ServerBusy }},
	}
	used := make([]bool, len(series))
	drawn := false
	for i := range t.Points {
		for k, s := range series {
			if s.v(&t.Points[i]) != nil {
				used[k], drawn = true, true
			}
		}
	}
	if !drawn {
		return ch, false
	}
	c := newCanvas(150, 0, ax, "client and server CPU busy over time")
	c.ylo, c.yhi = 0, 1
	c.backdrop(marks)
	c.yGrid([]float64{0, 0.25, 0.5, 0.75, 1}, func(v float64) string { return strconv.Itoa(int(math.Round(v*100))) + " %" })
	limit := results.ClientBoundBusy
	c.b.WriteString(`<path class="threshold" d="M` + num(c.x0) + " " + num(c.y(limit)) + "H" + num(c.x1) + `" stroke="` + cssColor(colorAlarm) +
		`" stroke-dasharray="5 3" fill="none"/>`)
	for k, s := range series {
		if !used[k] {
			continue
		}
		pts := make([][2]float64, len(t.Points))
		for i := range t.Points {
			p := &t.Points[i]
			y := math.NaN()
			if v := s.v(p); v != nil {
				y = c.y(*v)
			}
			pts[i] = [2]float64{c.x((p.Start + p.Length/2).Seconds()), y}
		}
		c.polyline(s.class, s.col, pts, false)
		ch.Legend = append(ch.Legend, legendItem{Name: s.name, Color: cssColor(s.col), Line: true})
	}
	c.timeFrame(false)
	ch.SVG = c.close()
	ch.Legend = append(ch.Legend, legendItem{Name: "client-bound threshold (" + strconv.FormatFloat(limit*100, 'f', -1, 64) + " % by kaeload itself)",
		Color: cssColor(colorAlarm), Line: true, Dashed: true})
	return ch, true
}
