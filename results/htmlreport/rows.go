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

// pageColumn is a catalogue measure of a page table, aligned as the catalogue says, Head
// replacing its label (its key without one), Unit appending its unit; a table with Needs columns shows the rows
// with one, and is left out (nil) without any.
type pageColumn struct {
	Key, Head   string
	Unit, Needs bool
}

// pageTable is a page table of catalogue measures, a row per variant, or per repetition or group when By
// is "rep" or "group": Cols, then those of output Of; Flags adds a repetition's failure and loud lines.
type pageTable struct {
	ID, By string
	Of     measure.Output
	Flags  bool
	Cols   []pageColumn
}

var (
	repsTable = pageTable{ID: "reps-table", By: "rep", Of: measure.HTML, Flags: true, Cols: []pageColumn{
		{Key: "window_s", Head: "window", Unit: true}, {Key: "requests"}, {Key: "req_per_s"}, {Key: "client_us_per_request"},
		{Key: "errors"}, {Key: "handshakes"}, {Key: "resumed"}, {Key: "connections"}, {Key: "status"}, {Key: "total_p99_ms"},
	}}
	openLoopTable = pageTable{ID: "open-loop-table", Cols: []pageColumn{{Key: "scheduled", Needs: true}, {Key: "missed"},
		{Key: "intended_p50_ms"}, {Key: "intended_p99_ms"}, {Key: "intended_p99.9_ms"}}}
	serverCostTable = pageTable{ID: "server-cost", Cols: []pageColumn{{Key: "server_cpu_reps"},
		{Key: "server_cpu_s", Head: "server CPU time", Unit: true}, {Key: "req_per_server_cpu_s", Needs: true},
		{Key: "req_per_server_cpu_s_ci"}, {Key: "req_per_server_cpu_delta"}}}
	cpuTable = pageTable{By: "rep", Cols: []pageColumn{{Key: "client_busy_max", Head: "client busiest group", Needs: true},
		{Key: "client_busiest_group"}, {Key: "client_busy_mean"}, {Key: "server_busy", Needs: true},
		{Key: "server_cpu_s", Head: "server CPU time", Unit: true}}}
	groupsTable = pageTable{By: "group", Of: measure.Groups}
)

// catalogued is the catalogue's measure key of a repetition or a variant.
func catalogued(key string, rep bool) measure.Column {
	i := slices.IndexFunc(measure.Catalogue, func(me measure.Measure) bool {
		return me.Key == key && (rep && me.Rep != nil || !rep && me.Variant != nil)
	})
	return measure.Column{Measure: &measure.Catalogue[i], Key: key, Label: measure.Catalogue[i].Label}
}

// build lays out pt for vs, a hot repetition's or group's row marked so.
func (pt pageTable) build(m *analysis.Report, vs []measure.Variant) *table {
	rep := pt.By == "rep"
	cols := measure.Map(pt.Cols, func(pc pageColumn) measure.Column { return catalogued(pc.Key, rep) })
	for _, c := range measure.Columns(m, pt.Of) {
		if rep && c.Rep != nil || !rep && c.Variant != nil {
			cols, pt.Cols = append(cols, c), append(pt.Cols, pageColumn{Key: c.Key})
		}
	}
	t := &table{ID: pt.ID, Head: []td{{Text: "variant"}}}
	if pt.By != "" {
		t.Head = append(t.Head, right(pt.By))
	}
	for k, pc := range pt.Cols {
		t.Head = append(t.Head, td{Text: cmp.Or(pc.Head, cols[k].Label, pc.Key), Class: classIf(!cols[k].Left, "num")})
	}
	needs := slices.ContainsFunc(pt.Cols, func(pc pageColumn) bool { return pc.Needs })
	add := func(class string, value func(measure.Column) measure.Value, lead ...td) {
		cells, needed := lead, !needs
		for k, pc := range pt.Cols {
			c := td{Text: dash, Class: classIf(!cols[k].Left, "num")}
			if v := value(cols[k]); v.Kind != measure.None {
				needed = needed || pc.Needs
				c.Text = cell(cols[k].Text(v))
				if pc.Unit {
					c.Text += " " + cols[k].Unit
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
	pg.Reps = repsTable.build(m, vs)
	if len(pg.Reps.Rows) == 0 {
		pg.Reps.add("", td{Text: "no completed repetitions"})
	}
	pg.Groups = groupsTable.build(m, vs)
	pg.OpenLoop, pg.ServerCost = openLoopTable.build(m, vs), serverCostTable.build(m, vs)
	pg.CPU = cpuTable.build(m, vs)
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
