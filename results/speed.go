package results

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// speedKey identifies one row of the crypto speed table: the figure of a
// speed command (by its position in the scenario's speed list).
type speedKey struct {
	command   int
	algorithm string
	operation string
	block     int
	unit      string
}

// label names the row: "rsa 2048 bits sign", "sms4-cbc 16 bytes".
func (k speedKey) label() string {
	s := k.algorithm
	if k.operation != "" {
		s += " " + k.operation
	}
	if k.block > 0 {
		s += " " + strconv.Itoa(k.block) + " bytes"
	}
	return s
}

// hasSpeed reports whether any variant of r has a speed run.
func hasSpeed(r *Run) bool {
	for i := range r.Variants {
		if len(r.Variants[i].Speed) > 0 {
			return true
		}
	}
	return false
}

// writeSpeed writes the "crypto speed" section: per speed command, one row
// per figure (algorithm, operation, block) and one column per variant,
// then Δ % of every other variant against the baseline (base, an index in
// r.Variants); the failed runs are listed after the table.
func writeSpeed(b *bytes.Buffer, r *Run, base int) {
	var keys []speedKey
	values := make([]map[speedKey]float64, len(r.Variants))
	commands := map[int]string{}
	for vi := range r.Variants {
		values[vi] = map[speedKey]float64{}
		for ci, run := range r.Variants[vi].Speed {
			if _, ok := commands[ci]; !ok || vi == base {
				commands[ci] = run.Command
			}
			for _, res := range run.Results {
				k := speedKey{ci, res.Algorithm, res.Operation, res.Block, res.Unit}
				if _, seen := values[vi][k]; seen {
					continue // a tool printing a figure twice: keep the first
				}
				values[vi][k] = res.Value
				known := false
				for _, o := range keys {
					known = known || o == k
				}
				if !known {
					keys = append(keys, k)
				}
			}
		}
	}
	fmt.Fprintf(b, "\n== crypto speed, baseline %q (run once per variant, server stopped)\n", r.Variants[base].Name)
	t := &table{header: []string{"figure", "unit"}, right: []bool{false, false}}
	for _, v := range r.Variants {
		t.header = append(t.header, v.Name)
		t.right = append(t.right, true)
	}
	for vi, v := range r.Variants {
		if vi != base {
			t.header = append(t.header, "Δ% "+v.Name)
			t.right = append(t.right, true)
		}
	}
	for ci := 0; ci < len(commands); ci++ {
		fmt.Fprintf(b, "speed[%d]: %s\n", ci, commands[ci])
	}
	for _, k := range keys {
		row := []string{fmt.Sprintf("[%d] %s", k.command, k.label()), k.unit}
		for vi := range r.Variants {
			if v, ok := values[vi][k]; ok {
				row = append(row, FormatRate(v))
			} else {
				row = append(row, Missing)
			}
		}
		bv, bok := values[base][k]
		for vi := range r.Variants {
			if vi == base {
				continue
			}
			v, ok := values[vi][k]
			if !ok || !bok || bv == 0 {
				row = append(row, Missing)
				continue
			}
			d := (v/bv - 1) * 100
			if math.IsNaN(d) || math.IsInf(d, 0) {
				row = append(row, Missing)
				continue
			}
			row = append(row, FormatDelta(d))
		}
		t.add(row...)
	}
	if len(keys) > 0 {
		t.write(b, "")
	}
	for _, v := range r.Variants {
		for ci, run := range v.Speed {
			if run.Error != "" {
				fmt.Fprintf(b, "variant %s: speed[%d] %s: %s\n", v.Name, ci, message(run.Command), message(run.Error))
			}
		}
	}
}
