package analysis

import (
	"math"
	"slices"
	"strconv"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
)

// ThresholdCheck is one threshold checked against one variant ("kae vs baseline" for
// MetricVs); not Measured, it is crossed: nothing shows it holds.
type ThresholdCheck struct {
	Threshold results.Threshold `json:"threshold"`
	Variant   string            `json:"variant"`
	Measured  bool              `json:"measured"`
	Value     float64           `json:"value"` // in the threshold's unit
	Passed    bool              `json:"passed"`
}

// Shown renders the figure ("12,345.6 req/s") or "not measured".
func (c *ThresholdCheck) Shown() string {
	v := c.Value
	switch m := c.Threshold.Metric; {
	case !c.Measured:
		return "not measured"
	case m == results.MetricRate:
		return format.Rate(v) + " req/s"
	case m == results.MetricErrorShare:
		return strconv.FormatFloat(v*100, 'g', 3, 64) + " %"
	case m == results.MetricLatency:
		return format.Millis(int64(v)) + " ms"
	case m == results.MetricClientBound || m == results.MetricServerSaturated:
		return strconv.FormatBool(v != 0)
	case m == results.MetricVs:
		return format.Delta(v * 100)
	case m == results.MetricProbePerRequest:
		return strconv.FormatFloat(v, 'f', 3, 64) + " per request"
	}
	return format.Number(v) // the counts
}

// Line: "PASS  req/s >= 100000: default 123,456.7 req/s" or "CROSSED  …".
func (c *ThresholdCheck) Line() notes.Note {
	return notes.New(notes.ThresholdChecked, "passed", c.Passed, "check", crossedLine(c))
}

// checkThresholds checks every threshold against every variant (a MetricVs against its pair).
func checkThresholds(r *results.Run, inside [][]diagnosis.Repetition, vs []VariantSummary) []ThresholdCheck {
	var out []ThresholdCheck
	for _, t := range r.Thresholds {
		for i := range vs {
			c := ThresholdCheck{Threshold: t, Variant: vs[i].Name}
			if t.Metric == results.MetricVs {
				c.Variant = t.Variant + " vs " + t.Against
				c.Value, c.Measured = measureVs(vs, t)
			} else if len(r.Variants[i].Reps) > 0 {
				c.Value, c.Measured = measure(t, &vs[i], inside[i])
			}
			v, b := c.Value, t.Value
			ops := map[string]bool{"<": v < b, "<=": v <= b, ">": v > b, ">=": v >= b, "==": v == b, "!=": v != b}
			c.Passed = c.Measured && ops[t.Op]
			if out = append(out, c); t.Metric == results.MetricVs {
				break
			}
		}
	}
	return out
}

func measureVs(vs []VariantSummary, t results.Threshold) (float64, bool) {
	a := slices.IndexFunc(vs, func(s VariantSummary) bool { return s.Name == t.Variant })
	b := slices.IndexFunc(vs, func(s VariantSummary) bool { return s.Name == t.Against })
	if a < 0 || b < 0 || vs[a].Stats.N == 0 || vs[b].Stats.N == 0 || vs[b].Stats.Mean <= 0 {
		return 0, false
	}
	x := vs[a].Stats.Mean/vs[b].Stats.Mean - 1
	return x, !math.IsNaN(x) && !math.IsInf(x, 0)
}

// measure returns the figure of s that t bounds; false when s has none. A probe that failed in
// some windows is trusted in none; a timeline metric needs every repetition's figure.
func measure(t results.Threshold, s *VariantSummary, inside []diagnosis.Repetition) (float64, bool) {
	switch t.Metric {
	case results.MetricRate:
		return s.Stats.Mean, true
	case results.MetricErrors:
		return float64(s.Errors), true
	case results.MetricErrorShare:
		return s.ErrorShare, true
	case results.MetricClientBound:
		return float64(b2i(s.ClientBoundReps > 0)), true
	case results.MetricServerSaturated: // 0 when no repetition was judged
		return float64(b2i(s.SaturationReps > 0 && s.NotSaturatedReps == 0)), s.SaturationReps > 0
	case results.MetricLatency:
		h := map[string]*results.Histogram{"connect": s.Connect, "handshake": s.Handshake, "ttfb": s.TTFB, "total": s.Total}[t.Latency]
		if results.EmptyHistogram(h) {
			return 0, false
		}
		return float64(h.ValueAtQuantile(t.Quantile)), true
	case results.MetricProbe, results.MetricProbePerRequest:
		i := slices.IndexFunc(s.Probes, func(p ProbeSummary) bool { return p.Name == t.Probe })
		if i < 0 || s.Probes[i].Failed > 0 || s.Probes[i].N == 0 {
			return 0, false
		}
		if t.Metric == results.MetricProbe {
			return s.Probes[i].MeanDelta, true
		}
		return s.Probes[i].PerRequest, s.Probes[i].HasPerRequest
	case results.MetricListenOverflows, results.MetricStalls, results.MetricDiagnoses:
	default:
		return 0, false
	}
	var sum float64
	for _, d := range inside {
		n, ok := float64(len(d.Diagnoses)), !d.NoTimeline
		switch t.Metric {
		case results.MetricListenOverflows:
			if ok = ok && d.ListenOverflows != nil; ok {
				n = float64(*d.ListenOverflows)
			}
		case results.MetricStalls:
			n, ok = float64(len(d.Stalls)), ok && d.StallsJudged
		}
		if !ok {
			return 0, false
		}
		sum += n
	}
	return sum, len(inside) > 0
}

// Crossed returns the checks that did not pass.
func Crossed(cs []ThresholdCheck) []ThresholdCheck {
	return slices.DeleteFunc(slices.Clone(cs), func(c ThresholdCheck) bool { return c.Passed })
}

func crossedLine(c *ThresholdCheck) notes.Note {
	return notes.New(notes.ThresholdCrossed, "expr", c.Threshold.Expr, "variant", c.Variant, "shown", c.Shown())
}
