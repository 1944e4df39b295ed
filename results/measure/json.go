package measure

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/diagnosis"
)

// Fields is a JSON object that keeps its fields' order.
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

// MarshalJSON writes f as an object in order.
func (f Fields) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, fd := range f {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(fd.Key)
		v, err := json.Marshal(fd.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Set sets the field at the dotted path to v, making the objects on the
// way; a nil v only makes them.
func (f *Fields) Set(path string, v any) {
	head, rest, nested := strings.Cut(path, ".")
	for i := range *f {
		if fd := &(*f)[i]; fd.Key == head {
			if nested {
				fd.Value.(*Fields).Set(rest, v)
			} else if v != nil {
				fd.Value = v
			}
			return
		}
	}
	if nested {
		sub := &Fields{}
		*f = append(*f, Field{head, sub})
		sub.Set(rest, v)
	} else if v != nil {
		*f = append(*f, Field{head, v})
	}
}

// RepJSON is repetition x as JSON: its 1-based number, then every
// measure JSON shows.
func RepJSON(x *Rep) Fields {
	f := Fields{{"rep", x.Rep.Index + 1}}
	for _, c := range Columns(x.R, JSON) {
		if name := c.JSONName(); name != "" && c.Rep != nil {
			f.Set(name, c.OfRep(x).JSON())
		}
	}
	return f
}

// VariantJSON is variant x as JSON: its name, then every measure JSON
// shows.
func VariantJSON(x *Variant) Fields {
	f := Fields{{"name", x.Name}}
	for _, c := range Columns(x.R, JSON) {
		if name := c.JSONName(); name != "" && c.Variant != nil {
			f.Set(name, c.OfVariant(x).JSON())
		}
	}
	return f
}

// timelineJSON: a repetition's timeline and what its analysis found, in
// JSON alone (the CSV's timeline columns sum them up).
var timelineJSON = []Measure{
	{Key: "no_timeline", Show: JSON, Rep: func(x *Rep) Value { return If(x.A.Timeline.NoTimeline, Truth(true)) }},
	{Key: "interval_s", Unit: "s", Show: JSON, Rep: hasTimeline(func(x *Rep) Value { return G(x.A.Timeline.Interval.Seconds()) })},
	{Key: "rate_range", Show: JSON, Rep: hasTimeline(func(x *Rep) Value { return Object(x.A.Timeline.Range) })},
	{Key: "stalls", Show: JSON, Rep: hasTimeline(func(x *Rep) Value { return Object(stallsJSON(x.A.Timeline.Stalls)) })},
	{Key: "stalls_judged", Show: JSON, Rep: hasTimeline(func(x *Rep) Value { return If(x.A.Timeline.StallsJudged, Truth(true)) })},
	{Key: "timeline", Show: JSON, Rep: hasTimeline(func(x *Rep) Value { return Object(pointsJSON(x.Rep.Timeline.Points)) })},
	{Key: "tcp", Show: JSON, Rep: hasTimeline(func(x *Rep) Value { return Object(tcpJSON(x.A.Timeline.Hosts)) })},
	{Key: "diagnoses", Show: JSON, Rep: hasTimeline(func(x *Rep) Value { return Object(diagnosesJSON(x.A.Timeline.Diagnoses)) })},
	{Key: "not_attributable", Show: JSON, Rep: hasTimeline(func(x *Rep) Value { return Object(hostOnlyJSON(x.A.Timeline.HostOnly)) })},
	{Key: "traffic", Show: JSON, Rep: hasTimeline(func(x *Rep) Value { return Object(x.A.Timeline.Traffic) })},
	{Key: "listener", Show: JSON, Rep: hasTimeline(func(x *Rep) Value { return Object(x.A.Timeline.Listener) })},
	{Key: "not_judged", Show: JSON, Rep: hasTimeline(func(x *Rep) Value { return Object(x.A.Timeline.Unjudged.Strings()) })},
}

// hasTimeline reads a repetition that has a timeline.
func hasTimeline(f func(*Rep) Value) func(*Rep) Value {
	return func(x *Rep) Value {
		if x.A.Timeline.NoTimeline || x.Rep.Timeline == nil {
			return Value{}
		}
		return f(x)
	}
}

// PhaseJSON is what a repetition's client did in a phase outside its
// window: responses by status class, errors by class; CutOff, after the
// window only, the requests in flight that never completed.
type PhaseJSON struct {
	Responses     uint64              `json:"responses"`
	Status        map[string]uint64   `json:"status,omitempty"`
	Errors        uint64              `json:"errors"`
	ErrorsByClass results.ErrorCounts `json:"errors_by_class,omitzero"`
	CutOff        uint64              `json:"cut_off,omitempty"`
}

func warmupJSON(o *results.Outside) PhaseJSON {
	return PhaseJSON{Responses: o.Warmup, Status: statusJSON(o.WarmupStatus), Errors: o.WarmupErrorTotal(), ErrorsByClass: o.WarmupClasses}
}

func afterJSON(o *results.Outside) PhaseJSON {
	return PhaseJSON{Responses: o.Late, Status: statusJSON(o.LateStatus), Errors: o.AfterClasses.Total(), ErrorsByClass: o.AfterClasses, CutOff: o.Abandoned}
}

// statusJSON keys the status classes that occurred: "2xx" … "5xx", "other".
func statusJSON(st [6]uint64) map[string]uint64 {
	var m map[string]uint64
	for i, n := range st {
		if n == 0 {
			continue
		}
		if m == nil {
			m = map[string]uint64{}
		}
		k := "other"
		if i > 0 {
			k = strconv.Itoa(i) + "xx"
		}
		m[k] = n
	}
	return m
}

// StallJSON is one stall: its seconds from the window's start and its rate.
type StallJSON struct {
	StartS    float64 `json:"start_s"`
	EndS      float64 `json:"end_s"`
	ReqPerSec float64 `json:"req_per_s"`
}

func stallsJSON(ss []diagnosis.Stall) []StallJSON {
	var out []StallJSON
	for _, s := range ss {
		out = append(out, StallJSON{StartS: s.Start.Seconds(), EndS: s.End.Seconds(), ReqPerSec: s.Rate})
	}
	return out
}

// PointJSON is one interval of a timeline: seconds from the window's
// start, counts, latency percentiles in ms and CPU shares (0..1).
type PointJSON struct {
	StartS        float64             `json:"start_s"`
	LengthS       float64             `json:"length_s"`
	Requests      uint64              `json:"requests"`
	Errors        uint64              `json:"errors"`
	ErrorsByClass results.ErrorCounts `json:"errors_by_class,omitzero"`
	Started       uint64              `json:"started"`
	HandshakeP50  *float64            `json:"handshake_p50_ms,omitempty"`
	HandshakeP99  *float64            `json:"handshake_p99_ms,omitempty"`
	TotalP50      *float64            `json:"total_p50_ms,omitempty"`
	TotalP99      *float64            `json:"total_p99_ms,omitempty"`
	ClientBusy    *float64            `json:"client_busy,omitempty"`
	ClientCPUs    *float64            `json:"client_cpus_busy,omitempty"`
	ServerBusy    *float64            `json:"server_busy,omitempty"`
}

// millis is d in milliseconds; nil for 0 (none).
func millis(d time.Duration) *float64 {
	if d == 0 {
		return nil
	}
	v := float64(d) / float64(time.Millisecond)
	return &v
}

func pointsJSON(ps []results.Point) []PointJSON {
	var out []PointJSON
	for _, p := range ps {
		out = append(out, PointJSON{StartS: p.Start.Seconds(), LengthS: p.Length.Seconds(), Requests: p.Requests,
			Errors: p.Errors.Total(), ErrorsByClass: p.Errors, Started: p.Started,
			HandshakeP50: millis(p.HandshakeP50), HandshakeP99: millis(p.HandshakeP99), TotalP50: millis(p.TotalP50), TotalP99: millis(p.TotalP99),
			ClientBusy: p.ProcessBusy, ClientCPUs: p.CPUsBusy, ServerBusy: p.ServerBusy})
	}
	return out
}

// tcpJSON keys the hosts' TCP counters by host.
func tcpJSON(hs []diagnosis.HostCounts) map[string]diagnosis.HostCounts {
	out := map[string]diagnosis.HostCounts{}
	for _, h := range hs {
		out[h.Name] = h
	}
	return out
}

// HostOnlyJSON is a kernel counter change on a host that the run's own
// connections do not show: Text says so in words.
type HostOnlyJSON struct {
	Rule     string              `json:"rule"`
	Title    string              `json:"title"`
	Text     string              `json:"text"`
	Counters []diagnosis.Counter `json:"counters,omitempty"`
}

func hostOnlyJSON(hs []diagnosis.HostOnly) []HostOnlyJSON {
	var out []HostOnlyJSON
	for i := range hs {
		h := &hs[i]
		out = append(out, HostOnlyJSON{Rule: h.Rule, Title: h.Title, Text: h.Line(), Counters: h.Counters})
	}
	return out
}

// UnmarshalJSON reads an object back, its fields sorted by key; nested
// objects become Fields, the rest as encoding/json reads into an any.
func (f *Fields) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("measure fields: %w", err)
	}
	*f = Fields{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		var v any
		if sub := (Fields{}); bytes.HasPrefix(bytes.TrimSpace(m[k]), []byte("{")) && sub.UnmarshalJSON(m[k]) == nil {
			v = sub
		} else if err := json.Unmarshal(m[k], &v); err != nil {
			return err
		}
		*f = append(*f, Field{k, v})
	}
	return nil
}

// Get is the value at the dotted path; nil when absent.
func (f Fields) Get(path string) any {
	head, rest, nested := strings.Cut(path, ".")
	for _, fd := range f {
		if fd.Key != head {
			continue
		}
		if !nested {
			return fd.Value
		}
		switch sub := fd.Value.(type) {
		case Fields:
			return sub.Get(rest)
		case *Fields:
			return sub.Get(rest)
		}
	}
	return nil
}

// DiagnosisJSON is a diagnosis with its cause, consequence and fix in
// words, as the summary has always had them.
type DiagnosisJSON struct {
	Rule        string              `json:"rule"`
	Title       string              `json:"title"`
	Variant     string              `json:"variant"`
	Rep         int                 `json:"rep"`
	Cause       string              `json:"cause"`
	Figure      string              `json:"figure"`
	Consequence string              `json:"consequence"`
	Fix         string              `json:"fix"`
	Counters    []diagnosis.Counter `json:"counters,omitempty"`
	Stalls      []diagnosis.Stall   `json:"stalls,omitempty"`
}

func diagnosesJSON(ds []diagnosis.Diagnosis) []DiagnosisJSON {
	out := make([]DiagnosisJSON, len(ds))
	for i, d := range ds {
		out[i] = DiagnosisJSON{Rule: d.Rule, Title: d.Title, Variant: d.Variant, Rep: d.Rep, Cause: d.Cause.String(), Figure: d.Figure,
			Consequence: d.Consequence.String(), Fix: d.Fix.String(), Counters: d.Counters, Stalls: d.Stalls}
	}
	return out
}
