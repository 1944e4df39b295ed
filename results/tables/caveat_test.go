package tables

import (
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/measure"
)

// clientBound makes rep's second group client-bound: its worker used 97 %
// of its CPUs.
func clientBound(rep results.Rep) results.Rep {
	return fixture.Measured(rep, []float64{0.55, 0.97}, 3.0, 0)
}

// TestCaveatInVerdictLine: a variant that measured the client in most of
// its repetitions is named best of its sweep, and called significantly
// faster, only with those words in the same line; a baseline that did
// puts them in every comparison's verdict; an unflagged run carries none.
func TestCaveatInVerdictLine(t *testing.T) {
	r := fixture.SweepRun()
	best := &r.Variants[4] // ratio 33, the sweep's best
	for i := range best.Reps {
		best.Reps[i] = clientBound(best.Reps[i])
	}
	m := analysis.Analyze(r)
	s := m.Summary
	v := &s.Variants[4]
	want := "measured the client: CLIENT-BOUND in 3 of 3 repetitions"
	if !v.Best || v.Caveat.String() != want {
		t.Fatalf("ratio 33: best %v, caveat %q; want best with %q", v.Best, v.Caveat, want)
	}
	line := PlateauLine(s, &s.Sweeps[0])
	if !strings.HasPrefix(line, "best: 33,") || !strings.Contains(line, "33: "+want) {
		t.Errorf("sweep line %q names 33 best without %q", line, want)
	}
	if got := verdictCell(t, m, "kae-soft-33"); !strings.Contains(got, "significant") || !strings.Contains(got, want) {
		t.Errorf("verdict %q lacks %q", got, want)
	}
	// Ratio 0 has one client-bound repetition of three: a caution.
	if got, want := verdictCell(t, m, "kae-soft-0"), "caution: CLIENT-BOUND in 1 of 3 repetitions"; !strings.Contains(got, want) {
		t.Errorf("ratio 0's verdict %q lacks %q", got, want)
	}

	// The baseline measured the client: every difference from it says so.
	r = fixture.SweepRun()
	base := &r.Variants[0]
	for i := range base.Reps[:2] {
		base.Reps[i] = clientBound(base.Reps[i])
	}
	m = analysis.Analyze(r)
	s = m.Summary
	for _, name := range []string{"kae-soft-10", "kae-soft-100", "kae-soft-33"} {
		if got, want := verdictCell(t, m, name), "the baseline measured the client: CLIENT-BOUND in 2 of its 3 repetitions"; !strings.Contains(got, want) {
			t.Errorf("%s's verdict %q lacks %q", name, got, want)
		}
	}
	// The text report says it once, under the baseline.
	below := Below(m)
	if got := below.Rows; got[0][0] != "baseline" || got[0][2] != "measured the client: CLIENT-BOUND in 2 of 3 repetitions" {
		t.Errorf("below the text table, first %q; want the baseline's caveat", got[0])
	}
	verdicts := 0
	for _, row := range below.Rows[1:] {
		if row[1] == "verdict" {
			verdicts++
			if strings.Contains(row[2], "baseline") {
				t.Errorf("below the text table, %q repeats the baseline's caveat", row)
			}
		}
	}
	if verdicts != 4 {
		t.Errorf("below the text table, %d verdicts; want 4", verdicts)
	}

	// Twin on an unflagged run: no caveat anywhere.
	s = analysis.Analyze(fixture.CompareRun()).Summary
	for i := range s.Variants {
		if c := s.Variants[i].VerdictCaveat.String() + s.Variants[i].Caveat.String(); c != "" {
			t.Errorf("%s: caveat %q on a run with no flag", s.Variants[i].Name, c)
		}
	}
}

// verdictCell is the Markdown comparison table's verdict of the variant.
func verdictCell(t *testing.T, m *analysis.Report, name string) string {
	t.Helper()
	tb := Comparison(m, measure.Markdown)
	col := -1
	for i, h := range tb.Header {
		if h == "verdict" {
			col = i
		}
	}
	for _, row := range tb.Rows {
		if row[0] == name && col >= 0 {
			return row[col]
		}
	}
	t.Fatalf("no verdict of %s in the comparison table", name)
	return ""
}
