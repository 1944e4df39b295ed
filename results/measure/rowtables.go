package measure

import (
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
	return Measure{Key: key + "_%s_ms", JSONKey: "-", Unit: "ms", Label: label, Show: Latencies, Each: latencyColumns, Human: words,
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

// ofGroup reads a row of the groups table: a group of the repetition, or
// its total (Rep.G.Index is results.TotalIndex).
func ofGroup(f func(g *results.Group) string) func(*Rep) Value {
	return func(x *Rep) Value { return Value{Kind: Str, S: f(x.G)} }
}

// groupRows: the text report's groups table of a repetition, a row per
// group and the total. Host and cpu busy show only in a repetition that
// has them (Sparse).
var groupRows = []Measure{
	{Key: "group_host", JSONKey: "-", Label: "host", Show: Groups, Left: true, Sparse: true, Human: words, Rep: func(x *Rep) Value {
		if !hasHosts(x.Rep.Groups) {
			return Value{}
		}
		return ofGroup(func(g *results.Group) string {
			if g.Host == "" && g.Index != results.TotalIndex {
				return "local"
			}
			return g.Host
		})(x)
	}},
	{Key: "group_cpus", JSONKey: "-", Label: "cpus", Show: Groups, Left: true, Human: words, Rep: ofGroup(func(g *results.Group) string {
		switch {
		case g.Index == results.TotalIndex:
			return ""
		case g.CPUs == "":
			return format.Missing
		}
		return g.CPUs
	})},
	{Key: "group_threads", JSONKey: "-", Label: "threads", Show: Groups, Human: words,
		Rep: ofGroup(func(g *results.Group) string { return strconv.Itoa(g.Threads) })},
	{Key: "group_conns", JSONKey: "-", Label: "conns", Show: Groups, Human: words,
		Rep: ofGroup(func(g *results.Group) string { return strconv.Itoa(g.Slots) })},
	{Key: "group_requests", JSONKey: "-", Label: "requests", Show: Groups, Human: words,
		Rep: ofGroup(func(g *results.Group) string { return format.Count(g.Requests) })},
	{Key: "group_req_per_s", JSONKey: "-", Label: "req/s", Show: Groups, Human: words,
		Rep: ofGroup(func(g *results.Group) string { return format.Rate(g.Rate()) })},
	{Key: "group_errors", JSONKey: "-", Label: "errors", Show: Groups, Human: words,
		Rep: ofGroup(func(g *results.Group) string { return format.Count(g.Errors.Total()) })},
	{Key: "group_total_p99_ms", JSONKey: "-", Label: "p99 total ms", Show: Groups, Human: words,
		Rep: ofGroup(func(g *results.Group) string { return format.QuantileMillis(g.Latency.Total, 99) })},
	{Key: "group_cpu_busy", JSONKey: "-", Label: "cpu busy", Show: Groups, Sparse: true, Human: words, Rep: func(x *Rep) Value {
		if x.A.ClientCPU.Measured == 0 {
			return Value{}
		}
		return ofGroup(func(g *results.Group) string {
			switch {
			case g.Index == results.TotalIndex:
				return ""
			case g.CPU == nil:
				return format.Missing
			}
			return format.Percent(g.CPU.Busy)
		})(x)
	}},
}

// hasHosts says whether a group of the repetition ran on an ssh host.
func hasHosts(groups []results.Group) bool {
	for _, g := range groups {
		if g.Host != "" {
			return true
		}
	}
	return false
}
