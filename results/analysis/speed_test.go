package analysis

import (
	"github.com/kaeload/kaeload/results/internal/fixture"
	"strings"
	"testing"
)

// TestSpeedTable checks the shared model: rows in order of first
// appearance, values per variant, deltas, failures, and no model without
// speed runs.
func TestSpeedTable(t *testing.T) {
	st := Analyze(fixture.SpeedRun()).Speed
	if st == nil {
		t.Fatal("Speed = nil; want a table")
	}
	var figures []string
	for i := range st.Rows {
		figures = append(figures, st.Rows[i].Figure())
	}
	wantFigures := "[0] RSA 2048 signing|[0] RSA 2048 verify (fresh key)|[1] sms4-cbc 16 bytes|[1] sms4-cbc 16384 bytes"
	if got := strings.Join(figures, "|"); got != wantFigures {
		t.Errorf("figures = %q, want %q", got, wantFigures)
	}
	if d, ok := st.Delta(&st.Rows[0], 1); !ok || d != 100 {
		t.Errorf("Δ%% of kae's RSA signing = %v, %v; want 100, true (1602.4 / 801.2)", d, ok)
	}
	if d, ok := st.Delta(&st.Rows[1], 1); ok {
		t.Errorf("Δ%% of a figure kae lacks = %v, true; want undefined", d)
	}
	if len(st.Failures) != 1 || st.Failures[0].Variant != "kae" || st.Failures[0].Command != 1 || !strings.Contains(st.Failures[0].Error, "exit status 1") {
		t.Errorf("failures = %+v, want kae's speed[1] with its error", st.Failures)
	}

	// The baseline named by the run is the one compared with.
	r := fixture.SpeedRun()
	r.Baseline = "kae"
	if st = Analyze(r).Speed; st == nil || st.Baseline != 1 {
		t.Fatalf("Speed with baseline kae = %+v", st)
	}
	if d, ok := st.Delta(&st.Rows[0], 0); !ok || d != -50 {
		t.Errorf("Δ%% of baseline against kae = %v, %v; want -50, true", d, ok)
	}
	r.Baseline = "nope"
	if st := Analyze(r).Speed; st == nil || st.Baseline != -1 {
		t.Errorf("Speed with a baseline not measured = %+v; want Baseline -1", st)
	}
	if st := Analyze(fixture.CompareRun()).Speed; st != nil {
		t.Errorf("Speed of a run without speed runs = %+v; want nil", st)
	}
}
