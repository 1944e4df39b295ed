package htmlreport

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/tables"
)

// capacitySectionOf lays out m's capacity answers: its line, the search
// and a part per variant with its steps; nil for none.
func capacitySectionOf(m *analysis.Report) *section {
	r, cs := m.Run, m.Capacities
	if cs == nil {
		return nil
	}
	s := &section{Heading: m.CapacityLine.String(), Lines: []string{tables.CapacityIntro(r.Capacity)}}
	for i := range cs {
		s.Parts = append(s.Parts, section{Heading: r.Variants[cs[i].Variant].Name + ": " + analysis.KneeWords(&cs[i], r.Capacity.From),
			Tables: []*table{fromTable("", tables.Capacity(&cs[i]))}})
	}
	return s
}

// capacityChart draws the p99 latency the target bounds against the rate
// asked at each step of c: failing steps ringed, the knee dotted.
func capacityChart(r *results.Run, c *results.Capacity) chart {
	spec, name := r.Capacity, r.Variants[c.Variant].Name
	what, target := "p99 handshake", spec.P99Handshake
	pick := func(g *results.Group) *results.Histogram { return g.Latency.Handshake }
	if target == 0 {
		what, target = "p99 total from the intended start", spec.P99Total
		pick = func(g *results.Group) *results.Histogram { return g.Latency.Intended }
	}
	knee := analysis.KneeWords(c, spec.From)
	f := newFigure(chart{ID: "chart-capacity-" + strconv.Itoa(c.Variant), Title: "Capacity of " + name + ": " + what + " against the rate asked",
		Caption: "Points: one step of the search each (one open-loop window), " + what + " in ms (log scale) at the rate asked; " +
			"ringed: steps that missed a target (latency, errors or missed starts); dashed line: the target; dotted line: the knee, " + knee + ".",
	}, "rate asked (new connections/s)", what+" ms", true, true)
	ms := float64(target) / float64(time.Millisecond)
	ymin, ymax := ms, ms
	var line, fails plotter.XYs // the steps' p99 latencies in ms by rate asked, and the failing steps'
	for _, rep := range slices.SortedStableFunc(slices.Values(c.Steps), func(a, b *results.Rep) int { return cmp.Compare(a.Step.Rate, b.Step.Rate) }) {
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
	f.X.Tick.Marker, f.Y.Scale, f.Y.Tick.Marker = rateTicks, plot.LogScale{}, plot.LogTicks{Prec: -1}
	f.linePoints(line, variantColor(c.Variant), name+": "+what)
	if len(fails) > 0 {
		f.glyphs(fails, colorAlarm, 7, draw.RingGlyph{})
	}
	lo, hi := line[0].X, line[len(line)-1].X
	f.refLine(lo, ms, hi, ms, colorMuted, "target "+strings.TrimSuffix(strings.TrimRight(format.Millis(target.Microseconds()), "0"), ".")+" ms")
	f.key(boxItem("missed a target", colorAlarm))
	if c.Knee > 0 {
		f.line(plotter.XYs{{X: c.Knee, Y: ymin}, {X: c.Knee, Y: ymax}}, colorBest, 1.2, 1.5, 2.5)
		f.labels(plotter.XYs{{X: c.Knee, Y: ymax}}, []string{"knee " + knee}, vg.Point{X: 6, Y: -12}, 10, colorBest, draw.XLeft)
		f.key(dashedItem("knee", colorBest))
	}
	pad := (hi - lo) * 0.05
	f.X.Min, f.X.Max = math.Max(0, lo-pad), hi+pad
	f.Y.Min, f.Y.Max = ymin/1.5, ymax*1.5
	return f.draw(300)
}
