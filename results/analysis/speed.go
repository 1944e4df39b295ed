package analysis

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
)

// SpeedTable is a run's crypto speed comparison: a row per figure (in order of first
// appearance), a column per variant, then the Δ % against the baseline, and the runs that failed.
type SpeedTable struct {
	Baseline     int // -1 when not measured: no Δ % columns
	BaselineName string
	Variants     []string
	Commands     []string // by position: the baseline's where it ran it, else the first variant's
	Rows         []SpeedRow
	Failures     []SpeedFailure
}

// SpeedRow is one figure of command number Command, its value per variant (Has: there is one).
type SpeedRow struct {
	Command                    int
	Algorithm, Operation, Unit string
	Block                      int
	Values                     []float64
	Has                        []bool
}

// SpeedFailure is a speed run that failed or whose output was not understood.
type SpeedFailure struct {
	Variant     string `json:"variant"`
	Command     int    `json:"command"`
	CommandLine string `json:"command_line"`
	Error       string `json:"error"`
}

// Figure names the row: "[0] rsa 2048 bits sign", "[1] sms4-cbc 16 bytes".
func (row *SpeedRow) Figure() string {
	res := results.SpeedResult{Algorithm: row.Algorithm, Operation: row.Operation, Block: row.Block}
	return fmt.Sprintf("[%d] %s", row.Command, res.Label())
}

// HasSpeed reports whether any variant of r has a speed run.
func HasSpeed(r *results.Run) bool {
	return slices.ContainsFunc(r.Variants, func(v results.Variant) bool { return len(v.Speed) > 0 })
}

func newSpeedTable(r *results.Run, s *RunSummary) *SpeedTable {
	base, n := s.Baseline, len(r.Variants)
	t := &SpeedTable{Baseline: base, BaselineName: s.BaselineName}
	type key struct {
		command int
		res     results.SpeedResult // Value 0
	}
	index := map[key]int{}
	for vi := range r.Variants {
		v := &r.Variants[vi]
		t.Variants = append(t.Variants, v.Name)
		for ci, run := range v.Speed {
			if ci >= len(t.Commands) {
				t.Commands = append(t.Commands, make([]string, ci+1-len(t.Commands))...)
			}
			if t.Commands[ci] == "" || vi == base {
				t.Commands[ci] = run.Command
			}
			if run.Error != "" {
				t.Failures = append(t.Failures, SpeedFailure{Variant: v.Name, Command: ci, CommandLine: run.Command, Error: run.Error})
			}
			for _, res := range run.Results {
				value := res.Value
				res.Value = 0
				i, known := index[key{ci, res}]
				if !known {
					i, index[key{ci, res}] = len(t.Rows), len(t.Rows)
					t.Rows = append(t.Rows, SpeedRow{Command: ci, Algorithm: res.Algorithm, Operation: res.Operation,
						Block: res.Block, Unit: res.Unit, Values: make([]float64, n), Has: make([]bool, n)})
				}
				if row := &t.Rows[i]; !row.Has[vi] { // a tool printing a figure twice: keep the first
					row.Values[vi], row.Has[vi] = value, true
				}
			}
		}
	}
	return t
}

// Delta is variant vi's Δ % against the baseline; false when undefined.
func (t *SpeedTable) Delta(row *SpeedRow, vi int) (float64, bool) {
	b := t.Baseline
	if r, ok := ratio(row.Values[max(b, 0)], row.Values[vi], b >= 0 && row.Has[vi] && row.Has[b]); ok {
		return (r - 1) * 100, true
	}
	return 0, false
}

func ratio(a, b float64, ok bool) (float64, bool) {
	r := b / a
	if !ok || a == 0 || math.IsNaN(r) || math.IsInf(r, 0) {
		return 0, false
	}
	return r, true
}

// Header: "figure", "unit", every variant, then "Δ% NAME" for every other variant.
func (t *SpeedTable) Header() []string {
	h := append([]string{"figure", "unit"}, t.Variants...)
	for vi, name := range t.Variants {
		if t.Baseline >= 0 && vi != t.Baseline {
			h = append(h, "Δ% "+name)
		}
	}
	return h
}

// Cells are row's cells under Header; Missing where not defined.
func (t *SpeedTable) Cells(row *SpeedRow) []string {
	cells := []string{row.Figure(), row.Unit}
	for vi := range t.Variants {
		cells = append(cells, orMissing(format.Rate(row.Values[vi]), row.Has[vi]))
	}
	for vi := range t.Variants {
		if d, ok := t.Delta(row, vi); t.Baseline >= 0 && vi != t.Baseline {
			cells = append(cells, orMissing(format.Delta(d), ok))
		}
	}
	return cells
}

func orMissing(s string, ok bool) string {
	if !ok {
		return format.Missing
	}
	return s
}

// SpeedPair is one figure of two saved speed outputs side by side ("kaeload speed").
type SpeedPair struct {
	Label, Unit string
	A, B        float64
	HasA, HasB  bool
}

// PairSpeed lines up two outputs' figures by label and unit: a's in order, then b's own.
func PairSpeed(a, b []results.SpeedResult) []SpeedPair {
	var out []SpeedPair
	index := map[[2]string]int{}
	for side, rs := range [][]results.SpeedResult{a, b} {
		for _, r := range rs {
			k := [2]string{r.Label(), r.Unit}
			i, ok := index[k]
			if !ok {
				i, index[k] = len(out), len(out)
				out = append(out, SpeedPair{Label: k[0], Unit: r.Unit})
			}
			if p := &out[i]; side == 0 && !p.HasA {
				p.A, p.HasA = r.Value, true
			} else if side == 1 && !p.HasB {
				p.B, p.HasB = r.Value, true
			}
		}
	}
	return out
}

// Ratio returns B/A; false when not defined.
func (p SpeedPair) Ratio() (float64, bool) { return ratio(p.A, p.B, p.HasA && p.HasB) }

// Line: "801.2 → 3245.2 ops/s, 4.05× (+305.04 %)".
func (p SpeedPair) Line() string {
	s := orMissing(strconv.FormatFloat(p.A, 'f', 1, 64), p.HasA) + " → " +
		orMissing(strconv.FormatFloat(p.B, 'f', 1, 64), p.HasB) + " " + p.Unit
	if r, ok := p.Ratio(); ok {
		s += fmt.Sprintf(", %.2f× (%s)", r, format.Delta((r-1)*100))
	}
	return s
}
