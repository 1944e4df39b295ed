package format

import (
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/stats"
	"math"
	"strconv"
	"strings"
)

// The formatters below render numbers the same way in every report (text,
// Markdown, HTML): thousands separators, one decimal for rates,
// milliseconds with microsecond resolution. A renderer that needs another
// mark for an undefined value (the HTML report writes an em dash) replaces
// Missing.

// Missing is what the formatters return for a value that is not defined:
// an empty histogram, a NaN or an infinite number.
const Missing = "-"

// Count renders n with thousands separators ("1,234,567").
func Count(n uint64) string { return GroupDigits(strconv.FormatUint(n, 10)) }

// Float renders v with thousands separators and the given number of
// decimals (-1: as few as represent v exactly, as strconv.FormatFloat). A
// value that rounds to zero has no minus sign. It returns Missing for NaN
// and ±Inf.
func Float(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Missing
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac := s, ""
	if dot := strings.IndexByte(s, '.'); dot >= 0 {
		intPart, frac = s[:dot], s[dot:]
	}
	out := GroupDigits(intPart) + frac
	if neg && strings.Trim(out, "0.,") != "" {
		return "-" + out
	}
	return out
}

// Rate renders a rate (req/s) with one decimal and thousands
// separators ("120,500.0"); Missing for NaN and ±Inf.
func Rate(v float64) string { return Float(v, 1) }

// Number renders v with thousands separators, without decimals when
// it is a whole number (a counter) and with one otherwise.
func Number(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		if v < 0 {
			return "-" + Count(uint64(-v))
		}
		return Count(uint64(v))
	}
	return Rate(v)
}

// Percent renders a 0..1 fraction as a percentage with one decimal
// ("97.5 %"); Missing for NaN and ±Inf.
func Percent(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Missing
	}
	return strconv.FormatFloat(f*100, 'f', 1, 64) + " %"
}

// Delta renders a difference in percent with its sign and two
// decimals ("+50.21 %"), as Comparison.DeltaPct is shown; beyond
// ±PercentCap only the bound ("> +10,000 %"), Missing for NaN.
func Delta(pct float64) string {
	switch {
	case math.IsNaN(pct):
		return Missing
	case pct > PercentCap:
		return "> +" + Float(PercentCap, 0) + " %"
	case pct < -PercentCap:
		return "< -" + Float(PercentCap, 0) + " %"
	}
	return fmt.Sprintf("%+.2f %%", pct)
}

// PercentCap is the largest percentage printed in full: a difference, a
// minimum detectable effect or an equivalence bound beyond it (a ratio
// of 101 or more) says no more as ±356839817.03 % than as its bound, and
// its digits would only be noise.
const PercentCap = 10000

// Bound renders a symmetric bound in percent with two decimals
// ("±4.80 %"), as MDEs and equivalence bounds are shown; beyond
// PercentCap only the cap ("±>10,000 %"), Missing for NaN.
func Bound(pct float64) string {
	switch {
	case math.IsNaN(pct):
		return Missing
	case math.Abs(pct) > PercentCap:
		return "±>" + Float(PercentCap, 0) + " %"
	}
	return fmt.Sprintf("±%.2f %%", pct)
}

// Millis renders microseconds as milliseconds with microsecond
// resolution ("2.591").
func Millis(us int64) string { return strconv.FormatFloat(float64(us)/1000, 'f', 3, 64) }

// QuantileMillis renders the q-th percentile (0..100) of h, which holds
// microseconds, in milliseconds; Missing when h is nil or empty.
func QuantileMillis(h *results.Histogram, q float64) string {
	if results.EmptyHistogram(h) {
		return Missing
	}
	return Millis(h.ValueAtQuantile(q))
}

// MaxMillis renders the largest value of h, which holds microseconds, in
// milliseconds; Missing when h is nil or empty.
func MaxMillis(h *results.Histogram) string {
	if results.EmptyHistogram(h) {
		return Missing
	}
	return Millis(h.Max())
}

// Verdict says in words whether c is significant: "yes", "no", "yes (zero
// variance)", "no (zero variance)", "no test (n<2)", "no test (baseline
// not measured)" or "cannot test".
func Verdict(c stats.Comparison) string {
	switch c.Test {
	case stats.TestNone:
		return "no test (n<2)"
	case stats.TestCannot:
		return "cannot test"
	case stats.TestNoBaseline:
		return "no test (baseline not measured)"
	case stats.TestZeroVariance:
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

// PValue renders the p-value of c with four decimals, "<0.0001" below
// that; Missing when no test ran (Comparison.Tested).
func PValue(c stats.Comparison) string {
	if !c.Tested() {
		return Missing
	}
	return formatP(c.PValue)
}

// formatP renders a p-value with four decimals, "<0.0001" below that.
func formatP(p float64) string {
	if p < 0.0001 {
		return "<0.0001"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// StatusLine renders the status classes of c that occurred, e.g.
// "2xx 1,000  5xx 3  other 1"; "none" when no response arrived.
func StatusLine(c *results.Counts) string {
	var parts []string
	for i := 1; i < len(c.Status); i++ {
		if c.Status[i] > 0 {
			parts = append(parts, fmt.Sprintf("%dxx %s", i, Count(c.Status[i])))
		}
	}
	if c.Status[0] > 0 {
		parts = append(parts, "other "+Count(c.Status[0]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "  ")
}

// GroupDigits inserts a comma every three digits from the right.
func GroupDigits(digits string) string {
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

// PAdjusted renders the adjusted p-value of c like PValue renders the raw
// one; Missing when no test ran.
func PAdjusted(c stats.Comparison) string {
	if !c.Tested() {
		return Missing
	}
	return formatP(c.PAdjusted)
}

// MDE renders c's minimum detectable effect ("±4.80 %"), "not
// determinable" when a test ran but none exists; Missing without a test.
func MDE(c stats.Comparison) string {
	switch {
	case c.HasMDE:
		return Bound(c.MDEPct)
	case c.MDENote != "":
		return c.MDENote
	}
	return Missing
}

// VerdictWords says what c means in words a user can act on: the
// difference when it is significant (and whether it is within the
// equivalence margin), "no difference larger than ±margin" when the
// equivalence test passes, and otherwise that the data are inconclusive,
// with the largest difference they do not rule out and the smallest they
// could have found. "Not significant" alone is never the answer. A
// verdict on fewer than three repetitions a side carries its caution
// ("2 repetitions: t has 2 degrees of freedom").
func VerdictWords(c stats.Comparison) string {
	w := verdictWords(c)
	if c.Caution != "" {
		w += " (caution: " + c.Caution + ")"
	}
	return w
}

// VerdictLine is VerdictWords with, in the same line, what else the
// figures measured (analysis.VariantSummary.VerdictCaveat): "+24.46 %,
// significant; shared CPUs: other processes on the server's CPUs in 3 of
// 3 repetitions". A difference is never called significant without it.
func VerdictLine(c stats.Comparison, caveat string) string {
	w := VerdictWords(c)
	if caveat == "" {
		return w
	}
	return w + "; " + caveat
}

func verdictWords(c stats.Comparison) string {
	margin := strconv.FormatFloat(c.EquivalenceMarginPct, 'g', 4, 64)
	switch {
	case c.Test == stats.TestNone:
		return "no test: needs 2+ repetitions on each side"
	case c.Test == stats.TestCannot:
		return "cannot test: " + c.Why
	case c.Test == stats.TestNoBaseline:
		return "no comparison: baseline not measured"
	case c.Significant && c.Equivalent:
		return fmt.Sprintf("%s, significant, but within the ±%s %% margin", Delta(c.DeltaPct), margin)
	case c.Significant && c.Test == stats.TestZeroVariance:
		return fmt.Sprintf("%s, significant (zero variance)", Delta(c.DeltaPct))
	case c.Significant:
		return fmt.Sprintf("%s, significant", Delta(c.DeltaPct))
	case c.Equivalent:
		return fmt.Sprintf("no difference larger than ±%s %% (equivalent; within %s)", margin, Bound(c.EquivalenceBoundPct))
	case c.HasMDE && c.HasBound:
		return fmt.Sprintf("inconclusive: could be up to %s; these repetitions detect %s", Bound(c.EquivalenceBoundPct), Bound(c.MDEPct))
	case c.HasBound:
		return fmt.Sprintf("inconclusive: could be up to %s; the smallest difference these repetitions detect is %s", Bound(c.EquivalenceBoundPct), stats.MDENotDeterminable)
	case c.MDENote != "":
		return "inconclusive: the noise is too large for any bound"
	case c.Test == stats.TestZeroVariance:
		return "no difference (zero variance)"
	}
	return "not significant"
}
