package scenarios

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// thresholdOps are the comparison operators, two-character ones first;
// "=" is refused with a hint.
var thresholdOps = []string{"<=", ">=", "==", "!=", "<", ">", "="}

// latencyKinds are the histograms a latency threshold may name ("latency"
// is total).
var latencyKinds = map[string]string{"connect": "connect", "handshake": "handshake", "ttfb": "ttfb", "total": "total", "latency": "total"}

// tokens splits a threshold expression into words and operators.
func tokens(expr string) []string {
	var out []string
	blank := func(c byte) bool { return c == ' ' || c == '\t' }
	for i := 0; i < len(expr); {
		switch op := opAt(expr[i:]); {
		case blank(expr[i]):
			i++
		case op != "":
			out, i = append(out, op), i+len(op)
		default:
			j := i + 1
			for j < len(expr) && !blank(expr[j]) && opAt(expr[j:]) == "" {
				j++
			}
			out, i = append(out, expr[i:j]), j
		}
	}
	return out
}

func opAt(s string) string {
	i := slices.IndexFunc(thresholdOps, func(op string) bool { return strings.HasPrefix(s, op) })
	if i < 0 {
		return ""
	}
	return thresholdOps[i]
}

// thresholdHelp is the grammar, for error messages.
const thresholdHelp = `want "req/s >= 100000", "errors < 0.1%", "errors == 0", "p99 handshake < 20ms", "client_bound == false", "server_saturated == true", "kae vs baseline >= +30%", "listen_overflows == 0", "stalls == 0", "diagnoses == 0" or "probe hpre_send per request >= 0.9"`

// countMetrics count the timeline's events, and boolMetrics are true or
// false of a variant, by the name a threshold gives them.
var (
	countMetrics = map[string]string{
		"listen_overflows": results.MetricListenOverflows, "stalls": results.MetricStalls, "diagnoses": results.MetricDiagnoses,
	}
	boolMetrics = map[string]string{"client_bound": results.MetricClientBound, "server_saturated": results.MetricServerSaturated}
)

// measures parse a threshold's value by its measure (the words before the
// operator), the first that matches.
var measures = []struct {
	match func(lhs []string) bool
	parse func(t *results.Threshold, lhs []string, value string) error
}{
	{func(l []string) bool { return len(l) == 3 && l[1] == "vs" }, parseVsThreshold},
	{func(l []string) bool { return len(l) == 1 && (l[0] == "req/s" || l[0] == "rps") }, parseRateThreshold},
	{func(l []string) bool { return len(l) == 1 && l[0] == "errors" }, parseErrorsThreshold},
	{func(l []string) bool { return len(l) == 1 && countMetrics[l[0]] != "" }, parseCountThreshold},
	{func(l []string) bool { return len(l) == 1 && boolMetrics[l[0]] != "" }, parseBoolThreshold},
	{func(l []string) bool { return l[0] == "probe" }, parseProbeThreshold},
	{func(l []string) bool { return len(l) == 2 && strings.HasPrefix(l[0], "p") }, parseLatencyThreshold},
}

// ParseThreshold parses one threshold expression, "MEASURE OP VALUE"
// ("req/s >= 100000", "p99 handshake < 20ms"; docs/scenario.md lists them).
// Compile resolves variant names; results.Threshold evaluates it.
func ParseThreshold(expr string) (results.Threshold, error) {
	t := results.Threshold{Expr: strings.TrimSpace(expr)}
	toks := tokens(t.Expr)
	opAtIdx := slices.IndexFunc(toks, func(s string) bool { return opAt(s) != "" })
	switch {
	case t.Expr == "":
		return t, fmt.Errorf("empty threshold: %s", thresholdHelp)
	case len(t.Expr) > 200:
		return t, fmt.Errorf("threshold of %d bytes, more than 200", len(t.Expr))
	case opAtIdx < 0:
		return t, fmt.Errorf("%q has no comparison (<, <=, >, >=, ==, !=): %s", t.Expr, thresholdHelp)
	case toks[opAtIdx] == "=":
		return t, fmt.Errorf("%q: \"=\" is not a comparison (want ==)", t.Expr)
	case opAtIdx == 0:
		return t, fmt.Errorf("%q has nothing before %s: %s", t.Expr, toks[0], thresholdHelp)
	case opAtIdx != len(toks)-2:
		if opAtIdx == len(toks)-1 {
			return t, fmt.Errorf("%q has no value after %s", t.Expr, toks[opAtIdx])
		}
		return t, fmt.Errorf("%q: unexpected %q after the value %q", t.Expr, toks[opAtIdx+2], toks[opAtIdx+1])
	}
	lhs, value := toks[:opAtIdx], toks[opAtIdx+1]
	t.Op = toks[opAtIdx]
	for _, m := range measures {
		if m.match(lhs) {
			return t, m.parse(&t, lhs, value)
		}
	}
	return t, fmt.Errorf("%q: unknown measure %q: %s", t.Expr, strings.Join(lhs, " "), thresholdHelp)
}

func parseVsThreshold(t *results.Threshold, lhs []string, value string) error {
	t.Metric, t.Variant, t.Against = results.MetricVs, lhs[0], lhs[2]
	var ok bool
	if t.Value, ok = thresholdPercent(value, "+-"); !ok {
		return fmt.Errorf("%q: %q is not a percentage (want e.g. +30%% or -5%%)", t.Expr, value)
	}
	return nil
}

func parseRateThreshold(t *results.Threshold, _ []string, value string) error {
	t.Metric = results.MetricRate
	var ok bool
	if t.Value, ok = plainNumber(value, ""); !ok {
		return fmt.Errorf("%q: %q is not a rate in req/s (want e.g. 100000)", t.Expr, value)
	}
	return nil
}

// parseErrorsThreshold takes a share ("0.1%") or a count ("0").
func parseErrorsThreshold(t *results.Threshold, _ []string, value string) error {
	if v, ok := thresholdPercent(value, ""); ok {
		t.Metric, t.Value = results.MetricErrorShare, v
		if v > 1 {
			return fmt.Errorf("%q: %s is more than 100%%", t.Expr, value)
		}
	} else if n, err := strconv.ParseUint(value, 10, 53); err == nil {
		t.Metric, t.Value = results.MetricErrors, float64(n)
	} else {
		return fmt.Errorf("%q: %q is neither a percentage (0.1%%) nor a count of errors (0)", t.Expr, value)
	}
	return nil
}

func parseCountThreshold(t *results.Threshold, lhs []string, value string) error {
	t.Metric = countMetrics[lhs[0]]
	n, err := strconv.ParseUint(value, 10, 53)
	if err != nil {
		return fmt.Errorf("%q: %q is not a count (want e.g. 0)", t.Expr, value)
	}
	t.Value = float64(n)
	return nil
}

func parseBoolThreshold(t *results.Threshold, lhs []string, value string) error {
	t.Metric = boolMetrics[lhs[0]]
	switch value {
	case "true":
		t.Value = 1
	case "false":
		t.Value = 0
	default:
		return fmt.Errorf("%q: %s is true or false, not %q", t.Expr, lhs[0], value)
	}
	if t.Op != "==" && t.Op != "!=" {
		return fmt.Errorf("%q: %s compares with == or !=, not %s", t.Expr, lhs[0], t.Op)
	}
	return nil
}

// parseLatencyThreshold parses "pQ KIND OP DURATION", the value in µs.
func parseLatencyThreshold(t *results.Threshold, lhs []string, value string) error {
	t.Metric = results.MetricLatency
	q, ok := plainNumber(lhs[0][1:], "")
	if !ok || q <= 0 || q > 100 {
		return fmt.Errorf("%q: %q is not a percentile (want p50, p99, p99.9)", t.Expr, lhs[0])
	}
	kind, known := latencyKinds[lhs[1]]
	if !known {
		return fmt.Errorf("%q: %q is not a latency (want connect, handshake, ttfb or total)", t.Expr, lhs[1])
	}
	d, err := time.ParseDuration(value)
	if err != nil || d < 0 {
		return fmt.Errorf("%q: %q is not a duration (want e.g. 20ms)", t.Expr, value)
	}
	t.Quantile, t.Latency, t.Value = q, kind, float64(d.Microseconds())
	return nil
}

// parseProbeThreshold parses "probe NAME [per request] OP NUMBER"; Compile
// checks that NAME is one of server.probes.
func parseProbeThreshold(t *results.Threshold, lhs []string, value string) error {
	switch {
	case len(lhs) == 2:
		t.Metric = results.MetricProbe
	case len(lhs) == 4 && lhs[2] == "per" && lhs[3] == "request":
		t.Metric = results.MetricProbePerRequest
	default:
		return fmt.Errorf("%q: want \"probe NAME OP NUMBER\" (its mean delta per window) or \"probe NAME per request OP NUMBER\"", t.Expr)
	}
	t.Probe = lhs[1]
	var ok bool
	if t.Value, ok = plainNumber(value, "-"); !ok {
		return fmt.Errorf("%q: %q is not a number (want e.g. 0.9)", t.Expr, value)
	}
	return nil
}

// plainNumber parses a finite decimal number without exponent, led by one
// of signs when it is signed.
func plainNumber(s, signs string) (float64, bool) {
	neg := false
	if s != "" && strings.IndexByte(signs, s[0]) >= 0 {
		neg, s = s[0] == '-', s[1:]
	}
	v, err := strconv.ParseFloat(s, 64)
	if s == "" || strings.ContainsAny(s, "+-eEpPxX_") || err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// thresholdPercent parses "30%" (or "+30%", "-5%" with signs "+-") as a fraction.
func thresholdPercent(s, signs string) (float64, bool) {
	if num, ok := strings.CutSuffix(s, "%"); ok {
		v, good := plainNumber(num, signs)
		return v / 100, good
	}
	return 0, false
}

// AddThreshold adds a --threshold expression, which Compile checks with
// the scenario's and names in errors as `--threshold "EXPR"`.
func (s *Scenario) AddThreshold(expr string) {
	s.extraThresholds = append(s.extraThresholds, expr)
}

// thresholds compiles the scenario's thresholds, then the command line's,
// against the compiled variants.
func (c *compiler) thresholds(variants []plans.Variant, baseline string) []results.Threshold {
	var out []results.Threshold
	if c.s.Thresholds != nil && len(c.s.Thresholds) == 0 {
		c.errorf("thresholds", "empty list (%s, or leave thresholds out)", thresholdHelp)
	}
	names := make([]string, len(variants))
	for i, v := range variants {
		names[i] = v.Name
	}
	check := func(expr string, fail func(format string, args ...any)) {
		t, err := ParseThreshold(expr)
		if err != nil {
			fail("%v", err)
			return
		}
		if t.Metric == results.MetricProbe || t.Metric == results.MetricProbePerRequest {
			if probes := c.probeNames(); !slices.Contains(probes, t.Probe) {
				list := "server.probes has none"
				if len(probes) > 0 {
					list = "server.probes: " + strings.Join(probes, ", ")
				}
				fail("%q: %q names no probe (%s)", t.Expr, t.Probe, list)
				return
			}
		}
		if t.Metric == results.MetricVs {
			for _, name := range []*string{&t.Variant, &t.Against} {
				if *name == "baseline" && !slices.Contains(names, "baseline") {
					*name = baseline
				}
				if !slices.Contains(names, *name) && !c.mayName(*name) {
					fail("%q: %q names no variant (variants: %s; or baseline)", t.Expr, *name, strings.Join(names, ", "))
					return
				}
			}
			if t.Variant == t.Against {
				fail("%q compares %s with itself", t.Expr, t.Variant)
				return
			}
		}
		out = append(out, t)
	}
	for i, expr := range c.s.Thresholds {
		path := fmt.Sprintf("thresholds[%d]", i)
		check(expr, func(format string, args ...any) { c.errorf(path, format, args...) })
	}
	for _, expr := range c.s.extraThresholds {
		flag := "--threshold " + strconv.Quote(expr)
		check(expr, func(format string, args ...any) {
			// The flag quotes the expression already.
			msg := strings.TrimPrefix(fmt.Sprintf(format, args...), strconv.Quote(expr)+": ")
			c.errs = append(c.errs, &Error{Flag: flag, Msg: msg})
		})
	}
	return out
}

// probeNames are the names of the scenario's server probes.
func (c *compiler) probeNames() []string {
	var out []string
	if c.s.Server == nil {
		return nil
	}
	for _, p := range c.s.Server.Probes {
		if p.Name != nil {
			out = append(out, *p.Name)
		}
	}
	return out
}
