package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/examples/grafana"
	"github.com/kaeload/kaeload/internal/promtest"
	"github.com/kaeload/kaeload/results/rundir"
)

// metricsScenario is two variants of two groups on the built-in target,
// with windows a 1 s scrape sees several times.
const metricsScenario = `name: live
target: {builtin: {}}
load: {duration: 2s, warmup: 500ms, layout: {groups: 2, cpus_per_group: 1, threads: 1, connections: 2}}
order: sequential
variants: [{name: a}, {name: b}]
`

// startRun starts "kaeload run" with args in the background and returns
// the metrics address it prints, and a func that waits for it to end.
func startRun(t *testing.T, args ...string) (string, func() (string, int)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "KAELOAD_TEST_MAIN=1")
	var out bytes.Buffer
	cmd.Stdout = &out
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	re := regexp.MustCompile(`live metrics on http://([^/]+)/metrics \(port (\d+)\)`)
	var log strings.Builder
	addr := ""
	for addr == "" && lines.Scan() {
		log.WriteString(lines.Text() + "\n")
		if m := re.FindStringSubmatch(lines.Text()); m != nil {
			addr = m[1]
		}
	}
	rest := make(chan struct{})
	go func() {
		for lines.Scan() {
			log.WriteString(lines.Text() + "\n")
		}
		close(rest)
	}()
	wait := func() (string, int) {
		defer cancel()
		<-rest
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return log.String() + out.String(), code
	}
	if addr == "" {
		out, code := wait()
		t.Fatalf("no metrics address printed (exit %d):\n%s", code, out)
	}
	return addr, wait
}

// TestMetricsPrometheus: a real Prometheus scrapes a run of two variants
// and two groups every second. What it stored equals run.json exactly,
// last interval included (last_over_time of the window's counters, per
// variant, repetition and group); every series starts at 0; the series
// stay within budget; run.json and the report say the final values were
// scraped; every panel and annotation of the Grafana dashboard returns
// data; and the stored run written as OpenMetrics and imported with
// promtool gives the same totals.
func TestMetricsPrometheus(t *testing.T) {
	alongside(t)
	prom := promtest.Start(t)
	dir := t.TempDir()
	scen := filepath.Join(dir, "live.yaml")
	if err := os.WriteFile(scen, []byte(metricsScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(dir, "run")
	addr, wait := startRun(t, "run", scen, "-o", runDir, "--progress", "off", "--metrics", "127.0.0.1:0", "--metrics-wait", "30s")
	prom.Scrape(t, addr)
	out, code := wait()
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, prom.Log())
	}
	r, err := rundir.ReadRunFile(runDir, rundir.JournalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := r.Metrics
	if m == nil || m.Addr != addr || !m.End.WasScraped() || len(m.Windows) != 2 || len(m.Unscraped()) != 0 {
		t.Fatalf("run.json's metrics %+v: want %s, the end and both windows scraped", m, addr)
	}
	if !strings.Contains(out, "the final values were scraped at") {
		t.Errorf("the report does not say the final values were scraped:\n%s", out)
	}
	run := rundir.DefaultDirName(r.Started, r.Name)
	at := m.End.Scraped.Add(time.Second) // the last scrape is in

	// Exact: every variant, repetition and group.
	got := map[string]float64{}
	for _, s := range prom.Query(t, fmt.Sprintf(`last_over_time(kaeload_requests_total{run=%q,phase="window",result="ok"}[10m])`, run), at) {
		got[s.Labels["variant"]+"/"+s.Labels["rep"]+"/"+s.Labels["group"]] = s.Value
	}
	want := map[string]float64{}
	for _, v := range r.Variants {
		for _, rep := range v.Reps {
			for gi, g := range rep.Groups {
				want[fmt.Sprintf("%s/%d/%d", v.Name, rep.Index, gi)] = float64(g.Succeeded())
			}
		}
	}
	if len(want) != 4 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Prometheus stored %v, run.json holds %v", got, want)
	}
	// Every series starts at 0 (the run's info is 1 from the start).
	names := prom.Query(t, fmt.Sprintf(`count by (__name__) ({__name__=~"kaeload_.+",__name__!="kaeload_run_info",run=%q})`, run), at)
	if len(names) < 20 {
		t.Errorf("%d metric names, want the set", len(names))
	}
	for _, n := range names {
		name := n.Labels["__name__"]
		if bad := prom.Query(t, fmt.Sprintf(`min_over_time(%s{run=%q}[10m]) != 0`, name, run), at); len(bad) > 0 {
			t.Errorf("%s: %d series did not start at 0, e.g. %v (min %v)", name, len(bad), bad[0].Labels, bad[0].Value)
		}
	}
	// The series budget: per window of 2 groups and one TCP host, 2×31
	// counters and gauges, 5 histograms of 17 series, 25 more.
	if n := prom.Query(t, fmt.Sprintf(`count({__name__=~"kaeload_.+",run=%q})`, run), m.Windows[1].Final); len(n) != 1 || n[0].Value > 2*(2*(3*9+4+2)+5*17+25)+1 {
		t.Errorf("series: %v, over the budget", n)
	}
	t.Run("dashboard", func(t *testing.T) { dashboardQueries(t, prom, run, m.Windows[1].Final) })
	t.Run("openmetrics", func(t *testing.T) { importOpenMetrics(t, runDir, want, run, at) })
}

// dashboardQueries runs every panel's and annotation's query of the
// Grafana dashboard, its variables set to the run, against prom at the
// end of the last window: each must return data (an annotation's series,
// before the comparison that picks where it fires).
func dashboardQueries(t *testing.T, prom *promtest.Prometheus, run string, at time.Time) {
	var d struct {
		Panels []struct {
			Title   string                  `json:"title"`
			Targets []struct{ Expr string } `json:"targets"`
		} `json:"panels"`
		Annotations struct {
			List []struct{ Name, Expr string } `json:"list"`
		} `json:"annotations"`
	}
	if err := json.Unmarshal(grafana.Dashboard, &d); err != nil {
		t.Fatal(err)
	}
	vars := strings.NewReplacer("$run", run, "$variant", ".*", "$rep", ".*", "$group", ".*", "$__rate_interval", "4s", "$__range", "10m")
	n := 0
	check := func(where, expr string) {
		n++
		if got := prom.Query(t, vars.Replace(expr), at); len(got) == 0 {
			t.Errorf("%s: %s returns no data", where, expr)
		}
	}
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			check("panel "+p.Title, tg.Expr)
		}
	}
	for _, a := range d.Annotations.List {
		// An annotation marks where its comparison holds (a diagnosis
		// fired): the series it compares must have data.
		series, _, _ := strings.Cut(a.Expr, " == ")
		check("annotation "+a.Name, series)
	}
	if n < 10 {
		t.Errorf("%d queries, want the dashboard's", n)
	}
}

// importOpenMetrics writes the stored run as OpenMetrics, imports it
// with promtool and checks the window's totals in a Prometheus serving
// the blocks.
func importOpenMetrics(t *testing.T, runDir string, want map[string]float64, run string, at time.Time) {
	stdout, stderr, code := kaeload(t, "report", runDir, "--format", "openmetrics")
	if code != 0 {
		t.Fatalf("report --format openmetrics: exit %d: %s", code, stderr)
	}
	file := filepath.Join(t.TempDir(), "run.om")
	if err := os.WriteFile(file, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	blocks := t.TempDir()
	if out, err := exec.Command(promtest.Find(t, "promtool"), "tsdb", "create-blocks-from", "openmetrics", file, blocks).CombinedOutput(); err != nil {
		t.Fatalf("promtool tsdb create-blocks-from openmetrics: %v\n%s", err, out)
	}
	prom := promtest.Serve(t, blocks)
	got := map[string]float64{}
	for _, s := range prom.Query(t, fmt.Sprintf(`last_over_time(kaeload_requests_total{run=%q,phase="window",result="ok"}[10m])`, run), at) {
		got[s.Labels["variant"]+"/"+s.Labels["rep"]+"/"+s.Labels["group"]] = s.Value
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("imported: %v, run.json holds %v", got, want)
	}
}

// TestMetricsNotScraped: a run whose endpoint nobody scrapes ends at most
// the linger after its final values, and its report says they were not
// scraped.
func TestMetricsNotScraped(t *testing.T) {
	alongside(t)
	const linger = time.Second
	dir := t.TempDir()
	scen := filepath.Join(dir, "live.yaml")
	small := strings.Replace(metricsScenario, "duration: 2s, warmup: 500ms", "duration: 500ms, warmup: 100ms", 1)
	small = strings.Replace(small, "variants: [{name: a}, {name: b}]", "variants: [{name: a}]", 1)
	if err := os.WriteFile(scen, []byte(small), 0o644); err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(dir, "run")
	stdout, stderr, code := kaeload(t, "run", scen, "-o", runDir, "--progress", "off", "--metrics", "127.0.0.1:0", "--metrics-linger", linger.String())
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	r, err := rundir.ReadRunFile(runDir, rundir.JournalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := r.Metrics
	if m == nil || m.End.WasScraped() || m.Scrapes != 0 || m.Port == 0 {
		t.Fatalf("metrics record %+v: want a port, no scrape", m)
	}
	if held := r.Finished.Sub(m.End.Final); held < linger || held > linger+time.Second {
		t.Errorf("the end waited %s after the final values, want the linger %s (and not much more)", held, linger)
	}
	if !strings.Contains(stdout, "the final values were NOT scraped") {
		t.Errorf("the report does not say the final values were not scraped:\n%s", stdout)
	}
}

// TestMetricsBadAddress: an address in use or not this machine's is exit
// 2 naming the flag, before any load.
func TestMetricsBadAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, addr := range []string{ln.Addr().String(), "192.0.2.1:9464", "localhost"} {
		_, stderr, code := kaeload(t, "run", "../../examples/quickstart.yaml", "--no-save", "--progress", "off", "--metrics", addr)
		if code != 2 || !strings.Contains(stderr, "--metrics "+addr) || strings.Contains(stderr, "ready: pid") {
			t.Errorf("--metrics %s: exit %d, want 2 naming the flag before any worker started:\n%s", addr, code, stderr)
		}
	}
}
