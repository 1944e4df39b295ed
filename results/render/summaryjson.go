package render

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/stats"
	"github.com/kaeload/kaeload/results/tables"
	"io"
	"slices"
	"time"
)

// SummaryJSON is the summary of a run that a CI pipeline gates on ("kaeload
// run --format json"), without run.json's histograms. A variant is the
// catalogue's JSON measures; the answers copy the analysis's.
type SummaryJSON struct {
	Name             string                    `json:"name"`
	Started          time.Time                 `json:"started"`
	Finished         time.Time                 `json:"finished"`
	Interrupted      bool                      `json:"interrupted,omitempty"`
	Incomplete       bool                      `json:"incomplete,omitempty"`
	Baseline         string                    `json:"baseline,omitempty"`
	BaselineMeasured bool                      `json:"baseline_measured"`
	NoComparison     string                    `json:"no_comparison,omitempty"`
	Variants         []measure.Fields          `json:"variants"`
	Failed           []string                  `json:"failed,omitempty"`
	NotMeasured      []results.NotMeasured     `json:"not_measured,omitempty"`
	Partial          []PartialJSON             `json:"partial,omitempty"`
	Excluded         []string                  `json:"excluded,omitempty"`
	Thresholds       []analysis.ThresholdCheck `json:"thresholds,omitempty"`
	ThresholdsPassed bool                      `json:"thresholds_passed"`
	Warnings         []string                  `json:"warnings,omitempty"`
	Hints            []string                  `json:"hints,omitempty"`
	// Metrics is analysis.MetricsLine; both absent when none was served.
	Metrics        string        `json:"metrics,omitempty"`
	MetricsScraped *bool         `json:"metrics_final_scraped,omitempty"`
	Search         *SearchJSON   `json:"search,omitempty"`
	Capacity       *CapacityJSON `json:"capacity,omitempty"`
	Speed          *SpeedJSON    `json:"speed,omitempty"`
	Sweeps         []SweepJSON   `json:"sweeps,omitempty"`
	Drift          *DriftJSON    `json:"drift,omitempty"`
}

// SweepJSON is one sweep's answer (analysis.SweepSummary), values by label.
type SweepJSON struct {
	Series  string           `json:"series"`
	Keys    []string         `json:"keys"`
	Values  []SweepValueJSON `json:"values"`
	Top     string           `json:"top,omitempty"`
	Best    string           `json:"best,omitempty"`
	Plateau []string         `json:"plateau,omitempty"`
	Family  int              `json:"family"`
	Caution string           `json:"caution,omitempty"`
	Verdict string           `json:"verdict,omitempty"`
}

// SweepValueJSON is one value of a sweep: its label and its variant.
type SweepValueJSON struct {
	Value   string `json:"value"`
	Variant string `json:"variant"`
}

// DriftJSON is the drift over a run's rounds (analysis.DriftSummary); a
// round without a rate has a null RoundPct.
type DriftJSON struct {
	Rounds       int        `json:"rounds"`
	RoundPct     []*float64 `json:"round_pct"`
	TrendPct     *float64   `json:"trend_pct,omitempty"`
	Controlled   bool       `json:"controlled"`
	OrderUnknown bool       `json:"order_unknown,omitempty"`
}

// SpeedJSON is the crypto speed table (analysis.SpeedTable); a figure's
// Command indexes Commands.
type SpeedJSON struct {
	Baseline         string                  `json:"baseline"`
	BaselineMeasured bool                    `json:"baseline_measured"`
	Commands         []string                `json:"commands"`
	Figures          []SpeedFigureJSON       `json:"figures"`
	Failures         []analysis.SpeedFailure `json:"failures,omitempty"`
}

// SpeedFigureJSON is one figure: its value per variant and, but for the
// baseline's, its Δ % against the baseline's.
type SpeedFigureJSON struct {
	Command   int                `json:"command"`
	Figure    string             `json:"figure"`
	Algorithm string             `json:"algorithm"`
	Operation string             `json:"operation,omitempty"`
	Block     int                `json:"block,omitempty"`
	Unit      string             `json:"unit"`
	Values    map[string]float64 `json:"values"`
	DeltaPct  map[string]float64 `json:"delta_pct,omitempty"`
}

// SearchJSON is a search's answer (analysis.SearchSummary), values by label.
type SearchJSON struct {
	Series      string            `json:"series"`
	Key         string            `json:"key"`
	Objective   results.Objective `json:"objective"`
	Windows     int               `json:"windows"`
	Grid        int               `json:"grid"`
	Best        string            `json:"best,omitempty"`
	BestVariant string            `json:"best_variant,omitempty"`
	BestScore   *stats.Stats      `json:"best_score,omitempty"`
	Plateau     []string          `json:"plateau,omitempty"`
	PlateauLow  string            `json:"plateau_low,omitempty"`
	Untested    []string          `json:"untested,omitempty"`
	Caution     string            `json:"caution,omitempty"`
	Lines       []string          `json:"lines"`
}

// CapacityJSON is a capacity search's answer: its line and each
// variant's knee, in plan order.
type CapacityJSON struct {
	Line     string                `json:"line"`
	Variants []CapacityVariantJSON `json:"variants"`
}

// CapacityVariantJSON is one variant's capacity (results.Capacity).
type CapacityVariantJSON struct {
	Variant   string  `json:"variant"`
	Knee      float64 `json:"knee"`
	Fail      float64 `json:"fail,omitempty"`
	BelowFrom bool    `json:"below_from,omitempty"`
	AtMax     bool    `json:"at_max,omitempty"`
	Steps     int     `json:"steps"`
}

// PartialJSON is a window an interrupt or a lost worker cut short
// (Variant.Partial), with the line the reports show.
type PartialJSON struct {
	Variant   string             `json:"variant"`
	Rep       int                `json:"rep"`
	WindowS   float64            `json:"window_s"`
	PlannedS  float64            `json:"planned_s"`
	Requests  uint64             `json:"requests"`
	ReqPerSec float64            `json:"req_per_s"`
	Errors    uint64             `json:"errors"`
	Lost      *results.LostGroup `json:"lost,omitempty"`
	Line      string             `json:"line"`
}

// partialJSON lists r's partial windows with m's lines (PartialLines
// gives one per window, in the same order).
func partialJSON(r *results.Run, lines []string) []PartialJSON {
	var out []PartialJSON
	for i := range r.Variants {
		for _, p := range r.Variants[i].Partial {
			t := &p.Total
			out = append(out, PartialJSON{Variant: r.Variants[i].Name, Rep: p.Index + 1, WindowS: t.Window.Length().Seconds(),
				PlannedS: p.PartialOf.Seconds(), Requests: t.Requests, ReqPerSec: t.Rate(), Errors: t.Errors.Total(), Lost: p.Lost, Line: lines[len(out)]})
		}
	}
	return out
}

// Summarize returns the SummaryJSON of m's run, also for a run whose
// baseline was not measured: fields of m, formatted.
func Summarize(m *analysis.Report) *SummaryJSON {
	r, s := m.Run, m.Summary
	out := &SummaryJSON{Name: r.Name, Started: r.Started, Finished: r.Finished, Interrupted: r.Interrupted, Incomplete: r.Incomplete,
		Baseline: s.BaselineName, BaselineMeasured: s.Baseline >= 0, NoComparison: s.NoComparison().String(), Variants: []measure.Fields{},
		Failed: m.Failed, NotMeasured: r.NotMeasured, Partial: partialJSON(r, m.Partial.Strings()), Excluded: m.Excluded.Strings(),
		Thresholds: m.Thresholds, ThresholdsPassed: len(m.Crossed) == 0, Warnings: m.Warnings, Hints: m.Hints.Strings(),
		Search: searchJSON(m.Search), Speed: speedJSON(m.Speed), Sweeps: sweepsJSON(s), Drift: driftJSON(&s.Drift)}
	if r.Metrics != nil {
		out.Metrics, out.MetricsScraped = m.Metrics.String(), measure.Opt(r.Metrics.End.WasScraped(), true)
	}
	for i := range s.Variants {
		v := measure.VariantJSON(measure.NewVariant(m, i))
		v.Set("server_info", measure.Object(r.Variants[i].Info).JSON())
		v.Set("server_profile", measure.Object(profileJSON(m.Profile, i)).JSON())
		reps := []measure.Fields{}
		for j := range r.Variants[i].Reps {
			reps = append(reps, measure.RepJSON(measure.NewRep(m, i, j)))
		}
		out.Variants = append(out.Variants, append(v, measure.Field{Key: "repetitions", Value: reps}))
	}
	if m.Capacities != nil {
		out.Capacity = &CapacityJSON{Line: m.CapacityLine.String(), Variants: []CapacityVariantJSON{}}
		for _, c := range m.Capacities {
			out.Capacity.Variants = append(out.Capacity.Variants, CapacityVariantJSON{Variant: r.Variants[c.Variant].Name,
				Knee: c.Knee, Fail: c.Fail, BelowFrom: c.BelowFrom, AtMax: c.AtMax, Steps: len(c.Steps)})
		}
	}
	return out
}

// sweepsJSON copies s's sweeps into their JSON form; nil without any.
func sweepsJSON(s *analysis.RunSummary) []SweepJSON {
	var out []SweepJSON
	for k := range s.Sweeps {
		sw := &s.Sweeps[k]
		label := func(i int) string {
			if n := slices.Index(sw.Variants, i); n >= 0 {
				return sw.Labels[n]
			}
			return ""
		}
		j := SweepJSON{Series: sw.Series, Keys: sw.Keys, Family: sw.Family, Caution: sw.Caution, Verdict: tables.PlateauLine(s, sw),
			Top: labelAt(sw.Top, label), Best: labelAt(sw.Best, label), Plateau: labelled(sw.Plateau, label)}
		for n, i := range sw.Variants {
			j.Values = append(j.Values, SweepValueJSON{Value: sw.Labels[n], Variant: s.Variants[i].Name})
		}
		out = append(out, j)
	}
	return out
}

// labelAt is label(i), "" for no index (-1).
func labelAt(i int, label func(int) string) string {
	if i < 0 {
		return ""
	}
	return label(i)
}

// labelled is label(i) for each index in is; nil for none.
func labelled(is []int, label func(int) string) []string {
	var out []string
	for _, i := range is {
		out = append(out, label(i))
	}
	return out
}

// driftJSON copies the drift d into its JSON form; nil with fewer than
// two rounds.
func driftJSON(d *analysis.DriftSummary) *DriftJSON {
	if d.Rounds < 2 {
		return nil
	}
	out := &DriftJSON{Rounds: d.Rounds, RoundPct: make([]*float64, d.Rounds), TrendPct: measure.Opt(d.TrendPct, d.HasTrend),
		Controlled: d.Controlled, OrderUnknown: d.Unknown}
	for r := range min(d.Rounds, len(d.RoundHas)) {
		out.RoundPct[r] = measure.Opt(d.RoundPct[r], d.RoundHas[r])
	}
	return out
}

// speedJSON copies the crypto speed table st into its JSON form; nil for
// nil.
func speedJSON(st *analysis.SpeedTable) *SpeedJSON {
	if st == nil {
		return nil
	}
	out := &SpeedJSON{Baseline: st.BaselineName, BaselineMeasured: st.Baseline >= 0, Commands: st.Commands,
		Figures: []SpeedFigureJSON{}, Failures: st.Failures}
	for i := range st.Rows {
		row := &st.Rows[i]
		f := SpeedFigureJSON{Command: row.Command, Figure: row.Figure(), Algorithm: row.Algorithm, Operation: row.Operation,
			Block: row.Block, Unit: row.Unit, Values: map[string]float64{}}
		for vi, name := range st.Variants {
			if row.Has[vi] {
				f.Values[name] = row.Values[vi]
			}
			if d, ok := st.Delta(row, vi); ok && vi != st.Baseline {
				if f.DeltaPct == nil {
					f.DeltaPct = map[string]float64{}
				}
				f.DeltaPct[name] = d
			}
		}
		out.Figures = append(out.Figures, f)
	}
	return out
}

// searchJSON copies the search answer ss into its JSON form; nil for nil.
func searchJSON(ss *analysis.SearchSummary) *SearchJSON {
	if ss == nil {
		return nil
	}
	se, value := ss.Search, func(i int) string { return ss.Points[i].Value }
	out := &SearchJSON{Series: se.Series, Key: se.Key, Objective: se.Maximize, Windows: ss.Windows, Grid: ss.Grid, Caution: ss.Caution,
		Lines: ss.Lines().Strings(), Plateau: labelled(ss.Plateau, value), PlateauLow: labelAt(ss.PlateauLow, value)}
	if ss.Best >= 0 {
		b := ss.Points[ss.Best]
		out.Best, out.BestVariant, out.BestScore = b.Value, b.Variant, &b.Stats
	}
	for _, p := range ss.Points {
		if p.Untested {
			out.Untested = append(out.Untested, p.Value)
		}
	}
	return out
}

// WriteSummaryJSON writes the SummaryJSON of m, indented.
func WriteSummaryJSON(w io.Writer, m *analysis.Report) error {
	return writeIndentedJSON(w, Summarize(m))
}
