package render

import (
	"bytes"
	"encoding/csv"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"strings"
	"testing"
)

// TestThresholdRenderings: a crossed threshold shows in the text,
// Markdown, CSV and HTML renderings; a run without thresholds shows no
// trace of them.
func TestThresholdRenderings(t *testing.T) {
	r := fixture.ThresholdRun()
	var text, md, cs bytes.Buffer
	if err := WriteText(&text, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&cs, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"THRESHOLD CROSSED: req/s >= 150000: baseline 12", "THRESHOLD CROSSED: kae vs baseline >= +60%: kae vs baseline +5",
		"\n== thresholds\n", "CROSSED  errors == 0", "pass     errors == 0"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	for _, want := range []string{"**THRESHOLD CROSSED:** errors == 0: kae 3", "## Thresholds", "| CROSSED | p50 connect &lt; 1us |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	rows, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := len(rows[0]) - 1
	if rows[0][col] != "thresholds" {
		t.Fatalf("last csv column %q, want thresholds", rows[0][col])
	}
	got := map[string]string{}
	for _, row := range rows[1:] {
		if row[2] == "all" {
			got[row[0]] = row[col]
		}
	}
	if got["baseline"] != "crossed: req/s >= 150000; p50 connect < 1us" || got["kae"] != "crossed: errors == 0; p50 connect < 1us; kae vs baseline >= +60%" {
		t.Errorf("csv thresholds cells %q", got)
	}

	var plain bytes.Buffer
	if err := WriteCSV(&plain, analysis.Analyze(fixture.CompareRun())); err != nil {
		t.Fatal(err)
	}
	text.Reset()
	WriteText(&text, analysis.Analyze(fixture.CompareRun()))
	if strings.Contains(plain.String(), "thresholds") || strings.Contains(text.String(), "threshold") {
		t.Error("a run without thresholds mentions them")
	}
}
