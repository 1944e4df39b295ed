package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/rundir"
)

// TestStartFailureNginx runs three variants of real nginx in the default
// order (randomized, unseeded): good; nocert, whose
// scenario-level start command — with its own vars — points nginx at a
// certificate that does not exist; and badstart, whose own start: fails.
// The run goes on to measure good and exits 3; every output names
// both variants as not measured, with the first line the command printed
// (nginx's "[emerg] cannot load certificate …"): the text report, the JSON
// summary, run.json, summary.csv, report.html, and `kaeload report`
// re-rendering the run directory as text and Markdown.
func TestStartFailureNginx(t *testing.T) {
	alongside(t)
	addr := testkit.FreeAddr(t)
	dir, start, stop := nginxDir(t, addr)
	conf, err := os.ReadFile(filepath.Join(dir, "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.pem")
	if err := os.WriteFile(filepath.Join(dir, "nocert.conf"), []byte(strings.Replace(string(conf), filepath.Join(dir, "cert.pem"), missing, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	start = strings.Replace(start, "/nginx.conf", "/{conf}.conf", 1)
	scenario := writeScenario(t, fmt.Sprintf(`name: startfail
target: {url: "https://%[1]s/"}
load:
  connection: close
  warmup: 100ms
  duration: 300ms
  timeout: 1s
  groups: [{connections: 2}]
server:
  start: %[2]q
  stop: %[3]q
  ready: {tls: %[1]q, timeout: 10s}
variants:
  - name: good
    vars: {conf: nginx}
  - name: nocert
    vars: {conf: nocert}
  - name: badstart
    vars: {conf: nginx}
    start: "echo 'openssl: engine kae: not found' >&2; exit 1"
`, addr, start, stop))
	run := filepath.Join(t.TempDir(), "run")
	began := time.Now()
	out, errOut, code := kaeload(t, "run", scenario, "-o", run, "--progress", "off", "--format", "json")
	t.Logf("exit %d after %s\nstderr:\n%s", code, time.Since(began).Round(time.Millisecond), errOut)
	if code != 3 {
		t.Fatalf("exit status %d, want 3 (the run completed, two variants not measured)", code)
	}
	nocert := fmt.Sprintf(`variant nocert: server start failed: nginx: [emerg] cannot load certificate "%s"`, missing)
	badstart := "variant badstart: server start failed: openssl: engine kae: not found"
	has := func(what, doc string, wants ...string) {
		t.Helper()
		for _, w := range wants {
			if !strings.Contains(doc, w) {
				t.Errorf("%s lacks %q:\n%s", what, w, doc)
			}
		}
	}
	has("the text report (stderr)", errOut, "NOT MEASURED: "+nocert, "NOT MEASURED: "+badstart)
	has("the exit message", errOut, "kaeload: variant failed: not measured: variant ")

	var sum struct {
		NotMeasured []results.NotMeasured `json:"not_measured"`
		Variants    []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("JSON summary: %v\n%s", err, out)
	}
	var names []string
	for _, nm := range sum.NotMeasured {
		names = append(names, nm.Variant)
		has("the JSON summary's reason for "+nm.Variant, "variant "+nm.Variant+": "+nm.Reason, map[string]string{"nocert": nocert, "badstart": badstart}[nm.Variant])
	}
	if slices.Sort(names); !slices.Equal(names, []string{"badstart", "nocert"}) {
		t.Errorf("JSON summary not_measured names %q, want badstart and nocert", names)
	}
	if len(sum.Variants) != 1 || sum.Variants[0]["name"] != "good" || sum.Variants[0]["reps"] != 1.0 {
		t.Errorf("JSON summary variants %+v: want good alone, with its repetition", sum.Variants)
	}

	stored, err := readRun(run)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(stored.NotMeasured); got != 2 {
		t.Errorf("run.json holds %d not-measured variants, want 2", got)
	}
	text, errText, c := kaeload(t, "report", run)
	if c != 0 {
		t.Fatalf("report: exit %d\n%s", c, errText)
	}
	has("`kaeload report` (text)", text, "NOT MEASURED: "+nocert, "NOT MEASURED: "+badstart)
	md, errText, c := kaeload(t, "report", run, "--format", "md")
	if c != 0 {
		t.Fatalf("report --format md: exit %d\n%s", c, errText)
	}
	has("`kaeload report --format md`", md, "**NOT MEASURED:** variant nocert: server start failed: nginx: \\[emerg\\] cannot load certificate", "**NOT MEASURED:** "+badstart)
	html, err := os.ReadFile(filepath.Join(run, rundir.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	has("report.html", string(html), `id="not-measured"`, "variant nocert: server start failed: nginx: [emerg] cannot load certificate &#34;"+missing+"&#34;", badstart, "yes, but not every variant was measured")
	f, err := os.Open(filepath.Join(run, rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	failed := slices.Index(rows[0], "failed")
	cells := map[string]string{}
	for _, row := range rows[1:] {
		cells[row[0]] = row[failed]
	}
	has("summary.csv's nocert row", cells["nocert"], "not measured: "+strings.TrimPrefix(nocert, "variant nocert: "))
	has("summary.csv's badstart row", cells["badstart"], "not measured: "+strings.TrimPrefix(badstart, "variant badstart: "))
}

// TestURLModeRefused: a URL nothing listens on stops the run at once,
// before any load, with a non-zero exit, though its warm-up and window
// would take 35 s; it leaves no run directory (one would hold only "no
// variants") and says so.
func TestURLModeRefused(t *testing.T) {
	alongside(t)
	addr := testkit.FreeAddr(t)
	parent := t.TempDir()
	began := time.Now()
	out, errOut, code := kaeload(t, "run", "https://"+addr+"/", "-d", "30", "--warmup", "5", "-c", "4", "--progress", "off", "--results", parent)
	took := time.Since(began)
	t.Logf("exit %d after %s\nstdout:\n%s\nstderr:\n%s", code, took.Round(time.Millisecond), out, errOut)
	if code != 1 {
		t.Errorf("exit status %d, want 1 (the work could not be done)", code)
	}
	if ents, err := os.ReadDir(parent); err != nil || len(ents) != 0 {
		t.Errorf("--results %s holds %v (%v), want no run directory", parent, ents, err)
	}
	for _, want := range []string{"target " + addr + ": nothing listens on it", "no load was sent", "no window was measured, so no run directory is kept"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	if strings.Contains(errOut, "worker 0 ready") {
		t.Errorf("a worker was started:\n%s", errOut)
	}
	if took > 10*time.Second {
		t.Errorf("took %s, want a few seconds (the warm-up alone is 5 s)", took)
	}
}
