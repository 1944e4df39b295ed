package htmlreport

import (
	"fmt"
	"html"
	"html/template"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/tables"
)

// timelineSection is a block per variant of its repetitions' facts, diagnoses and charts.
type timelineSection struct {
	Variants      []timelineVariant
	Without       []string
	Diagnoses     []diagnosisLine
	DiagnosesMore int
}

// diagnosisLine is a diagnosis's title and cause, linked to its repetition's block.
type diagnosisLine struct{ Text, Href string }

type timelineVariant struct {
	Name, Color, ID string
	Reps            []timelineRep
}

// timelineRep is a repetition's <details>, the first drawn of each variant Open; no Charts: no timeline.
type timelineRep struct {
	ID, Rep, Summary string
	Open             bool
	Facts            []tables.Notice // tables.RepTimeline
	Diagnoses        []diagnosisBlock
	Charts           []chart
}

type diagnosisBlock struct {
	Title string
	Rows  []tables.Notice
}

// timelineSectionOf lays out the timeline of every variant of vs from m.
func timelineSectionOf(vs []measure.Variant, m *analysis.Report) *timelineSection {
	sec := &timelineSection{}
	blocks := map[string]string{} // "variant/rep" -> a link to its block
	for _, v := range measured(vs) {
		tv := timelineVariant{Name: v.V.Name, Color: cssColor(variantColor(v.I)), ID: "timeline-" + strconv.Itoa(v.I)}
		open := true // until a repetition has a timeline
		for j := range v.V.Reps {
			rep := &v.V.Reps[j]
			tr := timelineRep{ID: tv.ID + "-" + strconv.Itoa(j), Rep: strconv.Itoa(rep.Index + 1)}
			if rep.Timeline == nil || len(rep.Timeline.Points) == 0 {
				tr.Summary = "no timeline recorded"
			} else {
				tr.Open, open = open, false
				blocks[v.V.Name+"/"+strconv.Itoa(rep.Index)] = "#" + tr.ID
				ra := &v.R.Reps[v.I][j]
				tr.Summary, tr.Facts = repTimelineSummary(rep, ra), tables.RepTimeline(&ra.Timeline)
				tr.Charts = repTimelineCharts(rep, ra)
				tr.Diagnoses = measure.Map(ra.Timeline.Diagnoses, func(d diagnosis.Diagnosis) diagnosisBlock {
					return diagnosisBlock{Title: d.Title, Rows: tables.DiagnosisRows(&d)}
				})
			}
			tv.Reps = append(tv.Reps, tr)
		}
		if open {
			sec.Without = append(sec.Without, v.V.Name)
		} else {
			sec.Variants = append(sec.Variants, tv)
		}
	}
	sec.Diagnoses, sec.DiagnosesMore = firstOf(measure.Map(m.Diagnoses, func(d diagnosis.Diagnosis) diagnosisLine {
		block := blocks[d.Variant+"/"+strconv.Itoa(d.Rep)]
		return diagnosisLine{tables.DiagnosisTitle(&d) + ": " + d.Cause.String(), block}
	}), maxClientBound)
	return sec
}

// repTimelineSummary is the line beside a repetition's number.
func repTimelineSummary(rep *results.Rep, ra *analysis.RepReport) string {
	s := "window " + strconv.FormatFloat(rep.Total.Window.Length().Seconds(), 'f', 1, 64) +
		" s in intervals of " + seconds(rep.Timeline.Interval.Seconds())
	if ds := ra.Timeline.Diagnoses; len(ds) > 0 {
		s += "; diagnosed: " + strings.Join(measure.Map(ds, func(d diagnosis.Diagnosis) string { return d.Title }), ", ")
	} else {
		s += "; no diagnosis"
	}
	if n := len(eventMarks(ra.Events)); n > 0 {
		return s + "; kernel events in " + strconv.Itoa(n) + " " + format.Plural(n, "interval")
	}
	return s + "; no kernel event"
}

// repTimelineCharts draws a repetition's charts on one time axis; never none: no Charts means no timeline.
func repTimelineCharts(rep *results.Rep, ra *analysis.RepReport) []chart {
	ax, marks := newTimeAxis(rep.Timeline), eventMarks(ra.Events)
	out := []chart{rateTimeline(rep, ax, marks, ra.Timeline.Stalls), handshakeTimeline(rep.Timeline, ax, marks)}
	return append(out, cpuTimeline(rep.Timeline, ax, marks)...)
}

// eventMark is the kernel events of one interval: one mark on the axis.
type eventMark struct {
	Start, Length time.Duration
	Events        []analysis.KernelEvent
}

// eventMarks groups evs by interval, in order of first appearance.
func eventMarks(evs []analysis.KernelEvent) []eventMark {
	var out []eventMark
	for _, e := range evs {
		i := slices.IndexFunc(out, func(m eventMark) bool { return m.Start == e.Start })
		if i < 0 {
			i, out = len(out), append(out, eventMark{Start: e.Start, Length: e.Length})
		}
		out[i].Events = append(out[i].Events, e)
	}
	return out
}

// A repetition's charts share axis and margins, to line up; a group's bars are one <path>, a line one
// <polyline>: a repetition stays under 20 KB.
const (
	tlWidth, tlLeft, tlRight = 1100.0, 58.0, 12.0 // tlLeft: room for the y tick labels
	tlTop, tlBottom, tlMarks = 10.0, 20.0, 12.0   // tlMarks: the kernel events' strip under the rate chart
	fontFamily               = "Liberation Sans,Arimo,Arial,Helvetica,sans-serif"
	minTipWidth              = 4.0 // the narrowest interval that gets a tooltip
)

// groupPalette colours the worker groups: "Paired", its pale yellow darkened.
var groupPalette = []color.RGBA{
	{166, 206, 227, 255}, {31, 120, 180, 255}, {178, 223, 138, 255}, {51, 160, 44, 255},
	{251, 154, 153, 255}, {227, 26, 28, 255}, {253, 191, 111, 255}, {255, 127, 0, 255},
	{202, 178, 214, 255}, {106, 61, 154, 255}, {220, 205, 60, 255}, {177, 89, 40, 255},
}

func groupColor(g int) color.RGBA { return groupPalette[g%len(groupPalette)] }

// axis maps lo..hi, on a log scale when log, onto a timeline chart.
type axis struct {
	lo, hi float64
	log    bool
	ticks  []float64
	label  func(float64) string
}

func (a axis) frac(v float64) float64 {
	if a.log {
		return math.Log(v/a.lo) / math.Log(a.hi/a.lo)
	}
	return (v - a.lo) / (a.hi - a.lo)
}

// newTimeAxis spans t's points in seconds, with about ten ticks at a round step.
func newTimeAxis(t *results.Timeline) axis {
	ax := axis{lo: t.Points[0].Start.Seconds(), hi: t.Points[len(t.Points)-1].End().Seconds(), label: seconds}
	if ax.hi <= ax.lo {
		ax.hi = ax.lo + 1
	}
	step := niceStep((ax.hi - ax.lo) / 10)
	for v := math.Ceil(ax.lo/step) * step; v <= ax.hi+step*1e-9; v += step {
		ax.ticks = append(ax.ticks, math.Round(v/step)*step)
	}
	return ax
}

// niceStep is the smallest 1, 2 or 5 × 10^k at least x, niceBelow the largest at most x.
func niceStep(x float64) float64 {
	if !(x > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

func niceBelow(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{5, 2} {
		if m*p <= x*(1+1e-9) {
			return m * p
		}
	}
	return p
}

// svgDoc writes what gonum/plot cannot draw small or with tooltips: the timelines and the server profile.
type svgDoc struct{ strings.Builder }

// el writes element name, attrs (name, then a string, escaped, "" left out, or a float64), text and
// tooltip; self-closed without, an <svg> left open for drawing to close.
func (d *svgDoc) el(name, text, title string, attrs ...any) {
	d.WriteString("<" + name)
	for i := 0; i+1 < len(attrs); i += 2 {
		var v string
		switch x := attrs[i+1].(type) {
		case string:
			v = html.EscapeString(x)
		case float64:
			v = num(x)
		default:
			panic(fmt.Sprintf("htmlreport: attribute %v is a %T", attrs[i], x))
		}
		if v != "" {
			d.WriteString(" " + attrs[i].(string) + `="` + v + `"`)
		}
	}
	switch {
	case name == "svg":
		d.WriteString(">")
	case text == "" && title == "":
		d.WriteString("/>")
	case title == "":
		d.WriteString(">" + html.EscapeString(text) + "</" + name + ">")
	default:
		d.WriteString(">" + html.EscapeString(text) + "<title>" + html.EscapeString(title) + "</title></" +
			name + ">")
	}
}

// svg starts a drawing of w×h user units named label; drawing closes it.
func (d *svgDoc) svg(class string, w, h float64, label string, attrs ...any) {
	d.el("svg", "", "", append([]any{"class", class, "xmlns", "http://www.w3.org/2000/svg",
		"viewBox", "0 0 " + num(w) + " " + num(h), "role", "img", "aria-label", label}, attrs...)...)
}

func (d *svgDoc) drawing() template.HTML { return template.HTML(d.String() + "</svg>") }

// num writes a coordinate to a tenth of a unit.
func num(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// canvas is a timeline chart: its plot area, time axis t and value axis v.
type canvas struct {
	svgDoc
	x0, x1, y0, y1 float64
	t, v           axis
}

// newCanvas starts a chart h high (extra under the axis) with its bands and grid.
func newCanvas(h, extra float64, t, v axis, label string, marks []eventMark) *canvas {
	c := &canvas{x0: tlLeft, x1: tlWidth - tlRight, y0: tlTop, y1: h - tlBottom - extra, t: t, v: v}
	c.svg("", tlWidth, h, label, "font-family", fontFamily, "font-size", "11", "fill", "#222")
	if t.lo < 0 {
		c.band("warmup", c.x0, c.x(0), 0, "", "fill", cssColor(colorWarmup))
	}
	for _, m := range marks {
		c.band("event-band", c.x(m.Start.Seconds()), c.x((m.Start + m.Length).Seconds()), 1, "", "fill", cssColor(colorEvent), "fill-opacity", ".1")
	}
	grid := measure.Map(v.ticks, func(t float64) string { return c.hline(c.y(t)) })
	c.path("grid", strings.Join(grid, ""), cssColor(colorGridLight))
	for _, tick := range v.ticks {
		c.el("text", v.label(tick), "", "x", c.x0-5, "y", c.y(tick)+4, "text-anchor", "end")
	}
	return c
}

// x maps seconds to the plot area; y a value, clamped.
func (c *canvas) x(sec float64) float64 { return c.x0 + c.t.frac(sec)*(c.x1-c.x0) }
func (c *canvas) y(v float64) float64   { return c.y1 - min(max(c.v.frac(v), 0), 1)*(c.y1-c.y0) }

// band draws a rect over the plot area's height from x0 to x1, at least minW wide.
func (c *canvas) band(class string, x0, x1, minW float64, title string, attrs ...any) {
	c.el("rect", "", title, append([]any{"class", class, "x", x0, "y", c.y0, "width", max(x1-x0, minW), "height", c.y1 - c.y0}, attrs...)...)
}

func (c *canvas) path(class, d, col string, attrs ...any) {
	c.el("path", "", "", append([]any{"class", class, "d", d, "stroke", col, "fill", "none"}, attrs...)...)
}

func (c *canvas) hline(y float64) string { return "M" + num(c.x0) + " " + num(y) + "H" + num(c.x1) }

// frame draws the time axis and the window's start, dashed, labelled when label.
func (c *canvas) frame(label bool) {
	ticks := measure.Map(c.t.ticks, func(t float64) string { return "M" + num(c.x(t)) + " " + num(c.y1) + "v4" })
	c.path("axis", c.hline(c.y1)+strings.Join(ticks, ""), "#666")
	for _, t := range c.t.ticks {
		c.el("text", c.t.label(t), "", "x", c.x(t), "y", c.y1+tlBottom-6, "text-anchor", "middle")
	}
	if c.t.lo < 0 {
		c.path("window-start", "M"+num(c.x(0))+" "+num(c.y0)+"V"+num(c.y1), "#444", "stroke-dasharray", "4 3")
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
	return strings.Replace(strconv.FormatFloat(v, 'f', -1, 64), "-", "−", 1) + " s"
}

// span names an interval to the millisecond: "3 s to 4 s", "−1 s to 0".
func span(start, length time.Duration) string {
	round3 := func(d time.Duration) float64 { return math.Round(d.Seconds()*1000) / 1000 }
	return seconds(round3(start)) + " to " + seconds(round3(start+length))
}

// line draws l at the intervals' middles, a <polyline> per run of values, a dot for one.
func (c *canvas) line(l timelineLine, pts []results.Point) {
	var run []string
	flush := func() {
		switch len(run) {
		case 0:
		case 1:
			x, y, _ := strings.Cut(run[0], ",")
			c.el("circle", "", "", "class", l.class, "cx", x, "cy", y, "r", "2", "fill", cssColor(l.col))
		default:
			c.el("polyline", "", "", "class", l.class, "points", strings.Join(run, " "), "stroke", cssColor(l.col), "stroke-width", "1.8", "fill", "none")
		}
		run = run[:0]
	}
	for i := range pts {
		if y := l.v(&pts[i]); !math.IsNaN(y) {
			run = append(run, num(c.x((pts[i].Start+pts[i].Length/2).Seconds()))+","+num(c.y(y)))
		} else {
			flush()
		}
	}
	flush()
}

// rateTimeline draws a repetition's responses per second, stacked by group.
func rateTimeline(rep *results.Rep, ax axis, marks []eventMark, stalls []diagnosis.Stall) chart {
	type bar struct{ start, end, lo, hi float64 } // seconds; the stack's rates under and over it
	top := map[time.Duration]float64{}            // stack height by interval start
	bars, hi := make([][]bar, len(rep.Groups)), 0.0
	for g := range rep.Groups {
		for _, iv := range rep.GroupTimeline(g) {
			if r := iv.Rate(); r > 0 && iv.Length > 0 {
				bars[g] = append(bars[g], bar{iv.Start.Seconds(), iv.End().Seconds(), top[iv.Start], top[iv.Start] + r})
				top[iv.Start] += r
				hi = max(hi, top[iv.Start])
			}
		}
	}
	step := niceStep(max(hi*1.05, 1) / 4)
	y := axis{label: func(v float64) string { return rateLabel(v, math.Mod(step, 1000) == 0) }}
	for v := 0.0; v < max(hi*1.05, 1)+step*0.999; v += step {
		y.ticks = append(y.ticks, v)
	}
	y.hi = y.ticks[len(y.ticks)-1]
	c := newCanvas(190, tlMarks, ax, y, "successful responses per second over time, stacked by group", marks)
	for g, bs := range bars {
		var d strings.Builder
		for _, b := range bs {
			x0, x1 := c.x(b.start), c.x(b.end)
			gap, yb, yt := min(1, (x1-x0)*0.1), c.y(b.lo), c.y(b.hi)
			d.WriteString("M" + num(x0+gap) + " " + num(yb) + "V" + num(yt) + "H" + num(x1-gap) + "V" + num(yb) + "z")
		}
		if d.Len() > 0 {
			c.el("path", "", "", "class", "group", "data-group", strconv.Itoa(rep.Groups[g].Index), "d", d.String(),
				"fill", cssColor(groupColor(g)))
		}
	}
	if ax.lo < 0 { // fade the warm-up's bars
		c.band("", c.x0, c.x(0), 0, "", "fill", "#fff", "fill-opacity", ".45")
	}
	for _, st := range stalls {
		x0, x1 := c.x(st.Start.Seconds()), c.x(st.End.Seconds())
		c.band("stall", x0, x1, 1, "", "fill", "none", "stroke", "#444", "stroke-dasharray", "3 2")
		c.el("text", "stall", "stall: "+notes.Span(st.Start.Seconds(), st.End.Seconds())+" at "+format.Rate(st.Rate)+
			" req/s (median "+format.Rate(st.Median)+" req/s)",
			"class", "stall-label", "x", (x0+x1)/2, "y", c.y0+12, "text-anchor", "middle", "fill", "#444")
	}
	if pts := rep.Timeline.Points; (c.x1-c.x0)/float64(len(pts)) >= minTipWidth {
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
	c.frame(true)
	for _, m := range marks {
		t := "kernel events, " + span(m.Start, m.Length) + ":"
		for _, e := range m.Events {
			t += "\n" + e.Counter + " +" + format.Count(e.Count) + " on " + e.Host
		}
		d := "M" + num(c.x((m.Start + m.Length/2).Seconds())) + " " + num(c.y1+1) + "l5 9h-10z"
		c.el("path", "", t, "class", "event", "d", d, "fill", cssColor(colorEvent))
	}
	ch := chart{Class: "tl-rate", Title: "Rate: successful responses per second, stacked by worker group", SVG: c.drawing()}
	ch.Legend, ch.Caption = rateLegend(rep, stalls, marks)
	return ch
}

// rateLegend is the rate chart's legend and note.
func rateLegend(rep *results.Rep, stalls []diagnosis.Stall, marks []eventMark) (legend []legendItem, note string) {
	for g, gr := range rep.Groups {
		legend = append(legend, boxItem(groupName(gr.Index, gr.CPUs), groupColor(g)))
	}
	legend = append(legend, boxItem("warm-up (faded, not counted)", colorWarmup))
	if len(stalls) > 0 {
		legend = append(legend, dashedItem("stall (dashed: under half the window's median rate)", color.RGBA{68, 68, 68, 255}))
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

// timelineLine is a line of a timeline chart; v is NaN where it has no value.
type timelineLine struct {
	class, name string
	col         color.RGBA
	v           func(*results.Point) float64
}

// lineChart is a timeline chart of lines, with a dashed threshold when > 0.
type lineChart struct {
	chart
	label     string
	y         axis
	lines     []timelineLine
	threshold float64
}

// draw draws lc's lines that have a value over t, their legend before lc's.
func (lc lineChart) draw(t *results.Timeline, ax axis, marks []eventMark) chart {
	c := newCanvas(150, 0, ax, lc.y, lc.label, marks)
	var legend []legendItem
	if lc.threshold > 0 {
		c.path("threshold", c.hline(c.y(lc.threshold)), cssColor(colorAlarm), "stroke-dasharray", "5 3")
	}
	for _, l := range lc.lines {
		if slices.ContainsFunc(t.Points, func(p results.Point) bool { return !math.IsNaN(l.v(&p)) }) {
			c.line(l, t.Points)
			legend = append(legend, lineItem(l.name, l.col))
		}
	}
	c.frame(false)
	lc.SVG, lc.Legend = c.drawing(), append(legend, lc.Legend...)
	return lc.chart
}

// handshakeTimeline draws the handshake's p50 and p99 per interval, in ms on a log scale.
func handshakeTimeline(t *results.Timeline, ax axis, marks []eventMark) chart {
	ms := func(d time.Duration) float64 {
		if d <= 0 {
			return math.NaN()
		}
		return float64(d) / float64(time.Millisecond)
	}
	lc := lineChart{
		chart: chart{Class: "tl-handshake", Title: "TLS handshake time: p50 and p99 per interval (ms, log scale)"},
		label: "TLS handshake p50 and p99 over time",
		y:     axis{log: true, label: func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }},
		lines: []timelineLine{
			{"p50", "p50", colorP50, func(p *results.Point) float64 { return ms(p.HandshakeP50) }},
			{"p99", "p99", colorP99, func(p *results.Point) float64 { return ms(p.HandshakeP99) }},
		}}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range t.Points {
		for _, l := range lc.lines {
			if y := l.v(&t.Points[i]); !math.IsNaN(y) {
				lo, hi = min(lo, y), max(hi, y)
			}
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 1, 10
	}
	// The lowest line clear of the axis; a decade at least, so a tick is labelled.
	y := &lc.y
	y.lo, y.hi = niceBelow(lo*0.8), niceStep(hi)
	if y.hi/y.lo < 10 {
		y.lo, y.hi = niceBelow(math.Sqrt(y.lo*y.hi)/3.2), niceStep(math.Sqrt(y.lo*y.hi)*3.2)
	}
	ms125 := []int{1}
	if math.Log10(y.hi/y.lo) <= 2.01 { // 2 and 5 times each power too
		ms125 = []int{1, 2, 5}
	}
	for _, t := range decades(y.lo, y.hi, ms125, func(int) bool { return false }) {
		y.ticks = append(y.ticks, t.Value)
	}
	return lc.draw(t, ax, marks)
}

// cpuTimeline draws CPU busy per interval; none when none was measured.
func cpuTimeline(t *results.Timeline, ax axis, marks []eventMark) []chart {
	legend := []legendItem{dashedItem("client-bound threshold ("+clientBound+" by kaeload itself)", colorAlarm)}
	lc := lineChart{
		chart: chart{Class: "tl-cpu", Title: "CPU busy per interval: client and server", Legend: legend},
		label: "client and server CPU busy over time", threshold: results.ClientBoundBusy,
		y: axis{hi: 1, ticks: []float64{0, 0.25, 0.5, 0.75, 1},
			label: func(v float64) string { return strconv.Itoa(int(math.Round(v*100))) + " %" }},
	}
	for _, cs := range cpuSeries {
		lc.lines = append(lc.lines, timelineLine{cs.class, cs.line, cs.col, func(p *results.Point) float64 {
			if v := cs.at(p); v != nil {
				return *v
			}
			return math.NaN()
		}})
	}
	ch := lc.draw(t, ax, marks)
	if len(ch.Legend) == len(legend) { // draw added no line: none had a value
		return nil
	}
	return []chart{ch}
}
