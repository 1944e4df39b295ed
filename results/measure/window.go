package measure

import (
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
)

// withTimeline reads a repetition's timeline analysis; none for a
// repetition stored before timelines.
func withTimeline(f func(tl *diagnosis.Repetition) Value) func(*Rep) Value {
	return func(x *Rep) Value {
		if x.A.Timeline.NoTimeline {
			return Value{}
		}
		return f(&x.A.Timeline)
	}
}

// rateRange is one of min, median and max of the window's interval rates;
// the reference names its JSON field, though JSON has the range whole.
func rateRange(key string, f func(*diagnosis.RateRange) float64) Measure {
	return Measure{Key: key, JSONKey: key, Unit: "req/s", Show: CSV, Rep: withTimeline(func(tl *diagnosis.Repetition) Value {
		return From(tl.Range, func(r *diagnosis.RateRange) Value { return F3(f(r)) })
	})}
}

// joined lists one string per element of a repetition's timeline, ";"-separated.
func joined[T any](items func(*diagnosis.Repetition) []T, f func(T) string) func(*Rep) Value {
	return withTimeline(func(tl *diagnosis.Repetition) Value {
		var out []string
		for _, it := range items(tl) {
			if s := f(it); s != "" {
				out = append(out, s)
			}
		}
		return Words(strings.Join(out, ";"))
	})
}

// timeline: what a repetition's timeline says (RepReport.Timeline).
var timeline = []Measure{
	rateRange("rate_min", func(r *diagnosis.RateRange) float64 { return r.Min }),
	rateRange("rate_median", func(r *diagnosis.RateRange) float64 { return r.Median }),
	rateRange("rate_max", func(r *diagnosis.RateRange) float64 { return r.Max }),
	{Key: "rate_range", Label: "req/s by interval min / median / max", Show: Markdown, Order: 11,
		Rep: func(x *Rep) Value { return Words(RangeCell(&x.A.Timeline)) }, Human: words},
	csvOnly("stalls", withTimeline(func(tl *diagnosis.Repetition) Value { return If(tl.StallsJudged, CountInt(len(tl.Stalls))) })),
	csvOnly("stall_seconds", joined(stalls, func(s diagnosis.Stall) string {
		return strconv.FormatFloat(s.Start.Seconds(), 'f', 1, 64) + "-" + strconv.FormatFloat(s.End.Seconds(), 'f', 1, 64)
	})),
	{Key: "stalls_cell", Label: "stalls", Show: Markdown, Order: 12, Left: true,
		Rep: func(x *Rep) Value { return Words(StallsCell(&x.A.Timeline)) }, Human: words},
	{Key: "listen_overflows", Show: CSV | JSON, Rep: withTimeline(func(tl *diagnosis.Repetition) Value {
		return From(tl.ListenOverflows, func(n *uint64) Value { return Count(*n) })
	})},
	csvOnly("diagnoses", func(x *Rep) Value {
		if x.A.Timeline.NoTimeline {
			return Words("no timeline")
		}
		return joined(diagnosesOf, func(d diagnosis.Diagnosis) string { return d.Rule })(x)
	}),
	csvOnly("not_attributable", joined(hostOnly, func(h diagnosis.HostOnly) string { return h.Rule })),
	csvOnly("other_traffic", joined(traffic, func(t diagnosis.Traffic) string {
		if !t.Shared {
			return ""
		}
		return strconv.FormatUint(t.Other, 10) + "@" + t.Host
	})),
	{Key: "notes", Label: "notes", Show: Markdown, Order: 13, Left: true, Rep: repNotes, Human: words},
}

func stalls(tl *diagnosis.Repetition) []diagnosis.Stall          { return tl.Stalls }
func diagnosesOf(tl *diagnosis.Repetition) []diagnosis.Diagnosis { return tl.Diagnoses }
func hostOnly(tl *diagnosis.Repetition) []diagnosis.HostOnly     { return tl.HostOnly }
func traffic(tl *diagnosis.Repetition) []diagnosis.Traffic       { return tl.Traffic }

// words writes words as they are ("" when none).
func words(v Value) string { return v.S }

// repNotes are a repetition's lines in one cell: its failure, the open
// loop's misses, then its flags.
func repNotes(x *Rep) Value {
	ra, t := x.A, &x.Rep.Total
	note := ""
	for _, line := range []notes.Note{ra.ClientBound, ra.OtherLoad, ra.ServerOtherLoad, ra.SharedCPUs, ra.NotSaturated} {
		if !line.IsZero() {
			note = strings.TrimSpace(note + " " + line.String())
		}
	}
	if line := ra.Failed; !line.IsZero() {
		note = strings.TrimSpace(line.String() + " " + note)
	}
	if t.Scheduled > 0 { // an open loop: its missed starts and latency from the intended start
		note = strings.TrimSpace("missed " + format.Count(t.Missed) + " of " + format.Count(t.Scheduled) +
			" starts, p99 from intended start " + format.QuantileMillis(t.Latency.Intended, 99) + " ms " + note)
	}
	return Words(note)
}

// RangeCell is a repetition's rate range in a table cell: "120.0 / 997.5
// / 1,010.0" (min / median / max req/s), "no timeline", or "-" when no
// interval was long enough.
func RangeCell(tl *diagnosis.Repetition) string {
	switch r := tl.Range; {
	case tl.NoTimeline:
		return "no timeline"
	case r == nil:
		return format.Missing
	default:
		return format.Rate(r.Min) + " / " + format.Rate(r.Median) + " / " + format.Rate(r.Max)
	}
}

// StallsCell is a repetition's stalls in a table cell: "none", their
// spans and rates ("3.0–5.0 s at 135.0 req/s"), "not judged", or "-"
// without a timeline.
func StallsCell(tl *diagnosis.Repetition) string {
	switch {
	case tl.NoTimeline:
		return format.Missing
	case !tl.StallsJudged:
		return "not judged"
	case len(tl.Stalls) == 0:
		return "none"
	}
	var parts []string
	for _, s := range tl.Stalls {
		parts = append(parts, StallSpan(s)+" at "+format.Rate(s.Rate)+" req/s")
	}
	return strings.Join(parts, ", ")
}

// StallSpan is a stall's seconds from the window's start: "3.0–5.0 s".
func StallSpan(s diagnosis.Stall) string {
	return strconv.FormatFloat(s.Start.Seconds(), 'f', 1, 64) + "–" + strconv.FormatFloat(s.End.Seconds(), 'f', 1, 64) + " s"
}
