package measure

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
)

// withTimeline reads a repetition's timeline analysis; none before timelines.
func withTimeline(f func(tl *diagnosis.Repetition) Value) func(*Rep) Value {
	return func(x *Rep) Value {
		if x.A.Timeline.NoTimeline {
			return Value{}
		}
		return f(&x.A.Timeline)
	}
}

// rateRange is the min, median or max interval rate; JSON has the range whole (rate_range).
func rateRange(key string, f func(*diagnosis.RateRange) float64) Measure {
	return Measure{Key: key, JSONKey: key, Unit: "req/s", Show: CSV, Rep: withTimeline(func(tl *diagnosis.Repetition) Value {
		return From(tl.Range, func(r *diagnosis.RateRange) Value { return F3(f(r)) })
	})}
}

// joined is f of each item, those not "" separated by ";".
func joined[T any](items []T, f func(T) string) Value {
	return Words(strings.Join(slices.DeleteFunc(Map(items, f), isEmpty), ";"))
}

// timeline: what a repetition's timeline says (RepReport.Timeline).
var timeline = []Measure{
	rateRange("rate_min", func(r *diagnosis.RateRange) float64 { return r.Min }),
	rateRange("rate_median", func(r *diagnosis.RateRange) float64 { return r.Median }),
	rateRange("rate_max", func(r *diagnosis.RateRange) float64 { return r.Max }),
	{Key: "rate_range", Label: "req/s by interval min / median / max", Show: Markdown, Order: 14, Human: words,
		Rep: func(x *Rep) Value { // "120.0 / 997.5 / 1,010.0", "no timeline", or "-" (no long interval)
			switch r := x.A.Timeline.Range; {
			case x.A.Timeline.NoTimeline:
				return Words("no timeline")
			case r == nil:
				return Words(format.Missing)
			default:
				return Words(format.Rate(r.Min) + " / " + format.Rate(r.Median) + " / " + format.Rate(r.Max))
			}
		}},
	{Key: "stalls", Show: CSV, Rep: withTimeline(func(tl *diagnosis.Repetition) Value {
		return If(tl.StallsJudged, Count(len(tl.Stalls)))
	})},
	{Key: "stall_seconds", Show: CSV, Rep: withTimeline(func(tl *diagnosis.Repetition) Value {
		return joined(tl.Stalls, func(s diagnosis.Stall) string { return fmt.Sprintf("%.1f-%.1f", s.Start.Seconds(), s.End.Seconds()) })
	})},
	{Key: "stalls_cell", Label: "stalls", Show: Markdown, Order: 15, Left: true,
		Rep: func(x *Rep) Value { return Words(StallsCell(&x.A.Timeline)) }, Human: words},
	{Key: "listen_overflows", Show: CSV | JSON, Rep: withTimeline(func(tl *diagnosis.Repetition) Value {
		return From(tl.ListenOverflows, func(n *uint64) Value { return Count(*n) })
	})},
	{Key: "diagnoses", Show: CSV, Rep: func(x *Rep) Value {
		if x.A.Timeline.NoTimeline {
			return Words("no timeline")
		}
		return joined(x.A.Timeline.Diagnoses, func(d diagnosis.Diagnosis) string { return d.Rule })
	}},
	{Key: "not_attributable", Show: CSV, Rep: withTimeline(func(tl *diagnosis.Repetition) Value {
		return joined(tl.HostOnly, func(h diagnosis.HostOnly) string { return h.Rule })
	})},
	{Key: "other_traffic", Show: CSV, Rep: withTimeline(func(tl *diagnosis.Repetition) Value {
		return joined(tl.Traffic, func(t diagnosis.Traffic) string {
			return when(t.Shared, strconv.FormatUint(t.Other, 10)+"@"+t.Host)
		})
	})},
	// a repetition's flags, a variant's too (NotesCell), under the text comparison as well
	{Key: "notes", Label: "notes", Show: Markdown | Below, Order: 16, VOrder: 15, Left: true, Sparse: true, Human: words,
		Rep: repNotes, Variant: func(x *Variant) Value { return Words(NotesCell(x.S)) }},
}

// words writes words as they are ("" when none).
func words(v Value) string { return v.S }

// RepFlags are a repetition's failure and flags, the lines every report has.
func RepFlags(ra *analysis.RepReport) notes.List {
	return notes.List{ra.Failed, ra.ClientBound, ra.OtherLoad, ra.ServerOtherLoad, ra.SharedCPUs, ra.NotSaturated}
}

// repNotes are a repetition's lines in one cell: the open loop's misses, its failure and flags.
func repNotes(x *Rep) Value {
	t := &x.Rep.Total
	note := notes.Join(RepFlags(x.A), " ")
	if t.Scheduled > 0 { // an open loop: its missed starts and latency from the intended start
		note = strings.TrimSpace("missed " + format.Count(t.Missed) + " of " + format.Count(t.Scheduled) +
			" starts, p99 from intended start " + format.QuantileMillis(t.Latency.Intended, 99) + " ms " + note)
	}
	return Words(note)
}

// StallsCell is "3.0–5.0 s at 135.0 req/s, …", "none", "not judged", or "-" without a timeline.
func StallsCell(tl *diagnosis.Repetition) string {
	switch {
	case tl.NoTimeline:
		return format.Missing
	case !tl.StallsJudged:
		return "not judged"
	case len(tl.Stalls) == 0:
		return "none"
	}
	return strings.Join(Map(tl.Stalls, func(s diagnosis.Stall) string {
		return notes.Span(s.Start.Seconds(), s.End.Seconds()) + " at " + format.Rate(s.Rate) + " req/s"
	}), ", ")
}
