package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSoftRatioPrediction: a sweep of KAE_GO_SOFT_RATIO against the
// built-in target's simulated accelerator gets the best ratio predicted
// by the two-server model in the text report (a hint line) and the model's
// rate at each variant's ratio in the CSV and the JSON summary.
func TestSoftRatioPrediction(t *testing.T) {
	alongside(t)
	scenario := writeScenario(t, `name: softsim
target: {builtin: {cert: ecdsa-p256, accel: {capacity: 300/s}}}
load: {connection: close, warmup: 200ms, duration: 1s, groups: [{connections: 8}]}
variants:
  - name: "soft-{ratio}"
    env: {KAE_GO_SOFT_RATIO: "{ratio}"}
    sweep: {ratio: [0, 100]}
`)
	dir := filepath.Join(t.TempDir(), "run")
	out, errOut, code := kaeload(t, "run", scenario, "-o", dir, "--progress", "off")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if text := out + errOut; !strings.Contains(text, "HINT: best soft ratio ") || !strings.Contains(text, "the device limits at 300 ops/s") {
		t.Errorf("no prediction in the text report:\n%s", text)
	}
	for format, want := range map[string]string{"csv": "soft_ratio_model_req_per_s", "summary": `"best soft ratio `} {
		got, _, code := kaeload(t, "report", dir, "--format", format)
		if code != 0 || !strings.Contains(got, want) {
			t.Errorf("report --format %s: exit %d, want %q in:\n%s", format, code, want, got)
		}
	}
}

// TestSearchStartPredicted: a search with start: predicted against the
// built-in accelerator measures both ends first, then the value predicted
// from them, and reports the predicted and the searched best.
func TestSearchStartPredicted(t *testing.T) {
	alongside(t)
	scenario := writeScenario(t, `name: softsearch
target: {builtin: {cert: ecdsa-p256, accel: {capacity: 300/s}}}
load: {connection: close, warmup: 200ms, duration: 500ms, groups: [{connections: 8}]}
variants:
  - name: "soft-{ratio}"
    env: {KAE_GO_SOFT_RATIO: "{ratio}"}
    search: {ratio: {from: 0, to: 100, step: 10}, budget: 5, start: predicted}
`)
	dir := filepath.Join(t.TempDir(), "run")
	out, errOut, code := kaeload(t, "run", scenario, "-o", dir, "--progress", "off")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	text := out + errOut
	pred := regexp.MustCompile(`predicted from both ends: best ratio = (\d+) `).FindStringSubmatch(text)
	if pred == nil || !strings.Contains(text, "\nbest ratio = ") {
		t.Fatalf("no predicted and searched best in the report:\n%s", text)
	}
	if want := "visit order: 1:0 2:100 3:" + pred[1] + " "; !strings.Contains(text, want) {
		t.Errorf("want %q in:\n%s", want, text)
	}
	if page, err := os.ReadFile(filepath.Join(dir, "report.html")); err != nil || !strings.Contains(string(page), "model: predicted req/s") {
		t.Errorf("report.html has no model curve (%v)", err)
	}
}
