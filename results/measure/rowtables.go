package measure

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
)

// LatencyHeading heads the first column of the latency table.
const LatencyHeading = "latency ms"

// latencyRow is a row of the text report's latency table: the percentiles
// and maximum of one latency of a repetition, in ms; "intended" has no
// row without a histogram.
func latencyRow(name, label string) Measure {
	return Measure{Key: name + "_%s_ms", Unit: "ms", Label: label, Show: Latencies, Human: words,
		Each: func(*analysis.Report) []string { return []string{"p50", "p90", "p99", "p99.9", "max"} },
		Rep: func(x *Rep) Value {
			h := latencyOf(&x.Rep.Total.Latency, name)
			if name == "intended" && (h == nil || h.Histogram == nil) {
				return Value{}
			}
			return latencyWords(h, x.Param)
		}}
}

// latencyWords is member param of a latency family of h: "count", "max"
// or a percentile ("p99.9"), in ms.
func latencyWords(h *results.Histogram, param string) Value {
	switch param {
	case "count":
		return Words(format.Count(uint64(h.TotalCount())))
	case "max":
		return Words(format.MaxMillis(h))
	}
	q, _ := strconv.ParseFloat(strings.TrimPrefix(param, "p"), 64)
	return Words(format.QuantileMillis(h, q))
}

// latencyRows: the text report's latency table of a repetition.
var latencyRows = []Measure{latencyRow("connect", "connect"), latencyRow("handshake", "handshake"), latencyRow("ttfb", "ttfb"),
	latencyRow("total", "total"), latencyRow("intended", "from intended")}

// groupRow is a column of the groups table: f's words of a group of the
// repetition, or of their total (Rep.G.Index is results.TotalIndex).
func groupRow(key, label string, left bool, f func(g *results.Group) string) Measure {
	return Measure{Key: key, Label: label, Show: Groups, Human: words, Left: left,
		Rep: func(x *Rep) Value { return Value{Kind: Str, S: f(x.G)} }}
}

// sparseGroupRow is a groupRow shown only in a repetition where has holds.
func sparseGroupRow(key, label string, left bool, has func(*Rep) bool, f func(g *results.Group) string) Measure {
	m := groupRow(key, label, left, f)
	m.Sparse, m.Rep = true, func(x *Rep) Value { return If(has(x), Value{Kind: Str, S: f(x.G)}) }
	return m
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

// groupRows: the text report's groups table, a row per group and the total.
var groupRows = []Measure{
	sparseGroupRow("group_host", "host", true, func(x *Rep) bool {
		return slices.ContainsFunc(x.Rep.Groups, func(g results.Group) bool { return g.Host != "" })
	}, func(g *results.Group) string {
		if g.Host == "" && g.Index != results.TotalIndex {
			return "local"
		}
		return g.Host
	}),
	groupRow("group_cpus", "cpus", true, func(g *results.Group) string { return orTotal(g, g.CPUs) }),
	groupRow("group_threads", "threads", false, func(g *results.Group) string { return strconv.Itoa(g.Threads) }),
	groupRow("group_conns", "conns", false, func(g *results.Group) string { return strconv.Itoa(g.Slots) }),
	groupRow("group_requests", "requests", false, func(g *results.Group) string { return format.Count(g.Requests) }),
	groupRow("group_req_per_s", "req/s", false, func(g *results.Group) string { return format.Rate(g.Rate()) }),
	groupRow("group_errors", "errors", false, func(g *results.Group) string { return format.Count(g.Errors.Total()) }),
	groupRow("group_total_p99_ms", "p99 total ms", false, func(g *results.Group) string {
		return format.QuantileMillis(g.Latency.Total, 99)
	}),
	sparseGroupRow("group_cpu_busy", "cpu busy", false, func(x *Rep) bool { return x.A.ClientCPU.Measured > 0 }, func(g *results.Group) string {
		if g.CPU == nil {
			return orTotal(g, "")
		}
		return orTotal(g, format.Percent(g.CPU.Busy))
	}),
}
