package tables

import (
	"github.com/kaeload/kaeload/results/analysis"
)

// Speed lays the speed table out for the text and Markdown reports.
func Speed(t *analysis.SpeedTable) Table {
	tb := Table{Header: t.Header()}
	for i := range tb.Header {
		tb.Right = append(tb.Right, i >= 2)
	}
	for i := range t.Rows {
		tb.Add(t.Cells(&t.Rows[i])...)
	}
	return tb
}
