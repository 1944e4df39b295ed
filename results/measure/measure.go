// Package measure is the catalogue of what kaeload reports: every
// quantity of a repetition or a variant (its comparison included) is
// declared once, with its key, unit, label, how it is read from the
// analysis model and which outputs show it. The renderers range over
// Columns and name no quantity.
package measure

import (
	"reflect"
	"slices"
	"strconv"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
)

// Output is a set of outputs (and kinds of CSV row) that show a measure.
type Output uint16

const (
	Text Output = 1 << iota
	Markdown
	CSV
	JSON
	HTML
	OpenMetrics
	// PartialRow: filled in the CSV's rows of partial and excluded windows.
	PartialRow
	// UnmeasuredRow: filled in the CSV's row of a variant never measured.
	UnmeasuredRow
	// Facts: a line among a repetition's facts in the text report, whose
	// own lines word the quantities it always shows.
	Facts
	// Below: under the text report's comparison table, a line per variant
	// that has a value: what is too wide for a 120-column table.
	Below
	// Runs: the comparison of stored runs (kaeload compare), a row per
	// variant and run.
	Runs
	// Latencies and Groups: a repetition's latency and group tables in
	// the text report, a row per latency or group.
	Latencies
	Groups
	// PageLatencies: the HTML page's latency table, a row per latency of
	// a variant over its repetitions.
	PageLatencies
	// Page: only the page's own tables, which place it by key.
	Page
	// Tables shows it in the comparison and repetition tables of the
	// text and Markdown reports.
	Tables = Text | Markdown
	// All is every output. HTML shows its measures beside the columns
	// of its own layout.
	All = Tables | Facts | HTML | CSV | JSON | OpenMetrics
)

// Measure is one quantity. Rep reads it from a repetition, Variant from a
// variant's repetitions together or its comparison; either may be nil
// (the cell is then empty). Key names its CSV column and JSON field
// (JSONKey overrides the latter: "-" for none, "a.b" nests). Key may
// hold one %s, filled by each value of Each (a family: one column per
// error class, per probe). When limits it to some runs.
type Measure struct {
	Key, JSONKey string
	Unit, Label  string
	Show         Output
	Rep          func(*Rep) Value
	Variant      func(*Variant) Value
	When         func(*analysis.Report) bool
	Each         func(*analysis.Report) []string
	// Human writes a value for the tables (Value.Human when nil); Order
	// places it in the repetition tables (0: after those placed).
	Human func(Value) string
	Order int
	// VOrder places it in the variant tables; a measure with neither
	// order goes to every table it can fill. Left aligns it left; Sparse
	// drops it from a variant table where no variant has a value.
	VOrder       int
	Left, Sparse bool
	// Metric names its OpenMetrics gauge ("kaeload_" + Key when "").
	Metric string
	// Fact words it among a repetition's facts in the text report.
	Fact *Fact
}

// Rep is what a repetition's measure reads: A is nil for a partial or
// excluded window, whose Note is the reports' line on it.
// G is the group a Groups measure reads.
type Rep struct {
	R     *analysis.Report
	V     *results.Variant
	Rep   *results.Rep
	A     *analysis.RepReport
	Note  string
	Param string
	G     *results.Group
}

// Variant is what a variant's measure reads: S and V are nil for a
// variant the run never measured; Sum adds up its repetitions' counts.
// In a comparison of runs (Runs) only S and Cell are set, S nil for a
// run without the variant. G is the group a PageGroups measure reads.
type Variant struct {
	R     *analysis.Report
	I     int
	Name  string
	V     *results.Variant
	S     *analysis.VariantSummary
	Sum   results.Counts
	Param string
	Cell  *RunsCell
	G     *VariantGroup
}

// RunsCell is a variant in run Run of a comparison of runs (0: the
// reference).
type RunsCell struct {
	Run      int
	Compared bool
}

// NewRunsCell is the context of variant k in run i of rr.
func NewRunsCell(rr *analysis.RunsReport, k, i int) *Variant {
	c := &rr.Variants[k].Cells[i]
	x := &Variant{Name: rr.Variants[k].Name, Cell: &RunsCell{Run: i, Compared: c.Compared}}
	if c.Present {
		x.S = &c.Summary
	}
	return x
}

// NewVariant is the context of variant i of m.
func NewVariant(m *analysis.Report, i int) *Variant {
	x := &Variant{R: m, I: i, V: &m.Run.Variants[i], S: &m.Summary.Variants[i], Name: m.Run.Variants[i].Name}
	for j := range x.V.Reps {
		x.Sum.Add(&x.V.Reps[j].Total.Counts)
	}
	return x
}

// NewRep is the context of repetition j of variant i of m.
func NewRep(m *analysis.Report, i, j int) *Rep {
	v := &m.Run.Variants[i]
	return &Rep{R: m, V: v, Rep: &v.Reps[j], A: &m.Reps[i][j]}
}

// Column is a measure as one report shows it: a family's member has its
// Param and its own Key and Label.
type Column struct {
	*Measure
	Key, Param, Label string
}

// JSONName is the column's JSON field, "" for none.
func (c Column) JSONName() string {
	switch c.JSONKey {
	case "":
		return c.Key
	case "-":
		return ""
	}
	return replaceParam(c.JSONKey, c.Param)
}

// OfRep is the column's value for x; empty without a Rep reading.
func (c Column) OfRep(x *Rep) Value {
	if c.Rep == nil || (x.A == nil && c.Show&PartialRow == 0) {
		return Value{}
	}
	x.Param = c.Param
	return c.Rep(x)
}

// OfVariant is the column's value for x; empty without a Variant reading.
func (c Column) OfVariant(x *Variant) Value {
	if c.Variant == nil || (x.S == nil && c.Show&UnmeasuredRow == 0) {
		return Value{}
	}
	x.Param = c.Param
	return c.Variant(x)
}

// Text is v as the tables show it.
func (c Column) Text(v Value) string {
	if c.Human != nil {
		return c.Human(v)
	}
	return v.Human()
}

// Catalogue is every measure, in the CSV's column order.
var Catalogue = catalogue

// Columns are the catalogue's measures that out shows for m, families
// expanded, in catalogue order.
func Columns(m *analysis.Report, out Output) []Column {
	var cols []Column
	for i := range Catalogue {
		me := &Catalogue[i]
		if me.Show&out == 0 || (me.When != nil && !me.When(m)) {
			continue
		}
		if me.Each == nil {
			cols = append(cols, Column{me, me.Key, "", me.Label})
			continue
		}
		for _, p := range me.Each(m) {
			cols = append(cols, Column{me, replaceParam(me.Key, p), p, replaceParam(me.Label, p)})
		}
	}
	return cols
}

// RepColumns are the columns of out's repetition tables, in order.
func RepColumns(m *analysis.Report, out Output) []Column {
	cols := slices.DeleteFunc(Columns(m, out), func(c Column) bool { return c.Rep == nil || (c.Order == 0 && c.VOrder > 0) })
	slices.SortStableFunc(cols, func(a, b Column) int { return rank(a.Order) - rank(b.Order) })
	return cols
}

// VariantColumns are the columns of out's variant tables, in order,
// without the sparse ones that no variant of m fills.
func VariantColumns(m *analysis.Report, out Output) []Column {
	var xs []*Variant
	for i := range m.Summary.Variants {
		xs = append(xs, NewVariant(m, i))
	}
	return variantColumns(Columns(m, out), xs)
}

// RunsColumns are the columns of the comparison of runs rr, without the
// sparse ones that no variant in any run fills.
func RunsColumns(rr *analysis.RunsReport) []Column {
	var xs []*Variant
	for k := range rr.Variants {
		for i := range rr.Variants[k].Cells {
			xs = append(xs, NewRunsCell(rr, k, i))
		}
	}
	return variantColumns(Columns(nil, Runs), xs)
}

func variantColumns(cols []Column, xs []*Variant) []Column {
	cols = slices.DeleteFunc(cols, func(c Column) bool {
		if c.Variant == nil || (c.VOrder == 0 && c.Order > 0) {
			return true
		}
		return c.Sparse && !slices.ContainsFunc(xs, func(x *Variant) bool { return x.S != nil && c.OfVariant(x).Kind != None })
	})
	slices.SortStableFunc(cols, func(a, b Column) int { return rank(a.VOrder) - rank(b.VOrder) })
	return cols
}

func rank(order int) int {
	if order == 0 {
		return 1 << 20
	}
	return order
}

func replaceParam(key, p string) string {
	for i := 0; i+1 < len(key); i++ {
		if key[i] == '%' && key[i+1] == 's' {
			return key[:i] + p + key[i+2:]
		}
	}
	return key
}

// Kind says how a Value is written.
type Kind uint8

const (
	None Kind = iota
	Int
	Fixed
	General
	Millis
	Bool
	Str
	Obj
)

// Value is one reading: a number written with Digits decimals (Fixed),
// ten significant digits (General) or as microseconds in milliseconds
// (Millis), a count, a truth, words, or a structure only JSON shows.
type Value struct {
	Kind   Kind
	N      uint64
	F      float64
	Digits int
	S      string
	B      bool
	O      any
}

// Count is a count; F3, F4 and F6 are numbers of 3, 4, 6 decimals.
func Count(n uint64) Value { return Value{Kind: Int, N: n, F: float64(n)} }
func CountInt(n int) Value { return Count(uint64(n)) }
func F3(x float64) Value   { return Value{Kind: Fixed, F: x, Digits: 3} }
func F4(x float64) Value   { return Value{Kind: Fixed, F: x, Digits: 4} }
func F6(x float64) Value   { return Value{Kind: Fixed, F: x, Digits: 6} }
func G(x float64) Value    { return Value{Kind: General, F: x} }
func Truth(b bool) Value   { return Value{Kind: Bool, B: b} }
func Words(s string) Value { return If(s != "", Value{Kind: Str, S: s}) }

// Object is a structure only JSON shows; none for a nil pointer or an
// empty slice or map.
func Object(o any) Value {
	switch r := reflect.ValueOf(o); r.Kind() {
	case reflect.Invalid:
		return Value{}
	case reflect.Pointer, reflect.Slice, reflect.Map:
		if r.IsNil() || (r.Kind() != reflect.Pointer && r.Len() == 0) {
			return Value{}
		}
	}
	return Value{Kind: Obj, O: o}
}

// From is f of what p points to; none for a nil p.
func From[T any](p *T, f func(*T) Value) Value {
	if p == nil {
		return Value{}
	}
	return f(p)
}

// If is v when ok, else none; v is worked out before, so it must not
// read what ok guards (From does that).
func If(ok bool, v Value) Value {
	if !ok {
		return Value{}
	}
	return v
}

// Quantile is the q-th percentile of h in milliseconds; none for an empty h.
func Quantile(h *results.Histogram, q float64) Value {
	if results.EmptyHistogram(h) {
		return Value{}
	}
	us := h.ValueAtQuantile(q)
	return Value{Kind: Millis, N: uint64(us), F: float64(us) / 1000}
}

// Text is v in a CSV cell: plain digits, "" when none.
func (v Value) Text() string {
	switch v.Kind {
	case Int:
		return strconv.FormatUint(v.N, 10)
	case Fixed:
		return strconv.FormatFloat(v.F, 'f', v.Digits, 64)
	case General:
		return strconv.FormatFloat(v.F, 'g', 10, 64)
	case Millis:
		return format.Millis(int64(v.N))
	case Bool:
		return strconv.FormatBool(v.B)
	case Str:
		return v.S
	}
	return ""
}

// Human is v for a reader: thousands separated, "-" when none.
func (v Value) Human() string {
	switch v.Kind {
	case None, Obj:
		return format.Missing
	case Int:
		return format.Count(v.N)
	case Fixed:
		return format.Rate(v.F)
	}
	return v.Text()
}

// JSON is v as a JSON value; nil (the field left out) when none.
func (v Value) JSON() any {
	switch v.Kind {
	case Int:
		return v.N
	case Fixed, General, Millis:
		return v.F
	case Bool:
		return v.B
	case Str:
		return v.S
	case Obj:
		return v.O
	}
	return nil
}
