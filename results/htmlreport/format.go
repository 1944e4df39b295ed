package htmlreport

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
)

// These helpers render numbers the way results.WriteText does (thousands
// separators, one decimal for rates, ms with µs resolution), so the HTML
// and the terminal report show the same strings. results keeps its own
// unexported; exporting them there would remove this copy.

// dash stands for a value that is not defined.
const dash = "—"

// number renders v with the given decimals and thousands separators; dash
// for NaN or Inf.
func number(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return dash
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac := s, ""
	if dot := strings.IndexByte(s, '.'); dot >= 0 {
		intPart, frac = s[:dot], s[dot:]
	}
	out := groupDigits(intPart) + frac
	if neg && strings.Trim(out, "0.,") != "" {
		return "-" + out
	}
	return out
}

// rate renders a rate in req/s with one decimal.
func rate(v float64) string { return number(v, 1) }

// commas renders n with thousands separators.
func commas(n uint64) string { return groupDigits(strconv.FormatUint(n, 10)) }

// groupDigits inserts a comma every three digits from the right.
func groupDigits(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var sb strings.Builder
	lead := len(digits) % 3
	if lead > 0 {
		sb.WriteString(digits[:lead])
	}
	for i := lead; i < len(digits); i += 3 {
		if sb.Len() > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(digits[i : i+3])
	}
	return sb.String()
}

// percent renders a 0..1 fraction in percent with one decimal; dash for NaN.
func percent(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dash
	}
	return strconv.FormatFloat(f*100, 'f', 1, 64) + " %"
}

// deltaPct renders a signed percentage with two decimals.
func deltaPct(p float64) string {
	return fmt.Sprintf("%+.2f %%", p)
}

// ms renders microseconds as milliseconds with µs resolution.
func ms(us int64) string { return strconv.FormatFloat(float64(us)/1000, 'f', 3, 64) }

// quantileMs renders the q-th percentile of h in ms; dash when empty.
func quantileMs(h *results.Histogram, q float64) string {
	if h == nil || h.Histogram == nil || h.TotalCount() == 0 {
		return dash
	}
	return ms(h.ValueAtQuantile(q))
}

// maxMs renders the maximum of h in ms; dash when empty.
func maxMs(h *results.Histogram) string {
	if h == nil || h.Histogram == nil || h.TotalCount() == 0 {
		return dash
	}
	return ms(h.Max())
}

// pValue renders the p-value of c; dash when no test ran.
func pValue(c results.Comparison) string {
	switch {
	case c.Test == results.TestNone:
		return dash
	case c.PValue < 0.0001:
		return "<0.0001"
	}
	return strconv.FormatFloat(c.PValue, 'f', 4, 64)
}

// verdict says whether c is significant, in the words of the text report.
func verdict(c results.Comparison) string {
	switch c.Test {
	case results.TestNone:
		return "no test (n<2)"
	case results.TestWelchZeroVariance:
		if c.Significant {
			return "yes (zero variance)"
		}
		return "no (zero variance)"
	}
	if c.Significant {
		return "yes"
	}
	return "no"
}

// statusLine renders the status classes of c ("2xx 1,000  5xx 3").
func statusLine(c *results.Counts) string {
	var parts []string
	for i := 1; i < len(c.Status); i++ {
		if c.Status[i] > 0 {
			parts = append(parts, fmt.Sprintf("%dxx %s", i, commas(c.Status[i])))
		}
	}
	if c.Status[0] > 0 {
		parts = append(parts, "other "+commas(c.Status[0]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "  ")
}
