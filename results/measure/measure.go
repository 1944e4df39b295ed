// Package measure is the catalogue of what kaeload reports, each quantity declared once with its
// key, unit, label, reading and outputs; the renderers range over Columns.
package measure

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
)

// Output is a set of outputs (and kinds of CSV row) that show a measure.
type Output uint16

// The outputs and kinds of CSV row.
const (
	Text Output = 1 << iota
	Markdown
	CSV
	JSON
	HTML // the page's comparison, and its repetitions table by Order
	OpenMetrics
	PartialRow     // filled in the CSV's rows of partial and excluded windows
	UnmeasuredRow  // filled in the CSV's row of a variant never measured
	Facts          // a line among a repetition's facts in the text report
	Below          // a line per variant under the text report's comparison
	Runs           // the comparison of stored runs, a row per variant and run
	Latencies      // the latency tables: the text report's of a repetition, the page's of a variant
	Groups         // the groups tables: the text report's of a repetition, the page's of a variant
	CPUPage        // the page's CPU table, a row per repetition by Order
	OpenLoopPage   // the page's open-loop table, a row per variant
	ServerCostPage // the page's server cost table, a row per variant
	Tables         = Text | Markdown
	All            = Tables | Facts | HTML | CSV | JSON | OpenMetrics
)

// Measure is one quantity of the catalogue: how to read it, label it and which outputs show it.
type Measure struct {
	Key           string                          // CSV column and JSON field; Each fills its %s (a family)
	JSONKey       string                          // JSON field instead ("a.b" nests)
	Unit, Label   string                          // Unit picks how the tables write it; Label heads it
	Show          Output                          // the outputs that show it
	Rep           func(*Rep) Value                // read of a repetition (nil: no cell)
	Variant       func(*Variant) Value            // read of a variant (nil: no cell)
	When          func(*analysis.Report) bool     // limits it to the runs it holds (nil: every run)
	Each          func(*analysis.Report) []string // a family's parameters
	Human         func(Value) string              // writes it for the tables (nil: by Unit, else Value.Human)
	Order, VOrder int                             // place in an output's rep and variant tables (0: last; both 0: all)
	Left          bool                            // aligned left
	PageLabel     string                          // heads it on the page instead of Label
	PageUnit      bool                            // the page writes its unit after its value
	Needs         bool                            // a page table with Needs measures shows the rows with one
	Sparse        bool                            // dropped from a variant table none fills
	Metric        string                          // OpenMetrics gauge ("": "kaeload_" + Key)
	Fact          *Fact                           // line among a repetition's facts in the text report
}

// Rep is what a repetition's measure reads: A is nil for a partial or excluded window,
// whose Note is the reports' line on it; G is the group a Groups measure reads.
type Rep struct {
	R     *analysis.Report
	V     *results.Variant
	Rep   *results.Rep
	A     *analysis.RepReport
	Note  string
	Param string
	G     *results.Group
}

// Variant is what a variant's measure reads: S and V are nil for a variant never measured;
// in a comparison of runs only S (nil: the run lacks it), Run (0: the reference) and Compared.
type Variant struct {
	R        *analysis.Report
	I        int
	Name     string
	V        *results.Variant
	S        *analysis.VariantSummary
	Param    string
	Run      int
	Compared bool
	G        *VariantGroup
}

// NewRunsCell is the context of variant k in run i of rr.
func NewRunsCell(rr *analysis.RunsReport, k, i int) *Variant {
	c := &rr.Variants[k].Cells[i]
	return &Variant{Name: rr.Variants[k].Name, Run: i, Compared: c.Compared, S: c.Summary}
}

// NewVariant is the context of variant i of m.
func NewVariant(m *analysis.Report, i int) *Variant {
	return &Variant{R: m, I: i, V: &m.Run.Variants[i], S: &m.Summary.Variants[i], Name: m.Run.Variants[i].Name}
}

// Variants are the contexts of every variant of m.
func Variants(m *analysis.Report) []*Variant {
	xs := make([]*Variant, len(m.Summary.Variants))
	for i := range xs {
		xs[i] = NewVariant(m, i)
	}
	return xs
}

// NewRep is the context of repetition j of variant i of m.
func NewRep(m *analysis.Report, i, j int) *Rep {
	v := &m.Run.Variants[i]
	return &Rep{R: m, V: v, Rep: &v.Reps[j], A: &m.Reps[i][j]}
}

// Column is a measure as a report shows it, a family's member with its Param.
type Column struct {
	*Measure
	Key, Param, Label string
}

// JSONName is the column's JSON field, "" for none.
func (c Column) JSONName() string {
	if c.JSONKey != "" {
		return replaceParam(c.JSONKey, c.Param)
	}
	return when(c.Show&JSON != 0, c.Key)
}

// OfRep is the column's value for repetition x; none without a reading.
func (c Column) OfRep(x *Rep) Value {
	if c.Rep == nil || (x.A == nil && c.Show&PartialRow == 0) {
		return Value{}
	}
	x.Param = c.Param
	return c.Rep(x)
}

// OfVariant is the column's value for variant x; none without a reading.
func (c Column) OfVariant(x *Variant) Value {
	if c.Variant == nil || (x.S == nil && c.Show&UnmeasuredRow == 0) {
		return Value{}
	}
	x.Param = c.Param
	return c.Variant(x)
}

// unitHuman writes a number of a unit for the tables.
var unitHuman = map[string]func(float64) string{"share": format.Percent, "µs": format.Micros,
	"s":  func(x float64) string { return fixed(x, 2).Text() },
	"ms": func(x float64) string { return fixed(x, 3).Text() }}

// Text is v as the tables show it.
func (c Column) Text(v Value) string {
	switch f := unitHuman[c.Unit]; {
	case c.Human != nil:
		return c.Human(v)
	case f != nil && v.Kind != None:
		return f(v.F)
	}
	return v.Human()
}

// Columns are the measures out shows for m, families expanded, in order.
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
	return sorted(cols, func(c Column) int { return c.Order })
}

// VariantColumns are the columns of out's variant tables, in order, but the sparse ones none fills.
func VariantColumns(m *analysis.Report, out Output) []Column {
	return variantColumns(Columns(m, out), Variants(m))
}

// RunsColumns are the columns of the comparison of runs rr, likewise.
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
	return sorted(cols, func(c Column) int { return c.VOrder })
}

// sorted is cols by order, those of order 0 last.
func sorted(cols []Column, order func(Column) int) []Column {
	rank := func(c Column) int { return cmp.Or(order(c), 1<<20) }
	slices.SortStableFunc(cols, func(a, b Column) int { return rank(a) - rank(b) })
	return cols
}

func replaceParam(key, p string) string { return strings.Replace(key, "%s", p, 1) }

// Kind says how a Value is written.
type Kind uint8

// The kinds of Value; None is no value.
const (
	None Kind = iota
	Fixed
	General
	Bool
	Str
	Obj
)

// Value is one reading: a number of Digits decimals (Fixed; a count has none) or of ten significant
// digits (General), a truth, words or a structure only JSON shows.
type Value struct {
	Kind   Kind
	F      float64
	Digits int
	S      string
	B      bool
	O      any
}

// Count is a count, exact as a float64 (below 2^53).
func Count[N int | uint64](n N) Value { return fixed(float64(uint64(n)), 0) }

// F3 is a number of 3 decimals.
func F3(x float64) Value { return fixed(x, 3) }

// G is a number of ten significant digits.
func G(x float64) Value { return Value{Kind: General, F: x} }

// Truth is a truth.
func Truth(b bool) Value { return Value{Kind: Bool, B: b} }

// Words are words; none for "".
func Words(s string) Value { return If(s != "", Value{Kind: Str, S: s}) }

func fixed(x float64, digits int) Value { return Value{Kind: Fixed, F: x, Digits: digits} }

// Object is a structure only JSON shows; none for nil or empty.
func Object(o any) Value { return If(!empty(o), Value{Kind: Obj, O: o}) }

// From is f of what p points to; none for a nil p.
func From[T any](p *T, f func(*T) Value) Value {
	if p == nil {
		return Value{}
	}
	return f(p)
}

// If is v when ok, else none; v is worked out first, so it must not read what ok guards.
func If(ok bool, v Value) Value {
	if !ok {
		return Value{}
	}
	return v
}

// Quantile is the q-th percentile of h in milliseconds, none for an empty h; its measure needs Unit "ms".
func Quantile(h *results.Histogram, q float64) Value {
	if results.EmptyHistogram(h) {
		return Value{}
	}
	return F3(float64(h.ValueAtQuantile(q)) / 1000)
}

// Text is v in a CSV cell: plain digits, "" when none.
func (v Value) Text() string {
	switch v.Kind {
	case Fixed:
		return strconv.FormatFloat(v.F, 'f', v.Digits, 64)
	case General:
		return strconv.FormatFloat(v.F, 'g', 10, 64)
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
	case Fixed: // a count whole, any other number with one decimal
		return format.Float(v.F, min(v.Digits, 1))
	}
	return v.Text()
}

// JSON is v as a JSON value; nil (the field left out) when none.
func (v Value) JSON() any {
	return [...]any{Fixed: v.F, General: v.F, Bool: v.B, Str: v.S, Obj: v.O}[v.Kind]
}
