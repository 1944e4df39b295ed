package render

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/tables"
)

// WriteSpeedResults writes one speed output's figures as text, csv (unrounded) or json.
func WriteSpeedResults(w io.Writer, kind string, rs []results.SpeedResult) error {
	text := tables.Table{Header: []string{"figure", "value", "unit"}, Right: []bool{false, true, false}}
	rows := [][]string{{"algorithm", "operation", "block", "value", "unit"}}
	for _, r := range rs {
		text.Add(r.Label(), format.Rate(r.Value), r.Unit)
		rows = append(rows, []string{r.Algorithm, r.Operation, blockCell(r.Block), floatCell(r.Value, true), r.Unit})
	}
	if rs == nil {
		rs = []results.SpeedResult{}
	}
	return writeSpeed(w, kind, "", text, rows, rs)
}

// WriteSpeedPairs writes two speed outputs side by side as text, csv or json.
func WriteSpeedPairs(w io.Writer, kind, nameA, nameB string, ps []analysis.SpeedPair) error {
	text := tables.Table{Header: []string{"figure", "A → B"}, Right: []bool{false, false}}
	rows := [][]string{{"figure", "unit", "a", "b", "ratio", "delta_pct"}}
	figures := []object{}
	for _, p := range ps {
		r, ok := p.Ratio()
		text.Add(p.Label, speedPairLine(p))
		rows = append(rows, []string{p.Label, p.Unit, floatCell(p.A, p.HasA), floatCell(p.B, p.HasB), floatCell(r, ok), floatCell((r-1)*100, ok)})
		figures = append(figures, newObject(must("figure", p.Label), must("unit", p.Unit), opt("a", measure.Opt(p.A, p.HasA)),
			opt("b", measure.Opt(p.B, p.HasB)), opt("ratio", measure.Opt(r, ok)), opt("delta_pct", measure.Opt((r-1)*100, ok))))
	}
	head := fmt.Sprintf("A: %s\nB: %s\n\n", nameA, nameB)
	return writeSpeed(w, kind, head, text, rows, newObject(must("a", nameA), must("b", nameB), must("figures", figures)))
}

// speedPairLine is p in words: "801.2 → 3245.2 ops/s, 4.05× (+305.04 %)".
func speedPairLine(p analysis.SpeedPair) string {
	s := tables.OrMissing(p.HasA, strconv.FormatFloat(p.A, 'f', 1, 64)) + " → " +
		tables.OrMissing(p.HasB, strconv.FormatFloat(p.B, 'f', 1, 64)) + " " + p.Unit
	if r, ok := p.Ratio(); ok {
		s += fmt.Sprintf(", %.2f× (%s)", r, format.Delta((r-1)*100))
	}
	return s
}

func writeSpeed(w io.Writer, kind, head string, text tables.Table, rows [][]string, js any) error {
	switch kind {
	case "json":
		return writeIndentedJSON(w, js)
	case "csv":
		return csv.NewWriter(w).WriteAll(rows)
	case "text":
		d := &doc{}
		d.WriteString(head)
		d.aligned(text, "", 0)
		_, err := w.Write(d.Bytes())
		return err
	}
	return fmt.Errorf("speed format %q: want text, csv or json", kind)
}

// writeIndentedJSON writes v indented, "<" and ">" as they are (thresholds quote them); Encode
// writes w once, after v is encoded: nothing on an error.
func writeIndentedJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
