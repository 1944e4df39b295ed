package metrics

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	"github.com/kaeload/kaeload/internal/promtest"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/runner"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// hist returns a histogram of the values in microseconds.
func histUS(values ...int64) *results.Histogram {
	h := results.NewHistogram()
	for _, v := range values {
		h.Record(time.Duration(v) * time.Microsecond)
	}
	return h
}

// sample is group interval k: ok successes, one TLS error, handshakes
// of 1.2 ms and 30 ms.
func sample(k int, ok uint64) results.IntervalSample {
	s := results.IntervalSample{K: k, Start: time.Duration(k) * time.Second, Length: time.Second, Requests: ok, Started: ok + 1,
		Handshake: histUS(1200, 30000), Total: histUS(2000, 40000), Process: &results.CPUUsage{Seconds: 0.25}}
	s.Errors[results.ErrTLS] = 1
	return s
}

// testPlan is a plan of two groups.
func testPlan() *plans.Plan {
	return &plans.Plan{Load: plans.Load{Groups: []plans.Group{{}, {}}, Interval: time.Second}}
}

// serve starts a Server for a run of windows wins (variant a), its
// windows planned.
func serve(t *testing.T, cfg plans.Metrics, wins int) (*Server, *results.Run) {
	t.Helper()
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	s, err := Listen(cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	r := &results.Run{Name: "t", Started: time.Date(2026, 12, 2, 13, 45, 0, 0, time.UTC), Variants: []results.Variant{{Name: "a"}}}
	_, _ = s.Start(r, testPlan())
	var ids []runner.WindowID
	for i := range wins {
		ids = append(ids, runner.WindowID{Variant: "a", Rep: i})
	}
	s.plan(ids)
	return s, r
}

// get scrapes s with accept (the text format when ""), as Prometheus
// when prom.
func get(t *testing.T, s *Server, accept string, prom bool) string {
	t.Helper()
	b, err := scrape(s, accept, prom)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// scrape is get for a goroutine other than the test's: it returns its error.
func scrape(s *Server, accept string, prom bool) (string, error) {
	req, _ := http.NewRequest("GET", "http://"+s.Addr()+"/metrics", nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if prom {
		req.Header.Set(ScrapeHeader, "1")
	}
	req.Header.Set("Accept-Encoding", "identity") // no gzip: cheaper
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		return "", fmt.Errorf("scrape: %v %s\n%s", err, resp.Status, b)
	}
	return string(b), nil
}

// window is the window of rep 0 with its hosts, as beforeLoad gets it.
var lw0 = runner.LiveWindow{WindowID: runner.WindowID{Variant: "a"}, Groups: 2, ServerHost: "local",
	TCPHosts: []results.TCPHost{{Name: "local", Client: true, Server: true, Shared: true}}}

// value reads one series' value from a text exposition.
func value(t *testing.T, text, series string) string {
	t.Helper()
	for line := range strings.Lines(text) {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("no series %s in\n%s", series, text)
	return ""
}

// TestZerosThenIntervals: before the load every series of a window is 0;
// an interval shows only once every group has reported it; the window's
// end sets run.json's counts; the label names are the bounded set; the
// output passes promtool's lint; and the series stay within the budget.
func TestZerosThenIntervals(t *testing.T) {
	s, _ := serve(t, plans.Metrics{}, 2)
	if err := s.beforeLoad(context.Background(), lw0); err != nil {
		t.Fatal(err)
	}
	zeros := get(t, s, "", false)
	for line := range strings.Lines(zeros) {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "kaeload_run_info") || strings.HasPrefix(line, "kaeload_build_info") {
			continue
		}
		if !strings.HasSuffix(line, " 0\n") {
			t.Errorf("before the load: %s, want 0", strings.TrimSpace(line))
		}
	}
	ok0 := `kaeload_requests_total{group="0",phase="window",rep="0",result="ok",run="20261202T134500Z-t",variant="a"}`
	w := runner.WindowID{Variant: "a"}
	s.intervalClosed(w, runner.LiveReading{K: 0, Group: 0, Sample: new(sample(0, 100))})
	s.intervalClosed(w, runner.LiveReading{K: 0, Group: -1, ServerCPU: &results.CPUUsage{Seconds: 0.5}})
	if got := value(t, get(t, s, "", false), ok0); got != "0" {
		t.Errorf("one group of two reported interval 0: %s = %s, want 0 (the interval shows whole)", ok0, got)
	}
	s.intervalClosed(w, runner.LiveReading{K: 0, Group: 1, Sample: new(sample(0, 50))})
	text := get(t, s, "", false)
	iv := new(sample(0, 100)).Interval() // the group's interval as the timeline keeps it
	for _, c := range []struct{ series, want string }{
		{ok0, "100"},
		{`kaeload_errors_total{class="tls",group="1",phase="window",rep="0",run="20261202T134500Z-t",variant="a"}`, "1"},
		{`kaeload_server_cpu_seconds_total{host="local",rep="0",run="20261202T134500Z-t",variant="a"}`, "0.5"},
		{`kaeload_handshake_seconds_count{phase="window",rep="0",run="20261202T134500Z-t",variant="a"}`, "4"},
		{`kaeload_handshake_seconds_bucket{phase="window",rep="0",run="20261202T134500Z-t",variant="a",le="0.002"}`, "2"},
		{`kaeload_interval_requests_per_second{group="1",rep="0",run="20261202T134500Z-t",variant="a"}`, "50"},
		{`kaeload_interval_handshake_seconds{group="0",rep="0",run="20261202T134500Z-t",variant="a",quantile="0.99"}`, strconv.FormatFloat(iv.HandshakeP99.Seconds(), 'g', -1, 64)},
		{`kaeload_interval_handshake_seconds_count{group="0",rep="0",run="20261202T134500Z-t",variant="a"}`, "2"},
	} {
		if got := value(t, text, c.series); got != c.want {
			t.Errorf("%s = %s, want %s", c.series, got, c.want)
		}
	}
	g := results.Group{Index: 0}
	g.Requests = 123
	g.Errors[results.ErrStatus].Count = 3
	g.Outside.Late = 7
	rep := results.NewRep(0, []results.Group{g, {Index: 1}})
	s.windowEnded(w, &rep)
	text = get(t, s, "", false)
	if got := value(t, text, ok0); got != "120" {
		t.Errorf("after the window: %s = %s, want run.json's succeeded 120", ok0, got)
	}
	if got := value(t, text, strings.Replace(ok0, "window", "after", 1)); got != "7" {
		t.Errorf("after: %s, want outside.late 7", got)
	}

	allowed := []string{"run", "variant", "rep", "phase", "group", "result", "class", "side", "host", "rule", "quantile", "le", "name", "baseline", "version", "goversion"}
	series := 0
	for _, m := range regexp.MustCompile(`(?m)^kaeload_\w+\{([^}]*)\}`).FindAllStringSubmatch(text, -1) {
		series++
		for _, pair := range strings.Split(m[1], `",`) {
			if name, _, _ := strings.Cut(pair, "="); !slices.Contains(allowed, name) {
				t.Errorf("label %s outside the bounded set in %s", name, m[0])
			}
		}
	}
	// Per window of 2 groups and 1 TCP host: 2×(3 phases×(2+7) + 4)
	// + 5 histograms×17 + server + 16 counters + 6 rules + 2.
	if budget := 2 + 2*(2*(3*9+4)+5*17+1+16+6+2); series > budget {
		t.Errorf("%d series, over the budget of %d", series, budget)
	}
	om := get(t, s, "application/openmetrics-text; version=1.0.0", false)
	if !strings.HasSuffix(om, "# EOF\n") || !strings.Contains(om, "# TYPE kaeload_requests counter") {
		t.Errorf("no OpenMetrics exposition:\n%.300s", om)
	}
	// promtool lints the text format (it does not parse OpenMetrics).
	// The kernel counters keep node_exporter's names (TcpExt_ListenOverflows),
	// which its camelCase rule flags in node_exporter too: those lines
	// alone are allowed.
	cmd := exec.Command(promtest.Find(t, "promtool"), "check", "metrics")
	cmd.Stdin = strings.NewReader(text)
	out, _ := cmd.CombinedOutput()
	for line := range strings.Lines(string(out)) {
		if strings.HasPrefix(line, netstatPrefix) && strings.HasSuffix(line, "metric names should be written in 'snake_case' not 'camelCase'\n") {
			continue
		}
		t.Errorf("promtool check metrics: %s", strings.TrimSpace(line))
	}
}

// TestNativeBuckets: asked for protobuf (Prometheus with native
// histograms on), a histogram carries native buckets beside the classic
// ones, holding the same count.
func TestNativeBuckets(t *testing.T) {
	s, _ := serve(t, plans.Metrics{}, 1)
	w := runner.WindowID{Variant: "a"}
	for g := range 2 {
		s.intervalClosed(w, runner.LiveReading{K: 0, Group: g, Sample: new(sample(0, 10))})
	}
	req, _ := http.NewRequest("GET", "http://"+s.Addr()+"/metrics", nil)
	req.Header.Set("Accept", `application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited`)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	dec := expfmt.NewDecoder(resp.Body, expfmt.ResponseFormat(resp.Header))
	found := false
	for {
		var mf dto.MetricFamily
		if err := dec.Decode(&mf); err != nil {
			break
		}
		if mf.GetName() != famHandshake.name {
			continue
		}
		for _, m := range mf.Metric {
			h := m.GetHistogram()
			if !slices.ContainsFunc(m.Label, func(l *dto.LabelPair) bool { return l.GetValue() == "window" }) {
				continue
			}
			found = true
			var native int64
			d := int64(0)
			for _, x := range h.PositiveDelta {
				d += x
				native += d
			}
			if h.GetSchema() != nativeSchema || uint64(native) != h.GetSampleCount() || len(h.Bucket) != len(Bounds) || h.GetSampleCount() != 4 {
				t.Errorf("schema %d, native buckets hold %d, classic buckets %d, count %d; want %d, the count, %d, 4",
					h.GetSchema(), native, len(h.Bucket), h.GetSampleCount(), nativeSchema, len(Bounds))
			}
		}
	}
	if !found {
		t.Fatal("no window handshake histogram in the protobuf exposition")
	}
}

// TestStalledScraper: scrapers that stall (never read) or disconnect
// mid-scrape hold nothing of the run: while scrapes hang on scrapers
// that read nothing, every interval is still published; once
// they are gone a scrape reads the latest values; and no stalled or
// cut-off scrape counts as served.
func TestStalledScraper(t *testing.T) {
	if raceOn {
		t.Skip("megabytes of scrapes: slow under the race detector; the concurrency is raced by the other tests")
	}
	s, _ := serve(t, plans.Metrics{}, 100)
	// More than the server's send buffer (4 MB at most) and a 4 KB
	// receive buffer can take: a scraper that reads nothing stalls it.
	perWindow := len(get(t, s, "", false)) / 100
	var ids []runner.WindowID
	for i := 100; i < 100+(8<<20)/perWindow; i++ {
		ids = append(ids, runner.WindowID{Variant: "a", Rep: i})
	}
	s.plan(ids)
	w := runner.WindowID{Variant: "a", Rep: 0}
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	const stalls = 2
	var stalled []net.Conn
	for range stalls {
		c, err := d.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "GET /metrics HTTP/1.1\r\nHost: x\r\n"+ScrapeHeader+": 1\r\n\r\n")
		stalled = append(stalled, c)
	}
	deadline := time.Now().Add(time.Minute)
	for s.inflight.Load() < stalls {
		if time.Now().After(deadline) {
			t.Fatalf("%d scrapes in flight, want %d stalled", s.inflight.Load(), stalls)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for k := range 50 {
		for g := range 2 {
			s.intervalClosed(w, runner.LiveReading{K: k, Group: g, Sample: new(sample(k, 1))})
		}
	}
	if n := s.inflight.Load(); n != stalls {
		t.Fatalf("%d scrapes in flight after publishing, want the %d stalled ones still hanging", n, stalls)
	}
	// One reads a little and hangs up; the others are cut off.
	bufio.NewReader(stalled[0]).ReadString('\n')
	for _, c := range stalled {
		c.Close()
	}
	var text string
	for {
		req, _ := http.NewRequest("GET", "http://"+s.Addr()+"/metrics", nil)
		req.Header.Set("Accept-Encoding", "identity")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 {
				text = string(b)
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no good scrape after the stalled ones: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ok := `kaeload_requests_total{group="1",phase="window",rep="0",result="ok",run="20261202T134500Z-t",variant="a"}`
	if got := value(t, text, ok); got != "50" {
		t.Errorf("%s = %s, want 50: every interval published while the scrapers hung", ok, got)
	}
	if n := s.scraped(); n != 0 {
		t.Errorf("%d Prometheus scrapes served, want 0 (the stalled and the cut-off ones were not)", n)
	}
}

// TestEndLinger: without a scrape the end waits the linger and no more,
// and the record says the final values were not scraped; a scrape after
// them ends the wait and is recorded.
func TestEndLinger(t *testing.T) {
	const linger = 300 * time.Millisecond
	s, _ := serve(t, plans.Metrics{Linger: linger}, 1)
	began := time.Now()
	m := s.end(context.Background())
	if took := time.Since(began); took < linger || took > linger+2*time.Second {
		t.Errorf("End took %s without a scraper, want the linger %s", took, linger)
	}
	if m.End.WasScraped() || m.Linger != linger || m.Port == 0 {
		t.Errorf("record %+v: want not scraped, linger %s, a port", m, linger)
	}

	s, _ = serve(t, plans.Metrics{Linger: time.Minute}, 1)
	done := make(chan *results.Metrics)
	go func() { done <- s.end(context.Background()) }()
	time.Sleep(20 * time.Millisecond)
	get(t, s, "", false) // not Prometheus: does not count
	select {
	case <-done:
		t.Fatal("a request without Prometheus's header ended the wait")
	case <-time.After(100 * time.Millisecond):
	}
	get(t, s, "", true)
	select {
	case m := <-done:
		if !m.End.WasScraped() || m.Scrapes != 1 || m.Others != 1 {
			t.Errorf("record %+v: want scraped, 1 scrape, 1 other request", m)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a Prometheus scrape did not end the wait")
	}
}

// TestWaitForZeros: with metrics.wait the first load starts only after a
// scrape read the zeros, and fails without one.
func TestWaitForZeros(t *testing.T) {
	s, _ := serve(t, plans.Metrics{Wait: 200 * time.Millisecond}, 1)
	err := s.beforeLoad(context.Background(), lw0)
	if err == nil || !strings.Contains(err.Error(), "no Prometheus scrape") || !strings.Contains(err.Error(), "no load was sent") {
		t.Errorf("no scraper: %v, want the run to fail before the load", err)
	}

	// The scrape's body may still be on its way when the wait ends: the test
	// waits for it before its cleanup closes the server.
	s, _ = serve(t, plans.Metrics{Wait: time.Minute}, 1)
	scraped := make(chan error, 1)
	go func() {
		time.Sleep(50 * time.Millisecond)
		_, err := scrape(s, "", true)
		scraped <- err
	}()
	if err := s.beforeLoad(context.Background(), lw0); err != nil {
		t.Errorf("with a scrape: %v", err)
	}
	if err := <-scraped; err != nil {
		t.Errorf("the scrape: %v", err)
	}
}

// TestListenBusy: an address in use is an error at Listen, before
// anything runs.
func TestListenBusy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, err := Listen(plans.Metrics{Listen: ln.Addr().String()}, nil); err == nil || !strings.Contains(err.Error(), "address already in use") {
		t.Errorf("Listen on a busy port: %v, want address already in use", err)
	}
}
