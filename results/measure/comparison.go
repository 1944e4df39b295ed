package measure

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// tested reads a variant compared with the baseline by a test that ran.
func tested(f func(c *stats.Comparison) Value) func(*Variant) Value {
	return func(x *Variant) Value {
		if x.S.IsBaseline || !x.S.Comparison.Tested() {
			return Value{}
		}
		return f(&x.S.Comparison)
	}
}

// notBaseline is f's cell for a variant compared, "" for the baseline.
func notBaseline(f func(*analysis.VariantSummary) string) func(*Variant) Value {
	return func(x *Variant) Value {
		if x.S.IsBaseline {
			return Words("")
		}
		return Words(f(x.S))
	}
}

// comparison: a variant's rate over its repetitions and its comparison
// with the baseline (VariantSummary.Stats, .Comparison).
var comparison = []Measure{
	{Key: "n", JSONKey: "-", Label: "n", Show: Text | Markdown, VOrder: 1, Variant: func(x *Variant) Value { return CountInt(x.S.Stats.N) }, Human: plain},
	{Key: "mean_req_per_s", JSONKey: "-", Unit: "req/s", Label: "mean req/s", Show: CSV | Text | Markdown, VOrder: 2,
		Variant: func(x *Variant) Value { return If(x.S.Stats.N > 0, F3(x.S.Stats.Mean)) }},
	{Key: "stddev", JSONKey: "-", Unit: "req/s", Label: "±stddev", Show: CSV | Markdown, VOrder: 4,
		Variant: func(x *Variant) Value { return If(x.S.Stats.N > 1, F3(x.S.Stats.StdDev)) }},
	{Key: "ci95_low", JSONKey: "-", Unit: "req/s", Show: CSV, Variant: func(x *Variant) Value { return If(x.S.Stats.HasCI, F3(x.S.Stats.CI95Low)) }},
	{Key: "ci95_high", JSONKey: "-", Unit: "req/s", Show: CSV, Variant: func(x *Variant) Value { return If(x.S.Stats.HasCI, F3(x.S.Stats.CI95High)) }},
	{Key: "ci95", JSONKey: "-", Label: "95 % CI", Show: Text | Markdown, VOrder: 5, Left: true,
		Variant: func(x *Variant) Value { return Words(CICell(x.S.Stats)) }, Human: words},
	{Key: "delta_pct", JSONKey: "-", Unit: "%", Show: CSV, Variant: func(x *Variant) Value {
		s := x.R.Summary
		ok := !x.S.IsBaseline && x.S.Stats.N > 0 && s.Baseline >= 0 && s.Variants[s.Baseline].Stats.N > 0
		return If(ok, F3(x.S.Comparison.DeltaPct))
	}},
	{Key: "delta", JSONKey: "-", Label: "Δ%", Show: Text | Markdown, VOrder: 6,
		Variant: func(x *Variant) Value { return Words(DeltaCell(x.R.Summary, x.S)) }, Human: words},
	{Key: "p_value", JSONKey: "-", Show: CSV, Variant: tested(func(c *stats.Comparison) Value { return G(c.PValue) })},
	{Key: "p", JSONKey: "-", Label: "p", Show: Markdown, VOrder: 7, Human: words,
		Variant: notBaseline(func(v *analysis.VariantSummary) string { return format.PValue(v.Comparison) })},
	{Key: "significant", JSONKey: "-", Show: CSV, Variant: func(x *Variant) Value { return If(!x.S.IsBaseline, Truth(x.S.Comparison.Significant)) }},
	{Key: "test", JSONKey: "-", Show: CSV, Variant: func(x *Variant) Value {
		if x.S.IsBaseline {
			return Words("baseline")
		}
		return Words(x.S.Comparison.Test)
	}},
	{Key: "p_adjusted", JSONKey: "-", Show: CSV, Variant: tested(func(c *stats.Comparison) Value { return G(c.PAdjusted) })},
	{Key: "p_holm", JSONKey: "-", Label: "p Holm", Show: Text | Markdown, VOrder: 8, Human: words,
		Variant: notBaseline(func(v *analysis.VariantSummary) string { return format.PAdjusted(v.Comparison) })},
	{Key: "adjustment", JSONKey: "-", Show: CSV, Variant: tested(func(c *stats.Comparison) Value { return Words(c.Adjustment) })},
	{Key: "family", JSONKey: "-", Show: CSV, Variant: tested(func(c *stats.Comparison) Value { return CountInt(c.Family) })},
	{Key: "mde_pct", JSONKey: "-", Unit: "%", Show: CSV, Variant: tested(func(c *stats.Comparison) Value { return If(c.HasMDE, F3(c.MDEPct)) })},
	{Key: "mde", JSONKey: "-", Label: "MDE", Show: Markdown, VOrder: 9, Human: words, Variant: notBaseline(MDECell)},
	{Key: "mde_bound", JSONKey: "-", Label: "MDE", Show: Text, VOrder: 9, Human: words,
		Variant: notBaseline(func(v *analysis.VariantSummary) string { return format.MDE(v.Comparison) })},
	{Key: "verdict", Label: "verdict", Show: Markdown | JSON, VOrder: 10, Left: true, Human: words,
		Variant: notBaseline(func(v *analysis.VariantSummary) string {
			return format.VerdictLine(v.Comparison, v.VerdictCaveat.String())
		})},
	{Key: "verdict_own", JSONKey: "-", Label: "verdict", Show: Below, VOrder: 10, Human: words,
		Variant: notBaseline(func(v *analysis.VariantSummary) string { return format.VerdictLine(v.Comparison, OwnCaveat(v)) })},
	{Key: "baseline_caveat", JSONKey: "-", Label: "in every comparison", Show: Below, VOrder: 11, Human: words,
		Variant: func(x *Variant) Value {
			return If(x.S.IsBaseline && len(x.R.Summary.Variants) > 1, Words(x.S.Caveat.String()))
		}},
	{Key: "equivalence_bound_pct", JSONKey: "-", Unit: "%", Show: CSV,
		Variant: tested(func(c *stats.Comparison) Value { return If(c.HasBound, F3(c.EquivalenceBoundPct)) })},
	{Key: "equivalence_margin_pct", JSONKey: "-", Unit: "%", Show: CSV,
		Variant: tested(func(c *stats.Comparison) Value { return If(c.HasBound, G(c.EquivalenceMarginPct)) })},
	{Key: "equivalent", JSONKey: "-", Show: CSV, Variant: tested(func(c *stats.Comparison) Value { return If(c.HasBound, Truth(c.Equivalent)) })},
	{Key: "plateau", Show: CSV | JSON, Variant: func(x *Variant) Value { return If(x.S.Series != "", Truth(x.S.Plateau)) }},
	{Key: "comparison", Show: JSON, Variant: func(x *Variant) Value { return If(!x.S.IsBaseline, Object(x.S.Comparison)) }},
	{Key: "caveat", Show: JSON, Variant: func(x *Variant) Value { return Words(x.S.Caveat.String()) }},
	{Key: "mde_spread", Label: "MDE spread", Show: JSON | Below, VOrder: 12, Human: words, Variant: func(x *Variant) Value { return Words(x.S.MDESpread.String()) }},
	{Key: "req_per_server_cpu_delta", JSONKey: "-", Label: "Δ req/server cpu-s", Show: Markdown | Below, VOrder: 14, Left: true, Sparse: true, Human: words,
		Variant: func(x *Variant) Value { return If(anyServerCPU(x.R), Words(ServerCPUDeltaCell(x.S))) }},
	{Key: "notes", JSONKey: "-", Label: "notes", Show: Markdown | Below, VOrder: 15, Left: true, Sparse: true, Human: words,
		Variant: func(x *Variant) Value { return Words(NotesCell(x.S)) }},
}

// OwnCaveat is v's verdict caveat without the baseline's flags, which
// the text report says once, under the baseline.
func OwnCaveat(v *analysis.VariantSummary) string {
	own := slices.DeleteFunc(slices.Clone(v.VerdictCaveat.N("notes")), func(n notes.Note) bool { return n.B("baseline") })
	return notes.Join(own, "; ")
}

// anyServerCPU says whether any variant of m has requests per server
// CPU-second, as the column beside this one does.
func anyServerCPU(m *analysis.Report) bool {
	return slices.ContainsFunc(m.Summary.Variants, func(v analysis.VariantSummary) bool {
		_, ok := v.RequestsPerServerCPU()
		return ok
	})
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
func DeltaCell(s *analysis.RunSummary, v *analysis.VariantSummary) string {
	if v.IsBaseline {
		return "baseline"
	}
	if v.Stats.N == 0 || s.Baseline < 0 || s.Variants[s.Baseline].Stats.N == 0 {
		return format.Missing
	}
	return format.Delta(v.Comparison.DeltaPct)
}

// MDECell is v's MDE with the repetitions that inflate it, when one does
// (VariantSummary.MDESpread): "±180.85 % (spread: baseline rep 2 …)".
func MDECell(v *analysis.VariantSummary) string {
	if v.MDESpread.IsZero() {
		return format.MDE(v.Comparison)
	}
	return format.MDE(v.Comparison) + " (spread: " + v.MDESpread.String() + ")"
}

// ServerCPUDeltaCell is v's requests per server CPU-second against the
// baseline's: "+98.12 %, significant (p Holm 0.0040)", "baseline" or "-".
func ServerCPUDeltaCell(v *analysis.VariantSummary) string {
	c := v.ServerCPUComparison
	switch {
	case v.IsBaseline:
		return "baseline"
	case !c.Tested():
		return format.Missing
	}
	verdict := "not significant"
	if c.Significant {
		verdict = "significant"
	}
	return fmt.Sprintf("%s, %s (p Holm %s)", format.Delta(c.DeltaPct), verdict, format.PAdjusted(c))
}

// ofN is " (K of N reps)" for a variant of several repetitions.
func ofN(k int, v *analysis.VariantSummary) string {
	if v.Stats.N > 1 {
		return " (" + repsOf(k, v.Stats.N) + ")"
	}
	return ""
}

// NotesCell marks the best variant of a sweep, failed and client-bound
// variants, those whose client CPUs other processes shared, and those
// whose server CPUs were shared or not loaded (ServerNotes).
func NotesCell(v *analysis.VariantSummary) string {
	var notes []string
	switch {
	case v.Best:
		notes = append(notes, "* best of "+v.Series+" (significantly faster than every other value)")
	case v.Plateau:
		notes = append(notes, "~ plateau of "+v.Series)
	}
	for _, f := range []struct {
		label string
		k     int
	}{{"FAILED", v.FailedReps}, {"CLIENT-BOUND", v.ClientBoundReps}, {"OTHER LOAD", v.OtherLoadReps}} {
		if f.k > 0 {
			notes = append(notes, f.label+ofN(f.k, v))
		}
	}
	return strings.Join(append(notes, ServerNotes(v)...), ", ")
}

// ServerNotes are v's notes on the server's CPUs: SHARED CPUS and NOT
// SATURATED, with how many repetitions.
func ServerNotes(v *analysis.VariantSummary) []string {
	var notes []string
	if v.ServerSharedReps > 0 {
		notes = append(notes, "SHARED CPUS: "+strings.Join(v.ServerShared.Strings(), ", ")+ofN(v.ServerSharedReps, v))
	}
	if v.NotSaturatedReps > 0 {
		notes = append(notes, "NOT SATURATED"+ofN(v.NotSaturatedReps, v))
	}
	return notes
}

// thresholdCell is "pass", or "crossed: EXPR; EXPR" naming the
// thresholds the variant crossed (MetricVs ones count for their Variant).
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

// inRun is a cell of the comparison of runs: Absent for a run without
// the variant, else f's words.
func inRun(f func(x *Variant) string) func(*Variant) Value {
	return func(x *Variant) Value {
		if x.S == nil {
			return Words(Absent)
		}
		return Words(f(x))
	}
}

// againstRef is "reference" in the reference run, f of the comparison
// with it in a later run that was compared, else Absent.
func againstRef(ref string, f func(stats.Comparison) string) func(*Variant) Value {
	return inRun(func(x *Variant) string {
		switch {
		case x.Cell.Run == 0:
			return ref
		case x.Cell.Compared:
			return f(x.S.Comparison)
		}
		return Absent
	})
}

// orAbsent is f's figure, Absent when ok is false.
func orAbsent(f func(v *analysis.VariantSummary) (float64, bool), text func(float64) string) func(*Variant) Value {
	return inRun(func(x *Variant) string {
		if y, ok := f(x.S); ok {
			return text(y)
		}
		return Absent
	})
}

// openLoopCell is f's words for a variant that drove an open loop, none
// (format.Missing) for one that did not.
func openLoopCell(f func(v *analysis.VariantSummary) string) func(*Variant) Value {
	return func(x *Variant) Value {
		if x.S == nil {
			return Words(Absent)
		}
		return If(x.S.Scheduled > 0, Words(f(x.S)))
	}
}

// runCell is a column of the comparison of stored runs (analysis.RunsReport),
// each variant in each run against the reference run's; a label's %s is
// the reference run's name.
func runCell(key, label string, f func(*Variant) Value) Measure {
	return Measure{Key: key, JSONKey: "-", Label: label, Show: Runs | UnmeasuredRow, Human: words, Variant: f}
}

// leftAligned is m aligned left.
func leftAligned(m Measure) Measure {
	m.Left = true
	return m
}

// openLoopOnly is m as a sparse column, "-" for none.
func openLoopOnly(m Measure) Measure {
	m.Sparse, m.Human = true, plain
	return m
}

// runs: the comparison of stored runs.
var runs = []Measure{
	runCell("n", "n", inRun(func(x *Variant) string { return strconv.Itoa(x.S.Stats.N) })),
	runCell("mean_req_per_s", "mean req/s", inRun(func(x *Variant) string { return If(x.S.Stats.N > 0, F3(x.S.Stats.Mean)).Human() })),
	leftAligned(runCell("ci95", "95 % CI", inRun(func(x *Variant) string { return CICell(x.S.Stats) }))),
	runCell("delta", "Δ% vs %s", againstRef("reference", func(c stats.Comparison) string { return format.Delta(c.DeltaPct) })),
	runCell("p", "p", againstRef("", format.PValue)),
	runCell("p_holm", "p Holm", againstRef("", format.PAdjusted)),
	leftAligned(runCell("verdict", "verdict", againstRef("", format.VerdictWords))),
	runCell("handshake_p99_ms", "p99 handshake ms", inRun(func(x *Variant) string { return format.QuantileMillis(x.S.Handshake, 99) })),
	runCell("client_us_per_request", "client µs/req", orAbsent((*analysis.VariantSummary).ClientMicrosPerRequest, format.Micros)),
	runCell("req_per_server_cpu_s", "req/server cpu-s", orAbsent((*analysis.VariantSummary).RequestsPerServerCPU, format.Rate)),
	openLoopOnly(runCell("missed", "starts missed", openLoopCell(func(v *analysis.VariantSummary) string {
		return format.Count(v.Missed) + " of " + format.Count(v.Scheduled)
	}))),
	openLoopOnly(runCell("intended_p99_ms", "p99 from intended ms", openLoopCell(func(v *analysis.VariantSummary) string {
		return format.QuantileMillis(v.Intended, 99)
	}))),
	leftAligned(runCell("notes", "notes", func(x *Variant) Value {
		if x.S == nil {
			return Value{}
		}
		return Words(strings.Join(runNotes(x.S), ", "))
	})),
}

// runNotes are a variant's flags in a comparison of runs.
func runNotes(v *analysis.VariantSummary) []string {
	var out []string
	if v.ClientBoundReps > 0 {
		out = append(out, "CLIENT-BOUND ("+repsOf(v.ClientBoundReps, v.Stats.N)+")")
	}
	if v.OtherLoadReps > 0 {
		out = append(out, "OTHER LOAD ("+repsOf(v.OtherLoadReps, v.Stats.N)+")")
	}
	return append(out, ServerNotes(v)...)
}
