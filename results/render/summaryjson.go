package render

import (
	"io"
	"math"
	"slices"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/tables"
)

// must and opt are a field always shown and one left out when empty.
func must(key string, v any) measure.Field { return measure.Field{Key: key, Value: v} }

var opt = measure.Omit

// object is a JSON object that keeps its fields' order and writes "<" and ">" as they are.
type object []measure.Field

func newObject(fs ...measure.Field) object { return object(measure.Dense(fs)) }

func (o object) MarshalJSON() ([]byte, error) { return measure.Fields(o).Marshal(false) }

// WriteSummaryJSON writes the summary of m a CI pipeline gates on (docs/outputs.md), indented.
func WriteSummaryJSON(w io.Writer, m *analysis.Report) error {
	r, s := m.Run, m.Summary
	variants := []measure.Fields{}
	for i := range s.Variants {
		v := measure.VariantJSON(measure.NewVariant(m, i))
		v.Set("server_info", measure.Object(r.Variants[i].Info).JSON())
		v.Set("server_profile", measure.Object(profileJSON(m.Profile, i)).JSON())
		reps := []measure.Fields{}
		for j := range r.Variants[i].Reps {
			reps = append(reps, measure.RepJSON(measure.NewRep(m, i, j)))
		}
		variants = append(variants, append(v, measure.Field{Key: "repetitions", Value: reps}))
	}
	var capacity object
	if m.Capacities != nil {
		knees := measure.Map(m.Capacities, func(c results.Capacity) object {
			return newObject(must("variant", r.Variants[c.Variant].Name), must("knee", c.Knee), opt("fail", c.Fail),
				opt("below_from", c.BelowFrom), opt("at_max", c.AtMax), must("steps", len(c.Steps)))
		})
		capacity = newObject(must("line", m.CapacityLine.String()), must("variants", knees))
	}
	scraped := measure.Opt(r.Metrics != nil && r.Metrics.End.WasScraped(), r.Metrics != nil) // absent when none was served
	return writeIndentedJSON(w, newObject(must("name", r.Name), must("started", r.Started), must("finished", r.Finished),
		opt("interrupted", r.Interrupted), opt("incomplete", r.Incomplete), opt("baseline", s.BaselineName),
		must("baseline_measured", s.Baseline >= 0), opt("no_comparison", s.NoComparison().String()),
		must("variants", variants), opt("failed", m.Failed), opt("not_measured", r.NotMeasured),
		opt("partial", partialJSON(r, m.Partial.Strings())), opt("excluded", m.Excluded.Strings()),
		opt("thresholds", m.Thresholds), must("thresholds_passed", len(m.Crossed) == 0), opt("warnings", m.Warnings),
		opt("hints", m.Hints.Strings()), opt("metrics", m.Metrics.String()), opt("metrics_final_scraped", scraped),
		opt("search", searchJSON(m.Search)), opt("capacity", capacity), opt("speed", speedJSON(m.Speed)),
		opt("sweeps", measure.Map(s.Sweeps, func(sw analysis.SweepSummary) object { return sweepJSON(s, &sw) })),
		opt("drift", driftJSON(&s.Drift))))
}

func partialJSON(r *results.Run, lines []string) []object {
	var out []object
	for i := range r.Variants {
		for _, p := range r.Variants[i].Partial {
			t := &p.Total
			out = append(out, newObject(must("variant", r.Variants[i].Name), must("rep", p.Index+1), must("window_s", t.Window.Length().Seconds()),
				must("planned_s", p.PartialOf.Seconds()), must("requests", t.Requests), must("req_per_s", t.Rate()),
				must("errors", t.Errors.Total()), opt("lost", p.Lost), must("line", lines[len(out)])))
		}
	}
	return out
}

func sweepJSON(s *analysis.RunSummary, sw *analysis.SweepSummary) object {
	var values []object
	for n, i := range sw.Variants {
		values = append(values, newObject(must("value", sw.Labels[n]), must("variant", s.Variants[i].Name)))
	}
	label := func(i int) string { return at(sw.Labels, slices.Index(sw.Variants, i)) }
	return newObject(must("series", sw.Series), must("keys", sw.Keys), must("values", values), opt("top", label(sw.Top)),
		opt("best", label(sw.Best)), opt("plateau", measure.Map(sw.Plateau, label)), must("family", sw.Family),
		opt("caution", sw.Caution), opt("verdict", tables.PlateauLine(s, sw)))
}

// at is xs[i], the zero value for an index of none (-1).
func at[T any](xs []T, i int) (x T) {
	if i >= 0 {
		x = xs[i]
	}
	return x
}

// driftJSON is the drift by round (null without a rate).
func driftJSON(d *analysis.DriftSummary) object {
	if d.Rounds < 2 {
		return nil
	}
	rounds := make([]*float64, d.Rounds)
	for r := range min(d.Rounds, len(d.RoundHas)) {
		rounds[r] = measure.Opt(d.RoundPct[r], d.RoundHas[r])
	}
	return newObject(must("rounds", d.Rounds), must("round_pct", rounds), opt("trend_pct", measure.Opt(d.TrendPct, d.HasTrend)),
		must("controlled", d.Controlled), opt("order_unknown", d.Unknown))
}

func speedJSON(st *analysis.SpeedTable) object {
	if st == nil {
		return nil
	}
	figures := measure.Map(st.Rows, func(row analysis.SpeedRow) object {
		values, deltas := map[string]float64{}, map[string]float64{}
		for vi, name := range st.Variants {
			if row.Has[vi] {
				values[name] = row.Values[vi]
			}
			if d, ok := st.Delta(&row, vi); ok && vi != st.Baseline {
				deltas[name] = d
			}
		}
		return newObject(must("command", row.Command), must("figure", row.Figure()), must("algorithm", row.Algorithm),
			opt("operation", row.Operation), opt("block", row.Block), must("unit", row.Unit), must("values", values), opt("delta_pct", deltas))
	})
	return newObject(must("baseline", st.BaselineName), must("baseline_measured", st.Baseline >= 0), must("commands", st.Commands),
		must("figures", figures), opt("failures", st.Failures))
}

func searchJSON(ss *analysis.SearchSummary) object {
	if ss == nil {
		return nil
	}
	se, value := ss.Search, func(i int) string { return ss.Points[i].Value }
	best := at(ss.Points, ss.Best)
	var untested []string
	for _, p := range ss.Points {
		if p.Untested {
			untested = append(untested, p.Value)
		}
	}
	return newObject(must("series", se.Series), must("key", se.Key), must("objective", se.Maximize), must("windows", ss.Windows),
		must("grid", ss.Grid), opt("best", best.Value), opt("best_variant", best.Variant),
		opt("best_score", measure.Opt(best.Stats, ss.Best >= 0)), opt("plateau", measure.Map(ss.Plateau, value)),
		opt("plateau_low", at(ss.Points, ss.PlateauLow).Value), opt("untested", untested),
		opt("caution", ss.Caution), must("lines", ss.Lines().Strings()))
}

// profileJSON is variant i's server profile or why it has none.
func profileJSON(t *analysis.ProfileTable, i int) object {
	if t == nil || i >= len(t.Variants) {
		return nil
	}
	v := &t.Variants[i]
	if !v.Available() {
		return newObject(opt("reason", v.Missing.String()))
	}
	return newObject(opt("libraries", v.Libraries), opt("functions", v.Functions), opt("samples", v.Samples),
		opt("crypto_share", &v.CryptoShare), opt("offload_bound", measure.Opt(v.Bound, !math.IsInf(v.Bound, 1))),
		opt("self_check", measure.Opt(v.Check, v.Check.Checked)), opt("pprof", v.Pprof))
}
