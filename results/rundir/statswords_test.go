package rundir

import (
	"bytes"
	"encoding/json"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/render"
	"github.com/kaeload/kaeload/results/stats"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLostRepetitionJSON: with Welch's df below 1.2 the summary JSON and
// run.json are written (through the journal, as a run stores them), the
// MDE is a finite number, and the text says what it is.
func TestLostRepetitionJSON(t *testing.T) {
	fixture.SingleGoroutine(t)
	r := fixture.LostRepRun()
	s := analysis.Analyze(r).Summary
	c := s.Variants[1].Comparison
	if c.Test != stats.TestWelchLog || !(c.DF < 1.2) || !c.HasMDE || math.IsNaN(c.MDEPct) || math.IsInf(c.MDEPct, 0) {
		t.Fatalf("comparison %+v: want Welch's test with df < 1.2 and a finite MDE", c)
	}
	var js bytes.Buffer
	if err := render.WriteSummaryJSON(&js, analysis.Analyze(r)); err != nil {
		t.Fatalf("summary json: %v", err)
	}
	var back struct{ Variants []map[string]any }
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Variants) != 2 || back.Variants[1]["comparison"] == nil {
		t.Fatalf("summary json does not read back (%v):\n%s", err, js.String())
	}
	dir := filepath.Join(t.TempDir(), "run")
	j, err := CreateJournal(dir, header(r), testOptions)
	if err != nil {
		t.Fatal(err)
	}
	for v := range r.Variants {
		for _, rep := range r.Variants[v].Reps {
			if err := j.rep(v, rep); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := j.End(fixture.T0.Add(time.Minute), false); err != nil {
		t.Fatal(err)
	}
	stored, err := ReadRunFile(filepath.Join(dir, RunFile), testOptions)
	if err != nil || len(stored.Variants) != 2 || len(stored.Variants[1].Reps) != 10 {
		t.Fatalf("run.json: %v", err)
	}
	var text bytes.Buffer
	if err := render.WriteText(&text, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if out := text.String(); strings.Contains(out, "Inf") || strings.Contains(out, "NaN") {
		t.Errorf("text report shows Inf or NaN:\n%s", out)
	}
}
