package htmlreport

import (
	"math"
	"sort"
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

// capacitySection is the capacity search of a run: the comparison line
// and each variant's steps.
type capacitySection struct {
	Line   string
	Intro  string
	Tables []capacityTable
}

// capacityTable is one variant's steps.
type capacityTable struct {
	Variant string
	Knee    string
	Header  []string
	Rows    [][]string
}

// capacitySectionOf lays out m's capacity answers; nil when the run is no
// capacity search.
func capacitySectionOf(m *analysis.Report) *capacitySection {
	r, cs := m.Run, m.Capacities
	if cs == nil {
		return nil
	}
	s := &capacitySection{Line: m.CapacityLine.String(), Intro: tables.CapacityIntro(r.Capacity)}
	for i := range cs {
		h, rows := tables.CapacityRows(&cs[i])
		s.Tables = append(s.Tables, capacityTable{Variant: r.Variants[cs[i].Variant].Name, Knee: analysis.KneeWords(&cs[i], r.Capacity.From), Header: h, Rows: rows})
	}
	return s
}

// capacityCharts draws, per variant of a capacity search, the p99
// latency the target bounds (handshake, else total from the intended
// start) against the rate asked at each step, the target as a dashed
// line and the knee (the highest rate that met the targets) as a dotted
// vertical line; failing steps are ringed.
func capacityCharts(m *analysis.Report) []chart {
	r, cs := m.Run, m.Capacities
	spec := r.Capacity
	var out []chart
	for i := range cs {
		c := &cs[i]
		name := r.Variants[c.Variant].Name
		what, target := "p99 handshake", spec.P99Handshake
		pick := func(g *results.Group) *results.Histogram { return g.Latency.Handshake }
		if target == 0 {
			what, target = "p99 total from the intended start", spec.P99Total
			pick = func(g *results.Group) *results.Histogram { return g.Latency.Intended }
		}
		ch := chart{
			ID:    "chart-capacity-" + strconv.Itoa(c.Variant),
			Title: "Capacity of " + name + ": " + what + " against the rate asked",
			Caption: "Points: one step of the search each (one open-loop window), " + what + " in ms (log scale) at the rate asked; " +
				"ringed: steps that missed a target (latency, errors or missed starts); dashed line: the target; dotted line: the knee, " +
				analysis.KneeWords(c, spec.From) + ".",
		}
		col := variantColor(c.Variant)
		steps := append([]*results.Rep(nil), c.Steps...)
		sort.SliceStable(steps, func(a, b int) bool { return steps[a].Step.Rate < steps[b].Step.Rate })
		var line, fails plotter.XYs
		for _, rep := range steps {
			h := pick(&rep.Total)
			if h == nil || h.Histogram == nil || h.TotalCount() == 0 {
				continue
			}
			y := math.Max(float64(h.ValueAtQuantile(99))/1e3, 0.001)
			line = append(line, plotter.XY{X: rep.Step.Rate, Y: y})
			if !rep.Step.Pass {
				fails = append(fails, plotter.XY{X: rep.Step.Rate, Y: y})
			}
		}
		if len(line) == 0 {
			ch.Err = "no step measured a latency"
			out = append(out, ch)
			continue
		}
		p := newPlot("", "rate asked (new connections/s)", what+" ms")
		p.X.Tick.Marker = rateTicks{}
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		lightGrid(p, true, true)
		l, pts, err := plotter.NewLinePoints(line)
		if err != nil {
			out = append(out, ch.finish("", err))
			continue
		}
		l.Color, l.Width = col, 2
		pts.GlyphStyle = draw.GlyphStyle{Color: col, Radius: 3.5, Shape: draw.CircleGlyph{}}
		p.Add(l, pts)
		if len(fails) > 0 {
			ring, err := plotter.NewScatter(fails)
			if err != nil {
				out = append(out, ch.finish("", err))
				continue
			}
			ring.GlyphStyle = draw.GlyphStyle{Color: colorAlarm, Radius: 7, Shape: draw.RingGlyph{}}
			p.Add(ring)
		}
		lo, hi := line[0].X, line[len(line)-1].X
		ms := float64(target) / float64(time.Millisecond)
		ymin, ymax := ms, ms
		for _, pt := range line {
			ymin, ymax = math.Min(ymin, pt.Y), math.Max(ymax, pt.Y)
		}
		if err := refLine(p, lo, ms, hi, ms, colorMuted); err != nil {
			out = append(out, ch.finish("", err))
			continue
		}
		ch.Legend = []legendItem{
			{Name: name + ": " + what, Color: cssColor(col), Line: true},
			{Name: "target " + strings.TrimSuffix(strings.TrimRight(format.Millis(target.Microseconds()), "0"), ".") + " ms", Color: cssColor(colorMuted), Line: true, Dashed: true},
			{Name: "missed a target", Color: cssColor(colorAlarm)},
		}
		if c.Knee > 0 {
			k, err := plotter.NewLine(plotter.XYs{{X: c.Knee, Y: ymin}, {X: c.Knee, Y: ymax}})
			if err != nil {
				out = append(out, ch.finish("", err))
				continue
			}
			k.Color, k.Width, k.Dashes = colorBest, 1.2, []vg.Length{1.5, 2.5}
			p.Add(k)
			if err := labels(p, plotter.XYs{{X: c.Knee, Y: ymax}}, []string{"knee " + analysis.KneeWords(c, spec.From)}, vg.Point{X: 6, Y: -12}, 10, colorBest); err != nil {
				out = append(out, ch.finish("", err))
				continue
			}
			ch.Legend = append(ch.Legend, legendItem{Name: "knee", Color: cssColor(colorBest), Line: true, Dashed: true})
		}
		pad := (hi - lo) * 0.05
		p.X.Min, p.X.Max = math.Max(0, lo-pad), hi+pad
		p.Y.Min, p.Y.Max = ymin/1.5, ymax*1.5
		out = append(out, ch.finish(renderSVG(p, chartWidth, 300, ch.Title)))
	}
	return out
}
