package render

import (
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/measure"
)

// WriteCSV writes summary.csv: per variant a row per repetition and an "all"
// row, then a row per partial or excluded window.
func WriteCSV(w io.Writer, m *analysis.Report) error {
	r := m.Run
	head := &results.Variant{Name: "variant", Series: "series", Sweep: map[string]string{}}
	for _, v := range r.Variants {
		for k := range v.Sweep {
			head.Sweep[k] = "sweep." + k
		}
	}
	cols, keys := measure.Columns(m, measure.CSV), slices.Sorted(maps.Keys(head.Sweep))
	var rows [][]string
	row := func(v *results.Variant, rep string, cell func(measure.Column) string) {
		sweep := measure.Map(keys, func(k string) string { return v.Sweep[k] })
		lead := slices.Concat([]string{v.Name, v.Series}, sweep, []string{rep})
		rows = append(rows, append(lead, measure.Map(cols, cell)...))
	}
	row(head, "rep", func(c measure.Column) string { return c.Key })
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Reps {
			x := measure.NewRep(m, i, j)
			row(v, strconv.Itoa(v.Reps[j].Index+1), func(c measure.Column) string { return c.OfRep(x).Text() })
		}
		x := measure.NewVariant(m, i)
		row(v, "all", func(c measure.Column) string { return c.OfVariant(x).Text() })
	}
	for _, nm := range r.NotMeasured {
		if !slices.ContainsFunc(r.Variants, func(v results.Variant) bool { return v.Name == nm.Variant }) {
			x := &measure.Variant{R: m, I: -1, Name: nm.Variant}
			row(&results.Variant{Name: nm.Variant}, "all",
				func(c measure.Column) string { return c.OfVariant(x).Text() })
		}
	}
	// A window an interrupt cut short or exclude_flagged set aside, with the reports' line.
	aside := func(mark string, lines []string, reps func(*results.Variant) []results.Rep) {
		for i := range r.Variants {
			v := &r.Variants[i]
			for _, p := range reps(v) {
				x := &measure.Rep{R: m, V: v, Rep: &p, Note: lines[0]}
				lines = lines[1:]
				row(v, strconv.Itoa(p.Index+1)+" "+mark, func(c measure.Column) string { return c.OfRep(x).Text() })
			}
		}
	}
	aside("partial", m.Partial.Strings(), func(v *results.Variant) []results.Rep { return v.Partial })
	aside("excluded", m.Excluded.Strings(), func(v *results.Variant) []results.Rep { return v.Excluded })
	return writeCSV(w, "csv", rows)
}

func writeCSV(w io.Writer, what string, rows [][]string) error {
	if err := csv.NewWriter(w).WriteAll(rows); err != nil {
		return fmt.Errorf("write %s: %w", what, err)
	}
	return nil
}

// WriteProfileCSV writes profile.csv (docs/profiling.md).
func WriteProfileCSV(w io.Writer, m *analysis.Report) error {
	rows := [][]string{{"variant", "kind", "name", "library", "samples", "share", "value", "reason"}}
	f := func(x float64) string { return floatCell(x, true) }
	u := func(n uint64) string { return strconv.FormatUint(n, 10) }
	if t := m.Profile; t != nil {
		for i := range t.Variants {
			v := &t.Variants[i]
			if !v.Available() {
				rows = append(rows, []string{v.Name, "not_available", "", "", "", "", "", v.Missing.String()})
				continue
			}
			for _, l := range v.Libraries {
				rows = append(rows, []string{v.Name, "library", l.Name, "", u(l.Samples), f(l.Share), "", ""})
			}
			for _, fn := range v.Functions {
				rows = append(rows, []string{v.Name, "function", fn.Name, fn.Library, u(fn.Samples), f(fn.Share), "", ""})
			}
			bound := floatCell(v.Bound, !math.IsInf(v.Bound, 1))
			rows = append(rows, []string{v.Name, "crypto_share", "", "", "", f(v.CryptoShare), "", ""},
				[]string{v.Name, "offload_bound", "", "", "", "", bound, ""})
			if v.HasDelta {
				rows = append(rows, []string{v.Name, "delta_pct", "", "", "", "", f(v.Delta), ""})
			}
			if v.Check.Checked {
				rows = append(rows, []string{v.Name, "self_check", "", "", u(v.Check.Samples), "", f(v.Check.Ratio), ""})
			}
		}
	}
	return writeCSV(w, fmt.Sprintf("profile csv %q", m.Run.Name), rows)
}

// WriteSpeedCSV writes speed.csv: a row per variant, command and figure, unrounded.
func WriteSpeedCSV(w io.Writer, m *analysis.Report) error {
	rows := [][]string{{"variant", "command", "algorithm", "operation", "block", "value", "unit", "error"}}
	for _, v := range m.Run.Variants {
		for _, run := range v.Speed {
			if len(run.Results) == 0 {
				rows = append(rows, []string{v.Name, run.Command, "", "", "", "", "", run.Error})
			}
			for _, res := range run.Results {
				rows = append(rows, []string{v.Name, run.Command, res.Algorithm, res.Operation, blockCell(res.Block),
					floatCell(res.Value, true), res.Unit, run.Error})
			}
		}
	}
	return writeCSV(w, fmt.Sprintf("speed csv %q", m.Run.Name), rows)
}

func floatCell(x float64, ok bool) string {
	if !ok {
		return ""
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

func blockCell(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}
