package tables

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"strings"
)

// Thresholds lays the threshold checks out once, for the text and
// Markdown reports: verdict, threshold, variant, measured.
func Thresholds(cs []analysis.ThresholdCheck) Table {
	tb := Table{Header: []string{"verdict", "threshold", "variant", "measured"}, Right: []bool{false, false, false, true}}
	for i := range cs {
		c := &cs[i]
		verdict := "pass"
		if !c.Passed {
			verdict = "CROSSED"
		}
		tb.Add(verdict, c.Threshold.Expr, c.Variant, c.Shown())
	}
	return tb
}

// ThresholdCell is the CSV "thresholds" cell of a variant's "all" row:
// "pass", or "crossed: EXPR; EXPR" naming the thresholds it crossed
// (MetricVs ones count for their Variant).
func ThresholdCell(cs []analysis.ThresholdCheck, variant string) string {
	var crossed []string
	for _, c := range cs {
		name := c.Variant
		if c.Threshold.Metric == results.MetricVs {
			name = c.Threshold.Variant
		}
		if name == variant && !c.Passed {
			crossed = append(crossed, c.Threshold.Expr)
		}
	}
	if len(crossed) == 0 {
		return "pass"
	}
	return "crossed: " + strings.Join(crossed, "; ")
}
