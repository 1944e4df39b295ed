package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/stats"
	"github.com/kaeload/kaeload/results/tables"
)

// CompareRuns writes the plain-text comparison of stored runs rr.
func CompareRuns(w io.Writer, rr *analysis.RunsReport) error {
	names := rr.Names
	d := &doc{}
	fmt.Fprintf(d, "== comparison of %d runs, reference %s\n", len(rr.Runs), names[0])
	var rt tables.Table
	for i, m := range rr.Runs {
		r := m.Run
		started := tables.OrMissing(!r.Started.IsZero(), r.Started.Format(tables.Stamp))
		var notes []string
		if r.Interrupted {
			notes = append(notes, "INTERRUPTED")
		}
		if n := len(m.Warnings); n > 0 {
			notes = append(notes, fmt.Sprintf("%d %s", n, format.Plural(n, "warning")))
		}
		rt.Add(names[i], r.Name, "started "+started, fmt.Sprintf("%d variants", len(r.Variants)), strings.Join(notes, ", "))
	}
	d.table(rt)
	if !rr.Plans.IsZero() {
		d.say(rr.Plans.String(), "")
	}
	for i, m := range rr.Runs {
		if !m.CapacityLine.IsZero() {
			fmt.Fprintf(d, "%s: %s\n", names[i], m.CapacityLine)
		}
		if ss := m.Search; ss != nil {
			for _, l := range ss.Lines().Strings()[1:] {
				fmt.Fprintf(d, "%s: %s\n", names[i], l)
			}
		}
	}
	adjust := fmt.Sprintf("p adjusted by Holm over every variant and run compared with the reference (family-wise α = %g)",
		stats.Alpha)
	level := "α/m (Bonferroni over the m comparisons, Holm's strictest step)"
	d.say(tables.TestWords(adjust, level, fmt.Sprintf("%g", results.DefaultEquivalence*100))+"\n", "")

	// a row per variant and run, against the reference (a label's %s names it)
	cols := measure.RunsColumns(rr)
	ct := tables.Header(cols, "variant", "run")
	for i := range cols {
		ct.Header[i+2] = strings.Replace(cols[i].Label, "%s", names[0], 1)
	}
	for k, rv := range rr.Variants {
		name := rv.Name // on its first row
		for i := range rv.Cells {
			ct.Add(tables.Cells(cols, measure.Column.OfRun, measure.NewRunsCell(rr, k, i), name, names[i])...)
			name = ""
		}
	}
	d.table(ct)
	for i, m := range rr.Runs {
		if m.Speed != nil {
			d.speed(m.Speed, names[i]+": ")
		}
	}
	return d.flush(w, "compare runs")
}
