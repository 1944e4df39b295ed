package results

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
)

// This file renders saved speed outputs outside a run ("kaeload speed"):
// one output's figures, or two outputs side by side.

// SpeedPair is one figure of two speed outputs side by side: its label
// and unit (as SpeedResult.Label and Unit), and its value in each output;
// HasA or HasB is false (and the value 0) where that output lacks the
// figure.
type SpeedPair struct {
	Label string
	Unit  string
	A, B  float64
	HasA  bool
	HasB  bool
}

// PairSpeed lines up the figures of two speed outputs by label and unit:
// a's figures in a's order, then those only b has in b's order. A figure
// printed twice in one output keeps its first value.
func PairSpeed(a, b []SpeedResult) []SpeedPair {
	type key struct{ label, unit string }
	var out []SpeedPair
	index := map[key]int{}
	for _, r := range a {
		k := key{r.Label(), r.Unit}
		if _, ok := index[k]; !ok {
			index[k] = len(out)
			out = append(out, SpeedPair{Label: k.label, Unit: r.Unit, A: r.Value, HasA: true})
		}
	}
	for _, r := range b {
		k := key{r.Label(), r.Unit}
		i, ok := index[k]
		if !ok {
			index[k] = len(out)
			out = append(out, SpeedPair{Label: k.label, Unit: r.Unit, B: r.Value, HasB: true})
			continue
		}
		if !out[i].HasB {
			out[i].B, out[i].HasB = r.Value, true
		}
	}
	return out
}

// Ratio returns B/A; false when either value is missing, A is 0 or the
// ratio is not finite.
func (p SpeedPair) Ratio() (float64, bool) {
	if !p.HasA || !p.HasB || p.A == 0 {
		return 0, false
	}
	r := p.B / p.A
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return 0, false
	}
	return r, true
}

// Line renders the pair as users paste it into reports: "801.2 → 3245.2
// ops/s, 4.05× (+305.04 %)"; a missing side is Missing and has no ratio.
func (p SpeedPair) Line() string {
	side := func(v float64, ok bool) string {
		if !ok {
			return Missing
		}
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	s := side(p.A, p.HasA) + " → " + side(p.B, p.HasB) + " " + p.Unit
	if r, ok := p.Ratio(); ok {
		s += fmt.Sprintf(", %.2f× (%s)", r, FormatDelta((r-1)*100))
	}
	return s
}

// WriteSpeedResults writes the figures of one speed output in format
// "text" (a table: figure, value, unit), "csv" (algorithm, operation,
// block, value, unit; values unrounded) or "json" (an array of
// SpeedResult).
func WriteSpeedResults(w io.Writer, format string, rs []SpeedResult) error {
	switch format {
	case "json":
		if rs == nil {
			rs = []SpeedResult{}
		}
		return writeIndentedJSON(w, rs)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"algorithm", "operation", "block", "value", "unit"})
		for _, r := range rs {
			cw.Write([]string{r.Algorithm, r.Operation, blockCell(r.Block), strconv.FormatFloat(r.Value, 'f', -1, 64), r.Unit})
		}
		cw.Flush()
		return cw.Error()
	case "text":
		tb := table{header: []string{"figure", "value", "unit"}, right: []bool{false, true, false}}
		for _, r := range rs {
			tb.add(r.Label(), FormatRate(r.Value), r.Unit)
		}
		var b bytes.Buffer
		tb.write(&b, "")
		_, err := w.Write(b.Bytes())
		return err
	}
	return fmt.Errorf("speed format %q: want text, csv or json", format)
}

// WriteSpeedPairs writes two speed outputs side by side, named nameA and
// nameB, in format "text" (one line per figure: label, then Line), "csv"
// (figure, unit, a, b, ratio, delta_pct; empty cells where undefined) or
// "json" (an array of objects with the same fields; absent where
// undefined).
func WriteSpeedPairs(w io.Writer, format, nameA, nameB string, ps []SpeedPair) error {
	switch format {
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
			j := pairJSON{Figure: p.Label, Unit: p.Unit}
			if p.HasA {
				j.A = &p.A
			}
			if p.HasB {
				j.B = &p.B
			}
			if r, ok := p.Ratio(); ok {
				d := (r - 1) * 100
				j.Ratio, j.DeltaPct = &r, &d
			}
			out.Pairs = append(out.Pairs, j)
		}
		return writeIndentedJSON(w, out)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"figure", "unit", "a", "b", "ratio", "delta_pct"})
		for _, p := range ps {
			row := []string{p.Label, p.Unit, "", "", "", ""}
			if p.HasA {
				row[2] = strconv.FormatFloat(p.A, 'f', -1, 64)
			}
			if p.HasB {
				row[3] = strconv.FormatFloat(p.B, 'f', -1, 64)
			}
			if r, ok := p.Ratio(); ok {
				row[4] = strconv.FormatFloat(r, 'f', -1, 64)
				row[5] = strconv.FormatFloat((r-1)*100, 'f', -1, 64)
			}
			cw.Write(row)
		}
		cw.Flush()
		return cw.Error()
	case "text":
		var b bytes.Buffer
		fmt.Fprintf(&b, "A: %s\nB: %s\n\n", nameA, nameB)
		tb := table{header: []string{"figure", "A → B"}, right: []bool{false, false}}
		for _, p := range ps {
			tb.add(p.Label, p.Line())
		}
		tb.write(&b, "")
		_, err := w.Write(b.Bytes())
		return err
	}
	return fmt.Errorf("speed format %q: want text, csv or json", format)
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
