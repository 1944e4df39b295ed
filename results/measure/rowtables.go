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

// latencyColumns are the latency table's columns, a family's values.
func latencyColumns(*analysis.Report) []string { return []string{"p50", "p90", "p99", "p99.9", "max"} }

// latencyRow is a row of the text report's latency table: the percentiles
// and maximum of one latency of a repetition, in ms; an optional one has
// no row without a histogram.
func latencyRow(key, label string, optional bool, of func(*results.Latency) *results.Histogram) Measure {
	return Measure{Key: key + "_%s_ms", Unit: "ms", Label: label, Show: Latencies, Each: latencyColumns, Human: words,
		Rep: func(x *Rep) Value {
			h := of(&x.Rep.Total.Latency)
			if optional && (h == nil || h.Histogram == nil) {
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
var latencyRows = []Measure{
	latencyRow("connect", "connect", false, func(l *results.Latency) *results.Histogram { return l.Connect }),
	latencyRow("handshake", "handshake", false, func(l *results.Latency) *results.Histogram { return l.Handshake }),
	latencyRow("ttfb", "ttfb", false, func(l *results.Latency) *results.Histogram { return l.TTFB }),
	latencyRow("total", "total", false, func(l *results.Latency) *results.Histogram { return l.Total }),
	latencyRow("intended", "from intended", true, func(l *results.Latency) *results.Histogram { return l.Intended }),
}

// groupRow is a column of the groups table: f's words of a group of the
// repetition, or of their total (Rep.G.Index is results.TotalIndex).
func groupRow(key, label string, f func(g *results.Group) string) Measure {
	return Measure{Key: key, Label: label, Show: Groups, Human: words,
		Rep: func(x *Rep) Value { return Value{Kind: Str, S: f(x.G)} }}
}

// sparseGroupRow is a groupRow shown only in a repetition where has holds.
func sparseGroupRow(key, label string, left bool, has func(*Rep) bool, f func(g *results.Group) string) Measure {
	m := groupRow(key, label, f)
	m.Left, m.Sparse = left, true
	cell := m.Rep
	m.Rep = func(x *Rep) Value {
		if !has(x) {
			return Value{}
		}
		return cell(x)
	}
	return m
}

// leftAligned is m aligned left.
func leftAligned(m Measure) Measure {
	m.Left = true
	return m
}

// remote says whether a group ran on an ssh host.
func remote(g results.Group) bool { return g.Host != "" }

// groupRows: the text report's groups table of a repetition, a row per
// group and the total.
var groupRows = []Measure{
	sparseGroupRow("group_host", "host", true, func(x *Rep) bool { return slices.ContainsFunc(x.Rep.Groups, remote) }, func(g *results.Group) string {
		if g.Host == "" && g.Index != results.TotalIndex {
			return "local"
		}
		return g.Host
	}),
	leftAligned(groupRow("group_cpus", "cpus", func(g *results.Group) string {
		switch {
		case g.Index == results.TotalIndex:
			return ""
		case g.CPUs == "":
			return format.Missing
		}
		return g.CPUs
	})),
	groupRow("group_threads", "threads", func(g *results.Group) string { return strconv.Itoa(g.Threads) }),
	groupRow("group_conns", "conns", func(g *results.Group) string { return strconv.Itoa(g.Slots) }),
	groupRow("group_requests", "requests", func(g *results.Group) string { return format.Count(g.Requests) }),
	groupRow("group_req_per_s", "req/s", func(g *results.Group) string { return format.Rate(g.Rate()) }),
	groupRow("group_errors", "errors", func(g *results.Group) string { return format.Count(g.Errors.Total()) }),
	groupRow("group_total_p99_ms", "p99 total ms", func(g *results.Group) string { return format.QuantileMillis(g.Latency.Total, 99) }),
	sparseGroupRow("group_cpu_busy", "cpu busy", false, func(x *Rep) bool { return x.A.ClientCPU.Measured > 0 }, func(g *results.Group) string {
		switch {
		case g.Index == results.TotalIndex:
			return ""
		case g.CPU == nil:
			return format.Missing
		}
		return format.Percent(g.CPU.Busy)
	}),
}
