package render

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"

	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/tables"
)

// writeCapacity writes the capacity section of the text report.
func writeCapacity(b *bytes.Buffer, m *analysis.Report) {
	r := m.Run
	fmt.Fprintf(b, "\n== %s\n%s\n", m.CapacityLine, tables.CapacityIntro(r.Capacity))
	for i := range m.Capacities {
		c := &m.Capacities[i]
		fmt.Fprintf(b, "\n-- %s: capacity %s, %d steps\n", r.Variants[c.Variant].Name, analysis.KneeWords(c, r.Capacity.From), len(c.Steps))
		t := tables.Capacity(c)
		writeTable(&t, b, "")
	}
}

// writeCapacityMarkdown writes the capacity section of the Markdown report.
func writeCapacityMarkdown(b *bytes.Buffer, m *analysis.Report) {
	r := m.Run
	fmt.Fprintf(b, "\n## Capacity\n\n**%s**\n\n%s.\n", mdEscape(upperFirst(m.CapacityLine.String())), mdEscape(upperFirst(tables.CapacityIntro(r.Capacity))))
	for i := range m.Capacities {
		c := &m.Capacities[i]
		fmt.Fprintf(b, "\n### %s: %s\n\n", mdEscape(r.Variants[c.Variant].Name), mdEscape(analysis.KneeWords(c, r.Capacity.From)))
		t := tables.Capacity(c)
		writeMarkdownTable(&t, b)
	}
}

// speedSection is the text report's "crypto speed" section of t, its
// title after "== " starting with run (CompareRuns: "NAME: ").
func speedSection(t *analysis.SpeedTable, run string) string {
	var sb bytes.Buffer
	b := &sb
	fmt.Fprintf(b, "\n== %scrypto speed, baseline %q (run once per variant, server stopped)\n", run, t.BaselineName)
	if t.Baseline < 0 {
		b.WriteString("the baseline was not measured: no Δ %\n")
	}
	for ci, c := range t.Commands {
		fmt.Fprintf(b, "speed[%d]: %s\n", ci, c)
	}
	if len(t.Rows) > 0 {
		tb := tables.Speed(t)
		writeTable(&tb, b, "")
	}
	for _, f := range t.Failures {
		fmt.Fprintf(b, "variant %s: speed[%d] %s: %s\n", f.Variant, f.Command, format.Message(f.CommandLine), format.Message(f.Error))
	}
	return sb.String()
}

// writeSpeedMarkdown writes the Markdown report's "Crypto speed" section.
func writeSpeedMarkdown(b *bytes.Buffer, t *analysis.SpeedTable) {
	if t.Baseline < 0 {
		fmt.Fprintf(b, "\n## Crypto speed\n\nRun once per variant with the server stopped; the baseline **%s** was not measured: no Δ %%.\n\n", mdEscape(t.BaselineName))
	} else {
		fmt.Fprintf(b, "\n## Crypto speed\n\nRun once per variant with the server stopped; Δ %% against the baseline **%s**.\n\n", mdEscape(t.BaselineName))
	}
	for ci, c := range t.Commands {
		fmt.Fprintf(b, "- speed\\[%d\\]: %s\n", ci, mdEscape(c))
	}
	if len(t.Rows) > 0 {
		b.WriteByte('\n')
		tb := tables.Speed(t)
		writeMarkdownTable(&tb, b)
	}
	if len(t.Failures) > 0 {
		b.WriteByte('\n')
		for _, f := range t.Failures {
			fmt.Fprintf(b, "- **FAILED:** variant %s, speed\\[%d\\] %s: %s\n", mdEscape(f.Variant), f.Command, mdEscape(format.Message(f.CommandLine)), mdEscape(format.Message(f.Error)))
		}
	}
}

// WriteSpeedCSV writes speed.csv: a row per variant, speed command and
// figure as run.json has it, unrounded and uncompared (a command without
// figures has one row with its error); the header alone without speed runs.
func WriteSpeedCSV(w io.Writer, m *analysis.Report) error {
	r := m.Run
	cw := csv.NewWriter(w)
	rows := [][]string{{"variant", "command", "algorithm", "operation", "block", "value", "unit", "error"}}
	for i := range r.Variants {
		v := &r.Variants[i]
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
	if err := cw.WriteAll(rows); err != nil {
		return fmt.Errorf("write speed csv %q: %w", r.Name, err)
	}
	return nil
}
