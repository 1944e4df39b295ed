// Package format renders numbers and short phrases the same way in every output. It decides nothing.
package format

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/stats"
)

// Missing is what the formatters return for an undefined value (an empty histogram, NaN, ±Inf).
const Missing = "-"

// Count renders n with thousands separators ("1,234,567").
func Count(n uint64) string { return groupDigits(strconv.FormatUint(n, 10)) }

// Float renders v with thousands separators and decimals (-1: as few as exact); no "-0".
func Float(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Missing
	}
	s := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	whole, _, _ := strings.Cut(s, ".")
	s = groupDigits(whole) + s[len(whole):]
	if v < 0 && strings.Trim(s, "0.,") != "" {
		return "-" + s
	}
	return s
}

// Rate renders a rate with one decimal: "120,500.0".
func Rate(v float64) string { return Float(v, 1) }

// Number renders v without decimals when whole (a counter), else as Rate.
func Number(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return Float(v, 0)
	}
	return Rate(v)
}

// Percent renders a 0..1 fraction as "97.5 %".
func Percent(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Missing
	}
	return strconv.FormatFloat(f*100, 'f', 1, 64) + " %"
}

// Delta renders a difference in percent: "+50.21 %", "> +10,000 %".
func Delta(pct float64) string { return capped(pct, "%+.2f %%", "> +", "< -") }

// Bound renders a symmetric bound in percent: "±4.80 %", "±>10,000 %".
func Bound(pct float64) string { return capped(pct, "±%.2f %%", "±>", "±>") }

// PercentCap is the largest percentage printed in full: beyond it (a ratio of 101) digits are noise.
const PercentCap = 10000

// capped renders pct by layout, beyond ±PercentCap as over or under it.
func capped(pct float64, layout, over, under string) string {
	switch {
	case math.IsNaN(pct):
		return Missing
	case pct > PercentCap:
		return over + Float(PercentCap, 0) + " %"
	case pct < -PercentCap:
		return under + Float(PercentCap, 0) + " %"
	}
	return fmt.Sprintf(layout, pct)
}

// Millis renders microseconds as milliseconds: "2.591".
func Millis(us int64) string { return strconv.FormatFloat(float64(us)/1000, 'f', 3, 64) }

// QuantileMillis renders h's q-th percentile (0..100) in milliseconds.
func QuantileMillis(h *results.Histogram, q float64) string {
	if results.EmptyHistogram(h) {
		return Missing
	}
	return Millis(h.ValueAtQuantile(q))
}

// PValue renders c's p-value with four decimals, "<0.0001" below, Missing untested.
func PValue(c stats.Comparison) string { return formatP(c, c.PValue) }

// PAdjusted renders c's adjusted p-value as PValue does.
func PAdjusted(c stats.Comparison) string { return formatP(c, c.PAdjusted) }

func formatP(c stats.Comparison, p float64) string {
	switch {
	case !c.Tested():
		return Missing
	case p < 0.0001:
		return "<0.0001"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// StatusClasses name results.Counts.Status.
var StatusClasses = [6]string{"other", "1xx", "2xx", "3xx", "4xx", "5xx"}

// StatusLine renders the status classes that occurred, "2xx 1,000  other 1", or "none".
func StatusLine(c *results.Counts) string {
	var parts []string
	for _, i := range []int{1, 2, 3, 4, 5, 0} {
		if n := c.Status[i]; n > 0 {
			parts = append(parts, StatusClasses[i]+" "+Count(n))
		}
	}
	return cmp.Or(strings.Join(parts, "  "), "none")
}

// groupDigits inserts a comma every three digits from the right.
func groupDigits(digits string) string {
	for i := len(digits) - 3; i > 0; i -= 3 {
		digits = digits[:i] + "," + digits[i:]
	}
	return digits
}

// MDE renders c's minimum detectable effect, or why there is none.
func MDE(c stats.Comparison) string {
	switch {
	case c.HasMDE:
		return Bound(c.MDEPct)
	case c.MDENote != "":
		return c.MDENote
	}
	return Missing
}

// VerdictWords says what c means in words a user can act on, never "not significant" alone.
func VerdictWords(c stats.Comparison) string {
	return verdictWords(c) + affix(" (caution: ", c.Caution, ")")
}

// VerdictLine is VerdictWords with the caveat, so no difference is called significant without it.
func VerdictLine(c stats.Comparison, caveat string) string {
	return VerdictWords(c) + affix("; ", caveat, "")
}

// affix is s between pre and post, "" when s is.
func affix(pre, s, post string) string {
	if s == "" {
		return ""
	}
	return pre + s + post
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

// SlotMemoryLine renders the workers' memory per connection slot: "39.6 MiB private at peak in 1 worker …".
func SlotMemoryLine(m results.SlotMemory) string {
	mib := func(bytes float64) string { return Rate(bytes / (1 << 20)) }
	line := fmt.Sprintf("%s MiB private at peak in %d %s (%s MiB idle); ", mib(float64(m.Peak)), m.Workers,
		Plural(m.Workers, "worker"), mib(float64(m.Ready)))
	if m.Known {
		return line + Rate(m.PerSlot/1024) + " KiB per connection slot"
	}
	return line + fmt.Sprintf("per connection slot n/a: %s %s grew it by %s MiB, under twice the %s MiB any loaded "+
		"worker grows by", Count(uint64(m.Slots)), Plural(m.Slots, "slot"), mib(float64(m.Peak-m.Ready)),
		mib(float64(results.SlotMemoryBase)*float64(m.Workers)))
}

// Plural is thing, or things unless n is 1.
func Plural(n int, thing string) string {
	if n == 1 {
		return thing
	}
	return thing + "s"
}

// Share renders a fraction as "0.25 %", up to two decimals; "<0.01 %" rather than 0.
func Share(f float64) string {
	if f > 0 && f < 0.00005 {
		return "<0.01 %"
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", f*100), "0"), ".") + " %"
}

// Micros renders a per-request CPU time in microseconds: "228", "12.5", "0.84".
func Micros(us float64) string {
	digits := 2
	for lim := 10.0; us >= lim && digits > 0; lim *= 10 {
		digits--
	}
	return strconv.FormatFloat(us, 'f', digits, 64)
}

// HostLine describes an ssh host: its roles, machine, binary and clock.
func HostLine(h results.RemoteHost) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", h.Name, h.Roles)
	if f := h.Facts; f != nil {
		fmt.Fprintf(&b, "; %d CPUs%s%s", f.CPUs, affix(" (", f.CPUModel, ")"), affix(", ", f.Kernel, ""))
	}
	if h.Binary != "" {
		how := "found"
		if h.Uploaded {
			how = "uploaded"
		}
		fmt.Fprintf(&b, "; kaeload %s sha256 %.16s %s", h.Platform, h.Binary, how)
	}
	if h.RTT > 0 {
		fmt.Fprintf(&b, "; round trip %s, clock offset %s ± %s", h.RTT.Round(time.Microsecond), h.ClockOffset.Round(time.Microsecond), (h.RTT / 2).Round(time.Microsecond))
		if h.Uncertain {
			b.WriteString(" (UNCERTAIN: more than 1 % of the window)")
		}
	}
	return b.String()
}

// Message quotes an error message, cut to 120 bytes.
func Message(s string) string {
	if s == "" {
		return "(no message)"
	}
	return strconv.Quote(cut(s, 120))
}

// Plain writes an error message on one line, cut to 300 bytes, unquoted (unlike Message) so `\s*` reads as written.
func Plain(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "(no message)"
	}
	return cut(s, 300)
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// ErrorClasses writes the classes that occurred: "status 1,400, timeout 3".
func ErrorClasses(e results.ErrorCounts) string {
	var parts []string
	for c, n := range e {
		if n > 0 {
			parts = append(parts, results.ErrorClass(c).String()+" "+Count(n))
		}
	}
	return strings.Join(parts, ", ")
}

func phaseErrors(total uint64, classes results.ErrorCounts) string {
	if total == 0 {
		return "errors 0"
	}
	return "errors " + Count(total) + affix(": ", ErrorClasses(classes), "")
}

// OutsideLine says what the client did outside its window, counted in no figure: "warm-up 1,640 (…), cut off 0".
func OutsideLine(o *results.Outside) string {
	after := o.AfterClasses.Total()
	if o.AfterClasses.IsZero() { // a record made before the phases had classes
		after = o.Abandoned
	}
	return "warm-up " + Count(o.Warmup) + " (" + phaseErrors(o.WarmupErrorTotal(), o.WarmupClasses) + "), after the window " +
		Count(o.Late) + " (" + phaseErrors(after, o.AfterClasses) + "), cut off " + Count(o.Abandoned)
}
