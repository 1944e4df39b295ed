package render

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/tables"
	"io"
	"strconv"
)

// WriteSpeedResults writes the figures of one speed output in format
// text, csv (unrounded) or json.
func WriteSpeedResults(w io.Writer, kind string, rs []results.SpeedResult) error {
	switch kind {
	case "json":
		if rs == nil {
			rs = []results.SpeedResult{}
		}
		return writeIndentedJSON(w, rs)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"algorithm", "operation", "block", "value", "unit"})
		for _, r := range rs {
			cw.Write([]string{r.Algorithm, r.Operation, blockCell(r.Block), floatCell(r.Value, true), r.Unit})
		}
		cw.Flush()
		return cw.Error()
	case "text":
		tb := tables.Table{Header: []string{"figure", "value", "unit"}, Right: []bool{false, true, false}}
		for _, r := range rs {
			tb.Add(r.Label(), format.Rate(r.Value), r.Unit)
		}
		var b bytes.Buffer
		writeTable(&tb, &b, "")
		_, err := w.Write(b.Bytes())
		return err
	}
	return fmt.Errorf("speed format %q: want text, csv or json", kind)
}

// WriteSpeedPairs writes two speed outputs side by side in format text,
// csv (figure, unit, a, b, ratio, delta_pct) or json (the same fields).
func WriteSpeedPairs(w io.Writer, kind, nameA, nameB string, ps []analysis.SpeedPair) error {
	switch kind {
	case "json":
		type pairJSON struct {
			Figure   string   `json:"figure"`
			Unit     string   `json:"unit"`
			A        *float64 `json:"a,omitempty"`
			B        *float64 `json:"b,omitempty"`
			Ratio    *float64 `json:"ratio,omitempty"`
			DeltaPct *float64 `json:"delta_pct,omitempty"`
		}
		out := struct {
			A     string     `json:"a"`
			B     string     `json:"b"`
			Pairs []pairJSON `json:"figures"`
		}{A: nameA, B: nameB, Pairs: []pairJSON{}}
		for _, p := range ps {
			r, ok := p.Ratio()
			out.Pairs = append(out.Pairs, pairJSON{Figure: p.Label, Unit: p.Unit, A: measure.Opt(p.A, p.HasA), B: measure.Opt(p.B, p.HasB),
				Ratio: measure.Opt(r, ok), DeltaPct: measure.Opt((r-1)*100, ok)})
		}
		return writeIndentedJSON(w, out)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"figure", "unit", "a", "b", "ratio", "delta_pct"})
		for _, p := range ps {
			r, ok := p.Ratio()
			cw.Write([]string{p.Label, p.Unit, floatCell(p.A, p.HasA), floatCell(p.B, p.HasB), floatCell(r, ok), floatCell((r-1)*100, ok)})
		}
		cw.Flush()
		return cw.Error()
	case "text":
		var b bytes.Buffer
		fmt.Fprintf(&b, "A: %s\nB: %s\n\n", nameA, nameB)
		tb := tables.Table{Header: []string{"figure", "A → B"}, Right: []bool{false, false}}
		for _, p := range ps {
			tb.Add(p.Label, p.Line())
		}
		writeTable(&tb, &b, "")
		_, err := w.Write(b.Bytes())
		return err
	}
	return fmt.Errorf("speed format %q: want text, csv or json", kind)
}

// floatCell is x in a CSV cell, all its digits; "" when not ok.
func floatCell(x float64, ok bool) string {
	if !ok {
		return ""
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

func blockCell(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// writeIndentedJSON writes v as indented JSON, "<" and ">" as they are
// (thresholds quote them).
func writeIndentedJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
