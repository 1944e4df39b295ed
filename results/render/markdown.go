package render

import (
	"bytes"
	"fmt"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/tables"
	"io"
	"strconv"
	"strings"
)

// WriteMarkdown writes a report of r as GitHub-flavoured Markdown, for a
// pull request, an issue or a wiki page: the run's facts and warnings
// (client-bound repetitions included, whether or not Annotate ran), the
// comparison table (the same cells as WriteText's, for any number of
// variants and repetitions), the probe deltas, every sweep's table and
// chart (in a text block, which keeps the bars aligned), when any variant
// ran speed commands the crypto speed table (the text report's cells: every
// figure per variant, Δ % against the baseline, the failed commands), and
// one row per repetition. Per-group details stay in the text report and run.json.
//
// A run whose baseline was not measured shows what was measured and says
// that nothing is compared (RunSummary.NoComparison); a run without
// variants says that nothing was measured. It returns any error of w.
func WriteMarkdown(w io.Writer, m *analysis.Report) error {
	if m.Err != nil {
		return fmt.Errorf("write markdown report: %w", m.Err)
	}
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
		if nc := s.NoComparison(); nc != "" {
			fmt.Fprintf(&b, "Total req/s per repetition; %s.\n\n", mdEscape(nc))
		} else {
			fmt.Fprintf(&b, "Total req/s per repetition against the baseline variant **%s**; %s.\n\n", mdEscape(s.BaselineName), mdEscape(tables.StatsNote(s)))
		}
		ct := tables.Comparison(s)
		writeMarkdownTable(&ct, &b)
	}
	if dt, title, ok := tables.Drift(s); ok {
		fmt.Fprintf(&b, "\n### Drift by round\n\n%s.\n\n", mdEscape(upperFirst(strings.TrimPrefix(title, "drift by round: "))))
		writeMarkdownTable(&dt, &b)
	}
	if pt, ok := tables.Probes(s); ok {
		b.WriteString("\n### Probe deltas\n\nPer window, mean over repetitions; per request = delta / requests in the window.\n\n")
		writeMarkdownTable(&pt, &b)
	}
	for i := range s.Sweeps {
		sw := &s.Sweeps[i]
		fmt.Fprintf(&b, "\n## %s\n\n%s.\n\n```text\n", mdEscape(upperFirst(tables.SweepTitle(sw))), upperFirst(tables.SweepLegend))
		st := tables.Sweep(s, sw)
		writeTable(&st, &b, "")
		b.WriteString("```\n")
		if l := tables.PlateauLine(s, sw); l != "" {
			b.WriteString("\n" + mdEscape(upperFirst(l)) + ".\n")
		}
	}
	if ss := m.Search; ss != nil {
		fmt.Fprintf(&b, "\n## Search %s\n\n", mdEscape(ss.Search.Series))
		for _, l := range ss.Lines() {
			b.WriteString("- " + mdEscape(l) + "\n")
		}
		if len(ss.Points) > 0 {
			fmt.Fprintf(&b, "- visit order: %s\n\n", mdEscape(ss.VisitOrder()))
			t := tables.Search(ss)
			writeMarkdownTable(&t, &b)
		}
	}
	if m.Speed != nil {
		writeSpeedMarkdown(&b, m.Speed)
	}
	if m.Profile != nil {
		writeProfileMarkdown(&b, m.Profile)
	}
	if len(m.Thresholds) > 0 {
		writeThresholdsMarkdown(&b, m.Thresholds)
	}

	if len(r.Variants) > 0 {
		b.WriteString("\n## Repetitions\n\n")
		rt := tables.Table{
			Header: []string{"variant", "rep", "window s", "requests", "req/s", "client µs/req", "errors", "p99 handshake ms", "p99 total ms",
				"client busy max", "server cpu s", "req/server cpu-s", "req/s by interval min / median / max", "stalls", "notes"},
			Right: []bool{false, true, true, true, true, true, true, true, true, true, true, true, true, false, false},
		}
		for i := range r.Variants {
			v := &r.Variants[i]
			if len(v.Reps) == 0 {
				rt.Add(v.Name, "-", "", "", "", "", "", "", "", "", "", "", "", "", "no completed repetitions")
			}
			for j := range v.Reps {
				rep := &v.Reps[j]
				t := &rep.Total
				busy, server, perServer, note := "-", "-", "-", ""
				ra := &m.Reps[i][j]
				if c := ra.ClientCPU; c.Measured > 0 {
					busy = format.Percent(c.BusyMax)
				}
				clientUs := "-"
				if us, _, ok := ra.ClientCPU.PerRequest(t.Requests); ok {
					clientUs = format.Micros(us)
				}
				if u := rep.ServerCPU; u != nil {
					server = strconv.FormatFloat(u.Seconds, 'f', 2, 64)
					if u.Seconds > 0 {
						perServer = format.Rate(float64(t.Requests) / u.Seconds)
					}
				}
				if line := ra.ClientBound.String(); line != "" {
					note = line
				}
				if line := ra.OtherLoad.String(); line != "" {
					note = strings.TrimSpace(note + " " + line)
				}
				for _, line := range []string{ra.ServerOtherLoad.String(), ra.SharedCPUs.String(), ra.NotSaturated.String()} {
					if line != "" {
						note = strings.TrimSpace(note + " " + line)
					}
				}
				if line := ra.Failed.String(); line != "" {
					note = strings.TrimSpace(line + " " + note)
				}
				if t.Scheduled > 0 { // an open loop: its missed starts and latency from the intended start
					note = strings.TrimSpace(fmt.Sprintf("missed %s of %s starts, p99 from intended start %s ms", format.Count(t.Missed),
						format.Count(t.Scheduled), format.QuantileMillis(t.Latency.Intended, 99)) + " " + note)
				}
				rt.Add(v.Name, strconv.Itoa(rep.Index+1), strconv.FormatFloat(t.Window.Length().Seconds(), 'f', 3, 64),
					format.Count(t.Requests), format.Rate(t.Rate()), clientUs, format.Count(t.Errors.Total()), format.QuantileMillis(t.Latency.Handshake, 99),
					format.QuantileMillis(t.Latency.Total, 99), busy, server, perServer, tables.RangeCell(&ra.Timeline), tables.StallsCell(&ra.Timeline), note)
			}
		}
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
		if i < len(t.Right) && t.Right[i] {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
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
