package tables

import (
	"github.com/kaeload/kaeload/results/analysis"
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
