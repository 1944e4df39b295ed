package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// quick are the flags that keep a quick-start run short.
var quick = []string{"--set", "load.duration=500ms", "--set", "load.warmup=100ms", "--progress", "off"}

// TestRunThresholdCrossed: a crossed threshold is exit status 99 with the
// summary JSON on stdout (the text report on stderr), and the stored run
// shows it in every rendering.
func TestRunThresholdCrossed(t *testing.T) {
	alongside(t)
	dir := filepath.Join(t.TempDir(), "run")
	args := append([]string{"run", "../../examples/quickstart.yaml", "-o", dir, "--format", "json",
		"--threshold", "req/s >= 1000000000", "--threshold", "req/s > 0"}, quick...)
	out, errOut, code := kaeload(t, args...)
	if code != 99 {
		t.Fatalf("exit %d, want 99\n%s\n%s", code, out, errOut)
	}
	var sum struct {
		Variants []struct {
			Name      string `json:"name"`
			ReqPerSec struct {
				Mean float64 `json:"mean"`
			} `json:"req_per_s"`
		} `json:"variants"`
		Thresholds []struct {
			Threshold struct{ Expr string } `json:"threshold"`
			Passed    bool                  `json:"passed"`
		} `json:"thresholds"`
		Passed bool `json:"thresholds_passed"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("stdout is not the summary JSON: %v\n%s", err, out)
	}
	if len(sum.Variants) != 1 || sum.Variants[0].ReqPerSec.Mean <= 0 || sum.Passed || len(sum.Thresholds) != 2 ||
		sum.Thresholds[0].Passed || !sum.Thresholds[1].Passed || sum.Thresholds[0].Threshold.Expr != "req/s >= 1000000000" {
		t.Errorf("summary %+v", sum)
	}
	for _, want := range []string{"THRESHOLD CROSSED: req/s >= 1000000000: default", "== thresholds", "kaeload: threshold crossed: req/s >= 1000000000"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	for format, want := range map[string]string{
		"text": "THRESHOLD CROSSED: req/s >= 1000000000",
		"md":   "**THRESHOLD CROSSED:** req/s >= 1000000000",
		"csv":  ",crossed: req/s >= 1000000000",
		"html": `id="thresholds">THRESHOLD CROSSED: 1 of 2 checks failed`,
		"json": `"thresholds": [`,
	} {
		out, errOut, code := kaeload(t, "report", dir, "--format", format)
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("report --format %s: exit %d, stdout lacks %q\n%s", format, code, want, errOut)
		}
	}
}

// TestRunThresholdsPass: thresholds that hold (the scenario's and the
// command line's) exit 0; --format md puts the Markdown report on stdout.
func TestRunThresholdsPass(t *testing.T) {
	src, err := os.ReadFile("../../examples/quickstart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := writeScenario(t, string(src)+"\nthresholds:\n  - req/s > 0\n  - client_bound == false\n")
	args := append([]string{"run", path, "--no-save", "--format", "md", "--threshold", "p99 total < 1h"}, quick...)
	out, errOut, code := kaeload(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.HasPrefix(out, "# ") || !strings.Contains(out, "## Thresholds") || strings.Contains(out, "CROSSED") {
		t.Errorf("stdout is not the Markdown report with passing thresholds:\n%s", out)
	}
	if !strings.Contains(errOut, "\n== thresholds\n") {
		t.Errorf("stderr lacks the text report:\n%s", errOut)
	}
}

// TestRunThresholdInvalid: a threshold that does not parse is exit status
// 2 before any load: the scenario's with file:line:col, --threshold's
// named as such.
func TestRunThresholdInvalid(t *testing.T) {
	path := writeScenario(t, "name: t\ntarget: {builtin: {}}\nthresholds:\n  - p99 handshake < 20\n")
	_, errOut, code := kaeload(t, "run", path, "--no-save", "--threshold", "kae vs baseline >= 5%")
	if code != 2 {
		t.Errorf("exit %d, want 2\n%s", code, errOut)
	}
	for _, want := range []string{path + `:4:5: thresholds[0]: "p99 handshake < 20": "20" is not a duration`,
		`--threshold "kae vs baseline >= 5%": "kae" names no variant (variants: default; or baseline)`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "worker") {
		t.Errorf("load was sent:\n%s", errOut)
	}
}
