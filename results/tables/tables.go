package tables

import (
	"bytes"
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/stats"
	"math"
	"slices"
	"strconv"
	"strings"
)

// StatsNote says how the comparison decides: which test, which
// adjustment over how many comparisons, and what MDE and equivalence mean.
func StatsNote(s *analysis.RunSummary) string {
	test := "t-test on ln(total req/s) of the repetitions (a test of the ratio)"
	adjust := fmt.Sprintf("p adjusted by Holm over the run's %d comparisons (family-wise α = %g)", s.Family, stats.Alpha)
	if s.Family <= 1 {
		adjust = fmt.Sprintf("one comparison, α = %g", stats.Alpha)
	}
	level := "α"
	if s.Family > 1 {
		level = fmt.Sprintf("α/%d (Bonferroni, Holm's strictest step)", s.Family)
	}
	return fmt.Sprintf("%s; %s; MDE: the smallest difference found with %.0f %% power at %s; 95 %% CI: of the geometric mean, on the log scale; equivalence: two one-sided tests against ±%s %% (symmetric ratio limits)",
		test, adjust, stats.Power*100, level, strconv.FormatFloat(s.Equivalence*100, 'g', 4, 64))
}

// OrderLine says in what order the run's windows ran and what that means
// for drift; "" for a run that did not record it.
func OrderLine(r *results.Run) string {
	switch r.Order {
	case results.OrderRandomized:
		return fmt.Sprintf("randomized blocks (every round runs each variant once, in a random order), seed %d (replay: --seed %d)", r.Seed, r.Seed)
	case results.OrderInterleaved:
		return "interleaved (every round runs each variant once, in plan order)"
	case results.OrderSequential:
		return "sequential (every repetition of a variant, then the next): drift of the machine is not controlled"
	}
	return ""
}

// meanCell is the mean rate; "-" without a repetition.
func meanCell(st stats.Stats) string {
	if st.N == 0 {
		return "-"
	}
	return format.Rate(st.Mean)
}

// Cells are lead, then each of cols' value of x as the tables show it.
func Cells[X any](cols []measure.Column, of func(measure.Column, X) measure.Value, x X, lead ...string) []string {
	for _, c := range cols {
		lead = append(lead, c.Text(of(c, x)))
	}
	return lead
}

// Comparison is the answer of a run: per variant, the catalogue's
// measures that out's variant tables show (results/measure).
func Comparison(m *analysis.Report, out measure.Output) Table {
	cols := measure.VariantColumns(m, out)
	t := Header(cols, "variant")
	for i := range m.Summary.Variants {
		x := measure.NewVariant(m, i)
		t.Add(Cells(cols, measure.Column.OfVariant, x, x.Name)...)
	}
	return t
}

// Below is what the text report writes under its comparison table: per
// variant, the catalogue's Below measures it has a value of (not "-"), as
// rows of the variant's name (on its first row), the label and the value.
func Below(m *analysis.Report) Table {
	var t Table
	cols := measure.VariantColumns(m, measure.Below)
	for i := range m.Summary.Variants {
		x := measure.NewVariant(m, i)
		name := x.Name
		for _, c := range cols {
			if v := c.OfVariant(x); v.Kind != measure.None && c.Text(v) != format.Missing {
				t.Add(name, c.Label, c.Text(v))
				name = ""
			}
		}
	}
	return t
}

// Repetitions has a row per repetition of every variant with the
// catalogue's measures that out's repetition tables show; a variant
// without any says so in the last cell.
func Repetitions(m *analysis.Report, out measure.Output) Table {
	cols := measure.RepColumns(m, out)
	t := Header(cols, "variant", "rep")
	for i := range m.Run.Variants {
		v := &m.Run.Variants[i]
		if len(v.Reps) == 0 {
			row := append([]string{v.Name, "-"}, make([]string, len(cols))...)
			row[len(row)-1] = "no completed repetitions"
			t.Add(row...)
		}
		for j := range v.Reps {
			t.Add(Cells(cols, measure.Column.OfRep, measure.NewRep(m, i, j), v.Name, strconv.Itoa(v.Reps[j].Index+1))...)
		}
	}
	return t
}

// Header is a table of cols' labels after names (the first names
// left-aligned, the rest right).
func Header(cols []measure.Column, names ...string) Table {
	t := Table{Header: names, Right: make([]bool, len(names))}
	for i := 1; i < len(names); i++ {
		t.Right[i] = true
	}
	for _, c := range cols {
		t.Header = append(t.Header, c.Label)
		t.Right = append(t.Right, !c.Left)
	}
	return t
}

// Probes has one row per variant and probe; ok is false when no
// variant has a probe reading.
func Probes(s *analysis.RunSummary) (t Table, ok bool) {
	failed := false
	for i := range s.Variants {
		for _, p := range s.Variants[i].Probes {
			ok = true
			failed = failed || p.Failed > 0
		}
	}
	t.Header = []string{"variant", "probe", "n", "mean delta", "per request"}
	t.Right = []bool{false, false, true, true, true}
	if failed {
		t.Header = append(t.Header, "failed")
		t.Right = append(t.Right, false)
	}
	for i := range s.Variants {
		v := &s.Variants[i]
		for _, p := range v.Probes {
			mean, per := "-", "-"
			if p.N > 0 {
				mean = format.Number(p.MeanDelta)
			}
			if p.HasPerRequest {
				per = strconv.FormatFloat(p.PerRequest, 'f', 3, 64)
			}
			row := []string{v.Name, p.Name, strconv.Itoa(p.N), mean, per}
			if failed {
				f := ""
				if p.Failed > 0 {
					f = fmt.Sprintf("%d, first: %s", p.Failed, format.Plain(p.FirstError))
				}
				row = append(row, f)
			}
			t.Add(row...)
		}
	}
	return t, ok
}

// chartWidth is the width of a sweep chart's bars in characters.
const chartWidth = 40

// SweepTitle is the heading of a sweep's table.
func SweepTitle(sw *analysis.SweepSummary) string {
	by := strings.Join(sw.Keys, ", ")
	order := "in run order"
	if sw.Numeric {
		order = "by value"
	}
	return fmt.Sprintf("sweep %s: mean req/s by %s (%s)", sw.Series, by, order)
}

// SweepLegend explains a sweep chart.
const SweepLegend = "chart: # up to the mean, = and - span the 95 % CI below and above it; * marks the best (significantly faster than every other value, every pair of values judged together, Holm–Shaffer), ~ the plateau when no value is"

// PlateauLine says what a sweep concluded: its best value or plateau and
// the family judged, or that nothing could be; "" when nothing was measured.
func PlateauLine(s *analysis.RunSummary, sw *analysis.SweepSummary) string {
	label := map[int]string{}
	for k, i := range sw.Variants {
		label[i] = sw.Labels[k]
	}
	// A value named best or highest says in the same line when its
	// figures measured something else than the server.
	caveat := func(i int) string {
		if c := s.Variants[i].Caveat.String(); c != "" {
			return " — " + label[i] + ": " + c
		}
		return ""
	}
	if len(sw.Plateau) == 0 {
		if sw.Top < 0 {
			return ""
		}
		top := "the highest mean is " + label[sw.Top]
		if s.Variants[sw.Top].Stats.N >= 2 {
			// The one value measured twice is Top however low its
			// mean (stats.PairPlateau): a run interrupted in its
			// second round.
			top = "only " + label[sw.Top] + " has 2+ repetitions"
		}
		return fmt.Sprintf("not judged: no two values of %s have 2+ repetitions each, so none can be called best or no worse (%s%s)", strings.Join(sw.Keys, ", "), top, caveat(sw.Top))
	}
	var names []string
	for _, i := range sw.Plateau {
		names = append(names, label[i])
	}
	family := "no pair of values could be tested"
	switch {
	case sw.Family == 1:
		family = "one pair of values tested"
	case sw.Family > 1:
		family = fmt.Sprintf("all %d pairs of values judged together, Holm–Shaffer", sw.Family)
	}
	var line string
	switch {
	case sw.Best >= 0:
		line = fmt.Sprintf("best: %s, significantly faster than every other value%s (%s)", label[sw.Best], caveat(sw.Best), family)
	case len(sw.Plateau) == len(sw.Variants):
		line = fmt.Sprintf("no best value: no %s is significantly faster than another (plateau: %s; %s)", strings.Join(sw.Keys, ", "), strings.Join(names, ", "), family)
	default:
		top := "the highest mean is "
		for _, i := range sw.Variants {
			if s.Variants[i].Stats.N == 1 { // never Top beside tested values (stats.PairPlateau)
				top = "the highest mean of those with 2+ repetitions is "
			}
		}
		line = fmt.Sprintf("plateau: %s (no other value is significantly faster than these; %s%s%s; %s)", strings.Join(names, ", "), top, label[sw.Top], caveat(sw.Top), family)
	}
	if sw.Caution != "" {
		line += "; caution: " + sw.Caution
	}
	return line
}

// Drift shows every variant's rate by round, the round effect and
// (in title) the trend; ok is false with fewer than two rounds.
func Drift(s *analysis.RunSummary) (t Table, title string, ok bool) {
	d := &s.Drift
	if d.Rounds < 2 {
		return t, "", false
	}
	t.Header, t.Right = []string{"variant"}, []bool{false}
	for r := range d.Rounds {
		t.Header = append(t.Header, fmt.Sprintf("round %d", r+1))
		t.Right = append(t.Right, true)
	}
	for i := range s.Variants {
		row := []string{s.Variants[i].Name}
		for _, c := range d.Cells[i] {
			switch {
			case !c.OK:
				row = append(row, "-")
			case c.Failed:
				row = append(row, format.Rate(c.Rate)+" FAILED")
			default:
				row = append(row, format.Rate(c.Rate))
			}
		}
		t.Add(row...)
	}
	row := []string{"round effect"}
	for r := range d.Rounds {
		cell := "-"
		if d.RoundHas[r] {
			cell = format.Delta(d.RoundPct[r])
		}
		row = append(row, cell)
	}
	t.Add(row...)
	title = "drift by round: req/s of every variant in each round; round effect = the round's mean deviation from each variant's own mean"
	if d.HasTrend {
		title += fmt.Sprintf("; trend over the run %s from round 1 to round %d", format.Delta(d.TrendPct), d.Rounds)
	}
	if !d.Controlled {
		title += "; order sequential: a variant's rounds are consecutive windows, so drift between variants is not shown here and not controlled"
	}
	return t, title, true
}

// Sweep is a sweep's variants in chart order, preceded by the
// baseline when the baseline is not one of them (and was measured), with an ASCII bar of the
// mean rate and its confidence interval on a scale from 0.
func Sweep(s *analysis.RunSummary, sw *analysis.SweepSummary) Table {
	rows := sw.Variants
	labels := sw.Labels
	inSweep := false
	for _, i := range rows {
		inSweep = inSweep || i == s.Baseline
	}
	if !inSweep && s.Baseline >= 0 {
		rows = append([]int{s.Baseline}, rows...)
		labels = append([]string{"-"}, labels...)
	}
	var top float64
	for _, i := range rows {
		st := s.Variants[i].Stats
		if st.N > 0 {
			top = max(top, st.Mean, st.CI95High)
		}
	}
	scale := niceCeil(top)
	axisRight := format.GroupDigits(strconv.FormatFloat(scale, 'f', 0, 64))
	axis := "0" + strings.Repeat(" ", max(1, chartWidth+2-1-len(axisRight))) + axisRight
	t := Table{Header: []string{"", strings.Join(sw.Keys, " "), "variant", axis, "mean req/s", "95 % CI", "Δ% vs baseline"},
		Right: []bool{false, true, false, false, true, false, true}}
	for k, i := range rows {
		v := &s.Variants[i]
		mark := ""
		switch {
		case v.Best:
			mark = "*"
		case v.Plateau && v.Series == sw.Series:
			mark = "~"
		}
		t.Add(mark, labels[k], v.Name, bar(v.Stats, scale, chartWidth), meanCell(v.Stats), measure.CICell(v.Stats), measure.DeltaCell(s, v))
	}
	return t
}

// bar draws st on a scale from 0 to scale in width characters between two
// '|': '#' up to the mean, then the confidence interval as '=' below the
// mean and '-' above it. Positions round to the nearest character.
func bar(st stats.Stats, scale float64, width int) string {
	cells := bytes.Repeat([]byte{' '}, width)
	if st.N > 0 && scale > 0 {
		pos := func(x float64) int {
			p := int(math.Round(x / scale * float64(width)))
			return min(max(p, 0), width)
		}
		pm := pos(st.Mean)
		for i := range pm {
			cells[i] = '#'
		}
		if st.HasCI {
			for i := pos(st.CI95Low); i < pos(st.CI95High); i++ {
				if i < pm {
					cells[i] = '='
				} else {
					cells[i] = '-'
				}
			}
		}
	}
	return "|" + string(cells) + "|"
}

// niceCeil returns the smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k
// that is at least x; 0 for x ≤ 0.
func niceCeil(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 0
	}
	exp := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		v := m * exp
		if exp >= 1 {
			v = math.Round(v) // 1.2 × 10^5 is 120000, not 120000.00000000001
		}
		if v >= x {
			return v
		}
	}
	return 10 * exp
}

// Latencies is a repetition's latency table: a row per catalogue
// measure shown in measure.Latencies that has a value, a column per
// member of its family.
func Latencies(x *measure.Rep) Table {
	cols := measure.Columns(x.R, measure.Latencies)
	t := latencyHeader(cols, measure.LatencyHeading)
	addLatencies(&t, cols, nil, func(c measure.Column) measure.Value { return c.OfRep(x) })
	return t
}

// VariantLatencies is Latencies of every variant, its repetitions merged
// (measure.PageLatencies), its rows led by its name.
func VariantLatencies(m *analysis.Report) Table {
	cols := measure.Columns(m, measure.PageLatencies)
	t := latencyHeader(cols, "variant", "timing")
	for i := range m.Run.Variants {
		x := measure.NewVariant(m, i)
		addLatencies(&t, cols, []string{x.Name}, func(c measure.Column) measure.Value { return c.OfVariant(x) })
	}
	return t
}

// latencyHeader is names, then a column per member of the first family.
func latencyHeader(cols []measure.Column, names ...string) Table {
	t := Table{Header: names, Right: make([]bool, len(names))}
	for _, c := range cols {
		if c.Measure == cols[0].Measure {
			t.Header, t.Right = append(t.Header, c.Param), append(t.Right, true)
		}
	}
	return t
}

// addLatencies adds a row per family of cols with a value: lead, the
// family's label and its members' values.
func addLatencies(t *Table, cols []measure.Column, lead []string, value func(measure.Column) measure.Value) {
	for start, end := 0, 0; start < len(cols); start = end {
		row := append(slices.Clone(lead), cols[start].Label)
		for ; end < len(cols) && cols[end].Measure == cols[start].Measure; end++ {
			if v := value(cols[end]); v.Kind != measure.None {
				row = append(row, cols[end].Text(v))
			}
		}
		if len(row) > len(lead)+1 {
			t.Add(row...)
		}
	}
}

// Groups is a repetition's groups table: a row per group and the total,
// with the catalogue's measures shown in measure.Groups (a Sparse one only
// where a row has it).
func Groups(x *measure.Rep) Table {
	rows := []*results.Group{}
	for i := range x.Rep.Groups {
		rows = append(rows, &x.Rep.Groups[i])
	}
	rows = append(rows, &x.Rep.Total)
	cols := slices.DeleteFunc(measure.Columns(x.R, measure.Groups), func(c measure.Column) bool {
		return c.Sparse && !slices.ContainsFunc(rows, func(g *results.Group) bool { x.G = g; return c.OfRep(x).Kind != measure.None })
	})
	t := Header(cols, "group")
	for _, g := range rows {
		x.G = g
		name := "total"
		if g.Index != results.TotalIndex {
			name = strconv.Itoa(g.Index)
		}
		t.Add(Cells(cols, measure.Column.OfRep, x, name)...)
	}
	return t
}
