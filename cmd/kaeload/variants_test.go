package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/render"
	"github.com/kaeload/kaeload/results/stats"
	"github.com/kaeload/kaeload/target"
)

// nginxDir writes a daemonizing nginx configuration (RSA-2048, TLS on
// addr, pid file DIR/nginx.pid, no session reuse) and returns its
// directory and the start and stop commands for a scenario.
func nginxDir(t *testing.T, addr string) (dir, start, stop string) {
	t.Helper()
	bin := nginxtest.Binary(t)
	dir = t.TempDir()
	cert, key, err := target.GenerateCert("rsa2048")
	if err != nil {
		t.Fatal(err)
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;"
	}
	conf := fmt.Sprintf(`daemon on; master_process on; worker_processes 1; %[3]s
pid %[1]s/nginx.pid; error_log %[1]s/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path %[1]s; proxy_temp_path %[1]s; fastcgi_temp_path %[1]s; uwsgi_temp_path %[1]s; scgi_temp_path %[1]s;
  server {
    listen %[2]s ssl;
    ssl_certificate %[1]s/cert.pem; ssl_certificate_key %[1]s/key.pem;
    ssl_session_cache off; ssl_session_tickets off;
    location / { return 200 "kaeload\n"; }
  }
}
`, dir, addr, user)
	for name, b := range map[string][]byte{"cert.pem": cert, "key.pem": key, "nginx.conf": []byte(conf)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	start = fmt.Sprintf("%s -e %s/error.log -p %s -c %s/nginx.conf", bin, dir, dir, dir)
	// Ends nginx and waits until it is gone (it removes its pid file on
	// exit); with nothing running it succeeds.
	stop = fmt.Sprintf(`pidf=%s/nginx.pid; [ -e $pidf ] || exit 0; kill -TERM "$(cat $pidf)" || exit 0; i=0; while [ -e $pidf ]; do sleep 0.05; i=$((i+1)); if [ $i -ge 200 ]; then echo "nginx did not exit" >&2; exit 1; fi; done`, dir)
	t.Cleanup(func() {
		if pid := pidOf(dir); pid != 0 && testkit.Alive(pid) {
			t.Errorf("nginx (pid %d) still running at the end of the test; killing it", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return dir, start, stop
}

// pidOf returns the pid in dir/nginx.pid, or 0.
func pidOf(dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, "nginx.pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// TestInterruptStopsServer sends SIGINT to `kaeload run` in the middle of
// the second variant: the stop command runs (no nginx left), the first
// variant's results are reported, the run is marked interrupted, and the
// exit status is 130.
func TestInterruptStopsServer(t *testing.T) {
	alongside(t)
	addr := testkit.FreeAddr(t)
	dir, start, stop := nginxDir(t, addr)
	scenario := filepath.Join(t.TempDir(), "interrupt.yaml")
	yaml := fmt.Sprintf(`name: interrupt
target:
  url: https://%[1]s/
load:
  connection: close
  warmup: 200ms
  duration: 1s
  groups: [{connections: 4}]
server:
  start: %[2]q
  stop: %[3]q
  ready: {tls: %[1]q, timeout: 5s}
  command_timeout: 15s
order: sequential  # the interrupt lands in b's window, after a's
variants:
  - name: a
    env: {KAELOAD_T: "1"}
  - name: b
    env: {KAELOAD_T: "2"}
`, addr, start, stop)
	if err := os.WriteFile(scenario, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	var nginxPid int
	var signalled time.Time
	runDir := filepath.Join(t.TempDir(), "run")
	// Into b's window: the bars leave b's warm-up.
	inB := windowOf("variant b rep 1/1")
	var seen bool
	out, errOut, code := kaeloadWatch(t, func(line string, cmd *exec.Cmd) {
		if seen || !inB(line) {
			return
		}
		seen = true
		nginxPid = pidOf(dir)
		signalled = time.Now()
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Error(err)
		}
	}, "run", scenario, "--progress", "on", "--out", runDir)
	t.Logf("stdout:\n%s\nstderr:\n%s", out, errOut)
	// What was measured is kept, marked interrupted.
	if r, err := readRun(runDir); err != nil {
		t.Errorf("interrupted run not stored: %v", err)
	} else if !r.Interrupted || len(r.Variants) == 0 || len(r.Variants[0].Reps) != 1 {
		t.Errorf("stored run: interrupted %v, variants %d", r.Interrupted, len(r.Variants))
	}
	if !seen {
		t.Fatalf("the second variant's window never began (exit %d)", code)
	}
	if took := time.Since(signalled); took > 15*time.Second {
		t.Errorf("kaeload exited %s after SIGINT", took)
	}
	if code != 130 {
		t.Errorf("exit status %d, want 130 (interrupted)", code)
	}
	if nginxPid == 0 {
		t.Fatal("no nginx pid file while variant b ran")
	}
	if testkit.Alive(nginxPid) {
		t.Errorf("nginx (pid %d) still running after kaeload exited", nginxPid)
	}
	for _, want := range []string{"variant b: stopping the server", "[stop] $ pidf="} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	for _, want := range []string{"INTERRUPTED", "== variant a\n", "variant b rep 1/1 was interrupted and is not included"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	// b's window, cut short, is kept as a partial window, in no statistic.
	if strings.Contains(out, "== variant b\n") && !strings.Contains(out, "PARTIAL: variant b rep 1: interrupted after ") {
		t.Errorf("stdout reports variant b, which was interrupted, other than as a PARTIAL window")
	}
}

// TestLocalNginxExample runs examples/local-nginx.yaml — a private nginx
// on loopback, its certificate chosen per variant — on a free port with
// short windows and TLS 1.2 (whose cipher names the key type), through
// the same path as `kaeload run` (workers are this test binary running
// main), for the two variants the report must tell apart: ECDSA P-256 and
// RSA-4096, the baseline, listed last. ECDSA must beat RSA-4096, and the
// report must call it significant; nginx's per-variant access logs must
// show each variant served with the certificate it asked for: every line
// a full TLS 1.2 handshake with an ECDHE-ECDSA-* or ECDHE-RSA-* cipher,
// as many lines as responses the client read.
//
// The example's other variants (RSA-2048, and RSA-2048 with OpenSSL's
// assembly masked) start, serve their certificate with their env and
// stop in scenarios' TestLocalNginxExampleRuns.
//
// Significance needs each variant's windows to measure nginx, not the
// machine: a window in which nginx got less than half the CPU it got in
// another window of its variant (under -race, or while other processes
// took CPU 0) measures what else ran, so the significance check is then
// skipped, with the figures; the direction is required always.
func TestLocalNginxExample(t *testing.T) {
	const example = "../../examples/local-nginx.yaml"
	nginxtest.Binary(t)
	_, port, _ := net.SplitHostPort(testkit.FreeAddr(t))
	runDir := t.TempDir()
	sets := setFlags{
		{"vars.port", port},
		{"vars.run", runDir},
		{"target.tls.max_version", "1.2"},
		{"load.duration", "500ms"},
		{"load.warmup", "200ms"},
		{"variants", `[{name: "{cert}", sweep: {cert: [ecdsa-p256, rsa4096]}, vars: {label: "{cert}"}}]`},
		// The report compares every variant with the baseline: make it
		// RSA-4096, so the report itself must call ECDSA's lead significant.
		{"baseline", "rsa4096"},
		// Each start's readiness probe a request in the access log too.
		{"server.ready", `{https: "https://127.0.0.1:` + port + `/", timeout: 10s, interval: 50ms}`},
	}
	plan, err := compile(example, sets, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := runPlan(t, plan)
	rates := map[string][]float64{}
	var rsa4096, ecdsa string
	var starved []string
	for _, v := range r.Variants {
		rates[v.Name] = v.Rates()
		switch {
		case strings.Contains(v.Name, "4096"):
			rsa4096 = v.Name
		case strings.Contains(v.Name, "ecdsa") || strings.Contains(v.Name, "p256"):
			ecdsa = v.Name
		}
		var shares []float64 // nginx's CPU seconds per window second
		for _, rep := range v.Reps {
			if rep.Total.Requests == 0 || rep.Total.Errors.Total() != 0 {
				t.Errorf("variant %s rep %d: %d requests, %d errors", v.Name, rep.Index, rep.Total.Requests, rep.Total.Errors.Total())
			}
			if c := rep.ServerCPU; c != nil {
				shares = append(shares, c.Seconds/rep.Total.Window.Length().Seconds())
			}
		}
		if len(shares) != len(v.Reps) || slices.Min(shares) < slices.Max(shares)/2 {
			starved = append(starved, fmt.Sprintf("%s: nginx's CPU per window second %.2f", v.Name, shares))
		}
	}
	t.Logf("rates (req/s): %v", rates)
	if rsa4096 == "" || ecdsa == "" {
		t.Fatalf("variants %v: want one named for RSA-4096 and one for ECDSA P-256", rates)
	}
	c := stats.Compare(rates[rsa4096], rates[ecdsa])
	t.Logf("%s vs %s: %+.1f %%, p = %.2g (%s)", ecdsa, rsa4096, c.DeltaPct, c.PValue, c.Test)
	switch {
	case c.DeltaPct <= 0:
		t.Errorf("%s vs %s: %+.1f %%; want ECDSA faster", ecdsa, rsa4096, c.DeltaPct)
	case !c.Significant && len(starved) > 0:
		t.Logf("not significant, and not required to be: the machine starved nginx in some windows (%s)", strings.Join(starved, "; "))
	case !c.Significant:
		t.Errorf("%s vs %s: %+.1f %%, p = %.2g; want a significant difference", ecdsa, rsa4096, c.DeltaPct, c.PValue)
	default:
		// The report a user reads says so too.
		var text strings.Builder
		if err := render.WriteText(&text, analysis.Analyze(r)); err != nil {
			t.Fatal(err)
		}
		// The verdict is said below the table, on the variant's line.
		row := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(ecdsa) + `\s+verdict\s+\+[0-9.,]+ %, significant`)
		if !row.MatchString(text.String()) {
			t.Errorf("the comparison table does not call %s significant:\n%s", ecdsa, text.String())
		}
	}
	// A variant that measured the client (ECDSA is often CLIENT-BOUND on
	// a 2-CPU machine) is named best, or its difference significant, only
	// with those words in the same line of the report.
	m := analysis.Analyze(r)
	var text strings.Builder
	if err := render.WriteText(&text, m); err != nil {
		t.Fatal(err)
	}
	for _, v := range m.Summary.Variants {
		if v.ClientBoundReps == 0 {
			continue
		}
		for _, line := range strings.Split(text.String(), "\n") {
			named := strings.Contains(line, "best: "+v.Name+",") || (strings.HasPrefix(line, v.Name+" ") && strings.Contains(line, ", significant"))
			if named && !strings.Contains(line, "CLIENT-BOUND in ") {
				t.Errorf("%s is CLIENT-BOUND in %d of %d repetitions, yet this line names it without saying so:\n%s", v.Name, v.ClientBoundReps, v.Stats.N, line)
			}
		}
	}
	logged := map[string]uint64{}
	read := map[string]results.Counts{}
	for _, v := range r.Variants {
		want := "ECDHE-RSA-"
		if v.Name == ecdsa {
			want = "ECDHE-ECDSA-"
		}
		lines := nginxtest.ReadLog(t, filepath.Join(runDir, "access-"+v.Name+".log"))
		// The readiness probes (TLS 1.3, Go's default) are logged too.
		var probes uint64
		for _, l := range lines {
			if l.Protocol == "TLSv1.3" && !l.Reused {
				probes++
			} else if l.Protocol != "TLSv1.2" || !strings.HasPrefix(l.Cipher, want) || l.Reused {
				t.Errorf("access-%s.log: %s %s reused=%v, want a full TLSv1.2 handshake with %s*", v.Name, l.Protocol, l.Cipher, l.Reused, want)
				break
			}
		}
		var c results.Counts
		var ready uint64
		for _, rep := range v.Reps {
			c.Add(&rep.Total.Counts)
			if rep.Readiness != nil {
				ready += rep.Readiness.Requests
			}
		}
		if ready == 0 || probes != ready {
			t.Errorf("access-%s.log: %d readiness requests logged, %d counted; want the same, at least one", v.Name, probes, ready)
		}
		logged[v.Name], read[v.Name] = uint64(len(lines))-probes, c
	}
	for _, v := range r.Variants {
		testkit.SameResponses(t, "nginx (access-"+v.Name+".log, less the readiness requests)", logged[v.Name], read[v.Name])
	}
}
