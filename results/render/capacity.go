package render

import (
	"bytes"
	"fmt"
	"github.com/kaeload/kaeload/results/analysis"
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
