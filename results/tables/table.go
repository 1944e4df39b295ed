package tables

import (
	"strings"

	"github.com/kaeload/kaeload/results/measure"
)

// Table is a format-neutral table; Right marks the columns aligned right.
type Table struct {
	Header []string
	Right  []bool
	Rows   [][]string
}

// Add appends a row of cells.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// cols adds a column per name, aligned right when it starts with ">" (not shown).
func (t Table) cols(names ...string) Table {
	for _, n := range names {
		name, right := strings.CutPrefix(n, ">")
		t.Header, t.Right = append(t.Header, name), append(t.Right, right)
	}
	return t
}

// Notice is a labelled line: of a banner ("WARNING"), a head or a repetition.
type Notice struct{ Label, Text string }

// Cells are lead, then each of cols' value of x as the tables show it.
func Cells[X any](cols []measure.Column, of func(measure.Column, X) measure.Value, x X, lead ...string) []string {
	for _, c := range cols {
		lead = append(lead, c.Text(of(c, x)))
	}
	return lead
}

// Header is a table headed by names (see cols), then by cols' labels.
func Header(cols []measure.Column, names ...string) Table {
	labels := measure.Map(cols, func(c measure.Column) string { return either(c.Left, "", ">") + c.Label })
	return Table{}.cols(names...).cols(labels...)
}
