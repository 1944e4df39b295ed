package htmlreport

import (
	"html/template"
	"strings"
)

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
func (c td) nl() td                            { c.NL = true; return c }
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

// cellTable is a table of text cells, column k right-aligned when
// numeric(k); a table of figures aligns its header too and shows
// format.Missing as dash.
func cellTable(id string, header []string, rows [][]string, numeric func(k int) bool, figures bool) table {
	t := table{ID: id, Head: [][]th{nil}}
	for k, h := range header {
		t.Head[0] = append(t.Head[0], th{Text: h, Class: numClass(figures && numeric(k))})
	}
	for _, r := range rows {
		var cells []td
		for k, c := range r {
			if figures {
				c = cell(c)
			}
			cells = append(cells, td{Text: c, Class: numClass(numeric(k))})
		}
		t.add("", cells...)
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
