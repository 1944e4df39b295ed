package tables

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// Comparison has a row per variant with the measures out's tables show.
func Comparison(m *analysis.Report, out measure.Output) Table {
	cols := measure.VariantColumns(m, out)
	t := Header(cols, "variant")
	for _, x := range measure.Variants(m) {
		t.Add(Cells(cols, measure.Column.OfVariant, x, x.Name)...)
	}
	return t
}

// Below is each variant's Below measures, labelled, under the text comparison.
func Below(m *analysis.Report) Table {
	var t Table
	cols := measure.VariantColumns(m, measure.Below)
	for _, x := range measure.Variants(m) {
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

// Repetitions has a row per repetition with the measures out's tables show.
func Repetitions(m *analysis.Report, out measure.Output) Table {
	cols := measure.RepColumns(m, out)
	t := Header(cols, "variant", ">rep")
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

// Probes has a row per variant and probe, a failed column only when one failed.
func Probes(s *analysis.RunSummary) (t Table, ok bool) {
	t = Table{}.cols("variant", "probe", ">n", ">mean delta", ">per request", "failed")
	for i := range s.Variants {
		for _, p := range s.Variants[i].Probes {
			f, per := "", format.Missing
			if p.Failed > 0 {
				f = fmt.Sprintf("%d, first: %s", p.Failed, format.Plain(p.FirstError))
			}
			if p.PerRequest != nil {
				per = strconv.FormatFloat(*p.PerRequest, 'f', 3, 64)
			}
			t.Add(s.Variants[i].Name, p.Name, strconv.Itoa(p.N), OrMissing(p.N > 0, format.Number(p.MeanDelta)),
				per, f)
		}
	}
	if !slices.ContainsFunc(t.Rows, func(r []string) bool { return r[5] != "" }) { // without the failed column
		t.Header, t.Right = t.Header[:5], t.Right[:5]
		t.Rows = measure.Map(t.Rows, func(r []string) []string { return r[:5] })
	}
	return t, len(t.Rows) > 0
}

// Drift is every variant's rate by round and the round effect, with its title.
func Drift(s *analysis.RunSummary) (t Table, title string, ok bool) {
	d := &s.Drift
	if d.Rounds < 2 {
		return t, "", false
	}
	t = Table{}.cols("variant")
	effect := []string{"round effect"}
	for r := range d.Rounds {
		t = t.cols(fmt.Sprintf(">round %d", r+1))
		effect = append(effect, OrMissing(d.RoundHas[r], format.Delta(d.RoundPct[r])))
	}
	for i := range s.Variants {
		row := []string{s.Variants[i].Name}
		for _, c := range d.Cells[i] {
			row = append(row, OrMissing(c.OK, format.Rate(c.Rate)+either(c.Failed, " FAILED", "")))
		}
		t.Add(row...)
	}
	t.Add(effect...)
	title = "drift by round: req/s of every variant in each round; round effect = the round's mean deviation from each variant's own mean"
	if d.HasTrend {
		title += fmt.Sprintf("; trend over the run %s from round 1 to round %d", format.Delta(d.TrendPct), d.Rounds)
	}
	if !d.Controlled {
		title += "; order sequential: a variant's rounds are consecutive windows, so drift between variants is not shown here and not controlled"
	}
	return t, title, true
}

const chartWidth = 40

// Sweep is a sweep's variants (the baseline first when measured and not one of them), each with an
// ASCII bar of its mean rate and 95 % CI.
func Sweep(s *analysis.RunSummary, sw *analysis.SweepSummary) Table {
	rows, labels := sw.Variants, sw.Labels
	if !slices.Contains(rows, s.Baseline) && s.Baseline >= 0 {
		rows, labels = append([]int{s.Baseline}, rows...), append([]string{"-"}, labels...)
	}
	var top float64
	for _, i := range rows {
		if st := s.Variants[i].Stats; st.N > 0 {
			top = max(top, st.Mean, st.CI95High)
		}
	}
	scale := niceCeil(top)
	axisRight := format.Float(scale, 0)
	axis := "0" + strings.Repeat(" ", max(1, chartWidth+2-1-len(axisRight))) + axisRight
	t := Table{}.cols("", ">"+strings.Join(sw.Keys, " "), "variant", axis, ">mean req/s", "95 % CI", ">Δ% vs baseline")
	for k, i := range rows {
		v := &s.Variants[i]
		mark := either(v.Best, "*", either(v.Plateau && v.Series == sw.Series, "~", ""))
		t.Add(mark, labels[k], v.Name, bar(v.Stats, scale, chartWidth),
			OrMissing(v.Stats.N > 0, format.Rate(v.Stats.Mean)), measure.CICell(v.Stats), measure.DeltaCell(s, v))
	}
	return t
}

// bar draws st from 0 to scale: '#' up to the mean, the CI '=' below it, '-' above.
func bar(st stats.Stats, scale float64, width int) string {
	cells := bytes.Repeat([]byte{' '}, width)
	if st.N > 0 && scale > 0 {
		pos := func(x float64) int {
			return min(max(int(math.Round(x/scale*float64(width))), 0), width)
		}
		pm := pos(st.Mean)
		copy(cells, strings.Repeat("#", pm))
		for i := pos(st.CI95Low); st.HasCI && i < pos(st.CI95High); i++ {
			cells[i] = '-'
			if i < pm {
				cells[i] = '='
			}
		}
	}
	return "|" + string(cells) + "|"
}

// niceCeil is the smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k at least x.
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

// Latencies has a row per family of a repetition's latencies, a column per member but the count.
func Latencies(x *measure.Rep) Table {
	cols := measure.Columns(x.R, measure.Latencies)
	cols = slices.DeleteFunc(cols, func(c measure.Column) bool { return c.Param == "count" })
	none := func(*measure.Rep) []string { return nil }
	return latencyTable(cols, measure.Column.OfRep, []*measure.Rep{x}, none, "latency ms")
}

// VariantLatencies is Latencies of every variant, repetitions merged.
func VariantLatencies(m *analysis.Report) Table {
	name := func(x *measure.Variant) []string { return []string{x.Name} }
	cols := measure.Columns(m, measure.Latencies)
	return latencyTable(cols, measure.Column.OfVariant, measure.Variants(m), name, "variant", "timing")
}

// latencyTable is head, then a column per member of cols' first family; after each of xs' lead, a row per
// family of cols that it has a value of (a family has all its members or none).
func latencyTable[X any](cols []measure.Column, of func(measure.Column, X) measure.Value, xs []X, lead func(X) []string,
	head ...string) Table {
	t, n := Table{}.cols(head...), 0
	for ; n < len(cols) && cols[n].Measure == cols[0].Measure; n++ {
		t = t.cols(">" + cols[n].Param)
	}
	for k := range cols {
		if len(cols)%n != 0 || cols[k].Measure != cols[k-k%n].Measure || cols[k].Param != cols[k%n].Param {
			panic("tables: latency families of unequal size") // a catalogue error
		}
	}
	for _, x := range xs {
		for k := 0; k < len(cols); k += n {
			if of(cols[k], x).Kind != measure.None {
				t.Add(Cells(cols[k:k+n], of, x, append(lead(x), cols[k].Label)...)...)
			}
		}
	}
	return t
}

// Groups has a row per group and the total (a Sparse measure only where a row has it).
func Groups(x *measure.Rep) Table {
	rows := append(slices.Clone(x.Rep.Groups), x.Rep.Total) // copies, read only
	cols := slices.DeleteFunc(measure.Columns(x.R, measure.Groups), func(c measure.Column) bool {
		has := func(g results.Group) bool { x.G = &g; return c.OfRep(x).Kind != measure.None }
		return c.Rep == nil || c.Sparse && !slices.ContainsFunc(rows, has) // the page's groups are a variant's
	})
	t := Header(cols, "group")
	for _, g := range rows {
		x.G = &g
		name := either(g.Index == results.TotalIndex, "total", strconv.Itoa(g.Index))
		t.Add(Cells(cols, measure.Column.OfRep, x, name)...)
	}
	return t
}

// SearchLines are the search's lines, then, with a point, its visits as "visit order: 1:50 2:25 …"
// (visit number:value).
func SearchLines(s *analysis.SearchSummary) []string {
	lines := s.Lines().Strings()
	if len(s.Points) == 0 {
		return lines
	}
	visits := make([]string, len(s.Search.Visits))
	for i, v := range s.Search.Visits {
		visits[i] = strconv.Itoa(i+1) + ":" + v.Value
	}
	return append(lines, "visit order: "+strings.Join(visits, " "))
}

// Search has a row per visited value in grid order.
func Search(s *analysis.SearchSummary) Table {
	t := Table{}.cols(">"+s.Search.Key, "visits", ">windows", ">mean "+s.Unit(), "95 % CI", "mark")
	for i := range s.Points {
		p := &s.Points[i]
		var marks []string
		visits := measure.Map(p.Visits, func(n int) string { return "#" + strconv.Itoa(n) })
		ci := OrMissing(p.Stats.HasCI, format.Number(p.Stats.CI95Low)+" … "+format.Number(p.Stats.CI95High))
		for k, on := range []bool{i == s.Best, p.Plateau, i == s.PlateauLow, p.Untested} {
			if on {
				marks = append(marks, [...]string{"best", "plateau", "lowest on plateau", "once, not tested"}[k])
			}
		}
		t.Add(p.Value, strings.Join(visits, " "), strconv.Itoa(p.Stats.N), format.Number(p.Stats.Mean), ci, strings.Join(marks, ", "))
	}
	return t
}

// Capacity has a row per step of a variant's capacity search.
func Capacity(c *results.Capacity) Table {
	t := Table{}.cols(">step", "phase", ">asked/s", ">achieved/s", ">missed", ">errors", ">p99 handshake ms",
		">p99 from intended ms", "verdict")
	for i, rep := range c.Steps {
		st, g := rep.Step, &rep.Total
		t.Add(fmt.Sprint(i+1), st.Phase, format.Count(uint64(math.Round(st.Rate))), format.Rate(g.Rate()), format.Share(g.MissedShare()),
			format.Share(g.ErrorShare()), format.QuantileMillis(g.Latency.Handshake, 99), format.QuantileMillis(g.Latency.Intended, 99),
			either(st.Pass, "pass", "FAIL: "+st.Why))
	}
	return t
}

// Speed is the crypto speed table: a row per figure, its unit, a column per variant, then "Δ% NAME" for
// every other variant (no Δ % without a baseline); "-" where a value or Δ is not defined.
func Speed(t *analysis.SpeedTable) Table {
	values := measure.Map(t.Variants, func(name string) string { return ">" + name })
	tb := Table{}.cols("figure", "unit").cols(values...)
	var others []int // the variants with a Δ % column
	for vi, name := range t.Variants {
		if t.Baseline >= 0 && vi != t.Baseline {
			others = append(others, vi)
			tb = tb.cols(">Δ% " + name)
		}
	}
	for i := range t.Rows {
		row := &t.Rows[i]
		cells := []string{row.Figure(), row.Unit}
		for vi := range t.Variants {
			cells = append(cells, OrMissing(row.Has[vi], format.Rate(row.Values[vi])))
		}
		for _, vi := range others {
			d, ok := t.Delta(row, vi)
			cells = append(cells, OrMissing(ok, format.Delta(d)))
		}
		tb.Add(cells...)
	}
	return tb
}

// Thresholds has a row per threshold check.
func Thresholds(cs []analysis.ThresholdCheck) Table {
	t := Table{}.cols("verdict", "threshold", "variant", ">measured")
	for i := range cs {
		t.Add(either(cs[i].Passed, "pass", "CROSSED"), cs[i].Threshold.Expr, cs[i].Variant, cs[i].Shown().String())
	}
	return t
}

func eachRep(m *analysis.Report, row func(variant, rep string, r *results.Rep)) {
	for i := range m.Run.Variants {
		v := &m.Run.Variants[i]
		for j := range v.Reps {
			row(v.Name, strconv.Itoa(v.Reps[j].Index+1), &v.Reps[j])
		}
	}
}

// NotCounted has a row per repetition with requests outside its window or TIME_WAIT after it.
func NotCounted(m *analysis.Report) Table {
	t := Table{}.cols("variant", ">rep", ">responses", ">errors", ">completed after", ">errors after",
		">failed or cut off", ">in connect", ">in handshake", ">awaiting response", ">TIME_WAIT sockets after")
	eachRep(m, func(variant, rep string, r *results.Rep) {
		o := r.Total.Outside
		if o == (results.Outside{}) && r.TimeWait == nil {
			return
		}
		tw := format.Missing
		if r.TimeWait != nil {
			tw = format.Count(uint64(max(*r.TimeWait, 0)))
		}
		u := o.Unanswered
		t.Add(variant, rep, format.Count(o.Warmup), errorsWithClasses(o.WarmupErrorTotal(), o.WarmupClasses), format.Count(o.Late),
			errorsWithClasses(o.AfterClasses.Total(), o.AfterClasses), format.Count(o.Abandoned),
			format.Count(u.Connect), format.Count(u.Handshake), format.Count(u.Response), tw)
	})
	return t
}

// Errors has a row per repetition and error class that occurred.
func Errors(m *analysis.Report) Table {
	t := Table{}.cols("variant", ">rep", "class", ">count", "first message")
	eachRep(m, func(variant, rep string, r *results.Rep) {
		for c, ec := range r.Total.Errors {
			if ec.Count > 0 {
				t.Add(variant, rep, results.ErrorClass(c).String(), format.Count(ec.Count), cmp.Or(ec.First, "(no message)"))
			}
		}
	})
	return t
}

// Negotiated has a row per variant and TLS parameters, the most frequent first.
func Negotiated(m *analysis.Report) Table {
	t := Table{}.cols("variant", "version, cipher, group", ">handshakes", ">share")
	for _, v := range m.Summary.Variants {
		sum, total := v.Negotiated, uint64(0)
		for _, n := range sum {
			total += n
		}
		for _, k := range ByCount(sum) {
			t.Add(v.Name, k, format.Count(sum[k]), format.Percent(float64(sum[k])/float64(total)))
		}
	}
	return t
}

// ProbeReadings has a row per repetition and probe.
func ProbeReadings(m *analysis.Report) Table {
	t := Table{}.cols("variant", ">rep", "probe", ">before", ">after", ">delta", "error")
	eachRep(m, func(variant, rep string, r *results.Rep) {
		for _, k := range slices.Sorted(maps.Keys(r.Probes)) {
			p := r.Probes[k]
			t.Add(variant, rep, k, format.Float(p.Before, 2), format.Float(p.After, 2), format.Float(p.Delta(), 2), p.Error)
		}
	})
	return t
}

// Profile has a column per variant, a row per library, then the crypto share, bound, Δ and samples.
func Profile(t *analysis.ProfileTable) Table {
	names := measure.Map(t.Variants, func(v analysis.ProfileVariant) string { return ">" + v.Name })
	tb := Table{}.cols("server CPU by library").cols(names...)
	row := func(label string, cell func(v *analysis.ProfileVariant) string) {
		cells := []string{label}
		for i := range t.Variants {
			c := "n/a"
			if v := &t.Variants[i]; v.Available() {
				c = cell(v)
			}
			cells = append(cells, c)
		}
		tb.Add(cells...)
	}
	for _, name := range t.Libraries {
		row(name, func(v *analysis.ProfileVariant) string {
			s, ok := v.Share(name)
			return OrMissing(ok, format.Percent(s))
		})
	}
	row("crypto share", func(v *analysis.ProfileVariant) string { return format.Percent(v.CryptoShare) })
	row("offload bound (at most)", func(v *analysis.ProfileVariant) string {
		return notes.New(notes.ProfileBoundCell, "bound", v.Bound).String()
	})
	row("Δ vs baseline", func(v *analysis.ProfileVariant) string {
		d := notes.New(notes.ProfileDelta, "delta", v.Delta, "of", v.BaselineBound)
		return OrMissing(v.HasDelta, d.String())
	})
	row("samples", func(v *analysis.ProfileVariant) string { return format.Count(v.Samples) })
	return tb
}

// OrMissing is s, or format.Missing when not ok.
func OrMissing(ok bool, s string) string { return either(ok, s, format.Missing) }

// either is yes when ok, else no (both already evaluated).
func either(ok bool, yes, no string) string {
	if ok {
		return yes
	}
	return no
}
