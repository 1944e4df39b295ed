package measure

import (
	"bytes"
	"cmp"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/format"
)

// Fields is a JSON object that keeps its fields' order; a nested object is a plain Fields value
// (never *Fields), which Set walks.
type Fields []Field

// Field is one field of Fields.
type Field struct {
	Key   string
	Value any
}

// Opt is a pointer to a copy of v when ok, nil (left out) otherwise.
func Opt[T any](v T, ok bool) *T {
	if !ok {
		return nil
	}
	return &v
}

// MarshalJSON writes f in order, as json.Marshal would.
func (f Fields) MarshalJSON() ([]byte, error) { return f.Marshal(true) }

// Marshal writes f in order, escaping "<", ">" and "&" when html (json compacts Encode's newlines).
func (f Fields) Marshal(html bool) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	b.WriteByte('{')
	for i, fd := range f {
		b.WriteString(when(i > 0, ","))
		if err := cmp.Or(enc.Encode(fd.Key), b.WriteByte(':'), enc.Encode(fd.Value)); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Set sets the field at the dotted path to v, making the objects on the way; a nil v only makes them.
func (f *Fields) Set(path string, v any) {
	head, rest, nested := strings.Cut(path, ".")
	i := slices.IndexFunc(*f, func(fd Field) bool { return fd.Key == head })
	if i < 0 && (nested || v != nil) {
		i = len(*f)
		*f = append(*f, Field{head, Fields{}})
	}
	if nested {
		sub := slices.Clip((*f)[i].Value.(Fields)) // another row may share its array: append copies
		sub.Set(rest, v)
		(*f)[i].Value = sub
	} else if v != nil {
		(*f)[i].Value = v
	}
}

// RepJSON is repetition x as JSON: its 1-based number, then its measures.
func RepJSON(x *Rep) Fields {
	of := func(c Column) (Value, bool) { return c.OfRep(x), c.Rep != nil }
	return withMeasures(Fields{{"rep", x.Rep.Index + 1}}, x.R, of)
}

// VariantJSON is variant x as JSON: its name, then its measures.
func VariantJSON(x *Variant) Fields {
	of := func(c Column) (Value, bool) { return c.OfVariant(x), c.Variant != nil }
	return withMeasures(Fields{{"name", x.Name}}, x.R, of)
}

// withMeasures appends to f the JSON columns that of reads (ok); no field, nor parent, for the others.
func withMeasures(f Fields, m *analysis.Report, of func(Column) (v Value, ok bool)) Fields {
	for _, c := range Columns(m, JSON) {
		if v, ok := of(c); ok {
			f.Set(c.JSONName(), v.JSON())
		}
	}
	return f
}

// empty says whether omitempty (omitzero for an array) leaves v out; a struct is never empty.
func empty(v any) bool {
	switch r := reflect.ValueOf(v); r.Kind() {
	case reflect.Struct:
		return false
	case reflect.Slice, reflect.Map, reflect.String:
		return r.Len() == 0
	default:
		return !r.IsValid() || r.IsZero()
	}
}

// Omit is a field that Dense leaves out when v is empty.
func Omit(key string, v any) Field {
	if empty(v) {
		v = nil
	}
	return Field{key, v}
}

// Dense is f without the fields Omit left out.
func Dense(f Fields) Fields {
	return slices.DeleteFunc(f, func(fd Field) bool { return fd.Value == nil })
}

// Map is f of each of xs, in order; empty, not nil, for none.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// timelineJSON: a repetition's timeline and its analysis (empty for one stored before timelines).
var timelineJSON = []Measure{
	{Key: "no_timeline", Show: JSON, Rep: func(x *Rep) Value { return If(x.A.Timeline.NoTimeline, Truth(true)) }},
	{Key: "interval_s", Unit: "s", Show: JSON, Rep: withTimeline(func(tl *diagnosis.Repetition) Value { return G(tl.Interval.Seconds()) })},
	{Key: "rate_range", Show: JSON, Rep: func(x *Rep) Value { return Object(x.A.Timeline.Range) }},
	{Key: "stalls", Show: JSON, Rep: func(x *Rep) Value {
		return Object(Map(x.A.Timeline.Stalls, func(s diagnosis.Stall) Fields {
			return Fields{{"start_s", s.Start.Seconds()}, {"end_s", s.End.Seconds()}, {"req_per_s", s.Rate}}
		}))
	}},
	{Key: "stalls_judged", Show: JSON, Rep: func(x *Rep) Value { return If(x.A.Timeline.StallsJudged, Truth(true)) }},
	{Key: "timeline", Show: JSON, Rep: func(x *Rep) Value {
		return From(x.Rep.Timeline, func(t *results.Timeline) Value { return Object(Map(t.Points, pointJSON)) })
	}},
	{Key: "tcp", Show: JSON, Rep: func(x *Rep) Value {
		hosts := map[string]diagnosis.HostCounts{}
		for _, h := range x.A.Timeline.Hosts {
			hosts[h.Name] = h
		}
		return Object(hosts)
	}},
	{Key: "diagnoses", Show: JSON, Rep: func(x *Rep) Value {
		return Object(Map(x.A.Timeline.Diagnoses, func(d diagnosis.Diagnosis) Fields {
			return Dense(Fields{{"rule", d.Rule}, {"title", d.Title}, {"variant", d.Variant}, {"rep", d.Rep}, {"cause", d.Cause.String()},
				{"figure", d.Figure}, {"consequence", d.Consequence.String()}, {"fix", d.Fix.String()},
				Omit("counters", d.Counters), Omit("stalls", d.Stalls)})
		}))
	}},
	{Key: "not_attributable", Show: JSON, Rep: func(x *Rep) Value {
		return Object(Map(x.A.Timeline.HostOnly, func(h diagnosis.HostOnly) Fields {
			return Dense(Fields{{"rule", h.Rule}, {"title", h.Title}, {"text", h.Line()}, Omit("counters", h.Counters)})
		}))
	}},
	{Key: "traffic", Show: JSON, Rep: func(x *Rep) Value { return Object(x.A.Timeline.Traffic) }},
	{Key: "listener", Show: JSON, Rep: func(x *Rep) Value { return Object(x.A.Timeline.Listener) }},
	{Key: "not_judged", Show: JSON, Rep: func(x *Rep) Value { return Object(x.A.Timeline.Unjudged.Strings()) }},
}

// pointJSON is a timeline's interval: seconds from the window's start, counts, ms, shares (0..1).
func pointJSON(p results.Point) Fields {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return Dense(Fields{{"start_s", p.Start.Seconds()}, {"length_s", p.Length.Seconds()}, {"requests", p.Requests},
		{"errors", p.Errors.Total()}, Omit("errors_by_class", p.Errors), {"started", p.Started},
		Omit("handshake_p50_ms", ms(p.HandshakeP50)), Omit("handshake_p99_ms", ms(p.HandshakeP99)),
		Omit("total_p50_ms", ms(p.TotalP50)), Omit("total_p99_ms", ms(p.TotalP99)),
		Omit("client_busy", p.ProcessBusy), Omit("client_cpus_busy", p.CPUsBusy), Omit("server_busy", p.ServerBusy)})
}

// phaseJSON is what the client did before the window, or after it (cut off: requests never completed).
func phaseJSON(o *results.Outside, after bool) Fields {
	responses, status, errs, classes, cutOff := o.Warmup, o.WarmupStatus, o.WarmupErrorTotal(),
		o.WarmupClasses, uint64(0)
	if after {
		responses, status, errs, classes, cutOff = o.Late, o.LateStatus, o.AfterClasses.Total(),
			o.AfterClasses, o.Abandoned
	}
	byStatus := map[string]uint64{}
	for i, n := range status {
		if n > 0 {
			byStatus[format.StatusClasses[i]] = n
		}
	}
	return Dense(Fields{{"responses", responses}, Omit("status", byStatus), {"errors", errs},
		Omit("errors_by_class", classes), Omit("cut_off", cutOff)})
}
