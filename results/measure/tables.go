package measure

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
)

// latencyRow is a row of the latency tables in ms: the text report's of a repetition (p50 to max),
// the page's of a variant's reps merged ("count" too); "intended" has none without a histogram, nor on the page.
func latencyRow(name, label string) Measure {
	return Measure{Key: name + "_%s_ms", Unit: "ms", Label: label, Show: Latencies, Human: words,
		Each: func(*analysis.Report) []string { return []string{"count", "p50", "p90", "p99", "p99.9", "max"} },
		Rep: func(x *Rep) Value {
			h := latencyOf(&x.Rep.Total.Latency, name)
			if name == "intended" && (h == nil || h.Histogram == nil) {
				return Value{}
			}
			return latencyWords(h, x.Param)
		},
		Variant: func(x *Variant) Value {
			if len(x.V.Reps) == 0 || name == "intended" {
				return Value{}
			}
			return latencyWords(latencyOf(&x.S.Latency, name), x.Param)
		}}
}

// latencyWords is h's "count", "max" or percentile ("p99.9") in ms.
func latencyWords(h *results.Histogram, param string) Value {
	switch param {
	case "count":
		return Words(format.Count(uint64(h.TotalCount())))
	case "max":
		return Words(format.QuantileMillis(h, 100)) // the largest value
	}
	q, _ := strconv.ParseFloat(strings.TrimPrefix(param, "p"), 64)
	return Words(format.QuantileMillis(h, q))
}

var latencyRows = []Measure{latencyRow("connect", "connect"), latencyRow("handshake", "handshake"), latencyRow("ttfb", "ttfb"),
	latencyRow("total", "total"), latencyRow("intended", "from intended")}

// groupRow is a column of the groups table, of a group (x.G) or the total.
func groupRow(key, label string, f func(g *results.Group) string) Measure {
	return Measure{Key: key, Label: label, Show: Groups, Human: words,
		Rep: func(x *Rep) Value { return Value{Kind: Str, S: f(x.G)} }}
}

// orTotal is s for a group, "" for the total, format.Missing for "".
func orTotal(g *results.Group, s string) string {
	switch {
	case g.Index == results.TotalIndex:
		return ""
	case s == "":
		return format.Missing
	}
	return s
}

var groupRows = []Measure{
	{Key: "group_host", Label: "host", Show: Groups, Human: words, Left: true, Sparse: true,
		Rep: func(x *Rep) Value {
			switch {
			case !slices.ContainsFunc(x.Rep.Groups, func(g results.Group) bool { return g.Host != "" }):
				return Value{} // every group ran here
			case x.G.Host == "" && x.G.Index != results.TotalIndex:
				return Words("local")
			}
			return Value{Kind: Str, S: x.G.Host}
		}},
	{Key: "group_cpus", Label: "cpus", Show: Groups, Human: words, Left: true,
		Rep: func(x *Rep) Value { return Value{Kind: Str, S: orTotal(x.G, x.G.CPUs)} }},
	groupRow("group_threads", "threads", func(g *results.Group) string { return strconv.Itoa(g.Threads) }),
	groupRow("group_conns", "conns", func(g *results.Group) string { return strconv.Itoa(g.Slots) }),
	groupRow("group_requests", "requests", func(g *results.Group) string { return format.Count(g.Requests) }),
	groupRow("group_req_per_s", "req/s", func(g *results.Group) string { return format.Rate(g.Rate()) }),
	groupRow("group_errors", "errors", func(g *results.Group) string { return format.Count(g.Errors.Total()) }),
	groupRow("group_total_p99_ms", "p99 total ms",
		func(g *results.Group) string { return format.QuantileMillis(g.Latency.Total, 99) }),
	{Key: "group_cpu_busy", Label: "cpu busy", Show: Groups, Human: words, Sparse: true,
		Rep: func(x *Rep) Value {
			if x.A.ClientCPU.Measured == 0 {
				return Value{} // no group measured
			}
			busy := ""
			if x.G.CPU != nil {
				busy = format.Percent(x.G.CPU.Busy)
			}
			return Value{Kind: Str, S: orTotal(x.G, busy)}
		}},
}

// pageOnly: what the page's open-loop and CPU tables add.
var pageOnly = []Measure{
	{Key: "client_busiest_group", Label: "group", Show: CPUPage, Order: 11, Rep: func(x *Rep) Value {
		c := x.A.ClientCPU
		return If(c.Measured > 0 && c.BusyMaxGroup >= 0, Count(c.BusyMaxGroup))
	}},
	{Key: "client_busy_mean", Unit: "share", Label: "client mean", Show: CPUPage, Order: 11,
		Rep: func(x *Rep) Value { return If(x.A.ClientCPU.Measured > 0, fixed(x.A.ClientCPU.BusyMean, 4)) }},
	{Key: "server_busy", Unit: "share", Label: "server busy", Show: CPUPage, Order: 11, Needs: true,
		Rep: func(x *Rep) Value {
			return From(x.Rep.ServerCPU, func(u *results.CPUUsage) Value { return fixed(u.Busy, 4) })
		}},
	{Key: "intended_p99.9_ms", Unit: "ms", Label: "p99.9 from intended", Show: OpenLoopPage,
		Variant: func(x *Variant) Value { return If(x.S.Scheduled > 0, Quantile(x.S.Intended, 99.9)) }},
}

// VariantGroup is one group index of a variant over its repetitions.
type VariantGroup struct {
	Index, Threads, Slots int
	CPUs                  string
	Rates, Busy           []float64
}

// EverBusy says whether the group's CPUs were ever client-bound busy.
func (g *VariantGroup) EverBusy() bool {
	return len(g.Busy) > 0 && slices.Max(g.Busy) >= results.ClientBoundBusy
}

// VariantGroups aggregates v's groups by index over its repetitions.
func VariantGroups(v *results.Variant) []*VariantGroup {
	byIndex := map[int]*VariantGroup{}
	for i := range v.Reps {
		for j := range v.Reps[i].Groups {
			g := &v.Reps[i].Groups[j]
			a, ok := byIndex[g.Index]
			if !ok {
				a = &VariantGroup{Index: g.Index, CPUs: g.CPUs, Threads: g.Threads, Slots: g.Slots}
				byIndex[g.Index] = a
			}
			a.Rates = append(a.Rates, g.Rate())
			if g.CPU != nil {
				a.Busy = append(a.Busy, g.CPU.Busy)
			}
		}
	}
	return slices.SortedFunc(maps.Values(byIndex), func(a, b *VariantGroup) int { return a.Index - b.Index })
}

// pageGroupRow is a column of the page's groups table, a row per group of a variant.
func pageGroupRow(key, unit, label string, f func(g *VariantGroup) string) Measure {
	return Measure{Key: key, Unit: unit, Label: label, Show: Groups, Human: words,
		Variant: func(x *Variant) Value { return Value{Kind: Str, S: f(x.G)} }}
}

var pageGroupRows = []Measure{
	{Key: "variant_group_cpus", Label: "CPUs", Show: Groups, Human: words, Left: true,
		Variant: func(x *Variant) Value { return Value{Kind: Str, S: cmp.Or(x.G.CPUs, "unpinned")} }},
	pageGroupRow("variant_group_threads", "", "threads", func(g *VariantGroup) string { return strconv.Itoa(g.Threads) }),
	pageGroupRow("variant_group_conns", "", "connections", func(g *VariantGroup) string { return strconv.Itoa(g.Slots) }),
	pageGroupRow("variant_group_req_per_s", "req/s", "mean req/s", func(g *VariantGroup) string { return format.Rate(stat.Mean(g.Rates, nil)) }),
	pageGroupRow("variant_group_req_per_s_range", "req/s", "range over reps", func(g *VariantGroup) string {
		if len(g.Rates) < 2 {
			return ""
		}
		return format.Rate(slices.Min(g.Rates)) + " – " + format.Rate(slices.Max(g.Rates))
	}),
	pageGroupRow("variant_group_cpu_busy", "share", "CPU busy: mean (max)", func(g *VariantGroup) string {
		busy := format.Percent(stat.Mean(g.Busy, nil))
		if len(g.Busy) > 1 {
			busy += " (max " + format.Percent(slices.Max(g.Busy)) + ")"
		}
		return busy
	}),
}
