package render

import (
	"encoding/csv"
	"fmt"
	"io"

	"github.com/kaeload/kaeload/results/analysis"
)

// WriteSpeedCSV writes speed.csv: a row per variant, speed command and
// figure as run.json has it, unrounded and uncompared (a command without
// figures has one row with its error); the header alone without speed runs.
func WriteSpeedCSV(w io.Writer, m *analysis.Report) error {
	r := m.Run
	cw := csv.NewWriter(w)
	rows := [][]string{{"variant", "command", "algorithm", "operation", "block", "value", "unit", "error"}}
	for i := range r.Variants {
		v := &r.Variants[i]
		for _, run := range v.Speed {
			if len(run.Results) == 0 {
				rows = append(rows, []string{v.Name, run.Command, "", "", "", "", "", run.Error})
			}
			for _, res := range run.Results {
				rows = append(rows, []string{v.Name, run.Command, res.Algorithm, res.Operation, blockCell(res.Block),
					floatCell(res.Value, true), res.Unit, run.Error})
			}
		}
	}
	if err := cw.WriteAll(rows); err != nil {
		return fmt.Errorf("write speed csv %q: %w", r.Name, err)
	}
	return nil
}
