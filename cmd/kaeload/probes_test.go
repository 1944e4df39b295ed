package main

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFailedProbeWarnsAndCrosses (issue 30, "must show" 6): a probe that
// reads a missing file, and one whose pattern does not match, are each a
// WARNING at the top of the text report (before the first variant), in
// the JSON summary's warnings and in report.html's banner, their
// patterns as written; the probe threshold on the missing one is
// crossed (exit 99). A third probe finds the run directory in
// KAELOAD_RUN_DIR, as every local server command does. The server is a real HTTPS server on loopback; its
// start command does nothing, so the run measures what listens there.
func TestFailedProbeWarnsAndCrosses(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") }))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the readiness check's bare connect
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	scenario := writeScenario(t, fmt.Sprintf(`name: probes
target: {url: "https://%[1]s/"}
load: {duration: 300ms, warmup: 100ms, groups: [{connections: 2}]}
server:
  start: "true"
  ready: {tcp: %[1]q, timeout: 5s}
  probes:
    - {name: hpre_send, command: "cat /nonexistent/hpre_dfx/send_cnt"}
    - {name: pattern, command: "echo recv_cnt: 5", pattern: 'send_cnt:\s*(\d+)'}
    - {name: rundir, command: 'test -f "$KAELOAD_RUN_DIR/journal.ndjson" && echo 7'}
thresholds:
  - probe hpre_send per request >= 0.9
`, addr))
	dir := filepath.Join(t.TempDir(), "run")
	out, text, code := kaeload(t, "run", scenario, "-o", dir, "--progress", "off", "--format", "json")
	if code != 99 {
		t.Fatalf("exit %d, want 99 (the probe threshold crossed)\n%s\n%s", code, out, text)
	}
	top, _, ok := strings.Cut(text, "\n== variant")
	if !ok {
		t.Fatalf("text report has no variant section:\n%s", text)
	}
	for _, want := range []string{
		"WARNING: probe hpre_send failed in 1 of 1 windows (variant default): ",
		"No such file or directory; no delta",
		"WARNING: probe pattern failed in 1 of 1 windows (variant default): ",
		"does not match the pattern `send_cnt:\\s*(\\d+)`",
		"THRESHOLD CROSSED: probe hpre_send per request >= 0.9: default not measured",
	} {
		if !strings.Contains(top, want) {
			t.Errorf("the text report's top lacks %q:\n%s", want, top)
		}
	}
	// Server commands find the run directory in KAELOAD_RUN_DIR.
	if strings.Contains(top, "probe rundir failed") {
		t.Errorf("a server command did not find the run directory in %s:\n%s", RunDirEnv, top)
	}
	var sum struct {
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("JSON summary: %v\n%s", err, out)
	}
	if got := strings.Join(sum.Warnings, "\n"); !strings.Contains(got, "probe hpre_send failed") || !strings.Contains(got, "`send_cnt:\\s*(\\d+)`") {
		t.Errorf("JSON summary's warnings lack the probes (or double the pattern's backslashes):\n%s", got)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	_, banner, _ := strings.Cut(string(page), `id="warnings"`)
	banner, _, _ = strings.Cut(banner, "</div>")
	banner = html.UnescapeString(banner)
	if !strings.Contains(banner, "probe hpre_send failed") || !strings.Contains(banner, "send_cnt:\\s*(\\d+)") {
		t.Errorf("report.html's warnings banner lacks the probes:\n%s", banner)
	}
}
