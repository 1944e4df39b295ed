package htmlreport

import (
	"fmt"
	"html/template"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/tables"
)

// addTables lays out the tables of every variant in vs and of its
// repetitions, the catalogue's HTML measures after their own columns.
func (pg *page) addTables(m *analysis.Report, vs []variantData) {
	vcols := extraColumns(m, comparisonColumns, func(c measure.Column) bool { return c.Variant != nil })
	rcols := extraColumns(m, repColumns, func(c measure.Column) bool { return c.Rep != nil })
	pg.Comparison = table{ID: "comparison-table", Head: [][]th{slices.Concat(head("variant"), heads(comparisonColumns, false), measureHeads(vcols))}}
	pg.Variants = table{Head: [][]th{head("variant", "series", "swept", "server environment", "#repetitions")}}
	pg.Reps = table{ID: "reps-table", Head: [][]th{slices.Concat(head("variant", "#rep"), heads(repColumns, true), measureHeads(rcols))}}
	pg.Groups = table{Head: [][]th{slices.Concat(head("variant", "#group"), heads(groupColumns, false))}}
	openLoop := &table{ID: "open-loop-table", Head: [][]th{slices.Concat(head("variant"), heads(openLoopColumns, false))}}
	serverCost := &table{ID: "server-cost", Head: [][]th{slices.Concat(head("variant"), heads(serverCostColumns, false))}}
	cpu := &table{Head: [][]th{slices.Concat(head("variant", "#rep"), heads(cpuColumns, true))}}
	colsV, colsR := len(comparisonColumns)+len(vcols), len(repColumns)+2+len(rcols)
	for i := range vs {
		v := &vs[i]
		x := measure.NewVariant(m, v.Index)
		value := func(mc measure.Column) measure.Value { return mc.OfVariant(x) }
		pg.addComparison(v, measureCells(vcols, value), x, colsV)
		pg.Variants.add("", td{Class: "name", Swatch: cssColor(v.Color), Text: v.V.Name}, txt(v.V.Series), txt(keyValues(v.V.Sweep)),
			msg(keyValues(v.V.Env)), right(strconv.Itoa(len(v.V.Reps))))
		for _, in := range v.V.Info {
			pg.Variants.add("", td{}, td{Text: "server " + in.Line(), Class: "msg", Span: 4})
		}
		addRow(openLoop, "", openLoopColumns, false, value, td{Text: x.Name, Class: "name"})
		addRow(serverCost, "", serverCostColumns, false, value, txt(x.Name))
		addGroups(&pg.Groups, x)
		for j := range v.V.Reps {
			rep, ra := &v.V.Reps[j], &v.Reps[j]
			x := measure.NewRep(m, v.Index, j)
			value := func(mc measure.Column) measure.Value { return mc.OfRep(x) }
			pg.addRep(v.V.Name, rep, ra, measureCells(rcols, value), x, colsR)
			class := ""
			if len(ra.ClientBoundGroups) > 0 {
				class = "hot"
			}
			addRow(cpu, class, cpuColumns, true, value, txt(v.V.Name), right(strconv.Itoa(rep.Index+1)))
		}
	}
	if len(pg.Reps.Rows) == 0 {
		pg.Reps.add("", td{Text: "no completed repetitions", Span: colsR})
	}
	pg.OpenLoop, pg.ServerCost, pg.CPU = ifRows(openLoop), ifRows(serverCost), ifRows(cpu)
	pg.Latency, pg.NotCounted = latencyTable(m), notCountedTable(m)
	pg.Errors = ifRows(figureTable("", tables.Errors(m)))
	pg.Negotiated = ifRows(figureTable("", tables.Negotiated(m)))
	pg.Probes = ifRows(figureTable("", tables.ProbeReadings(m)))
}

// ifRows is t, nil without rows: the page then leaves it out.
func ifRows(t *table) *table {
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

// measureHeads are the catalogue columns' headers.
func measureHeads(cols []measure.Column) []th {
	var out []th
	for _, c := range cols {
		out = append(out, th{Text: c.Label, Class: "num"})
	}
	return out
}

// measureCells are the catalogue columns' cells, value reading each.
func measureCells(cols []measure.Column, value func(measure.Column) measure.Value) []td {
	var out []td
	for _, c := range cols {
		out = append(out, right(c.Text(value(c))))
	}
	return out
}

// pageColumn is a column of a page table: the catalogue's measure Key (or
// the page's own cell so named), Head replacing its label, Unit appending
// its unit; a row needs a value in one of its Needs columns (addRow).
type pageColumn struct {
	Key               string
	Head              template.HTML
	Unit, Left, Needs bool
	HeadNL, RowNL     bool
}

// comparisonColumns follow the variant's name in the comparison table.
var comparisonColumns = []pageColumn{
	{Key: "n"}, {Key: "mean_req_per_s", RowNL: true}, {Key: "client_us_per_request", Head: "client<br/>µs/req"},
	{Key: "stddev", Head: "± stddev"}, {Key: "ci_range", Head: "95 % CI"}, {Key: "delta", Head: "Δ vs<br/>baseline", HeadNL: true},
	{Key: "p", RowNL: true}, {Key: "p_holm"}, {Key: "mde"}, {Key: "verdict_cell", Head: "verdict", Left: true},
	{Key: "handshake_p99_ms", Head: "p99<br/>handshake ms"}, {Key: "errors", HeadNL: true, RowNL: true},
	{Key: "req_per_server_cpu_s", Head: "req/server<br/>cpu-s"},
}

// repColumns follow the variant and repetition in the repetitions table.
var repColumns = []pageColumn{
	{Key: "window_s", Head: "window", Unit: true}, {Key: "requests"}, {Key: "req_per_s"}, {Key: "client_us_per_request"},
	{Key: "errors", RowNL: true}, {Key: "handshakes", Head: "handshakes", HeadNL: true}, {Key: "resumed", Head: "resumed"},
	{Key: "connections", Head: "connections"}, {Key: "status", Head: "status", Left: true, RowNL: true}, {Key: "total_p99_ms"},
}

// openLoopColumns follow the variant's name in the open-loop table.
var openLoopColumns = []pageColumn{
	{Key: "scheduled", Head: "starts due", Needs: true}, {Key: "missed", Head: "missed"}, {Key: "intended_p50_ms", Head: "p50 from intended"},
	{Key: "intended_p99_ms", Head: "p99 from intended"}, {Key: "intended_p99.9_ms", Head: "p99.9 from intended"},
}

// serverCostColumns follow the variant's name in the server cost table.
var serverCostColumns = []pageColumn{
	{Key: "server_cpu_reps", Head: "reps with server CPU"}, {Key: "server_cpu_s", Head: "server CPU time", Unit: true},
	{Key: "req_per_server_cpu_s", Needs: true}, {Key: "req_per_server_cpu_s_ci", Head: "95 % CI (per repetition)", Left: true},
	{Key: "req_per_server_cpu_delta", Left: true},
}

// cpuColumns follow the variant and repetition in the CPU table.
var cpuColumns = []pageColumn{
	{Key: "client_busy_max", Head: "client busiest group", Needs: true}, {Key: "client_busiest_group", Head: "group"},
	{Key: "client_busy_mean", Head: "client mean", HeadNL: true, RowNL: true}, {Key: "server_busy", Head: "server busy", Needs: true},
	{Key: "server_cpu_s", Head: "server CPU time", Unit: true},
}

// groupColumns follow the variant and group in the groups table.
var groupColumns = []pageColumn{
	{Key: "variant_group_cpus", Left: true}, {Key: "variant_group_threads"}, {Key: "variant_group_conns", RowNL: true},
	{Key: "variant_group_req_per_s", HeadNL: true}, {Key: "variant_group_req_per_s_range"}, {Key: "variant_group_cpu_busy"},
}

// catalogued is the catalogue's measure key of a repetition (rep) or a variant.
func catalogued(key string, rep bool) (measure.Column, bool) {
	for i := range measure.Catalogue {
		if me := &measure.Catalogue[i]; me.Key == key && me.Each == nil && (rep && me.Rep != nil || !rep && me.Variant != nil) {
			return measure.Column{Measure: me, Key: key, Label: me.Label}, true
		}
	}
	return measure.Column{}, false
}

// heads are the columns' headers.
func heads(cols []pageColumn, rep bool) []th {
	var out []th
	for _, pc := range cols {
		h := th{HTML: pc.Head, NL: pc.HeadNL, Class: numClass(!pc.Left)}
		if c, ok := catalogued(pc.Key, rep); ok && h.HTML == "" {
			h.Text = c.Label
		}
		out = append(out, h)
	}
	return out
}

// extraColumns are the catalogue's HTML measures that has reads and
// placed does not name, shown after the page's columns.
func extraColumns(m *analysis.Report, placed []pageColumn, has func(measure.Column) bool) []measure.Column {
	return slices.DeleteFunc(measure.Columns(m, measure.HTML), func(c measure.Column) bool {
		return !has(c) || slices.ContainsFunc(placed, func(pc pageColumn) bool { return pc.Key == c.Key })
	})
}

// rowCells are the columns' cells: own[Key] where the page writes its
// own, else the catalogue's value (read by value) with dash for none.
func rowCells(cols []pageColumn, rep bool, own map[string]td, value func(measure.Column) measure.Value) []td {
	var out []td
	for _, pc := range cols {
		c, ok := own[pc.Key]
		if !ok {
			mc, _ := catalogued(pc.Key, rep)
			c = td{Text: dash, Class: numClass(!pc.Left)}
			if v := value(mc); v.Kind != measure.None {
				c.Text = cell(mc.Text(v))
				if pc.Unit {
					c.Text += " " + mc.Unit
				}
			}
		}
		c.NL = pc.RowNL
		out = append(out, c)
	}
	return out
}

// addComparison adds v's row of the comparison table (x: its catalogue
// reading) and its notes' row.
func (pg *page) addComparison(v *variantData, measures []td, x *measure.Variant, cols int) {
	s, c := v.Sum.Stats, v.Sum.Comparison
	name := td{Class: "name", Swatch: cssColor(v.Color), Text: v.V.Name}
	if n := v.Sum.FailedReps; n > 0 {
		name.Flag = "FAILED"
		if s.N > 1 {
			name.Flag = fmt.Sprintf("FAILED (%d of %d reps)", n, s.N)
		}
	}
	own := map[string]td{"ci_range": {Text: dash, Class: "num ci"}, "verdict_cell": {Text: "baseline", Class: "verdict sig-no"}}
	if s.HasCI {
		own["ci_range"] = td{Text: format.Rate(s.CI95Low) + " – " + format.Rate(s.CI95High), Class: "num ci"}
	}
	if !v.Sum.IsBaseline {
		verdict := td{Text: format.VerdictLine(c, v.Sum.VerdictCaveat.String()), Class: "verdict sig-no"}
		if c.Significant {
			verdict.Class = "verdict sig-yes"
		}
		own["verdict_cell"] = verdict
	}
	class := ""
	if v.Sum.IsBaseline {
		class = "base"
	}
	cells := rowCells(comparisonColumns, false, own, func(mc measure.Column) measure.Value { return mc.OfVariant(x) })
	pg.Comparison.add(class, slices.Concat([]td{name}, cells, measures)...)
	if n := measure.NotesCell(v.Sum); n != "" {
		pg.Comparison.add(strings.TrimSpace("notes "+class), td{}, td{Text: "notes: " + n, Class: "msg", Span: cols})
	}
}

// addRow adds a row of lead and the columns (value reads them) to t
// when one of the columns it Needs has a value.
func addRow(t *table, class string, cols []pageColumn, rep bool, value func(measure.Column) measure.Value, lead ...td) {
	if slices.ContainsFunc(cols, func(pc pageColumn) bool {
		mc, _ := catalogued(pc.Key, rep)
		return pc.Needs && value(mc).Kind != measure.None
	}) {
		t.add(class, slices.Concat(lead, rowCells(cols, rep, nil, value))...)
	}
}

// keyValues renders a map as "k=v k=v" in key order.
func keyValues(m map[string]string) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, " ")
}

// addRep adds rep's row of the repetitions table (x: its catalogue
// reading), then its failure and its loud lines on rows of their own.
func (pg *page) addRep(variant string, rep *results.Rep, ra *analysis.RepReport, measures []td, x *measure.Rep, cols int) {
	failed := notes.Failure(rep.Failed).String()
	class := ""
	if failed != "" {
		class = "hot"
	} else if ra.Flagged() {
		class = "flagged"
	}
	cells := rowCells(repColumns, true, nil, func(mc measure.Column) measure.Value { return mc.OfRep(x) })
	pg.Reps.add(class, slices.Concat([]td{{Text: variant, Class: "name"}, right(strconv.Itoa(rep.Index + 1))}, cells, measures)...)
	if failed != "" {
		pg.Reps.add("hot", td{Lead: "FAILED:", Text: failed, Span: cols})
	}
	for _, l := range (notes.List{ra.ClientBound, ra.OtherLoad, ra.ServerOtherLoad, ra.SharedCPUs, ra.NotSaturated, ra.OpenLoop, ra.Missed, ra.Backoff}).Strings() {
		if l != "" {
			pg.Reps.add("", td{Text: l, Class: "msg", Span: cols})
		}
	}
}

// addGroups adds x's groups, aggregated over its repetitions; a group
// whose CPUs were ever client-bound busy is highlighted.
func addGroups(t *table, x *measure.Variant) {
	for _, g := range measure.VariantGroups(x.V) {
		x.G = g
		row := slices.Concat([]td{txt(x.Name), right(strconv.Itoa(g.Index))},
			rowCells(groupColumns, false, nil, func(mc measure.Column) measure.Value { return mc.OfVariant(x) }))
		class := ""
		if g.EverBusy() {
			class = "hot"
		}
		t.add(class, row...)
	}
	x.G = nil
}

// table is one table of the page, drawn by the "table" template.
type table struct {
	ID   string
	Head [][]th
	Rows []row
}

// th is a header cell: Text, or HTML for the page's own labels.
type th struct {
	Text, Class   string
	HTML          template.HTML
	RowSpan, Cols int
	// NL starts the cell on a new line of the page's source.
	NL bool
}

type row struct {
	Class string
	Cells []td
}

// td is a body cell: Swatch is a colour square before Text, Lead a red
// word before it and Flag one after it.
type td struct {
	Text, Class, Swatch, Lead, Flag string
	Span                            int
	NL                              bool
}

func right(s string) td                        { return td{Text: s, Class: "num"} }
func txt(s string) td                          { return td{Text: s} }
func msg(s string) td                          { return td{Text: s, Class: "msg"} }
func (t *table) add(class string, cells ...td) { t.Rows = append(t.Rows, row{class, cells}) }

// head is a header row of the page's own labels (HTML): a label starting
// with "\n" starts a new source line, then "#" right-aligns it.
func head(labels ...template.HTML) []th {
	out := make([]th, len(labels))
	for i, l := range labels {
		s, nl := strings.CutPrefix(string(l), "\n")
		s, isNum := strings.CutPrefix(s, "#")
		out[i] = th{HTML: template.HTML(s), NL: nl, Class: numClass(isNum)}
	}
	return out
}

// cellTable is tb as text cells, column k right-aligned when numeric(k).
func cellTable(tb tables.Table, numeric func(k int) bool) table {
	t := table{Head: [][]th{nil}}
	for _, h := range tb.Header {
		t.Head[0] = append(t.Head[0], th{Text: h})
	}
	for _, r := range tb.Rows {
		var cells []td
		for k, c := range r {
			cells = append(cells, td{Text: c, Class: numClass(numeric(k))})
		}
		t.add("", cells...)
	}
	return t
}

// figureTable is tb as a table of figures: its header aligned as its
// columns, Missing shown as dash, a left-aligned last column as a message.
func figureTable(id string, tb tables.Table) *table {
	t := &table{ID: id, Head: [][]th{nil}}
	for k, h := range tb.Header {
		t.Head[0] = append(t.Head[0], th{Text: h, Class: numClass(tb.Right[k])})
	}
	last := len(tb.Right) - 1
	for _, r := range tb.Rows {
		cells := make([]td, len(r))
		for k, c := range r {
			cells[k] = td{Text: cell(c), Class: numClass(tb.Right[k])}
			if k == last && k > 0 && !tb.Right[k] {
				cells[k] = msg(c)
			}
		}
		t.add("", cells...)
	}
	return t
}

// latencyTable is tables.VariantLatencies, the page's source starting a
// new line at the p99 column.
func latencyTable(m *analysis.Report) *table {
	tb := tables.VariantLatencies(m)
	t, k := figureTable("", tb), slices.Index(tb.Header, "p99")
	for i := range t.Rows {
		t.Rows[i].Cells[k].NL = true
	}
	return t
}

// notCountedTable is tables.NotCounted with its columns grouped under the
// warm-up and the requests in flight at the window's end; nil without rows.
func notCountedTable(m *analysis.Report) *table {
	t := ifRows(figureTable("not-counted-table", tables.NotCounted(m)))
	if t == nil {
		return nil
	}
	h := t.Head[0] // variant, rep, 2 of the warm-up, 6 in flight, TIME_WAIT
	h[0].RowSpan, h[1].RowSpan, h[10].RowSpan = 2, 2, 2
	h[7].NL, h[10].NL = true, true
	t.Head = [][]th{{h[0], h[1], {HTML: "warm-up", Class: "group", Cols: 2},
		{HTML: "in flight at the window's end", Class: "group", Cols: 6}, h[10]}, h[2:10]}
	for i := range t.Rows {
		t.Rows[i].Cells[0].Class, t.Rows[i].Cells[7].NL = "name", true
	}
	return t
}

func numClass(right bool) string {
	if right {
		return "num"
	}
	return ""
}

func always(int) bool { return true }
func never(int) bool  { return false }
