package measure

import (
	"slices"
	"strconv"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/softratio"
	"github.com/kaeload/kaeload/results/stats"
)

// searchUnit names a search's score column by its objective's unit.
var searchUnit = map[results.Objective]string{
	results.ObjectiveRate: "req_per_s", results.ObjectiveRatePerCPU: "req_per_server_cpu_s", results.ObjectiveP99: "p99_handshake_ms",
}

// find is the first element of xs that ok accepts; nil for none.
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

// capacityOf is the capacity answer of the variant; nil without one.
func capacityOf(x *Variant) *results.Capacity {
	return find(x.R.Capacities, func(c *results.Capacity) bool { return c.Variant == x.I })
}

// serverCPUColumn is a CSV column of a variant's requests per server CPU-second.
func serverCPUColumn(key string, f func(*Variant) Value) Measure {
	return Measure{Key: "server_cpu_" + key, Show: CSV, When: hasServerCPU, Variant: f}
}

// serverCPUStats reads a variant's requests per server CPU-second.
func serverCPUStats(f func(st *stats.Stats) Value) func(*Variant) Value {
	return func(x *Variant) Value { return f(&x.S.ServerCPUStats) }
}

// serverCPUTested reads their comparison with the baseline's.
func serverCPUTested(f func(c *stats.Comparison) Value) func(*Variant) Value {
	return func(x *Variant) Value {
		return If(!x.S.IsBaseline && x.S.ServerCPUComparison.Tested(), f(&x.S.ServerCPUComparison))
	}
}

func hasThresholds(m *analysis.Report) bool { return len(m.Thresholds) > 0 }
func hasSoftRatio(m *analysis.Report) bool {
	return m.SoftRatio != nil && m.SoftRatio.Status == softratio.OK
}

// softRatioModel is the model's rate at the variant's soft ratio.
func softRatioModel(x *Variant) Value {
	pct, err := strconv.ParseFloat(x.V.Env[analysis.SoftRatioEnv], 64)
	return If(err == nil && pct >= 0 && pct <= 100, F3(x.R.SoftRatio.Model.Rate(pct/100)))
}
func isSearch(m *analysis.Report) bool    { return m.Search != nil }
func isPredicted(m *analysis.Report) bool { return m.Search != nil && m.Search.Predicted != nil }
func isCapacity(m *analysis.Report) bool  { return m.Capacities != nil }
func hasServerCPU(m *analysis.Report) bool {
	return slices.ContainsFunc(m.Summary.Variants, func(v analysis.VariantSummary) bool { return v.ServerCPUStats.N > 0 })
}

// answers: thresholds, searches, capacities and requests per server CPU-second.
var answers = []Measure{
	{Key: "soft_ratio_model_req_per_s", Unit: "req/s", Label: "model req/s", Show: CSV | JSON | HTML, When: hasSoftRatio, Variant: softRatioModel},
	{Key: "thresholds", Show: CSV, When: hasThresholds,
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
	serverCPUColumn("family", serverCPUTested(func(c *stats.Comparison) Value { return CountInt(c.Family) })),
}
