package htmlreport

import "github.com/kaeload/kaeload/results/format"

// The page renders numbers with the results formatters (format.Rate
// and the others), so it shows the same strings as the text report; only
// the mark for an undefined value differs.

// dash stands for a value that is not defined; the page writes it where
// the text report writes format.Missing.
const dash = "—"

// cell returns s, a formatter's result, with format.Missing replaced by
// dash.
func cell(s string) string {
	if s == format.Missing {
		return dash
	}
	return s
}
