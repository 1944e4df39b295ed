package render

import (
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/measure"
)

// WriteCSV writes summary.csv: per variant a row per repetition and an
// "all" row, a row per partial or excluded window, with the columns
// variant, series, sweep.KEY…, rep and the catalogue's CSV measures.
func WriteCSV(w io.Writer, m *analysis.Report) error {
	r := m.Run
	sweepSet := map[string]bool{}
	for i := range r.Variants {
		for k := range r.Variants[i].Sweep {
			sweepSet[k] = true
		}
	}
	sweepKeys := slices.Sorted(maps.Keys(sweepSet))
	cols := measure.Columns(m, measure.CSV)
	header := []string{"variant", "series"}
	for _, k := range sweepKeys {
		header = append(header, "sweep."+k)
	}
	header = append(header, "rep")
	for _, c := range cols {
		header = append(header, c.Key)
	}
	cw := csv.NewWriter(w)
	_ = cw.Write(header) // errors surface from Flush/Error below
	row := func(v *results.Variant, name, rep string, cell func(measure.Column) measure.Value) {
		out, sweep := []string{name, ""}, map[string]string(nil)
		if v != nil {
			out[1], sweep = v.Series, v.Sweep
		}
		for _, k := range sweepKeys {
			out = append(out, sweep[k])
		}
		out = append(out, rep)
		for _, c := range cols {
			out = append(out, cell(c).Text())
		}
		_ = cw.Write(out)
	}
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Reps {
			x := measure.NewRep(m, i, j)
			row(v, v.Name, strconv.Itoa(v.Reps[j].Index+1), func(c measure.Column) measure.Value { return c.OfRep(x) })
		}
		x := measure.NewVariant(m, i)
		row(v, v.Name, "all", func(c measure.Column) measure.Value { return c.OfVariant(x) })
	}
	for _, nm := range r.NotMeasured {
		if !slices.ContainsFunc(r.Variants, func(v results.Variant) bool { return v.Name == nm.Variant }) {
			x := &measure.Variant{R: m, I: -1, Name: nm.Variant}
			row(nil, nm.Variant, "all", func(c measure.Column) measure.Value { return c.OfVariant(x) })
		}
	}
	writeSetAside(m, row)
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// writeSetAside writes a row for each window an interrupt cut short or
// the exclude_flagged policy set aside, its rep marked "partial" or
// "excluded", with the reports' line on it.
func writeSetAside(m *analysis.Report, row func(*results.Variant, string, string, func(measure.Column) measure.Value)) {
	for _, kind := range []struct {
		mark  string
		reps  func(v *results.Variant) []results.Rep
		lines []string
	}{
		{"partial", func(v *results.Variant) []results.Rep { return v.Partial }, m.Partial.Strings()},
		{"excluded", func(v *results.Variant) []results.Rep { return v.Excluded }, m.Excluded.Strings()},
	} {
		lines := kind.lines
		for i := range m.Run.Variants {
			v := &m.Run.Variants[i]
			for _, p := range kind.reps(v) {
				x := &measure.Rep{R: m, V: v, Rep: &p, Note: lines[0]}
				lines = lines[1:]
				row(v, v.Name, strconv.Itoa(p.Index+1)+" "+kind.mark, func(c measure.Column) measure.Value { return c.OfRep(x) })
			}
		}
	}
}
