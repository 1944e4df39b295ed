package results

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Threshold metrics (Threshold.Metric). This is the one home of the
// threshold vocabulary: the scenario compiler parses expressions into a
// Threshold, the plan carries them, and the run stores and checks them.
const (
	// MetricRate is a variant's mean total rate over its repetitions, in
	// requests/s ("req/s >= 100000").
	MetricRate = "req/s"
	// MetricErrors is a variant's failed requests summed over its
	// repetitions ("errors == 0").
	MetricErrors = "errors"
	// MetricErrorShare is the share of a variant's attempts that failed,
	// as a fraction ("errors < 0.1%").
	MetricErrorShare = "error_share"
	// MetricLatency is a percentile of a variant's latency histogram
	// (Latency, Quantile), in microseconds ("p99 handshake < 20ms").
	MetricLatency = "latency"
	// MetricClientBound is 1 when any repetition of a variant had a
	// client-bound group, else 0 ("client_bound == false").
	MetricClientBound = "client_bound"
	// MetricVs is Variant's mean rate against Against's, as a fraction
	// (0.30 = 30 % faster; "kae vs baseline >= +30%").
	MetricVs = "vs"
)

// Threshold is a resolved pass/fail criterion of a run, checked after it
// for every variant (or, for MetricVs, for one pair of variants): the run
// passes when, for each, "measured Op Value" holds. A crossed threshold
// makes "kaeload run" exit 99. scenarios.ParseThreshold makes one from an
// expression; the plan holds them (plans.Plan.Thresholds) and the run
// stores them as they are (Run.Thresholds).
type Threshold struct {
	// Expr is the expression as written ("p99 handshake < 20ms").
	Expr string `json:"expr"`
	// Metric is one of the Metric constants.
	Metric string `json:"metric"`
	// Latency is connect, handshake, ttfb or total; Quantile 0 < q <= 100
	// (MetricLatency only).
	Latency  string  `json:"latency,omitempty"`
	Quantile float64 `json:"quantile,omitempty"`
	// Op is <, <=, >, >=, == or !=.
	Op string `json:"op"`
	// Value is the bound in the metric's unit: req/s, a count of errors,
	// a fraction (error share, vs), microseconds (latency), 0 or 1
	// (client_bound: false or true).
	Value float64 `json:"value"`
	// Variant and Against are the variants a MetricVs compares (Variant
	// against Against), resolved to variant names.
	Variant string `json:"variant,omitempty"`
	Against string `json:"against,omitempty"`
}

// ThresholdCheck is one threshold checked against one variant (or one
// pair of variants, for MetricVs).
type ThresholdCheck struct {
	// Threshold is what was checked.
	Threshold Threshold `json:"threshold"`
	// Variant is the variant measured ("kae vs baseline" for MetricVs).
	Variant string `json:"variant"`
	// Measured says whether the variant had a figure to check (a
	// repetition, a non-empty histogram, a rate to compare with); a
	// threshold without one is crossed: nothing shows it holds.
	Measured bool `json:"measured"`
	// Value is the measured figure in the threshold's unit.
	Value float64 `json:"value"`
	// Passed is true when Measured and "Value Op Threshold.Value" holds.
	Passed bool `json:"passed"`
}

// Shown renders the measured figure for people ("12,345.6 req/s",
// "0.12 %", "18.304 ms", "+31.20 %", "false"); "not measured" when there
// was none.
func (c *ThresholdCheck) Shown() string {
	if !c.Measured {
		return "not measured"
	}
	return thresholdFigure(c.Threshold.Metric, c.Value)
}

func thresholdFigure(metric string, v float64) string {
	switch metric {
	case MetricRate:
		return FormatRate(v) + " req/s"
	case MetricErrors:
		return FormatNumber(v)
	case MetricErrorShare:
		return strconv.FormatFloat(v*100, 'g', 3, 64) + " %"
	case MetricLatency:
		return FormatMillis(int64(v)) + " ms"
	case MetricClientBound:
		return strconv.FormatBool(v != 0)
	case MetricVs:
		return FormatDelta(v * 100)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Line is the check in one line: "PASS  req/s >= 100000: default
// 123,456.7 req/s" or "CROSSED  …".
func (c *ThresholdCheck) Line() string {
	verdict := "PASS"
	if !c.Passed {
		verdict = "CROSSED"
	}
	return fmt.Sprintf("%s  %s: %s %s", verdict, c.Threshold.Expr, c.Variant, c.Shown())
}

// holds reports whether "v op bound" is true.
func holds(v float64, op string, bound float64) bool {
	switch op {
	case "<":
		return v < bound
	case "<=":
		return v <= bound
	case ">":
		return v > bound
	case ">=":
		return v >= bound
	case "==":
		return v == bound
	case "!=":
		return v != bound
	}
	return false
}

// CheckThresholds checks r's thresholds: every threshold against every
// variant in plan order (a MetricVs against its pair), thresholds in
// order. Nil when r has none. It is pure: the same run gives the same
// checks, so every rendering shows the same verdicts.
func CheckThresholds(r *Run) []ThresholdCheck {
	if len(r.Thresholds) == 0 || len(r.Variants) == 0 {
		return nil
	}
	sums := make(map[string]*VariantSummary, len(r.Variants))
	vs := make([]VariantSummary, len(r.Variants))
	for i := range r.Variants {
		vs[i] = summarizeVariant(&r.Variants[i], false)
		sums[vs[i].Name] = &vs[i]
	}
	var out []ThresholdCheck
	for _, t := range r.Thresholds {
		if t.Metric == MetricVs {
			c := ThresholdCheck{Threshold: t, Variant: t.Variant + " vs " + t.Against}
			a, b := sums[t.Variant], sums[t.Against]
			if a != nil && b != nil && a.Stats.N > 0 && b.Stats.N > 0 && b.Stats.Mean > 0 {
				c.Value = a.Stats.Mean/b.Stats.Mean - 1
				c.Measured = !math.IsNaN(c.Value) && !math.IsInf(c.Value, 0)
			}
			c.Passed = c.Measured && holds(c.Value, t.Op, t.Value)
			out = append(out, c)
			continue
		}
		for i := range vs {
			s := &vs[i]
			c := ThresholdCheck{Threshold: t, Variant: s.Name}
			c.Value, c.Measured = measure(t, s, &r.Variants[i])
			c.Passed = c.Measured && holds(c.Value, t.Op, t.Value)
			out = append(out, c)
		}
	}
	return out
}

// measure returns the figure of s that t bounds; false when s has none.
func measure(t Threshold, s *VariantSummary, v *Variant) (float64, bool) {
	if len(v.Reps) == 0 {
		return 0, false
	}
	switch t.Metric {
	case MetricRate:
		return s.Stats.Mean, true
	case MetricErrors:
		return float64(s.Errors), true
	case MetricErrorShare:
		var c Counts
		for i := range v.Reps {
			c.Add(&v.Reps[i].Total.Counts)
		}
		return c.ErrorShare(), true
	case MetricClientBound:
		if s.ClientBoundReps > 0 {
			return 1, true
		}
		return 0, true
	case MetricLatency:
		h := map[string]*Histogram{"connect": s.Connect, "handshake": s.Handshake, "ttfb": s.TTFB, "total": s.Total}[t.Latency]
		if empty(h) {
			return 0, false
		}
		return float64(h.ValueAtQuantile(t.Quantile)), true
	}
	return 0, false
}

// Crossed returns the checks that did not pass.
func Crossed(cs []ThresholdCheck) []ThresholdCheck {
	var out []ThresholdCheck
	for _, c := range cs {
		if !c.Passed {
			out = append(out, c)
		}
	}
	return out
}

// CrossedLines are the crossed thresholds of r, one line each ("req/s >=
// 100000: default 12,345.6 req/s"), as the reports' headers show them.
func CrossedLines(r *Run) []string {
	var out []string
	for _, c := range Crossed(CheckThresholds(r)) {
		out = append(out, crossedLine(&c))
	}
	return out
}

// crossedLine is one crossed threshold as the reports' headers show it.
func crossedLine(c *ThresholdCheck) string {
	return fmt.Sprintf("%s: %s %s", c.Threshold.Expr, c.Variant, c.Shown())
}

// thresholdTable lays the threshold checks out once, for the text and
// Markdown reports: verdict, threshold, variant, measured.
func thresholdTable(cs []ThresholdCheck) table {
	tb := table{header: []string{"verdict", "threshold", "variant", "measured"}, right: []bool{false, false, false, true}}
	for i := range cs {
		c := &cs[i]
		verdict := "pass"
		if !c.Passed {
			verdict = "CROSSED"
		}
		tb.add(verdict, c.Threshold.Expr, c.Variant, c.Shown())
	}
	return tb
}

// writeThresholds writes the text report's thresholds section.
func writeThresholds(b *bytes.Buffer, cs []ThresholdCheck) {
	b.WriteString("\n== thresholds\n")
	tb := thresholdTable(cs)
	tb.write(b, "")
}

// writeThresholdsMarkdown writes the Markdown report's thresholds section.
func writeThresholdsMarkdown(b *bytes.Buffer, cs []ThresholdCheck) {
	b.WriteString("\n## Thresholds\n\n")
	tb := thresholdTable(cs) // writeMarkdown escapes
	tb.writeMarkdown(b)
}

// thresholdCell is the CSV "thresholds" cell of a variant's "all" row:
// "pass", or "crossed: EXPR; EXPR" naming the thresholds it crossed
// (MetricVs ones count for their Variant).
func thresholdCell(cs []ThresholdCheck, variant string) string {
	var crossed []string
	for _, c := range cs {
		name := c.Variant
		if c.Threshold.Metric == MetricVs {
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
