package measure

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/softratio"
	"github.com/kaeload/kaeload/results/stats"
)

type summary = analysis.VariantSummary

// testedBy reads a comparison (the rate's or the server CPU's) by a test that ran; none for the baseline.
func testedBy(of func(*summary) *stats.Comparison) func(f func(*stats.Comparison) Value) func(*Variant) Value {
	return func(f func(*stats.Comparison) Value) func(*Variant) Value {
		return func(x *Variant) Value { c := of(x.S); return If(!x.S.IsBaseline && c.Tested(), f(c)) }
	}
}

var (
	tested          = testedBy(func(s *summary) *stats.Comparison { return &s.Comparison })
	serverCPUTested = testedBy(func(s *summary) *stats.Comparison { return &s.ServerCPUComparison })
)

// notBaseline is f's cell for a variant compared, none for the baseline.
func notBaseline(f func(*summary) string) func(*Variant) Value {
	return func(x *Variant) Value { return If(!x.S.IsBaseline, Words(f(x.S))) }
}

// comparison: a variant's rate (VariantSummary.Stats) against the baseline's.
var comparison = []Measure{
	{Key: "n", Label: "n", Show: Text | Markdown | Runs, VOrder: 1, Human: plain,
		Variant: func(x *Variant) Value { return Count(x.S.Stats.N) }},
	{Key: "mean_req_per_s", Unit: "req/s", Label: "mean req/s", Show: CSV | Text | Markdown | Runs, VOrder: 2,
		Variant: func(x *Variant) Value { return If(x.S.Stats.N > 0, F3(x.S.Stats.Mean)) }},
	{Key: "stddev", Unit: "req/s", Label: "±stddev", Show: CSV | Markdown, VOrder: 4,
		Variant: func(x *Variant) Value { return If(x.S.Stats.N > 1, F3(x.S.Stats.StdDev)) }},
	{Key: "ci95_low", Unit: "req/s", Show: CSV, Variant: func(x *Variant) Value { return If(x.S.Stats.HasCI, F3(x.S.Stats.CI95Low)) }},
	{Key: "ci95_high", Unit: "req/s", Show: CSV, Variant: func(x *Variant) Value { return If(x.S.Stats.HasCI, F3(x.S.Stats.CI95High)) }},
	{Key: "ci95", Label: "95 % CI", Show: Text | Markdown | Runs, VOrder: 5, Left: true,
		Variant: func(x *Variant) Value { return Words(CICell(x.S.Stats)) }, Human: words},
	{Key: "delta_pct", Unit: "%", Show: CSV, Variant: func(x *Variant) Value {
		s := x.R.Summary
		ok := !x.S.IsBaseline && x.S.Stats.N > 0 && s.Baseline >= 0 && s.Variants[s.Baseline].Stats.N > 0
		return If(ok, F3(x.S.Comparison.DeltaPct))
	}},
	{Key: "delta", Label: "Δ%", Show: Text | Markdown, VOrder: 6,
		Variant: func(x *Variant) Value { return Words(DeltaCell(x.R.Summary, x.S)) }, Human: words},
	{Key: "p_value", Show: CSV, Variant: tested(func(c *stats.Comparison) Value { return G(c.PValue) })},
	{Key: "p", Label: "p", Show: Markdown, VOrder: 7, Human: words,
		Variant: notBaseline(func(v *summary) string { return format.PValue(v.Comparison) })},
	{Key: "significant", Show: CSV, Variant: func(x *Variant) Value { return If(!x.S.IsBaseline, Truth(x.S.Comparison.Significant)) }},
	{Key: "test", Show: CSV, Variant: func(x *Variant) Value {
		return Words(cmp.Or(when(x.S.IsBaseline, "baseline"), x.S.Comparison.Test))
	}},
	{Key: "p_adjusted", Show: CSV, Variant: tested(func(c *stats.Comparison) Value { return G(c.PAdjusted) })},
	{Key: "p_holm", Label: "p Holm", Show: Text | Markdown, VOrder: 8, Human: words,
		Variant: notBaseline(func(v *summary) string { return format.PAdjusted(v.Comparison) })},
	{Key: "adjustment", Show: CSV, Variant: tested(func(c *stats.Comparison) Value { return Words(c.Adjustment) })},
	{Key: "family", Show: CSV, Variant: tested(func(c *stats.Comparison) Value { return Count(c.Family) })},
	{Key: "mde_pct", Unit: "%", Show: CSV, Variant: tested(func(c *stats.Comparison) Value { return If(c.HasMDE, F3(c.MDEPct)) })},
	{Key: "mde", Label: "MDE", Show: Markdown, VOrder: 9, Human: words,
		// the MDE with the reps that inflate it: "±180.85 % (spread: baseline rep 2 …)"
		Variant: notBaseline(func(v *summary) string {
			return format.MDE(v.Comparison) + when(!v.MDESpread.IsZero(), " (spread: "+v.MDESpread.String()+")")
		})},
	{Key: "mde_bound", Label: "MDE", Show: Text, VOrder: 9, Human: words,
		Variant: notBaseline(func(v *summary) string { return format.MDE(v.Comparison) })},
	{Key: "verdict", Label: "verdict", Show: Markdown | JSON, VOrder: 10, Left: true, Human: words,
		Variant: notBaseline(func(v *summary) string {
			return format.VerdictLine(v.Comparison, v.VerdictCaveat.String())
		})},
	{Key: "verdict_own", Label: "verdict", Show: Below, VOrder: 10, Human: words,
		// without the baseline's flags, said once under the baseline
		Variant: notBaseline(func(v *summary) string {
			own := slices.DeleteFunc(slices.Clone(v.VerdictCaveat.N("notes")),
				func(n notes.Note) bool { return n.B("baseline") })
			return format.VerdictLine(v.Comparison, notes.Join(own, "; "))
		})},
	{Key: "baseline_caveat", Label: "in every comparison", Show: Below, VOrder: 11, Human: words,
		Variant: func(x *Variant) Value {
			return If(x.S.IsBaseline && len(x.R.Summary.Variants) > 1, Words(x.S.Caveat.String()))
		}},
	{Key: "equivalence_bound_pct", Unit: "%", Show: CSV,
		Variant: tested(func(c *stats.Comparison) Value { return If(c.HasBound, F3(c.EquivalenceBoundPct)) })},
	{Key: "equivalence_margin_pct", Unit: "%", Show: CSV,
		Variant: tested(func(c *stats.Comparison) Value { return If(c.HasBound, G(c.EquivalenceMarginPct)) })},
	{Key: "equivalent", Show: CSV, Variant: tested(func(c *stats.Comparison) Value { return If(c.HasBound, Truth(c.Equivalent)) })},
	{Key: "plateau", Show: CSV | JSON, Variant: func(x *Variant) Value { return If(x.S.Series != "", Truth(x.S.Plateau)) }},
	{Key: "comparison", Show: JSON, Variant: func(x *Variant) Value { return If(!x.S.IsBaseline, Object(x.S.Comparison)) }},
	{Key: "caveat", Show: JSON, Variant: func(x *Variant) Value { return Words(x.S.Caveat.String()) }},
	{Key: "mde_spread", Label: "MDE spread", Show: JSON | Below, VOrder: 12, Human: words, Variant: func(x *Variant) Value { return Words(x.S.MDESpread.String()) }},
	{Key: "req_per_server_cpu_delta", Label: "Δ req/server cpu-s", Show: Markdown | Below | ServerCostPage,
		VOrder: 14, Left: true, Sparse: true, When: perServerCPU, Human: words,
		// "+98.12 %, significant (p Holm 0.0040)", "baseline" or "-"
		Variant: func(x *Variant) Value {
			switch c := x.S.ServerCPUComparison; {
			case x.S.IsBaseline:
				return Words("baseline")
			case !c.Tested():
				return Words(format.Missing)
			default:
				verdict := when(!c.Significant, "not ") + "significant"
				return Words(fmt.Sprintf("%s, %s (p Holm %s)", format.Delta(c.DeltaPct), verdict, format.PAdjusted(c)))
			}
		}},
}

// CICell is a 95 % interval in a table cell: "lo .. hi", "n/a (why)" or "-".
func CICell(st stats.Stats) string {
	switch {
	case st.HasCI:
		return format.Rate(st.CI95Low) + " .. " + format.Rate(st.CI95High)
	case st.N > 0:
		return "n/a (" + st.NoCI + ")"
	}
	return format.Missing
}

// DeltaCell is the Δ % of v against the baseline of s.
func DeltaCell(s *analysis.RunSummary, v *summary) string {
	switch {
	case v.IsBaseline:
		return "baseline"
	case v.Stats.N == 0 || s.Baseline < 0 || s.Variants[s.Baseline].Stats.N == 0:
		return format.Missing
	}
	return format.Delta(v.Comparison.DeltaPct)
}

// flags are "LABEL (K of N reps)" for each count K above 0; just LABEL for one rep unless always.
func flags(v *summary, always bool, labels []string, counts ...int) []string {
	var out []string
	for i, k := range counts {
		if k > 0 {
			out = append(out, labels[i]+when(always || v.Stats.N > 1, " ("+repsOf(k, v.Stats.N)+")"))
		}
	}
	return out
}

// NotesCell marks the best variant of a sweep, its flagged repetitions and its ServerNotes.
func NotesCell(v *summary) string {
	var notes []string
	switch {
	case v.Best:
		notes = append(notes, "* best of "+v.Series+" (significantly faster than every other value)")
	case v.Plateau:
		notes = append(notes, "~ plateau of "+v.Series)
	}
	notes = append(notes, flags(v, false, []string{"FAILED", "CLIENT-BOUND", "OTHER LOAD"},
		v.FailedReps, v.ClientBoundReps, v.OtherLoadReps)...)
	return strings.Join(append(notes, ServerNotes(v)...), ", ")
}

// ServerNotes are v's SHARED CPUS and NOT SATURATED notes.
func ServerNotes(v *summary) []string {
	shared := "SHARED CPUS: " + strings.Join(v.ServerShared.Strings(), ", ")
	return flags(v, false, []string{shared, "NOT SATURATED"}, v.ServerSharedReps, v.NotSaturatedReps)
}

// thresholdCell is "pass" or "crossed: EXPR; EXPR" (MetricVs ones count for their Variant).
func thresholdCell(cs []analysis.ThresholdCheck, variant string) string {
	var crossed []string
	for _, c := range cs {
		name := c.Variant
		if c.Threshold.Metric == results.MetricVs {
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

// Absent marks, in a comparison of runs, a variant a run does not have.
const Absent = "—"

// OfRun is the column's value for variant x of a compared run: Absent where the run lacks the variant,
// unless the column reads that.
func (c Column) OfRun(x *Variant) Value {
	if x.S == nil && c.Show&UnmeasuredRow == 0 {
		return Words(Absent)
	}
	return c.OfVariant(x)
}

// runCell is a column of the comparison of stored runs only, f's words; a label's %s is the reference run's name.
func runCell(key, label string, left bool, f func(x *Variant) string) Measure {
	return Measure{Key: key, Label: label, Show: Runs, Human: words, Left: left,
		Variant: func(x *Variant) Value { return Words(f(x)) }}
}

// againstRef is ref in the reference run, else f of the comparison with it, or Absent.
func againstRef(ref string, f func(stats.Comparison) string) func(*Variant) string {
	return func(x *Variant) string {
		switch {
		case x.Run == 0:
			return ref
		case x.Compared:
			return f(x.S.Comparison)
		}
		return Absent
	}
}

// orAbsent is f's figure as text writes it, Absent when there is none.
func orAbsent(f func(v *summary) (float64, bool), text func(float64) string) func(*Variant) string {
	return func(x *Variant) string {
		if y, ok := f(x.S); ok {
			return text(y)
		}
		return Absent
	}
}

// openLoopCell is a sparse runCell of f's words for an open loop, "-" otherwise.
func openLoopCell(key, label string, f func(v *summary) string) Measure {
	m := runCell(key, label, false, func(x *Variant) string {
		if x.S.Scheduled == 0 { // f reads the open loop's figures
			return ""
		}
		return f(x.S)
	})
	m.Sparse, m.Human = true, plain
	return m
}

var runs = []Measure{
	runCell("delta", "Δ% vs %s", false, againstRef("reference", func(c stats.Comparison) string { return format.Delta(c.DeltaPct) })),
	runCell("p", "p", false, againstRef("", format.PValue)),
	runCell("p_holm", "p Holm", false, againstRef("", format.PAdjusted)),
	runCell("verdict", "verdict", true, againstRef("", format.VerdictWords)),
	runCell("handshake_p99_ms", "p99 handshake ms", false,
		func(x *Variant) string { return format.QuantileMillis(x.S.Handshake, 99) }),
	runCell("client_us_per_request", "client µs/req", false, orAbsent((*summary).ClientMicrosPerRequest, format.Micros)),
	runCell("req_per_server_cpu_s", "req/server cpu-s", false, orAbsent((*summary).RequestsPerServerCPU, format.Rate)),
	openLoopCell("missed", "starts missed", func(v *summary) string { return format.Count(v.Missed) + " of " + format.Count(v.Scheduled) }),
	openLoopCell("intended_p99_ms", "p99 from intended ms", func(v *summary) string { return format.QuantileMillis(v.Intended, 99) }),
	{Key: "notes", Label: "notes", Show: Runs | UnmeasuredRow, Human: words, Left: true,
		Variant: func(x *Variant) Value {
			return From(x.S, func(v *summary) Value { // none, not Absent, for a run without the variant
				flagged := flags(v, true, []string{"CLIENT-BOUND", "OTHER LOAD"},
					v.ClientBoundReps, v.OtherLoadReps)
				return Words(strings.Join(append(flagged, ServerNotes(v)...), ", "))
			})
		}},
}

// searchUnit names a search's score column by its objective's unit.
var searchUnit = map[results.Objective]string{
	results.ObjectiveRate: "req_per_s", results.ObjectiveRatePerCPU: "req_per_server_cpu_s", results.ObjectiveP99: "p99_handshake_ms",
}

func find[T any](xs []T, ok func(*T) bool) *T {
	for i := range xs {
		if ok(&xs[i]) {
			return &xs[i]
		}
	}
	return nil
}

// searchPoint is the search's point of the variant; nil when not visited.
func searchPoint(x *Variant) *analysis.SearchPoint {
	return find(x.R.Search.Points, func(p *analysis.SearchPoint) bool { return p.Variant == x.Name && p.Stats.N > 0 })
}

func capacityOf(x *Variant) *results.Capacity {
	return find(x.R.Capacities, func(c *results.Capacity) bool { return c.Variant == x.I })
}

// serverCPUColumn is a CSV column of a variant's requests per server CPU-second or their comparison.
func serverCPUColumn(key string, f func(*Variant) Value) Measure {
	return Measure{Key: "server_cpu_" + key, Show: CSV, When: hasServerCPU, Variant: f}
}

func serverCPUStats(f func(st *stats.Stats) Value) func(*Variant) Value {
	return func(x *Variant) Value { return f(&x.S.ServerCPUStats) }
}

func isSearch(m *analysis.Report) bool    { return m.Search != nil }
func isPredicted(m *analysis.Report) bool { return m.Search != nil && m.Search.Predicted != nil }
func isCapacity(m *analysis.Report) bool  { return m.Capacities != nil }

// perServerCPU: a variant has requests per server CPU-second (its seconds summed above 0).
func perServerCPU(m *analysis.Report) bool {
	return slices.ContainsFunc(m.Summary.Variants, func(v analysis.VariantSummary) bool {
		_, ok := v.RequestsPerServerCPU()
		return ok
	})
}

func hasServerCPU(m *analysis.Report) bool {
	return slices.ContainsFunc(m.Summary.Variants, func(v analysis.VariantSummary) bool { return v.ServerCPUStats.N > 0 })
}

// answers: thresholds, searches, capacities and requests per server CPU-second.
var answers = []Measure{
	{Key: "soft_ratio_model_req_per_s", Unit: "req/s", Label: "model req/s", Show: CSV | JSON | HTML,
		When: func(m *analysis.Report) bool { return m.SoftRatio != nil && m.SoftRatio.Status == softratio.OK },
		Variant: func(x *Variant) Value { // the model's rate at the variant's soft ratio
			pct, err := strconv.ParseFloat(x.V.Env[analysis.SoftRatioEnv], 64)
			return If(err == nil && pct >= 0 && pct <= 100, F3(x.R.SoftRatio.Model.Rate(pct/100)))
		}},
	{Key: "thresholds", Show: CSV, When: func(m *analysis.Report) bool { return len(m.Thresholds) > 0 },
		Variant: func(x *Variant) Value { return Words(thresholdCell(x.R.Thresholds, x.Name)) }},
	{Key: "search_best", Show: CSV, When: isSearch, Variant: func(x *Variant) Value {
		p, ss := searchPoint(x), x.R.Search
		return If(p != nil, Truth(ss.Best >= 0 && ss.Points[ss.Best].Variant == x.Name))
	}},
	{Key: "search_predicted", Show: CSV, When: isPredicted, Variant: func(x *Variant) Value {
		p := x.R.Search.Predicted
		return If(searchPoint(x) != nil, Truth(p.Value != "" && x.V.Sweep[x.R.Search.Search.Key] == p.Value))
	}},
	{Key: "search_score_%s", Show: CSV, When: isSearch,
		Each: func(m *analysis.Report) []string { return []string{searchUnit[m.Search.Search.Maximize]} },
		Variant: func(x *Variant) Value {
			return From(searchPoint(x), func(p *analysis.SearchPoint) Value { return F3(p.Stats.Mean) })
		}},
	{Key: "capacity_knee_per_s", Show: CSV, When: isCapacity,
		Variant: func(x *Variant) Value {
			return From(capacityOf(x), func(c *results.Capacity) Value { return If(c.Knee > 0, F3(c.Knee)) })
		}},
	{Key: "capacity_fail_per_s", Show: CSV, When: isCapacity,
		Variant: func(x *Variant) Value {
			return From(capacityOf(x), func(c *results.Capacity) Value { return If(c.Fail > 0, F3(c.Fail)) })
		}},
	{Key: "server_cpu_req_per_cpu_s", Show: JSON, Variant: func(x *Variant) Value {
		st := x.S.ServerCPUStats
		return If(st.N > 0, Object(&st))
	}},
	{Key: "server_cpu_comparison", Show: JSON, Variant: func(x *Variant) Value {
		c := x.S.ServerCPUComparison
		return If(x.S.ServerCPUStats.N > 0 && !x.S.IsBaseline, Object(&c))
	}},
	serverCPUColumn("mean_req_per_cpu_s", serverCPUStats(func(st *stats.Stats) Value { return If(st.N > 0, F3(st.Mean)) })),
	serverCPUColumn("ci95_low", serverCPUStats(func(st *stats.Stats) Value { return If(st.HasCI, F3(st.CI95Low)) })),
	serverCPUColumn("ci95_high", serverCPUStats(func(st *stats.Stats) Value { return If(st.HasCI, F3(st.CI95High)) })),
	serverCPUColumn("delta_pct", serverCPUTested(func(c *stats.Comparison) Value { return F3(c.DeltaPct) })),
	serverCPUColumn("p_value", serverCPUTested(func(c *stats.Comparison) Value { return G(c.PValue) })),
	serverCPUColumn("p_adjusted", serverCPUTested(func(c *stats.Comparison) Value { return G(c.PAdjusted) })),
	serverCPUColumn("significant", serverCPUTested(func(c *stats.Comparison) Value { return Truth(c.Significant) })),
	serverCPUColumn("family", serverCPUTested(func(c *stats.Comparison) Value { return Count(c.Family) })),
}
