package results

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

// thresholdRun is compareRun (baseline about 120,000 req/s, kae about
// 181,000 req/s with 3 errors) with thresholds some of which cross.
func thresholdRun() *Run {
	r := compareRun()
	r.Thresholds = []Threshold{
		{Expr: "req/s >= 150000", Metric: MetricRate, Op: ">=", Value: 150000},
		{Expr: "errors == 0", Metric: MetricErrors, Op: "==", Value: 0},
		{Expr: "errors < 0.1%", Metric: MetricErrorShare, Op: "<", Value: 0.001},
		{Expr: "p99 handshake < 1s", Metric: MetricLatency, Latency: "handshake", Quantile: 99, Op: "<", Value: 1e6},
		{Expr: "p50 connect < 1us", Metric: MetricLatency, Latency: "connect", Quantile: 50, Op: "<", Value: 1},
		{Expr: "client_bound == false", Metric: MetricClientBound, Op: "==", Value: 0},
		{Expr: "kae vs baseline >= +30%", Metric: MetricVs, Variant: "kae", Against: "baseline", Op: ">=", Value: 0.30},
		{Expr: "kae vs baseline >= +60%", Metric: MetricVs, Variant: "kae", Against: "baseline", Op: ">=", Value: 0.60},
	}
	return r
}

func TestCheckThresholds(t *testing.T) {
	cs := CheckThresholds(thresholdRun())
	type key struct{ expr, variant string }
	want := map[key]bool{
		{"req/s >= 150000", "baseline"}: false, {"req/s >= 150000", "kae"}: true,
		{"errors == 0", "baseline"}: true, {"errors == 0", "kae"}: false,
		{"errors < 0.1%", "baseline"}: true, {"errors < 0.1%", "kae"}: true,
		{"p99 handshake < 1s", "baseline"}: true, {"p99 handshake < 1s", "kae"}: true,
		{"p50 connect < 1us", "baseline"}: false, {"p50 connect < 1us", "kae"}: false,
		{"client_bound == false", "baseline"}: true, {"client_bound == false", "kae"}: true,
		{"kae vs baseline >= +30%", "kae vs baseline"}: true,
		{"kae vs baseline >= +60%", "kae vs baseline"}: false,
	}
	if len(cs) != len(want) {
		t.Fatalf("%d checks, want %d: %+v", len(cs), len(want), cs)
	}
	for _, c := range cs {
		w, ok := want[key{c.Threshold.Expr, c.Variant}]
		if !ok || c.Passed != w || !c.Measured {
			t.Errorf("%s for %s: passed %v (measured %v, %s), want %v", c.Threshold.Expr, c.Variant, c.Passed, c.Measured, c.Shown(), w)
		}
		if c.Threshold.Metric == MetricVs && (c.Value < 0.49 || c.Value > 0.52) {
			t.Errorf("kae vs baseline = %v, want about +50 %%", c.Value)
		}
	}
	// A variant without repetitions has nothing that shows a threshold
	// holds: crossed, "not measured".
	r := thresholdRun()
	r.Variants[1].Reps = nil
	for _, c := range CheckThresholds(r) {
		if strings.HasPrefix(c.Variant, "kae") && (c.Passed || c.Measured || c.Shown() != "not measured") {
			t.Errorf("%s for %s without repetitions: %+v", c.Threshold.Expr, c.Variant, c)
		}
	}
	if CheckThresholds(compareRun()) != nil {
		t.Error("a run without thresholds has checks")
	}
}

// TestThresholdRenderings: a crossed threshold shows in the text,
// Markdown, CSV and HTML renderings; a run without thresholds shows no
// trace of them.
func TestThresholdRenderings(t *testing.T) {
	r := thresholdRun()
	var text, md, cs bytes.Buffer
	if err := WriteText(&text, Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&cs, Analyze(r)); err != nil {
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
	if err := WriteCSV(&plain, Analyze(compareRun())); err != nil {
		t.Fatal(err)
	}
	text.Reset()
	WriteText(&text, Analyze(compareRun()))
	if strings.Contains(plain.String(), "thresholds") || strings.Contains(text.String(), "threshold") {
		t.Error("a run without thresholds mentions them")
	}
}
