package results

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The tables shared by the text and Markdown reports. Each builds a table
// from a RunSummary; the text report aligns it, the Markdown report writes
// it as a GitHub table, so both show the same cells.

// significanceNote says which test decides "significant".
var significanceNote = fmt.Sprintf("significant: Welch's two-sided t-test on ln(total req/s) of the repetitions (a test of the ratio), α = %g", Alpha)

// column is one column of a table built per variant.
type column struct {
	name  string
	right bool
	cell  func(i int, v *VariantSummary) string
}

// buildTable lays out one row per variant of s with the given columns.
func buildTable(s *RunSummary, cols []column, rows []int) table {
	t := table{}
	for _, c := range cols {
		t.header = append(t.header, c.name)
		t.right = append(t.right, c.right)
	}
	for _, i := range rows {
		cells := make([]string, len(cols))
		for k, c := range cols {
			cells[k] = c.cell(i, &s.Variants[i])
		}
		t.add(cells...)
	}
	return t
}

// allRows returns 0 … len(s.Variants)-1.
func allRows(s *RunSummary) []int {
	rows := make([]int, len(s.Variants))
	for i := range rows {
		rows[i] = i
	}
	return rows
}

func meanCell(st Stats) string {
	if st.N == 0 {
		return "-"
	}
	return FormatRate(st.Mean)
}

func stddevCell(st Stats) string {
	if st.N < 2 {
		return "-"
	}
	return FormatRate(st.StdDev)
}

func ciCell(st Stats) string {
	switch {
	case st.HasCI:
		return FormatRate(st.CI95Low) + " .. " + FormatRate(st.CI95High)
	case st.N > 0:
		return "n/a (n<2)"
	}
	return "-"
}

// deltaCell is the Δ % of v against the baseline of s.
func deltaCell(s *RunSummary, v *VariantSummary) string {
	if v.IsBaseline {
		return "baseline"
	}
	if v.Stats.N == 0 || s.Variants[s.Baseline].Stats.N == 0 {
		return "-"
	}
	return FormatDelta(v.Comparison.DeltaPct)
}

// notesCell marks the best variant of a sweep and client-bound variants.
func notesCell(v *VariantSummary) string {
	var notes []string
	if v.Best {
		notes = append(notes, "* best of "+v.Series)
	}
	if v.FailedReps > 0 {
		n := "FAILED"
		if v.Stats.N > 1 {
			n += fmt.Sprintf(" (%d of %d reps)", v.FailedReps, v.Stats.N)
		}
		notes = append(notes, n)
	}
	if v.ClientBoundReps > 0 {
		n := "CLIENT-BOUND"
		if v.Stats.N > 1 {
			n += fmt.Sprintf(" (%d of %d reps)", v.ClientBoundReps, v.Stats.N)
		}
		notes = append(notes, n)
	}
	return strings.Join(notes, ", ")
}

// comparisonTable is the answer of a run: per variant the mean rate, its
// spread and interval, the difference from the baseline and whether it is
// significant, the p99 handshake time over all repetitions, errors, and,
// when measured, requests per server CPU-second and notes.
func comparisonTable(s *RunSummary) table {
	cols := []column{
		{"variant", false, func(_ int, v *VariantSummary) string { return v.Name }},
		{"n", true, func(_ int, v *VariantSummary) string { return strconv.Itoa(v.Stats.N) }},
		{"mean req/s", true, func(_ int, v *VariantSummary) string { return meanCell(v.Stats) }},
		{"±stddev", true, func(_ int, v *VariantSummary) string { return stddevCell(v.Stats) }},
		{"95 % CI", false, func(_ int, v *VariantSummary) string { return ciCell(v.Stats) }},
		{"Δ% vs baseline", true, func(_ int, v *VariantSummary) string { return deltaCell(s, v) }},
		{"significant", false, func(_ int, v *VariantSummary) string {
			if v.IsBaseline {
				return ""
			}
			return Significance(v.Comparison)
		}},
		{"p99 handshake ms", true, func(_ int, v *VariantSummary) string { return QuantileMillis(v.Handshake, 99) }},
		{"errors", true, func(_ int, v *VariantSummary) string { return FormatCount(v.Errors) }},
	}
	var serverCPU, notes bool
	for i := range s.Variants {
		v := &s.Variants[i]
		serverCPU = serverCPU || v.ServerCPUReps > 0
		notes = notes || notesCell(v) != ""
	}
	if serverCPU {
		cols = append(cols, column{"req/server cpu-s", true, func(_ int, v *VariantSummary) string {
			if x, ok := v.RequestsPerServerCPU(); ok {
				return FormatRate(x)
			}
			return "-"
		}})
	}
	if notes {
		cols = append(cols, column{"notes", false, func(_ int, v *VariantSummary) string { return notesCell(v) }})
	}
	return buildTable(s, cols, allRows(s))
}

// probeTable has one row per variant and probe; ok is false when no
// variant has a probe reading.
func probeTable(s *RunSummary) (t table, ok bool) {
	failed := false
	for i := range s.Variants {
		for _, p := range s.Variants[i].Probes {
			ok = true
			failed = failed || p.Failed > 0
		}
	}
	t.header = []string{"variant", "probe", "n", "mean delta", "per request"}
	t.right = []bool{false, false, true, true, true}
	if failed {
		t.header = append(t.header, "failed")
		t.right = append(t.right, false)
	}
	for i := range s.Variants {
		v := &s.Variants[i]
		for _, p := range v.Probes {
			mean, per := "-", "-"
			if p.N > 0 {
				mean = FormatNumber(p.MeanDelta)
			}
			if p.HasPerRequest {
				per = strconv.FormatFloat(p.PerRequest, 'f', 3, 64)
			}
			row := []string{v.Name, p.Name, strconv.Itoa(p.N), mean, per}
			if failed {
				f := ""
				if p.Failed > 0 {
					f = fmt.Sprintf("%d, first: %s", p.Failed, message(p.FirstError))
				}
				row = append(row, f)
			}
			t.add(row...)
		}
	}
	return t, ok
}

// chartWidth is the width of a sweep chart's bars in characters.
const chartWidth = 40

// sweepTitle is the heading of a sweep's table.
func sweepTitle(sw *SweepSummary) string {
	by := strings.Join(sw.Keys, ", ")
	order := "in run order"
	if sw.Numeric {
		order = "by value"
	}
	return fmt.Sprintf("sweep %s: mean req/s by %s (%s)", sw.Series, by, order)
}

// sweepLegend explains a sweep chart.
const sweepLegend = "chart: # up to the mean, = and - span the 95 % CI below and above it, * marks the best (highest mean req/s)"

// sweepTable is a sweep's variants in chart order, preceded by the
// baseline when the baseline is not one of them, with an ASCII bar of the
// mean rate and its confidence interval on a scale from 0.
func sweepTable(s *RunSummary, sw *SweepSummary) table {
	rows := sw.Variants
	labels := sw.Labels
	inSweep := false
	for _, i := range rows {
		inSweep = inSweep || i == s.Baseline
	}
	if !inSweep {
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
	axisRight := groupDigits(strconv.FormatFloat(scale, 'f', 0, 64))
	axis := "0" + strings.Repeat(" ", max(1, chartWidth+2-1-len(axisRight))) + axisRight
	label := map[int]string{}
	for k, i := range rows {
		label[i] = labels[k]
	}
	cols := []column{
		{"", false, func(i int, v *VariantSummary) string {
			if v.Best {
				return "*"
			}
			return ""
		}},
		{strings.Join(sw.Keys, " "), true, func(i int, _ *VariantSummary) string { return label[i] }},
		{"variant", false, func(_ int, v *VariantSummary) string { return v.Name }},
		{axis, false, func(_ int, v *VariantSummary) string { return bar(v.Stats, scale, chartWidth) }},
		{"mean req/s", true, func(_ int, v *VariantSummary) string { return meanCell(v.Stats) }},
		{"95 % CI", false, func(_ int, v *VariantSummary) string { return ciCell(v.Stats) }},
		{"Δ% vs baseline", true, func(_ int, v *VariantSummary) string { return deltaCell(s, v) }},
	}
	return buildTable(s, cols, rows)
}

// bar draws st on a scale from 0 to scale in width characters between two
// '|': '#' up to the mean, then the confidence interval as '=' below the
// mean and '-' above it. Positions round to the nearest character.
func bar(st Stats, scale float64, width int) string {
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
