package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kaeload/kaeload/metrics"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/htmlreport"
	"github.com/kaeload/kaeload/results/render"
	"github.com/kaeload/kaeload/runner"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestRunNotWrittenAfterRun: once runner.Run returns, nothing writes the
// Run (issue 37, must show 4). A copy is kept, every output is rendered
// and the live metrics are scraped, and the Run still equals the copy.
func TestRunNotWrittenAfterRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "once.yaml")
	scenario := "name: once\ntarget:\n  builtin: {cert: ecdsa-p256}\nload:\n  connection: close\n  duration: 500ms\n  warmup: 200ms\n  interval: 250ms\n  groups:\n    - connections: 2\nrepeat: 2\n"
	if err := os.WriteFile(path, []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	plan, err := compile(path, nil, []string{"req/s >= 1"}, false)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := metrics.Listen(plans.Metrics{Listen: "127.0.0.1:0", Linger: 100 * time.Millisecond}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	st, err := newStore(filepath.Join(t.TempDir(), "run"), "")
	if err != nil {
		t.Fatal(err)
	}
	opts := runner.Options{Executable: os.Args[0], Env: []string{"KAELOAD_TEST_MAIN=1"}, ProgressMode: runner.ProgressOff,
		Outputs: []runner.Output{srv, st}, About: about(path, "", nil)}
	r, err := runner.Run(context.Background(), plan, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.end(r); err != nil {
		t.Fatal(err)
	}
	before := encode(t, r)
	if r.Metrics == nil || len(r.Thresholds) != 1 || r.Kaeload == "" {
		t.Fatalf("the runner's record lacks a fact: metrics %v, thresholds %v, kaeload %q", r.Metrics, r.Thresholds, r.Kaeload)
	}

	m := analysis.Analyze(r)
	outputs := map[string]func(io.Writer, *analysis.Report) error{
		"text": render.WriteText, "md": render.WriteMarkdown, "csv": render.WriteCSV, "summary": render.WriteSummaryJSON,
		"speed": render.WriteSpeedCSV, "html": htmlreport.Write,
		"json":        func(w io.Writer, m *analysis.Report) error { return results.WriteJSON(w, m.Run) },
		"openmetrics": func(w io.Writer, m *analysis.Report) error { return metrics.WriteOpenMetrics(w, m) },
	}
	for name, write := range outputs {
		if err := write(io.Discard, m); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := dirFiles(r); err != nil {
		t.Error(err)
	}
	req, _ := http.NewRequest("GET", "http://"+srv.Addr()+"/metrics", nil)
	req.Header.Set(metrics.ScrapeHeader, "10")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(body, []byte("kaeload_requests_total")) {
		t.Errorf("scrape: no kaeload_requests_total in %d bytes", len(body))
	}

	if after := encode(t, r); !bytes.Equal(after, before) {
		i := 0
		for i < min(len(before), len(after)) && before[i] == after[i] {
			i++
		}
		t.Errorf("the Run changed after runner.Run returned, at byte %d: was %q, now %q",
			i, before[max(0, i-80):min(len(before), i+80)], after[max(0, i-80):min(len(after), i+80)])
	}
}

// encode is a deep copy of r, as run.json holds it.
func encode(t *testing.T, r *results.Run) []byte {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
