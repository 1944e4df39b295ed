package analysis

import (
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"math"
	"strconv"
)

// SpeedTable is the crypto speed comparison of a run, the one model that
// every report renders (the text and Markdown reports' "crypto speed"
// section, report.html's): per speed command (by its position in the
// scenario's speed list), one row per figure and one column per variant,
// then the Δ % of every other variant against the baseline, and the runs
// that failed.
type SpeedTable struct {
	// Baseline is the index in Variants (and Run.Variants) of the
	// baseline; -1 when it was not measured: the table then has no Δ %
	// columns.
	Baseline int
	// BaselineName names the baseline, measured or not.
	BaselineName string
	// Variants are the variants' names in plan order.
	Variants []string
	// Commands are the speed command lines by position: the baseline's
	// where it ran that command, else the first variant's that did.
	Commands []string
	// Rows are the figures in order of first appearance (variants in plan
	// order, each command's figures as printed). A figure a tool printed
	// twice keeps its first value.
	Rows []SpeedRow
	// Failures are the speed runs with an Error, variants in plan order.
	Failures []SpeedFailure
}

// SpeedRow is one figure of a SpeedTable and its value per variant.
type SpeedRow struct {
	// Command is the position of the speed command that printed the figure.
	Command int
	// Algorithm, Operation, Block and Unit identify the figure (as in
	// SpeedResult).
	Algorithm string
	Operation string
	Block     int
	Unit      string
	// Values holds the figure per variant (index as in SpeedTable.Variants);
	// Has[i] is false, and Values[i] 0, when variant i has no such figure.
	Values []float64
	Has    []bool
}

// SpeedFailure is a speed run that failed or whose output was not
// understood.
type SpeedFailure struct {
	// Variant is the variant's name; Command the command's position and
	// CommandLine the command as run.
	Variant     string
	Command     int
	CommandLine string
	// Error is SpeedRun.Error.
	Error string
}

// speedKey identifies one row of the crypto speed table.
type speedKey struct {
	command   int
	algorithm string
	operation string
	block     int
	unit      string
}

// Figure names the row with its command's position: "[0] rsa 2048 bits
// sign", "[1] sms4-cbc 16 bytes".
func (row *SpeedRow) Figure() string {
	s := fmt.Sprintf("[%d] %s", row.Command, row.Algorithm)
	if row.Operation != "" {
		s += " " + row.Operation
	}
	if row.Block > 0 {
		s += " " + strconv.Itoa(row.Block) + " bytes"
	}
	return s
}

// HasSpeed reports whether any variant of r has a speed run.
func HasSpeed(r *results.Run) bool {
	for i := range r.Variants {
		if len(r.Variants[i].Speed) > 0 {
			return true
		}
	}
	return false
}

// newSpeedTable builds the speed comparison of r against the baseline of
// its summary s.
func newSpeedTable(r *results.Run, s *RunSummary) *SpeedTable {
	base := s.Baseline
	t := &SpeedTable{Baseline: base, BaselineName: s.BaselineName}
	index := map[speedKey]int{}
	commands := map[int]string{}
	n := len(r.Variants)
	for vi := range r.Variants {
		v := &r.Variants[vi]
		t.Variants = append(t.Variants, v.Name)
		for ci, run := range v.Speed {
			if _, ok := commands[ci]; !ok || vi == base {
				commands[ci] = run.Command
			}
			if run.Error != "" {
				t.Failures = append(t.Failures, SpeedFailure{Variant: v.Name, Command: ci, CommandLine: run.Command, Error: run.Error})
			}
			for _, res := range run.Results {
				k := speedKey{ci, res.Algorithm, res.Operation, res.Block, res.Unit}
				i, known := index[k]
				if !known {
					i = len(t.Rows)
					index[k] = i
					t.Rows = append(t.Rows, SpeedRow{Command: ci, Algorithm: res.Algorithm, Operation: res.Operation,
						Block: res.Block, Unit: res.Unit, Values: make([]float64, n), Has: make([]bool, n)})
				}
				row := &t.Rows[i]
				if row.Has[vi] {
					continue // a tool printing a figure twice: keep the first
				}
				row.Values[vi], row.Has[vi] = res.Value, true
			}
		}
	}
	t.Commands = make([]string, len(commands))
	for ci := range t.Commands {
		t.Commands[ci] = commands[ci]
	}
	return t
}

// Delta returns the Δ % of variant vi's value of the figure against the
// baseline's; false when either lacks the figure, the baseline's is 0 or
// the difference is not a finite number.
func (t *SpeedTable) Delta(row *SpeedRow, vi int) (float64, bool) {
	b := t.Baseline
	if b < 0 || !row.Has[vi] || !row.Has[b] || row.Values[b] == 0 {
		return 0, false
	}
	d := (row.Values[vi]/row.Values[b] - 1) * 100
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return 0, false
	}
	return d, true
}

// Header returns the column names of the table: "figure", "unit", every
// variant's name, then "Δ% NAME" for every variant but the baseline (none
// when the baseline was not measured).
func (t *SpeedTable) Header() []string {
	h := append([]string{"figure", "unit"}, t.Variants...)
	for vi, name := range t.Variants {
		if t.Baseline >= 0 && vi != t.Baseline {
			h = append(h, "Δ% "+name)
		}
	}
	return h
}

// Cells returns the cells of row under Header: the figure, its unit, the
// values (format.Rate) and the deltas (format.Delta); Missing where not
// defined. Every column after the first two is numeric.
func (t *SpeedTable) Cells(row *SpeedRow) []string {
	cells := []string{row.Figure(), row.Unit}
	for vi := range t.Variants {
		if row.Has[vi] {
			cells = append(cells, format.Rate(row.Values[vi]))
		} else {
			cells = append(cells, format.Missing)
		}
	}
	for vi := range t.Variants {
		if t.Baseline < 0 || vi == t.Baseline {
			continue
		}
		if d, ok := t.Delta(row, vi); ok {
			cells = append(cells, format.Delta(d))
		} else {
			cells = append(cells, format.Missing)
		}
	}
	return cells
}
