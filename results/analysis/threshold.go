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

// ThresholdCheck is one threshold checked against one variant ("kae vs
// baseline" for MetricVs). Without a figure to check (not Measured) it is
// crossed: nothing shows it holds.
type ThresholdCheck struct {
	Threshold results.Threshold `json:"threshold"`
	Variant   string            `json:"variant"`
	Measured  bool              `json:"measured"`
	// Value is in the threshold's unit.
	Value  float64 `json:"value"`
	Passed bool    `json:"passed"`
}

// Shown renders the measured figure ("12,345.6 req/s", "18.304 ms"), or
// "not measured".
func (c *ThresholdCheck) Shown() string {
	if !c.Measured {
		return "not measured"
	}
	return thresholdFigure(c.Threshold.Metric, c.Value)
}

func thresholdFigure(metric string, v float64) string {
	switch metric {
	case results.MetricRate:
		return format.Rate(v) + " req/s"
	case results.MetricErrors, results.MetricListenOverflows, results.MetricStalls, results.MetricDiagnoses:
		return format.Number(v)
	case results.MetricErrorShare:
		return strconv.FormatFloat(v*100, 'g', 3, 64) + " %"
	case results.MetricLatency:
		return format.Millis(int64(v)) + " ms"
	case results.MetricClientBound, results.MetricServerSaturated:
		return strconv.FormatBool(v != 0)
	case results.MetricVs:
		return format.Delta(v * 100)
	case results.MetricProbe:
		return format.Number(v)
	case results.MetricProbePerRequest:
		return strconv.FormatFloat(v, 'f', 3, 64) + " per request"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Line: "PASS  req/s >= 100000: default 123,456.7 req/s" or "CROSSED  …".
func (c *ThresholdCheck) Line() notes.Note {
	return notes.New(notes.ThresholdChecked, "passed", c.Passed, "check", crossedLine(c))
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

// checkThresholds checks every threshold of r, in order, against every
// variant in plan order (a MetricVs against its pair), reading the
// repetitions' diagnoses (inside) and the variants' summaries (vs).
func checkThresholds(r *results.Run, inside [][]diagnosis.Repetition, vs []VariantSummary) []ThresholdCheck {
	if len(r.Thresholds) == 0 || len(r.Variants) == 0 {
		return nil
	}
	sums := make(map[string]*VariantSummary, len(r.Variants))
	for i := range vs {
		sums[vs[i].Name] = &vs[i]
	}
	var out []ThresholdCheck
	for _, t := range r.Thresholds {
		if t.Metric == results.MetricVs {
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
			var reps []diagnosis.Repetition
			if inside != nil {
				reps = inside[i]
			}
			c.Value, c.Measured = measure(t, s, &r.Variants[i], reps)
			c.Passed = c.Measured && holds(c.Value, t.Op, t.Value)
			out = append(out, c)
		}
	}
	return out
}

// measure returns the figure of s that t bounds; false when s has none.
func measure(t results.Threshold, s *VariantSummary, v *results.Variant, inside []diagnosis.Repetition) (float64, bool) {
	if len(v.Reps) == 0 {
		return 0, false
	}
	switch t.Metric {
	case results.MetricRate:
		return s.Stats.Mean, true
	case results.MetricErrors:
		return float64(s.Errors), true
	case results.MetricErrorShare:
		return s.ErrorShare, true
	case results.MetricClientBound:
		return float64(b2i(s.ClientBoundReps > 0)), true
	case results.MetricServerSaturated:
		if s.SaturationReps == 0 {
			return 0, false
		}
		return float64(b2i(s.NotSaturatedReps == 0)), true
	case results.MetricLatency:
		h := map[string]*results.Histogram{"connect": s.Connect, "handshake": s.Handshake, "ttfb": s.TTFB, "total": s.Total}[t.Latency]
		if results.EmptyHistogram(h) {
			return 0, false
		}
		return float64(h.ValueAtQuantile(t.Quantile)), true
	case results.MetricListenOverflows, results.MetricStalls, results.MetricDiagnoses:
		return measureInside(t.Metric, inside)
	case results.MetricProbe, results.MetricProbePerRequest:
		return measureProbe(t, s)
	}
	return 0, false
}

// measureProbe is t's probe's mean delta, or delta per request. False
// without the probe or requests, or when any reading failed: a probe that
// fails in some windows is not to be trusted in the others.
func measureProbe(t results.Threshold, s *VariantSummary) (float64, bool) {
	i := slices.IndexFunc(s.Probes, func(p ProbeSummary) bool { return p.Name == t.Probe })
	if i < 0 || s.Probes[i].Failed > 0 || s.Probes[i].N == 0 {
		return 0, false
	}
	p := &s.Probes[i]
	if t.Metric == results.MetricProbe {
		return p.MeanDelta, true
	}
	return p.PerRequest, p.HasPerRequest
}

// measureInside sums a timeline metric over a variant's repetitions; false
// when one has no figure (no timeline, overflows not read, stalls unjudged).
func measureInside(metric string, inside []diagnosis.Repetition) (float64, bool) {
	var sum float64
	for i := range inside {
		d := &inside[i]
		switch {
		case d.NoTimeline:
			return 0, false
		case metric == results.MetricListenOverflows:
			if d.ListenOverflows == nil {
				return 0, false
			}
			sum += float64(*d.ListenOverflows)
		case metric == results.MetricStalls:
			if !d.StallsJudged {
				return 0, false
			}
			sum += float64(len(d.Stalls))
		case metric == results.MetricDiagnoses:
			sum += float64(len(d.Diagnoses))
		}
	}
	return sum, len(inside) > 0
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

// crossedLine is one crossed threshold as the reports' headers show it.
func crossedLine(c *ThresholdCheck) notes.Note {
	return notes.New(notes.ThresholdCrossed, "expr", c.Threshold.Expr, "variant", c.Variant, "shown", c.Shown())
}
