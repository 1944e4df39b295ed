package render

import (
	"bytes"
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/stats"
	"github.com/kaeload/kaeload/results/tables"
	"io"
	"strconv"
	"strings"
)

// compareTable has a row per variant and run of rr: its figures against
// the reference run's, missing where the run lacks the variant.
func compareTable(rr *analysis.RunsReport) tables.Table {
	names := rr.Names
	ct := tables.Table{
		Header: []string{"variant", "run", "n", "mean req/s", "95 % CI", "Δ% vs " + names[0], "p", "p Holm", "verdict", "p99 handshake ms", "client µs/req", "req/server cpu-s"},
		Right:  []bool{false, false, true, true, false, true, true, true, false, true, true, true},
	}
	openLoop := false // any run drove an open loop: its columns
	for _, rv := range rr.Variants {
		for i := range rv.Cells {
			openLoop = openLoop || rv.Cells[i].Summary.Scheduled > 0
		}
	}
	if openLoop {
		ct.Header = append(ct.Header, "starts missed", "p99 from intended ms")
		ct.Right = append(ct.Right, true, true)
	}
	ct.Header, ct.Right = append(ct.Header, "notes"), append(ct.Right, false)
	for _, rv := range rr.Variants {
		for i := range rv.Cells {
			cell := &rv.Cells[i]
			label := ""
			if i == 0 {
				label = rv.Name
			}
			if !cell.Present {
				row := []string{label, names[i], missing, missing, missing, missing, missing, missing, missing, missing, missing, missing}
				if openLoop {
					row = append(row, missing, missing)
				}
				ct.Add(append(row, "")...)
				continue
			}
			ct.Add(compareRow(cell, label, names[i], i, openLoop)...)
		}
	}
	return ct
}

// compareRow is the row of a variant in run i (not the reference when
// i > 0), with the open loop's cells when openLoop.
func compareRow(cell *analysis.RunsCell, label, name string, i int, openLoop bool) []string {
	vs := &cell.Summary
	delta, p, padj, verdict := "reference", "", "", ""
	if i > 0 {
		delta, p, padj, verdict = missing, missing, missing, missing
		if c := vs.Comparison; cell.Compared {
			delta, p, padj, verdict = format.Delta(c.DeltaPct), format.PValue(c), format.PAdjusted(c), format.VerdictWords(c)
		}
	}
	var notes []string
	if vs.ClientBoundReps > 0 {
		notes = append(notes, fmt.Sprintf("CLIENT-BOUND (%d of %d reps)", vs.ClientBoundReps, vs.Stats.N))
	}
	if vs.OtherLoadReps > 0 {
		notes = append(notes, fmt.Sprintf("OTHER LOAD (%d of %d reps)", vs.OtherLoadReps, vs.Stats.N))
	}
	notes = append(notes, measure.ServerNotes(vs)...)
	clientUs := missing
	if us, ok := vs.ClientMicrosPerRequest(); ok {
		clientUs = format.Micros(us)
	}
	serverCPU := missing
	if x, ok := vs.RequestsPerServerCPU(); ok {
		serverCPU = format.Rate(x)
	}
	row := []string{label, name, strconv.Itoa(vs.Stats.N), tables.MeanCell(vs.Stats), measure.CICell(vs.Stats), delta, p, padj, verdict,
		format.QuantileMillis(vs.Handshake, 99), clientUs, serverCPU}
	if openLoop {
		missedCell, intended := format.Missing, format.Missing
		if vs.Scheduled > 0 {
			missedCell, intended = format.Count(vs.Missed)+" of "+format.Count(vs.Scheduled), format.QuantileMillis(vs.Intended, 99)
		}
		row = append(row, missedCell, intended)
	}
	return append(row, strings.Join(notes, ", "))
}

// missing marks a variant a run does not have.
const missing = "—"

// CompareRuns writes the plain-text comparison of stored runs rr
// (AnalyzeRuns): the runs and their answers, then per variant and run its
// figures against the reference run's ("—" where a run lacks it), then
// each run's speed table against its own baseline.
func CompareRuns(w io.Writer, rr *analysis.RunsReport) error {
	names := rr.Names
	var b bytes.Buffer
	fmt.Fprintf(&b, "== comparison of %d runs, reference %s\n", len(rr.Runs), names[0])
	rt := tables.Table{Right: []bool{false, false, false, false, false}}
	for i, m := range rr.Runs {
		r := m.Run
		started := "-"
		if !r.Started.IsZero() {
			started = r.Started.Format("2006-01-02 15:04:05 MST")
		}
		var notes []string
		if r.Interrupted {
			notes = append(notes, "INTERRUPTED")
		}
		switch n := len(m.Warnings); n {
		case 0:
		case 1:
			notes = append(notes, "1 warning")
		default:
			notes = append(notes, fmt.Sprintf("%d warnings", n))
		}
		rt.Add(names[i], r.Name, "started "+started, fmt.Sprintf("%d variants", len(r.Variants)), strings.Join(notes, ", "))
	}
	writeTable(&rt, &b, "")
	if rr.PlanLine != "" {
		b.WriteString(rr.PlanLine + "\n")
	}
	for i, m := range rr.Runs {
		if !m.CapacityLine.IsZero() {
			fmt.Fprintf(&b, "%s: %s\n", names[i], m.CapacityLine)
		}
		if ss := m.Search; ss != nil {
			for _, l := range ss.Lines()[1:] {
				fmt.Fprintf(&b, "%s: %s\n", names[i], l)
			}
		}
	}
	fmt.Fprintf(&b, "t-test on ln(total req/s) of the repetitions (a test of the ratio); p adjusted by Holm over every variant and run compared with the reference (family-wise α = %g); MDE: the smallest difference found with %.0f %% power at α/m (Bonferroni over the m comparisons, Holm's strictest step); 95 %% CI: of the geometric mean, on the log scale; equivalence: two one-sided tests against ±%g %% (symmetric ratio limits)\n\n", stats.Alpha, stats.Power*100, results.DefaultEquivalence*100)

	ct := compareTable(rr)
	writeTable(&ct, &b, "")
	for i, m := range rr.Runs {
		if m.Speed != nil {
			b.WriteString(speedSection(m.Speed, names[i]+": "))
		}
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("compare runs: %w", err)
	}
	return nil
}
