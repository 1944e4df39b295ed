package htmlreport

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/tables"
)

// dash is the page's mark for an undefined value (format.Missing in text).
const dash = "—"

func cell(s string) string {
	if s == format.Missing {
		return dash
	}
	return s
}

// table is one table of the page, drawn by the "table" template.
type table struct {
	ID   string
	Head []td
	Rows []row
}

type row struct {
	Class string
	Cells []td
}

// td is a cell: Swatch is a colour square before Text, Flag a red word after it.
type td struct {
	Text, Class, Swatch, Flag string
	Span                      int
}

func (t *table) add(class string, cells ...td) { t.Rows = append(t.Rows, row{class, cells}) }

// fromTable is tb on the page: first column the name, left-aligned ones words, the last a message; nil if empty.
func fromTable(id string, tb tables.Table) *table {
	if len(tb.Rows) == 0 {
		return nil
	}
	right := func(k int) bool { return k < len(tb.Right) && tb.Right[k] }
	t := &table{ID: id}
	for k, h := range tb.Header {
		t.Head = append(t.Head, td{Text: h, Class: classIf(right(k), "num")})
	}
	for _, r := range tb.Rows {
		cells := make([]td, len(r))
		for k, c := range r {
			cells[k] = td{Text: cell(c), Class: classIf(right(k), "num")}
			switch {
			case k == 0:
				cells[k].Class = "name"
			case k == len(r)-1 && !right(k):
				cells[k].Class = "msg"
			case !right(k):
				cells[k].Class = "words"
			}
		}
		t.add("", cells...)
	}
	return t
}

// pageTable is a page table of the catalogue's measures of output Of, a row per variant in catalogue order,
// or per repetition (by Order) or group when By is "rep" or "group"; Flags adds a repetition's failure and
// loud lines. A table with Needs measures shows the rows with one, and is left out (nil) without any.
type pageTable struct {
	ID, By string
	Of     measure.Output
	Flags  bool
}

// build lays out pt for vs, a hot repetition's or group's row marked so.
func (pt pageTable) build(m *analysis.Report, vs []measure.Variant) *table {
	cols := measure.RepColumns(m, pt.Of)
	if pt.By != "rep" {
		cols = slices.DeleteFunc(measure.Columns(m, pt.Of), func(c measure.Column) bool { return c.Variant == nil })
	}
	t := &table{ID: pt.ID, Head: []td{{Text: "variant"}}}
	if pt.By != "" {
		t.Head = append(t.Head, right(pt.By))
	}
	for _, c := range cols {
		t.Head = append(t.Head, td{Text: cmp.Or(c.PageLabel, c.Label, c.Key), Class: classIf(!c.Left, "num")})
	}
	needs := slices.ContainsFunc(cols, func(c measure.Column) bool { return c.Needs })
	add := func(class string, value func(measure.Column) measure.Value, lead ...td) {
		cells, needed := lead, !needs
		for _, col := range cols {
			c := td{Text: dash, Class: classIf(!col.Left, "num")}
			if v := value(col); v.Kind != measure.None {
				needed = needed || col.Needs
				c.Text = cell(col.Text(v))
				if col.PageUnit {
					c.Text += " " + col.Unit
				}
			}
			cells = append(cells, c)
		}
		if needed {
			t.add(class, cells...)
		}
	}
	for i := range vs {
		v := &vs[i]
		value := func(c measure.Column) measure.Value { return c.OfVariant(v) }
		name := td{Text: v.V.Name, Class: "name"}
		switch pt.By {
		case "rep":
			for j := range v.V.Reps {
				x := measure.NewRep(m, v.I, j)
				ra := x.A
				add(repClass(ra), func(c measure.Column) measure.Value { return c.OfRep(x) }, name, right(strconv.Itoa(x.Rep.Index+1)))
				if pt.Flags { // its failure and loud lines on rows of their own
					for _, l := range append(measure.RepFlags(ra), ra.OpenLoop, ra.Missed, ra.Backoff).Strings() {
						if l != "" {
							t.add(repClass(ra), td{}, td{Text: l, Class: "msg", Span: len(t.Head) - 1})
						}
					}
				}
			}
		case "group":
			for _, g := range measure.VariantGroups(v.V) {
				v.G = g
				add(classIf(g.EverBusy(), "hot"), value, name, right(strconv.Itoa(g.Index)))
			}
		default:
			add("", value, name)
		}
	}
	if needs && len(t.Rows) == 0 {
		return nil
	}
	return t
}

// notesRows moves t's trailing left-aligned columns (notes) to labelled lines under each row, not widening it.
func notesRows(t *table) {
	n := len(t.Head)
	for n > 1 && t.Head[n-1].Class == "" {
		n--
	}
	var rows []row
	for _, r := range t.Rows {
		rows = append(rows, row{r.Class, r.Cells[:n]})
		for k := n; k < len(r.Cells); k++ {
			if c := r.Cells[k].Text; c != "" && c != dash {
				rows = append(rows, row{r.Class, []td{{}, {Text: t.Head[k].Text + ": " + c, Class: "msg", Span: n - 1}}})
			}
		}
	}
	t.Head, t.Rows = t.Head[:n], rows
}

// repClass marks a failed or client-bound repetition hot, a flagged one flagged.
func repClass(ra *analysis.RepReport) string {
	switch {
	case !ra.Failed.IsZero() || !ra.ClientBound.IsZero():
		return "hot"
	case !ra.Flagged().IsZero():
		return "flagged"
	}
	return ""
}

func (pg *page) addTables(m *analysis.Report, vs []measure.Variant) {
	pg.Comparison = fromTable("comparison-table", tables.Comparison(m, measure.Markdown|measure.HTML))
	for i := range pg.Comparison.Rows {
		r, v := &pg.Comparison.Rows[i], &vs[i]
		r.Class = classIf(v.S.IsBaseline, "base")
		r.Cells[0].Swatch = cssColor(variantColor(v.I))
		if n := v.S.FailedReps; n > 0 {
			r.Cells[0].Flag = "FAILED"
			if v.S.Stats.N > 1 {
				r.Cells[0].Flag = fmt.Sprintf("FAILED (%d of %d reps)", n, v.S.Stats.N)
			}
		}
	}
	notesRows(pg.Comparison)
	pg.Variants = &table{Head: []td{{Text: "variant"}, {Text: "series"}, {Text: "swept"}, {Text: "server environment"}, {Text: "repetitions", Class: "num"}}}
	for _, v := range vs {
		pg.Variants.add("", td{Class: "name", Swatch: cssColor(variantColor(v.I)), Text: v.V.Name}, td{Text: v.V.Series},
			td{Text: tables.KeyValues(v.V.Sweep)}, td{Text: tables.KeyValues(v.V.Env), Class: "msg"}, right(strconv.Itoa(len(v.V.Reps))))
		for _, in := range v.V.Info {
			pg.Variants.add("", td{}, td{Text: "server " + in.Line(), Class: "msg"})
		}
	}
	pg.Reps = pageTable{ID: "reps-table", By: "rep", Of: measure.HTML, Flags: true}.build(m, vs)
	if len(pg.Reps.Rows) == 0 {
		pg.Reps.add("", td{Text: "no completed repetitions"})
	}
	pg.Groups = pageTable{By: "group", Of: measure.Groups}.build(m, vs)
	pg.OpenLoop = pageTable{ID: "open-loop-table", Of: measure.OpenLoopPage}.build(m, vs)
	pg.ServerCost = pageTable{ID: "server-cost", Of: measure.ServerCostPage}.build(m, vs)
	pg.CPU = pageTable{By: "rep", Of: measure.CPUPage}.build(m, vs)
	pg.Latency = fromTable("", tables.VariantLatencies(m))
	pg.NotCounted = fromTable("not-counted-table", tables.NotCounted(m))
	pg.Errors = fromTable("", tables.Errors(m))
	pg.Negotiated = fromTable("", tables.Negotiated(m))
	pg.Probes = fromTable("", tables.ProbeReadings(m))
}

func right(s string) td { return td{Text: s, Class: "num"} }

// classIf is class when ok, else none.
func classIf(ok bool, class string) string {
	if ok {
		return class
	}
	return ""
}
