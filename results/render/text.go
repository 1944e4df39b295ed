package render

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/tables"
)

// WriteText writes the plain-text report of m for a terminal or a CI log:
// the banners, every repetition, the comparison and the run's answers.
func WriteText(w io.Writer, m *analysis.Report) error {
	r := m.Run
	var b bytes.Buffer
	writeHeader(&b, m)
	reps := 0
	for i := range r.Variants {
		writeVariant(&b, m, i)
		reps += len(r.Variants[i].Reps)
	}
	switch {
	case r.Capacity != nil:
		// Steps are windows at different rates: no repetition statistics.
		writeCapacity(&b, m)
	case len(r.Variants) > 1 || reps > 1:
		writeComparison(&b, m)
	}
	if m.Search != nil {
		writeSearch(&b, m.Search)
	}
	if m.Speed != nil {
		b.WriteString(speedSection(m.Speed, ""))
	}
	if m.Profile != nil {
		writeProfile(&b, m.Profile)
	}
	if len(m.Thresholds) > 0 {
		b.WriteString("\n== thresholds\n")
		tb := tables.Thresholds(m.Thresholds)
		writeTable(&tb, &b, "")
	}
	writeWrkRate(&b, m)
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write text report: %w", err)
	}
	return nil
}

// writeWrkRate ends the report of a run of one window with wrk's
// "Requests/sec:" line, for scripts written for wrk's output.
func writeWrkRate(b *bytes.Buffer, m *analysis.Report) {
	r := m.Run
	if r.Capacity != nil || len(r.Variants) != 1 || len(r.Variants[0].Reps) != 1 {
		return
	}
	fmt.Fprintf(b, "\nRequests/sec: %9.2f\n", r.Variants[0].Reps[0].Total.Rate())
}

func writeHeader(b *bytes.Buffer, m *analysis.Report) {
	r := m.Run
	fmt.Fprintf(b, "run %s\n", r.Name)
	for _, f := range tables.Facts(m) {
		// A run without variants shows its times, then says so.
		if len(r.Variants) > 0 || f.Label == "started" || f.Label == "finished" {
			fmt.Fprintf(b, "%-9s %s\n", f.Label, f.Text)
		}
	}
	if len(r.Variants) == 0 {
		b.WriteString("no variants\n")
	}
	for _, n := range tables.Notices(m) {
		fmt.Fprintf(b, "%s: %s\n", n.Label, n.Text)
	}
	writeHosts(b, r.Hosts)
}

func writeVariant(b *bytes.Buffer, m *analysis.Report, vi int) {
	v := &m.Run.Variants[vi]
	fmt.Fprintf(b, "\n== variant %s\n", v.Name)
	if len(v.Env) > 0 {
		b.WriteString("env")
		for _, k := range slices.Sorted(maps.Keys(v.Env)) {
			fmt.Fprintf(b, " %s=%s", k, v.Env[k])
		}
		b.WriteByte('\n')
	}
	for _, in := range v.Info {
		fmt.Fprintf(b, "server %s\n", in.Line())
	}
	if len(v.Reps) == 0 {
		b.WriteString("no completed repetitions")
		if len(v.Partial) > 0 {
			b.WriteString(" (a partial window: see PARTIAL above)")
		}
		b.WriteByte('\n')
	}
	for i := range v.Reps {
		writeRep(b, measure.NewRep(m, vi, i))
	}
}

func writeRep(b *bytes.Buffer, x *measure.Rep) {
	variant, rep, ra := x.V.Name, x.Rep, x.A
	t := &rep.Total
	if st := rep.Step; st != nil {
		fmt.Fprintf(b, "\n-- %s, capacity step %d (%s, %s/s asked)\n", variant, rep.Index+1, st.Phase, format.Count(uint64(st.Rate+0.5)))
	} else {
		fmt.Fprintf(b, "\n-- %s, repetition %d\n", variant, rep.Index+1)
	}
	for _, line := range (notes.List{ra.Failed, ra.ClientBound, ra.OtherLoad, ra.ServerOtherLoad, ra.SharedCPUs, ra.NotSaturated, ra.Missed, ra.Backoff}).Strings() {
		if line != "" {
			b.WriteString(line + "\n")
		}
	}
	kv := tables.Table{Right: []bool{false, false}}
	for _, c := range measure.FactColumns(x.R) {
		if label, line, ok := c.FactRow(x); ok {
			kv.Add(label, line)
		}
	}
	for _, n := range tables.RepTimeline(&ra.Timeline) {
		kv.Add(n.Label, n.Text)
	}
	writeTable(&kv, b, "")
	if len(t.Negotiated) > 0 {
		b.WriteString("negotiated\n")
		nt := tables.Table{Right: []bool{false, true}}
		for _, k := range tables.ByCount(t.Negotiated) {
			nt.Add(k, format.Count(t.Negotiated[k]))
		}
		writeTable(&nt, b, "  ")
	}
	for i := range ra.Timeline.Diagnoses {
		d := &ra.Timeline.Diagnoses[i]
		fmt.Fprintf(b, "DIAGNOSIS %s\n", d.Title)
		dt := tables.Table{Right: []bool{false, false}}
		for _, n := range tables.DiagnosisRows(d) {
			dt.Add(n.Label, n.Text)
		}
		writeTable(&dt, b, "  ")
	}

	b.WriteByte('\n')
	lt := tables.Latencies(x)
	writeTable(&lt, b, "")
	writeGroups(b, x)
}

// writeGroups writes the repetition's groups, their total and the spread
// between them.
func writeGroups(b *bytes.Buffer, x *measure.Rep) {
	b.WriteByte('\n')
	gt := tables.Groups(x)
	writeTable(&gt, b, "")
	writeHostGroups(b, x.Rep.Groups)
	if s := x.A.Spread; s != nil {
		fmt.Fprintf(b, "spread between groups: min %s req/s (group %d), max %s req/s (group %d): %.1f %% of the mean\n",
			format.Rate(s.Min), s.MinIndex, format.Rate(s.Max), s.MaxIndex, s.Pct)
	}
}

func writeComparison(b *bytes.Buffer, m *analysis.Report) {
	s := m.Summary
	fmt.Fprintf(b, "\n== comparison: total req/s per repetition, baseline %q\n", s.BaselineName)
	note := tables.Table{Rows: [][]string{{tables.StatsNote(s)}}}
	if nc := s.NoComparison(); !nc.IsZero() {
		note.Rows[0][0] = nc.String()
	}
	wrapLast(&note, textWidth)
	writeTable(&note, b, "")
	ct := tables.Comparison(m, measure.Text)
	writeTable(&ct, b, "")
	if bt := tables.Below(m); len(bt.Rows) > 0 {
		b.WriteByte('\n')
		wrapLast(&bt, textWidth)
		writeTable(&bt, b, "")
	}
	if dt, title, ok := tables.Drift(s); ok {
		fmt.Fprintf(b, "\n%s\n", title)
		writeTable(&dt, b, "")
	}
	if pt, ok := tables.Probes(s); ok {
		b.WriteString("\nprobe deltas per window (mean over repetitions; per request = delta / requests in the window)\n")
		writeTable(&pt, b, "")
	}
	for i := range s.Sweeps {
		sw := &s.Sweeps[i]
		fmt.Fprintf(b, "\n== %s\n%s\n", tables.SweepTitle(sw), tables.SweepLegend)
		st := tables.Sweep(s, sw)
		writeTable(&st, b, "")
		if l := tables.PlateauLine(s, sw); l != "" {
			b.WriteString(l + "\n")
		}
	}
}

// writeSearch writes what the run's search found and its visited values.
func writeSearch(b *bytes.Buffer, ss *analysis.SearchSummary) {
	fmt.Fprintf(b, "\n== search %s\n", ss.Search.Series)
	for _, l := range ss.Lines() {
		b.WriteString(l.String() + "\n")
	}
	if len(ss.Points) == 0 {
		return
	}
	fmt.Fprintf(b, "visit order: %s\n", ss.VisitOrder())
	t := tables.Search(ss)
	writeTable(&t, b, "")
}

// textWidth is the width the text report's comparison keeps to.
const textWidth = 120

// wrapLast splits the last cell of t's rows at spaces so that each line
// fits width beside the other columns, continuing on rows of its own.
func wrapLast(t *tables.Table, width int) {
	n := len(t.Rows[0]) - 1
	lead := 2 * n // the other columns and the gaps
	for i := range n {
		w := 0
		for _, row := range t.Rows {
			w = max(w, utf8.RuneCountInString(row[i]))
		}
		lead += w
	}
	var rows [][]string
	for _, row := range t.Rows {
		line := ""
		for _, w := range strings.Fields(row[n]) {
			if line != "" && lead+utf8.RuneCountInString(line+" "+w) > width {
				rows, row, line = append(rows, append(row[:n:n], line)), make([]string, n+1), ""
			}
			line = strings.TrimPrefix(line+" "+w, " ")
		}
		rows = append(rows, append(row[:n:n], line))
	}
	t.Rows = rows
}

// writeTable writes t as text: each column as wide as its widest cell,
// two spaces apart, each line after indent.
func writeTable(t *tables.Table, b *bytes.Buffer, indent string) {
	rows := t.Rows
	if t.Header != nil {
		rows = append([][]string{t.Header}, rows...)
	}
	var widths []int
	for _, row := range rows {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, row := range rows {
		cells := make([]string, len(row))
		for i, c := range row {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if rightAligned(t, i) {
				cells[i] = pad + c
			} else {
				cells[i] = c + pad
			}
		}
		b.WriteString(strings.TrimRight(indent+strings.Join(cells, "  "), " ") + "\n")
	}
}

// rightAligned says whether t aligns column i right.
func rightAligned(t *tables.Table, i int) bool { return i < len(t.Right) && t.Right[i] }
