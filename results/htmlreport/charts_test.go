package htmlreport

import (
	"github.com/kaeload/kaeload/results/stats"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/softratio"
)

// svgPath is one <path> of a chart as vgsvg writes it.
type svgPath struct {
	// Pts are the M and L vertices, in order.
	Pts [][2]float64
	// Curved says the path has other commands (the arcs of a glyph).
	Curved bool
	// Closed says it ends with Z.
	Closed bool
	// Fill and Stroke are the colours ("#1F77B4"), "" for none.
	Fill, Stroke string
}

var (
	svgPathEl  = regexp.MustCompile(`<path d="([^"]*)" style="([^"]*)"`)
	svgCommand = regexp.MustCompile(`([A-Za-z])([^A-Za-z]*)`)
)

// svgPaths parses every <path> of an SVG written by vgsvg.
func svgPaths(t *testing.T, svg string) []svgPath {
	t.Helper()
	var out []svgPath
	for _, m := range svgPathEl.FindAllStringSubmatch(svg, -1) {
		var p svgPath
		for _, c := range svgCommand.FindAllStringSubmatch(m[1], -1) {
			switch c[1] {
			case "M", "L":
				xy := strings.Split(strings.TrimSpace(c[2]), ",")
				if len(xy) != 2 {
					t.Fatalf("path %q: bad vertex %q", m[1], c[0])
				}
				x, errX := strconv.ParseFloat(xy[0], 64)
				y, errY := strconv.ParseFloat(xy[1], 64)
				if errX != nil || errY != nil {
					t.Fatalf("path %q: bad vertex %q", m[1], c[0])
				}
				p.Pts = append(p.Pts, [2]float64{x, y})
			case "Z":
				p.Closed = true
			default:
				p.Curved = true
			}
		}
		for _, decl := range strings.Split(m[2], ";") {
			k, v, _ := strings.Cut(decl, ":")
			if v == "none" {
				v = ""
			}
			switch k {
			case "fill":
				p.Fill = v
			case "stroke":
				p.Stroke = v
			}
		}
		out = append(out, p)
	}
	return out
}

// bars returns the filled axis-aligned rectangles of paths whose fill is
// one of colours, by colour.
func bars(paths []svgPath, colours map[string]bool) map[string][]svgPath {
	out := map[string][]svgPath{}
	for _, p := range paths {
		if !p.Closed || p.Curved || len(p.Pts) != 4 || !colours[p.Fill] {
			continue
		}
		xs, ys := map[float64]bool{}, map[float64]bool{}
		for _, v := range p.Pts {
			xs[v[0]], ys[v[1]] = true, true
		}
		if len(xs) == 2 && len(ys) == 2 {
			out[p.Fill] = append(out[p.Fill], p)
		}
	}
	return out
}

// polylines returns the open stroked paths of three vertices or more whose
// stroke is one of colours: lines joining points (whiskers and reference
// lines have two).
func polylines(paths []svgPath, colours map[string]bool) []svgPath {
	var out []svgPath
	for _, p := range paths {
		if !p.Closed && !p.Curved && p.Fill == "" && colours[p.Stroke] && len(p.Pts) >= 3 {
			out = append(out, p)
		}
	}
	return out
}

// height is a rectangle's extent along y.
func height(p svgPath) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range p.Pts {
		lo, hi = math.Min(lo, v[1]), math.Max(hi, v[1])
	}
	return hi - lo
}

// sweepFixture returns measured variants for the sweep charts, without
// summarizing a run: a sweep over certificate names ("{cert}": rsa2048,
// the baseline, 1,180 req/s; rsa4096, 190; ecdsa-p256, 2,950) and one over
// ratio numbers ("kae-soft-{ratio}": 0, 10, 33, 50, 100, listed out of
// order), each mean with a ±2 % confidence interval; the best of each
// sweep marked.
func sweepFixture() []measure.Variant {
	var vs []measure.Variant
	add := func(name, series, key, value string, mean float64, best bool) {
		v := &results.Variant{Name: name, Series: series, Sweep: map[string]string{key: value}, Reps: make([]results.Rep, 5)}
		st := stats.Stats{N: 5, Mean: mean, HasCI: true, CI95Low: mean * 0.98, CI95High: mean * 1.02}
		vs = append(vs, measure.Variant{I: len(vs), V: v,
			S: &analysis.VariantSummary{Stats: st, IsBaseline: len(vs) == 0, Best: best}})
	}
	add("rsa2048", "{cert}", "cert", "rsa2048", 1180, false)
	add("rsa4096", "{cert}", "cert", "rsa4096", 190, false)
	add("ecdsa-p256", "{cert}", "cert", "ecdsa-p256", 2950, true)
	add("kae-soft-50", "kae-soft-{ratio}", "ratio", "50", 1700, false)
	add("kae-soft-0", "kae-soft-{ratio}", "ratio", "0", 1500, false)
	add("kae-soft-10", "kae-soft-{ratio}", "ratio", "10", 1650, false)
	add("kae-soft-33", "kae-soft-{ratio}", "ratio", "33", 1810, true)
	add("kae-soft-100", "kae-soft-{ratio}", "ratio", "100", 1200, false)
	return vs
}

// fixtureSweeps are the analysis's sweeps of sweepFixture: the names in
// run order, the ratios by value.
func fixtureSweeps() []analysis.SweepSummary {
	return []analysis.SweepSummary{
		{Series: "{cert}", Keys: []string{"cert"}, Variants: []int{0, 1, 2}, Labels: []string{"rsa2048", "rsa4096", "ecdsa-p256"}},
		{Series: "kae-soft-{ratio}", Keys: []string{"ratio"}, Numeric: true, Variants: []int{4, 5, 6, 3, 7},
			Labels: []string{"0", "10", "33", "50", "100"}, Values: []float64{0, 10, 33, 50, 100}},
	}
}

// sweepCharts draws every sweep of ss as the page does.
func sweepCharts(ss []analysis.SweepSummary, vs []measure.Variant, verdicts map[string]string,
	pred *softratio.Prediction) []chart {
	var out []chart
	for i := range ss {
		out = append(out, sweepChart(i, &ss[i], vs, &vs[0], verdicts[ss[i].Series], pred))
	}
	return out
}

// TestSweepChartKinds draws a sweep over certificate names and one over
// ratio numbers. The names must be bars: a filled rectangle per value in
// its variant's colour, heights in proportion to the means (bars start
// at zero), no line joining them. The numbers must be a line: one
// polyline through the five points in order of the swept value, no bars.
func TestSweepChartKinds(t *testing.T) {
	vs := sweepFixture()
	charts := sweepCharts(fixtureSweeps(), vs, nil, nil)
	if got, want := len(charts), 2; got != want {
		t.Fatalf("%d sweep charts, want %d", got, want)
	}
	bySeries := map[string][]measure.Variant{}
	for _, v := range vs {
		bySeries[v.V.Series] = append(bySeries[v.V.Series], v)
	}
	colours := func(series string) map[string]bool {
		m := map[string]bool{}
		for _, v := range bySeries[series] {
			m[strings.ToUpper(cssColor(variantColor(v.I)))] = true
		}
		return m
	}

	cert := charts[0]
	if cert.Err != "" || !strings.Contains(cert.Title, "{cert}") {
		t.Fatalf("first sweep chart: title %q, error %q; want the {cert} sweep drawn", cert.Title, cert.Err)
	}
	paths := svgPaths(t, string(cert.SVG))
	cs := colours("{cert}")
	got := bars(paths, cs)
	var unit float64 // px per req/s, the same for every bar when bars start at zero
	for _, v := range bySeries["{cert}"] {
		c := strings.ToUpper(cssColor(variantColor(v.I)))
		if len(got[c]) != 1 {
			t.Errorf("{cert} sweep: %d bars in %s's colour %s, want 1", len(got[c]), v.V.Name, c)
			continue
		}
		u := height(got[c][0]) / v.S.Stats.Mean
		if unit == 0 {
			unit = u
		} else if math.Abs(u/unit-1) > 0.01 {
			t.Errorf("{cert} sweep: %s's bar is %.1f px for %.1f req/s, not in proportion with the others (bars must start at zero)",
				v.V.Name, height(got[c][0]), v.S.Stats.Mean)
		}
	}
	if lines := polylines(paths, cs); len(lines) != 0 {
		t.Errorf("{cert} sweep: %d lines join its points, want none (certificate names are categories): %v", len(lines), lines)
	}
	if !strings.Contains(cert.Caption, "names, not numbers") || !strings.Contains(string(cert.SVG), "best: ecdsa-p256, 2,950.0 req/s") {
		t.Errorf("{cert} sweep: caption %q; want it to say why there are bars, and the best bar labelled", cert.Caption)
	}

	ratio := charts[1]
	if ratio.Err != "" || !strings.Contains(ratio.Title, "kae-soft-{ratio}") {
		t.Fatalf("second sweep chart: title %q, error %q; want the kae-soft-{ratio} sweep drawn", ratio.Title, ratio.Err)
	}
	paths = svgPaths(t, string(ratio.SVG))
	rs := colours("kae-soft-{ratio}")
	if b := bars(paths, rs); len(b) != 0 {
		t.Errorf("ratio sweep: bars in the series' colours %v, want a line", b)
	}
	lines := polylines(paths, rs)
	if len(lines) != 1 || len(lines[0].Pts) != len(bySeries["kae-soft-{ratio}"]) {
		t.Fatalf("ratio sweep: lines %v, want one through its %d points", lines, len(bySeries["kae-soft-{ratio}"]))
	}
	for i := 1; i < len(lines[0].Pts); i++ {
		if lines[0].Pts[i][0] <= lines[0].Pts[i-1][0] {
			t.Errorf("ratio sweep: line vertices %v not in increasing x", lines[0].Pts)
			break
		}
	}
}

// TestSweepChartNoBest: a sweep the analysis found no best in (no value
// significantly faster than every other) rings no point and names none
// "best", and its caption ends with the verdict it is given.
func TestSweepChartNoBest(t *testing.T) {
	vs := sweepFixture()
	for i := range vs {
		vs[i].S.Best = false
	}
	verdict := "no best value: no ratio is significantly faster than another"
	for _, c := range sweepCharts(fixtureSweeps(), vs, map[string]string{"kae-soft-{ratio}": verdict}, nil) {
		if c.Err != "" {
			t.Fatalf("%s: %s", c.Title, c.Err)
		}
		if strings.Contains(string(c.SVG), "best:") {
			t.Errorf("%s: a point is labelled best, but the analysis marked none", c.Title)
		}
		for _, l := range c.Legend {
			if strings.Contains(l.Name, "best") {
				t.Errorf("%s: legend %q, but nothing is ringed", c.Title, l.Name)
			}
		}
		if got := strings.HasSuffix(c.Caption, " Verdict: "+verdict+"."); got != strings.Contains(c.Title, "ratio") {
			t.Errorf("%s: caption %q; want the verdict given for its series, and only there", c.Title, c.Caption)
		}
	}
}

// TestSweepChartModelCurve: the ratio sweep's chart holds the soft-ratio
// model's curve (a polyline in colorModel across 0..100) when the run has
// a prediction and the swept number is KAE_GO_SOFT_RATIO, and not without
// a prediction or when the variants set no soft ratio.
func TestSweepChartModelCurve(t *testing.T) {
	pred := &softratio.Prediction{Status: softratio.OK, Ratio: softratio.Range{Value: 0.37},
		Model: softratio.Model{A: 1.25e-3, B: 0.3e-3, Beta: 1, CPUs: 1, Capacity: 967}}
	model := map[string]bool{strings.ToUpper(cssColor(colorModel)): true}
	curves := func(pred *softratio.Prediction, env bool) int {
		vs := sweepFixture()
		for _, v := range vs {
			if env && v.V.Series == "kae-soft-{ratio}" {
				v.V.Env = map[string]string{analysis.SoftRatioEnv: v.V.Sweep["ratio"]}
			}
		}
		c := sweepCharts(fixtureSweeps(), vs, nil, pred)[1]
		if c.Err != "" {
			t.Fatalf("ratio chart: %s", c.Err)
		}
		return len(polylines(svgPaths(t, string(c.SVG)), model))
	}
	for _, tc := range []struct {
		pred *softratio.Prediction
		env  bool
		want int
	}{{pred, true, 1}, {nil, true, 0}, {pred, false, 0}, {&softratio.Prediction{Status: softratio.NoCapacity}, true, 0}} {
		if got := curves(tc.pred, tc.env); got != tc.want {
			t.Errorf("prediction %v, soft ratio env %v: %d model curves, want %d", tc.pred != nil, tc.env, got, tc.want)
		}
	}
}
