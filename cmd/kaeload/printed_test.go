package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPrintedIsReport: what run prints at its end is what report prints from the run directory,
// warnings included, on an open-loop run whose one connection cannot keep the rate asked (its
// MISSED STARTS are among the run's warnings, annotated once into run.json).
func TestPrintedIsReport(t *testing.T) {
	alongside(t)
	scenario := writeScenario(t, `name: printed
target: {builtin: {}}
load: {connection: close, warmup: 0s, duration: 500ms, groups: [{connections: 1, rate: 100000}]}
`)
	dir := filepath.Join(t.TempDir(), "run")
	printed, errOut, code := kaeload(t, "run", scenario, "-o", dir, "--progress", "off")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	report, errOut, code := kaeload(t, "report", dir)
	if code != 0 {
		t.Fatalf("report: exit %d\n%s", code, errOut)
	}
	if !strings.Contains(report, "WARNING: variant default, repetition 1: MISSED STARTS:") {
		t.Errorf("report has no MISSED STARTS warning:\n%s", report)
	}
	if printed != report {
		t.Errorf("printed at the run's end:\n%s\nkaeload report:\n%s", printed, report)
	}
}
