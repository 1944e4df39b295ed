package measure

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// outputNames are the outputs' names in the reference, which only the test of docs/outputs.md writes.
var outputNames = []struct {
	o    Output
	name string
}{{Text, "text"}, {Below, "text-below"}, {Latencies, "latency"}, {Groups, "groups"}, {CPUPage, "html-cpu"},
	{OpenLoopPage, "html-open-loop"}, {ServerCostPage, "html-server-cost"}, {Markdown, "md"}, {CSV, "csv"},
	{JSON, "json"}, {HTML, "html"}, {OpenMetrics, "openmetrics"}, {Runs, "compare"}}

// WriteReference writes the catalogue as a Markdown table for docs/.
func WriteReference(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| key | json | unit | label | of | outputs |\n|---|---|---|---|---|---|\n")
	for _, m := range Catalogue {
		of := []string{when(m.Rep != nil, "repetition"), when(m.Variant != nil, "variant")}
		of = slices.DeleteFunc(of, isEmpty)
		var outs []string
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
