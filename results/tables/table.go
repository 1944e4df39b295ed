package tables

import "github.com/kaeload/kaeload/results/measure"

// Table is a format-neutral table: a header, rows of cells, and whether
// each column aligns right (numbers). Text, Markdown and HTML print it.
type Table struct {
	Header []string
	Right  []bool
	Rows   [][]string
}

// Add appends a row of cells.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// Notice is a labelled line: of a report's banner (a label in capitals,
// "WARNING"), its head, or a repetition's facts.
type Notice struct{ Label, Text string }

// Cells are lead, then each of cols' value of x as the tables show it.
func Cells[X any](cols []measure.Column, of func(measure.Column, X) measure.Value, x X, lead ...string) []string {
	for _, c := range cols {
		lead = append(lead, c.Text(of(c, x)))
	}
	return lead
}

// Header is a table of cols' labels after names (the first names
// left-aligned, the rest right).
func Header(cols []measure.Column, names ...string) Table {
	t := Table{Header: names, Right: make([]bool, len(names))}
	for i := 1; i < len(names); i++ {
		t.Right[i] = true
	}
	for _, c := range cols {
		t.Header = append(t.Header, c.Label)
		t.Right = append(t.Right, !c.Left)
	}
	return t
}
