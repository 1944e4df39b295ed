package render

import (
	"bytes"
	"fmt"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/tables"
	"io"
	"strings"
)

// WriteMarkdown writes the report of m as GitHub-flavoured Markdown: the
// text report's banners, tables and answers, a row per repetition.
func WriteMarkdown(w io.Writer, m *analysis.Report) error {
	r, s := m.Run, m.Summary
	var b bytes.Buffer
	fmt.Fprintf(&b, "# kaeload run %s\n\n", mdEscape(r.Name))
	for _, f := range tables.Facts(m) {
		fmt.Fprintf(&b, "- **%s** %s\n", f.Label, mdEscape(f.Text))
	}
	var notes []string
	for _, n := range tables.Notices(m) {
		notes = append(notes, "**"+n.Label+":** "+mdEscape(n.Text))
	}
	if len(notes) > 0 {
		b.WriteString("\n> " + strings.Join(notes, "\n>\n> ") + "\n")
	}

	switch {
	case len(r.Variants) == 0:
		b.WriteString("\nNo variant was measured.\n")
	case r.Capacity != nil:
		// Steps are windows at different rates: no repetition statistics.
		writeCapacityMarkdown(&b, m)
	default:
		b.WriteString("\n## Comparison\n\n")
		if nc := s.NoComparison(); !nc.IsZero() {
			fmt.Fprintf(&b, "Total req/s per repetition; %s.\n\n", mdEscape(nc.String()))
		} else {
			fmt.Fprintf(&b, "Total req/s per repetition against the baseline variant **%s**; %s.\n\n", mdEscape(s.BaselineName), mdEscape(tables.StatsNote(s)))
		}
		ct := tables.Comparison(m, measure.Markdown)
		writeMarkdownTable(&ct, &b)
	}
	writeMarkdownAnswers(&b, m)
	if m.Speed != nil {
		writeSpeedMarkdown(&b, m.Speed)
	}
	if m.Profile != nil {
		writeProfileMarkdown(&b, m.Profile)
	}
	if len(m.Thresholds) > 0 {
		b.WriteString("\n## Thresholds\n\n")
		tb := tables.Thresholds(m.Thresholds)
		writeMarkdownTable(&tb, &b)
	}

	if len(r.Variants) > 0 {
		b.WriteString("\n## Repetitions\n\n")
		rt := tables.Repetitions(m, measure.Markdown)
		writeMarkdownTable(&rt, &b)
	}
	if len(m.Diagnoses) > 0 {
		b.WriteString("\n## Diagnoses\n")
		for i := range m.Diagnoses {
			d := &m.Diagnoses[i]
			fmt.Fprintf(&b, "\n### %s\n\n", mdEscape(tables.DiagnosisTitle(d)))
			for _, n := range tables.DiagnosisRows(d) {
				fmt.Fprintf(&b, "- **%s** %s\n", n.Label, mdEscape(n.Text))
			}
		}
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write markdown report: %w", err)
	}
	return nil
}

// writeMarkdownAnswers writes the drift, probe, sweep and search
// sections of m.
func writeMarkdownAnswers(b *bytes.Buffer, m *analysis.Report) {
	s := m.Summary
	if dt, title, ok := tables.Drift(s); ok {
		fmt.Fprintf(b, "\n### Drift by round\n\n%s.\n\n", mdEscape(upperFirst(strings.TrimPrefix(title, "drift by round: "))))
		writeMarkdownTable(&dt, b)
	}
	if pt, ok := tables.Probes(s); ok {
		b.WriteString("\n### Probe deltas\n\nPer window, mean over repetitions; per request = delta / requests in the window.\n\n")
		writeMarkdownTable(&pt, b)
	}
	for i := range s.Sweeps {
		sw := &s.Sweeps[i]
		fmt.Fprintf(b, "\n## %s\n\n%s.\n\n```text\n", mdEscape(upperFirst(tables.SweepTitle(sw))), upperFirst(tables.SweepLegend))
		st := tables.Sweep(s, sw)
		writeTable(&st, b, "")
		b.WriteString("```\n")
		if l := tables.PlateauLine(s, sw); l != "" {
			b.WriteString("\n" + mdEscape(upperFirst(l)) + ".\n")
		}
	}
	if ss := m.Search; ss != nil {
		fmt.Fprintf(b, "\n## Search %s\n\n", mdEscape(ss.Search.Series))
		for _, l := range ss.Lines() {
			b.WriteString("- " + mdEscape(l.String()) + "\n")
		}
		if len(ss.Points) > 0 {
			fmt.Fprintf(b, "- visit order: %s\n\n", mdEscape(ss.VisitOrder()))
			t := tables.Search(ss)
			writeMarkdownTable(&t, b)
		}
	}
}

// writeMarkdownTable writes t as a GitHub table, cells escaped.
func writeMarkdownTable(t *tables.Table, b *bytes.Buffer) {
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + mdEscape(c) + " |")
		}
		b.WriteByte('\n')
	}
	row(t.Header)
	b.WriteString("|")
	for i := range t.Header {
		b.WriteString(map[bool]string{false: "---|", true: "---:|"}[rightAligned(t, i)])
	}
	b.WriteByte('\n')
	for _, r := range t.Rows {
		row(r)
	}
}

// mdEscaper escapes the characters that Markdown would interpret in
// running text or a table cell.
var mdEscaper = strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", "[", `\[`, "]", `\]`)

// mdEscape escapes s for Markdown text and table cells.
func mdEscape(s string) string { return mdEscaper.Replace(s) }

// upperFirst capitalises the first byte of an ASCII-initial string.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
