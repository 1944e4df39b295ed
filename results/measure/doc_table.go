package measure

import (
	"fmt"
	"io"
	"strings"
)

// outputNames name the outputs in WriteReference.
var outputNames = []struct {
	o    Output
	name string
}{{Text, "text"}, {Below, "text-below"}, {Latencies, "text-latency"}, {Groups, "text-groups"}, {PageLatencies, "html-latency"}, {Page, "html-page"}, {Markdown, "md"}, {CSV, "csv"}, {JSON, "json"}, {HTML, "html"}, {OpenMetrics, "openmetrics"}, {Runs, "compare"}}

// WriteReference writes the catalogue as a Markdown table for docs/: each
// measure's key, JSON field, unit, label, what has it and its outputs.
func WriteReference(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| key | json | unit | label | of | outputs |\n|---|---|---|---|---|---|\n")
	for _, m := range Catalogue {
		var of, outs []string
		if m.Rep != nil {
			of = append(of, "repetition")
		}
		if m.Variant != nil {
			of = append(of, "variant")
		}
		for _, o := range outputNames {
			if m.Show&o.o != 0 {
				outs = append(outs, o.name)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", m.Key, Column{Measure: &m, Key: m.Key}.JSONName(), m.Unit, m.Label,
			strings.Join(of, ", "), strings.Join(outs, " "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
