// Package numfmt writes numbers as scenario checks and plan descriptions
// quote them back to a person: shortest form, no float noise, no "-0",
// fractions as percentages.
package numfmt

import (
	"math"
	"strconv"
	"strings"
)

// Round rounds f to digits decimals, dropping float noise such as the
// 0.30000000000000004 of 3 × 0.1; f itself when rounding overflows.
func Round(f float64, digits int) float64 {
	p := math.Pow10(digits)
	if r := math.Round(f*p) / p; !math.IsInf(r, 0) && !math.IsNaN(r) {
		return r
	}
	return f
}

// Num writes f with digits decimals (-1: the shortest that reads back
// as f); integers have no ".0", and nothing rounds to "-0" ("-0.0").
func Num(f float64, digits int) string {
	s := strconv.FormatFloat(f, 'f', digits, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	return s
}

// Percent writes a fraction as a percentage: 0.005 is "0.5%".
func Percent(f float64) string {
	return Num(Round(f*100, 9), -1) + "%"
}
