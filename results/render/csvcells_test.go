package render

import (
	"strconv"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
)

// The CSV's number forms, for the tests' expected cells.

func csvF3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

func csvG(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }

func csvMs(h *results.Histogram, q float64) string {
	if results.EmptyHistogram(h) {
		return ""
	}
	return format.Millis(h.ValueAtQuantile(q))
}
