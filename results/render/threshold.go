package render

import (
	"bytes"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/tables"
)

// writeThresholds writes the text report's thresholds section.
func writeThresholds(b *bytes.Buffer, cs []analysis.ThresholdCheck) {
	b.WriteString("\n== thresholds\n")
	tb := tables.Thresholds(cs)
	writeTable(&tb, b, "")
}

// writeThresholdsMarkdown writes the Markdown report's thresholds section.
func writeThresholdsMarkdown(b *bytes.Buffer, cs []analysis.ThresholdCheck) {
	b.WriteString("\n## Thresholds\n\n")
	tb := tables.Thresholds(cs) // writeMarkdown escapes
	writeMarkdownTable(&tb, b)
}
