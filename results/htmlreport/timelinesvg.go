package htmlreport

import (
	"html"
	"html/template"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
)

// A repetition's charts share one time axis and margins, so they line up;
// each group's bars are one <path> and each line one <polyline>, which
// keeps a repetition under 20 KB.
const (
	tlWidth    = 1100.0
	tlLeft     = 58.0 // room for the y tick labels
	tlRight    = 12.0
	tlTop      = 10.0
	tlBottom   = 20.0 // room for the time tick labels
	tlMarks    = 12.0 // the kernel events' strip under the rate chart's axis
	fontFamily = "Liberation Sans,Arimo,Arial,Helvetica,sans-serif"
	// minTipWidth is the narrowest mean interval that gets tooltips.
	minTipWidth = 4.0
)

// groupPalette colours the worker groups (ColorBrewer's "Paired", its
// pale yellow darkened to show on white).
var groupPalette = []color.RGBA{
	{166, 206, 227, 255}, {31, 120, 180, 255}, {178, 223, 138, 255}, {51, 160, 44, 255},
	{251, 154, 153, 255}, {227, 26, 28, 255}, {253, 191, 111, 255}, {255, 127, 0, 255},
	{202, 178, 214, 255}, {106, 61, 154, 255}, {220, 205, 60, 255}, {177, 89, 40, 255},
}

func groupColor(g int) color.RGBA { return groupPalette[g%len(groupPalette)] }

// timeAxis is a repetition's time axis, in seconds from the window's start.
type timeAxis struct {
	Lo, Hi float64
	Ticks  []float64
}

// newTimeAxis spans t's points with about ten ticks at a round step, 0 among them.
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

// svgDoc writes the drawings gonum/plot cannot make small or with a
// tooltip per mark: the timelines (hundreds of bars a repetition) and the
// server profile (a tooltip per frame).
type svgDoc struct{ b strings.Builder }

// start writes "<name" and attrs, pairs of a name and a value: a string
// (escaped, left out when ""), a float64 (see num) or an int.
func (d *svgDoc) start(name string, attrs []any) {
	d.b.WriteString("<" + name)
	for i := 0; i+1 < len(attrs); i += 2 {
		var v string
		switch x := attrs[i+1].(type) {
		case string:
			v = html.EscapeString(x)
		case float64:
			v = num(x)
		case int:
			v = strconv.Itoa(x)
		}
		if v != "" {
			d.b.WriteString(" " + attrs[i].(string) + `="` + v + `"`)
		}
	}
}

// open starts an element that end closes.
func (d *svgDoc) open(name string, attrs ...any) {
	d.start(name, attrs)
	d.b.WriteString(">")
}

func (d *svgDoc) end(name string) { d.b.WriteString("</" + name + ">") }

// el writes a whole element with its text and its tooltip, each "" for none.
func (d *svgDoc) el(name, text, title string, attrs ...any) {
	d.start(name, attrs)
	if text == "" && title == "" {
		d.b.WriteString("/>")
		return
	}
	d.b.WriteString(">" + html.EscapeString(text))
	if title != "" {
		d.b.WriteString("<title>" + html.EscapeString(title) + "</title>")
	}
	d.end(name)
}

// close ends the <svg> element and returns the drawing.
func (d *svgDoc) close() template.HTML {
	d.end("svg")
	return template.HTML(d.b.String()) // start and el escape every text
}

// openSVG starts a drawing of w×h user units named label, attrs last.
func (d *svgDoc) openSVG(class string, w, h float64, label string, attrs ...any) {
	d.open("svg", append([]any{"class", class, "xmlns", "http://www.w3.org/2000/svg", "viewBox", "0 0 " + num(w) + " " + num(h),
		"role", "img", "aria-label", label}, attrs...)...)
}

// num writes a coordinate to a tenth of a unit, without trailing zeros.
func num(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// svgCanvas is one timeline chart: its plot area (x0..x1, y0..y1) and scales.
type svgCanvas struct {
	svgDoc
	x0, x1, y0, y1 float64
	ax             timeAxis
	ylo, yhi       float64
	logY           bool
	bottomText     float64 // baseline of the time tick labels
}

// newCanvas starts a chart h high on ax, with extra room under the axis.
func newCanvas(h, extra float64, ax timeAxis, label string) *svgCanvas {
	c := &svgCanvas{x0: tlLeft, x1: tlWidth - tlRight, y0: tlTop, y1: h - tlBottom - extra, ax: ax, bottomText: h - 6}
	c.openSVG("", tlWidth, h, label, "font-family", fontFamily, "font-size", "11", "fill", "#222")
	return c
}

// x maps seconds to the plot area.
func (c *svgCanvas) x(sec float64) float64 {
	return c.x0 + (sec-c.ax.Lo)/(c.ax.Hi-c.ax.Lo)*(c.x1-c.x0)
}

// y maps a value to the plot area, clamped, on a log scale when logY.
func (c *svgCanvas) y(v float64) float64 {
	f := (v - c.ylo) / (c.yhi - c.ylo)
	if c.logY {
		f = (math.Log10(v) - math.Log10(c.ylo)) / (math.Log10(c.yhi) - math.Log10(c.ylo))
	}
	return c.y1 - min(max(f, 0), 1)*(c.y1-c.y0)
}

// band draws a rect over the plot area's height from x0 to x1, at least
// minW wide, with its tooltip title.
func (c *svgCanvas) band(class string, x0, x1, minW float64, title string, attrs ...any) {
	c.el("rect", "", title, append([]any{"class", class, "x", x0, "y", c.y0, "width", max(x1-x0, minW), "height", c.y1 - c.y0}, attrs...)...)
}

// backdrop draws the warm-up's band and a band over every interval with
// kernel events.
func (c *svgCanvas) backdrop(marks []eventMark) {
	if c.ax.Lo < 0 {
		c.band("warmup", c.x0, c.x(0), 0, "", "fill", cssColor(colorWarmup))
	}
	for _, m := range marks {
		c.band("event-band", c.x(m.Start.Seconds()), c.x((m.Start + m.Length).Seconds()), 1, "", "fill", cssColor(colorEvent), "fill-opacity", ".1")
	}
}

// yGrid draws the horizontal grid lines at ticks with their labels.
func (c *svgCanvas) yGrid(ticks []float64, label func(float64) string) {
	var d strings.Builder
	for _, t := range ticks {
		d.WriteString("M" + num(c.x0) + " " + num(c.y(t)) + "H" + num(c.x1))
	}
	c.el("path", "", "", "class", "grid", "d", d.String(), "stroke", cssColor(colorGridLight), "fill", "none")
	for _, t := range ticks {
		c.el("text", label(t), "", "x", c.x0-5, "y", c.y(t)+4, "text-anchor", "end")
	}
}

// timeFrame draws the time axis, the window's start as a dashed line,
// and the warm-up's and window's labels when label.
func (c *svgCanvas) timeFrame(label bool) {
	var d strings.Builder
	d.WriteString("M" + num(c.x0) + " " + num(c.y1) + "H" + num(c.x1))
	for _, t := range c.ax.Ticks {
		d.WriteString("M" + num(c.x(t)) + " " + num(c.y1) + "v4")
	}
	c.el("path", "", "", "class", "axis", "d", d.String(), "stroke", "#666", "fill", "none")
	for _, t := range c.ax.Ticks {
		c.el("text", seconds(t), "", "x", c.x(t), "y", c.bottomText, "text-anchor", "middle")
	}
	if c.ax.Lo < 0 {
		c.el("path", "", "", "class", "window-start", "d", "M"+num(c.x(0))+" "+num(c.y0)+"V"+num(c.y1), "stroke", "#444", "stroke-dasharray", "4 3", "fill", "none")
		if label {
			c.el("text", "warm-up", "", "class", "warmup-label", "x", c.x0+4, "y", c.y0+12, "fill", "#555")
			c.el("text", "window", "", "x", c.x(0)+4, "y", c.y0+12, "fill", "#555")
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

// span names an interval to the millisecond: "3 s to 4 s", "−1 s to 0".
func span(start, length time.Duration) string {
	round3 := func(v float64) float64 { return math.Round(v*1000) / 1000 }
	return seconds(round3(start.Seconds())) + " to " + seconds(round3((start + length).Seconds()))
}

// series draws v of each point at the interval's middle, broken where v
// is NaN: a <polyline> per run of points, a dot for a run of one.
func (c *svgCanvas) series(class string, col color.RGBA, pts []results.Point, v func(*results.Point) float64) {
	var run []string
	flush := func() {
		switch len(run) {
		case 0:
		case 1:
			x, y, _ := strings.Cut(run[0], ",")
			c.el("circle", "", "", "class", class, "cx", x, "cy", y, "r", "2", "fill", cssColor(col))
		default:
			c.el("polyline", "", "", "class", class, "points", strings.Join(run, " "), "stroke", cssColor(col), "stroke-width", "1.8", "fill", "none")
		}
		run = run[:0]
	}
	for i := range pts {
		p := &pts[i]
		if y := v(p); !math.IsNaN(y) {
			run = append(run, num(c.x((p.Start+p.Length/2).Seconds()))+","+num(c.y(y)))
		} else {
			flush()
		}
	}
	flush()
}

// eventTriangles marks under the time axis each interval with kernel
// events, its tooltip naming each counter with its host and count.
func (c *svgCanvas) eventTriangles(marks []eventMark) {
	for _, m := range marks {
		t := "kernel events, " + span(m.Start, m.Length) + ":"
		for _, e := range m.Events {
			t += "\n" + e.Counter + " +" + format.Count(e.Count) + " on " + e.Host
		}
		d := "M" + num(c.x((m.Start + m.Length/2).Seconds())) + " " + num(c.y1+1) + "l5 9h-10z"
		c.el("path", "", t, "class", "event", "d", d, "fill", cssColor(colorEvent))
	}
}

// linearTicks are 0 and multiples of a round step up to about hi, with the step.
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

// rateTimeline draws a repetition's responses per second stacked by group
// (0 at the bottom), the warm-up faded, stalls outlined, kernel events marked.
func rateTimeline(rep *results.Rep, ax timeAxis, marks []eventMark, stalls []diagnosis.Stall) timelineChart {
	top := map[time.Duration]float64{} // stack height by interval start
	hi := 0.0
	for g := range rep.Groups {
		for _, iv := range rep.GroupTimeline(g) {
			if r := iv.Rate(); r > 0 && iv.Length > 0 {
				top[iv.Start] += r
				hi = max(hi, top[iv.Start])
			}
		}
	}
	ticks, step := linearTicks(hi * 1.05)
	c := newCanvas(190, tlMarks, ax, "successful responses per second over time, stacked by group")
	c.ylo, c.yhi = 0, ticks[len(ticks)-1]
	c.backdrop(marks)
	c.yGrid(ticks, func(v float64) string { return rateLabel(v, math.Mod(step, 1000) == 0) })
	base := map[time.Duration]float64{}
	for g := range rep.Groups {
		var d strings.Builder
		for _, iv := range rep.GroupTimeline(g) {
			r := iv.Rate()
			if r <= 0 || iv.Length <= 0 {
				continue
			}
			x0, x1 := c.x(iv.Start.Seconds()), c.x(iv.End().Seconds())
			gap := min(1, (x1-x0)*0.1)
			yb, yt := c.y(base[iv.Start]), c.y(base[iv.Start]+r)
			base[iv.Start] += r
			d.WriteString("M" + num(x0+gap) + " " + num(yb) + "V" + num(yt) + "H" + num(x1-gap) + "V" + num(yb) + "z")
		}
		if d.Len() > 0 {
			c.el("path", "", "", "class", "group", "data-group", rep.Groups[g].Index, "d", d.String(), "fill", cssColor(groupColor(g)))
		}
	}
	if ax.Lo < 0 { // fade the warm-up's bars
		c.band("", c.x0, c.x(0), 0, "", "fill", "#fff", "fill-opacity", ".45")
	}
	for _, st := range stalls {
		x0, x1 := c.x(st.Start.Seconds()), c.x(st.End.Seconds())
		c.band("stall", x0, x1, 1, "", "fill", "none", "stroke", "#444", "stroke-dasharray", "3 2")
		c.el("text", "stall", "stall: "+measure.StallSpan(st)+" at "+format.Rate(st.Rate)+" req/s (median "+format.Rate(st.Median)+" req/s)",
			"class", "stall-label", "x", (x0+x1)/2, "y", c.y0+12, "text-anchor", "middle", "fill", "#444")
	}
	c.tips(rep.Timeline.Points)
	c.timeFrame(true)
	c.eventTriangles(marks)
	ch := timelineChart{Class: "tl-rate", Title: "Rate: successful responses per second, stacked by worker group", SVG: c.close()}
	ch.Legend, ch.Note = rateLegend(rep, stalls, marks)
	return ch
}

// tips lays an invisible column per interval with its figures as a
// tooltip, unless too narrow to point at (a third of the page's weight).
func (c *svgCanvas) tips(pts []results.Point) {
	if (c.x1-c.x0)/float64(len(pts)) < minTipWidth {
		return
	}
	for _, p := range pts {
		tip := span(p.Start, p.Length) + ": " + format.Rate(p.Rate()) + " req/s, " + format.Count(p.Requests) + " responses"
		if n := p.Errors.Total(); n > 0 {
			tip += ", " + format.Count(n) + " errors"
		}
		if p.Start < 0 {
			tip += " (warm-up)"
		}
		c.band("tip", c.x(p.Start.Seconds()), c.x(p.End().Seconds()), 0.1, tip, "fill", "#fff", "fill-opacity", "0")
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
		legend = append(legend, boxItem(name, groupColor(g)))
	}
	legend = append(legend, boxItem("warm-up (faded, not counted)", colorWarmup))
	if len(stalls) > 0 {
		legend = append(legend, legendItem{Name: "stall (dashed: under half the window's median rate)", Color: "#444444", Line: true, Dashed: true})
	}
	if len(marks) == 0 {
		return legend, "No kernel TCP trouble counter grew in this repetition. Hover a bar for the interval's figures."
	}
	var counters []string
	for _, m := range marks {
		for _, e := range m.Events {
			if !slices.Contains(counters, e.Counter) {
				counters = append(counters, e.Counter)
			}
		}
	}
	legend = append(legend, boxItem("▲ kernel event: "+strings.Join(counters, ", "), colorEvent))
	return legend, "▲ and the red bands mark the intervals in which a kernel TCP trouble counter grew; hover a ▲ for the counters, hosts and counts, a bar for the interval's figures."
}

// handshakeTimeline draws the TLS handshake's p50 and p99 per interval
// in ms on a log scale; an interval without handshakes leaves a gap.
func handshakeTimeline(t *results.Timeline, ax timeAxis, marks []eventMark) timelineChart {
	ms := func(d time.Duration) float64 {
		if d <= 0 {
			return math.NaN()
		}
		return float64(d) / float64(time.Millisecond)
	}
	p50 := func(p *results.Point) float64 { return ms(p.HandshakeP50) }
	p99 := func(p *results.Point) float64 { return ms(p.HandshakeP99) }
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range t.Points {
		for _, y := range []float64{p50(&t.Points[i]), p99(&t.Points[i])} {
			if !math.IsNaN(y) {
				lo, hi = min(lo, y), max(hi, y)
			}
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 1, 10
	}
	c := newCanvas(150, 0, ax, "TLS handshake p50 and p99 over time")
	c.logY = true
	// The lowest line clear of the axis, and at least a decade, so that a
	// labelled tick shows.
	c.ylo, c.yhi = niceBelow(lo*0.8), niceStep(hi)
	if c.yhi/c.ylo < 10 {
		c.ylo, c.yhi = niceBelow(math.Sqrt(c.ylo*c.yhi)/3.2), niceStep(math.Sqrt(c.ylo*c.yhi)*3.2)
	}
	c.backdrop(marks)
	var ticks []float64
	ms125 := []int{1}
	if math.Log10(c.yhi/c.ylo) <= 2.01 { // 2 and 5 times each power too
		ms125 = []int{1, 2, 5}
	}
	decades(c.ylo, c.yhi, ms125, func(v float64, _ int) { ticks = append(ticks, v) })
	c.yGrid(ticks, func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) })
	c.series("p50", colorP50, t.Points, p50)
	c.series("p99", colorP99, t.Points, p99)
	c.timeFrame(false)
	return timelineChart{Class: "tl-handshake", Title: "TLS handshake time: p50 and p99 per interval (ms, log scale)", SVG: c.close(),
		Legend: []legendItem{lineItem("p50", colorP50), lineItem("p99", colorP99)}}
}

// cpuSeries are the lines of the CPU timeline.
var cpuSeries = []struct {
	class, name string
	col         color.RGBA
	v           func(*results.Point) float64 // NaN where not measured
}{
	{"process", "worker processes (kaeload itself)", colorProcess, func(p *results.Point) float64 { return orNaN(p.ProcessBusy) }},
	{"cpus", "groups' CPUs (anything on them)", colorCPUs, func(p *results.Point) float64 { return orNaN(p.CPUsBusy) }},
	{"server", "server", colorServer, func(p *results.Point) float64 { return orNaN(p.ServerBusy) }},
}

func orNaN(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}

// cpuTimeline draws cpuSeries per interval against the client-bound
// threshold; false when none was measured.
func cpuTimeline(t *results.Timeline, ax timeAxis, marks []eventMark) (timelineChart, bool) {
	ch := timelineChart{Class: "tl-cpu", Title: "CPU busy per interval: client and server"}
	used := make([]bool, len(cpuSeries))
	for i := range t.Points {
		for k, s := range cpuSeries {
			used[k] = used[k] || !math.IsNaN(s.v(&t.Points[i]))
		}
	}
	if !slices.Contains(used, true) {
		return ch, false
	}
	c := newCanvas(150, 0, ax, "client and server CPU busy over time")
	c.ylo, c.yhi = 0, 1
	c.backdrop(marks)
	c.yGrid([]float64{0, 0.25, 0.5, 0.75, 1}, func(v float64) string { return strconv.Itoa(int(math.Round(v*100))) + " %" })
	limit := results.ClientBoundBusy
	c.el("path", "", "", "class", "threshold", "d", "M"+num(c.x0)+" "+num(c.y(limit))+"H"+num(c.x1), "stroke", cssColor(colorAlarm), "stroke-dasharray", "5 3", "fill", "none")
	for k, s := range cpuSeries {
		if used[k] {
			c.series(s.class, s.col, t.Points, s.v)
			ch.Legend = append(ch.Legend, lineItem(s.name, s.col))
		}
	}
	c.timeFrame(false)
	ch.SVG = c.close()
	ch.Legend = append(ch.Legend, dashedItem("client-bound threshold ("+strconv.FormatFloat(limit*100, 'f', -1, 64)+" % by kaeload itself)", colorAlarm))
	return ch, true
}
