// Package promtest runs a real Prometheus for tests (/opt/prom, PATH or
// $KAELOAD_PROMETHEUS) on a private port and data directory, scraping a
// test's targets every second. Without it tests skip, but under CI=true.
package promtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/kaeload/kaeload/internal/testkit"
)

// Find returns the path of the Prometheus tool name (prometheus, promtool):
// on PATH, in $KAELOAD_PROMETHEUS (a directory or a file in it) or where
// .ci/run extracts Debian's package. Without it the test skips (fails under CI=true).
func Find(t testing.TB, name string) string {
	t.Helper()
	env := os.Getenv("KAELOAD_PROMETHEUS")
	if fi, err := os.Stat(env); err == nil && !fi.IsDir() {
		env = filepath.Dir(env)
	}
	return testkit.NeedCommand(t, name, "$KAELOAD_PROMETHEUS, or where .ci/run extracts Debian's prometheus package",
		filepath.Join(env, name), filepath.Join("/opt/prom/usr/bin", name))
}

// Prometheus is a running Prometheus: scraping the targets of Scrape
// every second, or serving a data directory (Serve).
type Prometheus struct {
	URL     string // the HTTP API's base, "http://127.0.0.1:PORT"
	targets string
	log     testkit.LockedBuffer
}

// Start runs a Prometheus that scrapes, every second, the targets the
// test gives Scrape (file service discovery: none at first). It is
// stopped at the test's cleanup.
func Start(t testing.TB) *Prometheus {
	t.Helper()
	dir := t.TempDir()
	targets := filepath.Join(dir, "targets.json")
	testkit.WriteFile(t, targets, "[]")
	cfg := fmt.Sprintf(`global: {scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1m}
scrape_configs:
  - job_name: kaeload
    file_sd_configs: [{files: [%q], refresh_interval: 1s}]
`, targets)
	return run(t, dir, cfg, targets)
}

// Serve runs a Prometheus that scrapes nothing over the data directory
// dir (blocks promtool created there), for queries.
func Serve(t testing.TB, dir string) *Prometheus {
	t.Helper()
	return run(t, dir, "global: {evaluation_interval: 1m}\n", "")
}

func run(t testing.TB, dir, cfg, targets string) *Prometheus {
	bin := Find(t, "prometheus")
	cfgFile := filepath.Join(t.TempDir(), "prometheus.yml")
	testkit.WriteFile(t, cfgFile, cfg)
	addr := testkit.FreeAddr(t)
	p := &Prometheus{URL: "http://" + addr, targets: targets}
	cmd := exec.Command(bin, "--config.file="+cfgFile, "--storage.tsdb.path="+dir, "--web.listen-address="+addr,
		"--log.level=warn", "--storage.tsdb.retention.time=10y", "--web.console.templates=", "--web.console.libraries=")
	cmd.Stdout, cmd.Stderr = &p.log, &p.log
	ready := func() bool {
		resp, err := http.Get(p.URL + "/-/ready")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == http.StatusOK
	}
	if err := testkit.StartServer(t, cmd, nil, 30*time.Second, ready); err != nil {
		t.Fatalf("prometheus did not start: %v\n%s", err, p.Log())
	}
	return p
}

// Log is what Prometheus wrote so far.
func (p *Prometheus) Log() string { return p.log.String() }

// Scrape makes addrs (host:port) the targets scraped; none stops the
// scraping.
func (p *Prometheus) Scrape(t testing.TB, addrs ...string) {
	t.Helper()
	b, _ := json.Marshal([]map[string]any{{"targets": append([]string{}, addrs...)}})
	tmp := p.targets + ".tmp"
	testkit.WriteFile(t, tmp, b)
	if err := os.Rename(tmp, p.targets); err != nil {
		t.Fatal(err)
	}
}

// Sample is one series of a query's answer: its labels and value.
type Sample struct {
	Labels map[string]string
	Value  float64
}

// Query evaluates an instant query at at (now when zero) and returns the
// vector it gives.
func (p *Prometheus) Query(t testing.TB, q string, at time.Time) []Sample {
	t.Helper()
	v := url.Values{"query": {q}}
	if !at.IsZero() {
		v.Set("time", strconv.FormatFloat(float64(at.UnixNano())/1e9, 'f', 3, 64))
	}
	resp, err := http.Get(p.URL + "/api/v1/query?" + v.Encode())
	if err != nil {
		t.Fatalf("query %s: %v", q, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var out struct {
		Status, Error string
		Data          struct{ Result model.Vector }
	}
	if err := json.Unmarshal(body, &out); err != nil || out.Status != "success" {
		t.Fatalf("query %s: %v %s %s", q, err, out.Error, body)
	}
	var samples []Sample
	for _, r := range out.Data.Result {
		labels := map[string]string{}
		for k, v := range r.Metric {
			labels[string(k)] = string(v)
		}
		samples = append(samples, Sample{Labels: labels, Value: float64(r.Value)})
	}
	return samples
}
