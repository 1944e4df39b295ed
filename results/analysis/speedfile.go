package analysis

import (
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"math"
	"strconv"
)

// SpeedPair is one figure of two saved speed outputs side by side
// ("kaeload speed"); HasA or HasB is false where an output lacks it.
type SpeedPair struct {
	Label string
	Unit  string
	A, B  float64
	HasA  bool
	HasB  bool
}

// PairSpeed lines up two outputs' figures by label and unit: a's in
// order, then b's own; a figure printed twice keeps its first value.
func PairSpeed(a, b []results.SpeedResult) []SpeedPair {
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

// Ratio returns B/A; false when not defined.
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

// Line: "801.2 → 3245.2 ops/s, 4.05× (+305.04 %)".
func (p SpeedPair) Line() string {
	side := func(v float64, ok bool) string {
		if !ok {
			return format.Missing
		}
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	s := side(p.A, p.HasA) + " → " + side(p.B, p.HasB) + " " + p.Unit
	if r, ok := p.Ratio(); ok {
		s += fmt.Sprintf(", %.2f× (%s)", r, format.Delta((r-1)*100))
	}
	return s
}
