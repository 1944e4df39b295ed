package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/target"
)

// commandLog gives p one variant per env, named a, b, c, …, whose start
// and stop commands only append "start NAME[ K]" / "stop NAME[ K]" to a
// file (the server is the always-ready built-in target or whatever p
// targets), and returns a function reading the file's lines joined by ", ".
func commandLog(t *testing.T, p *plans.Plan, envs ...map[string]string) func() string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "commands")
	p.Server = &plans.Server{
		Host:           "local",
		Ready:          plans.Ready{Kind: "tcp", Addr: p.Target.Addr, Interval: 20 * time.Millisecond, Timeout: 5 * time.Second},
		CommandTimeout: 5 * time.Second,
	}
	p.Variants = nil
	for i, env := range envs {
		name := string(rune('a' + i))
		e := map[string]string{"V": name}
		for k, v := range env {
			e[k] = v
		}
		p.Variants = append(p.Variants, plans.Variant{
			Name:  name,
			Env:   e,
			Start: fmt.Sprintf(`echo "start $V${K:+ $K}" >> %s`, file),
			Stop:  fmt.Sprintf(`echo "stop $V${K:+ $K}" >> %s`, file),
		})
	}
	return func() string {
		b, err := os.ReadFile(file)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return strings.Join(strings.Split(strings.TrimSpace(string(b)), "\n"), ", ")
	}
}

// TestInterleavedCooldown runs two variants × two repetitions interleaved:
// the server restarts for every repetition (A B A B, one window per
// start), every pause between windows lasts at least the cooldown, and the
// variants' probes are read around each window — a counting probe moves,
// a failing one is recorded with its error without failing the run.
func TestInterleavedCooldown(t *testing.T) {
	endToEndOnce(t, "interleaved order and cooldown against nginx")
	needCPUs(t, 1)
	p := builtinPlan(300*time.Millisecond, []int{0})
	p.Load.Warmup = 100 * time.Millisecond
	p.Repeat = 2
	p.Order = results.OrderInterleaved
	// Well over the pause the echo-only stop and start leave anyway
	// (0.25 s on a loaded 2-CPU machine), so that a missing cooldown shows.
	p.Cooldown = 700 * time.Millisecond
	calls := commandLog(t, p, nil, nil)
	counter := filepath.Join(t.TempDir(), "counter")
	for i := range p.Variants {
		p.Variants[i].Probes = []plans.Probe{
			// Counts its own reads: 1 before, 2 after the first window, …
			{Name: "reads", Command: fmt.Sprintf(`n=$(( $(cat %[1]s 2>/dev/null || echo 0) + 1 )); echo $n > %[1]s; echo "reads: $n"`, counter), Pattern: `reads: (\d+)`},
			{Name: "broken", Command: "echo 'no counter here' >&2; exit 4"},
		}
	}
	run, log := runLogged(t, p)
	if got, want := calls(), "stop a, start a, stop a, stop b, start b, stop b, stop a, start a, stop a, stop b, start b, stop b"; got != want {
		t.Errorf("server commands\n got %q\nwant %q", got, want)
	}
	type window struct {
		variant string
		rep     int
		w       results.Window
	}
	var windows []window
	for _, v := range run.Variants {
		if got, want := len(v.Reps), 2; got != want {
			t.Fatalf("variant %s: %d reps, want %d", v.Name, got, want)
		}
		for i, r := range v.Reps {
			if r.Index != i {
				t.Errorf("variant %s: rep %d has Index %d", v.Name, i, r.Index)
			}
			windows = append(windows, window{v.Name, r.Index, r.Total.Window})
		}
	}
	// Sort by start; the order must be a0 b0 a1 b1.
	for i := range windows {
		for j := i + 1; j < len(windows); j++ {
			if windows[j].w.Start.Before(windows[i].w.Start) {
				windows[i], windows[j] = windows[j], windows[i]
			}
		}
	}
	var order []string
	for _, w := range windows {
		order = append(order, fmt.Sprintf("%s%d", w.variant, w.rep))
	}
	if got, want := strings.Join(order, " "), "a0 b0 a1 b1"; got != want {
		t.Errorf("windows in order %q, want %q", got, want)
	}
	for i := 1; i < len(windows); i++ {
		// The pause runs from the end of one window to the start of the
		// next one's load, which begins a warm-up before its window.
		pause := windows[i].w.Start.Add(-p.Load.Warmup).Sub(windows[i-1].w.End)
		if pause < p.Cooldown {
			t.Errorf("pause before window %s: %s, want ≥ cooldown %s", order[i], pause, p.Cooldown)
		}
	}
	// Probe readings: windows are read in order, two reads each.
	for _, w := range windows {
		var rep results.Rep
		for _, v := range run.Variants {
			if v.Name == w.variant {
				rep = v.Reps[w.rep]
			}
		}
		n := 0
		for i, o := range order {
			if o == fmt.Sprintf("%s%d", w.variant, w.rep) {
				n = i
			}
		}
		if got, want := rep.Probes["reads"], (results.ProbeReading{Before: float64(2*n + 1), After: float64(2*n + 2)}); got != want {
			t.Errorf("window %s: probe reads = %+v, want %+v", order[n], got, want)
		}
		b := rep.Probes["broken"]
		if !strings.Contains(b.Error, "exit status 4") || !strings.Contains(b.Error, "no counter here") || b.Before != 0 || b.After != 0 {
			t.Errorf("window %s: probe broken = %+v, want the error with exit status 4 and its output", order[n], b)
		}
	}
	if !strings.Contains(log.String(), "variant a rep 1/2: probe broken failed (recorded, not fatal)") {
		t.Errorf("run log does not mention the failed probe:\n%s", log)
	}
}

// TestStartFailures: a start command that fails and one whose server never
// becomes ready give up on the variant soon (within the ready timeout):
// no worker starts, nothing is left running, and the run (not an error)
// says why in one line — the command's first line of output, or why it
// never became ready — while the log keeps the whole story.
func TestStartFailures(t *testing.T) {
	needCPUs(t, 1)
	const readyTimeout = 700 * time.Millisecond
	tests := []struct {
		name   string
		start  string // PIDFILE: a pid file
		stop   string
		reason string // ADDR: the ready address
		log    []string
	}{
		{"exits non-zero", `echo "nginx: [emerg] cannot load certificate \"/x/a.crt\"" >&2; echo "nginx: configuration file /x/a.conf test failed"; exit 3`, `true`,
			`server start failed: nginx: [emerg] cannot load certificate "/x/a.crt"`,
			[]string{`variant a: server start command "echo \"nginx: [emerg]`, "failed: exit status 3", "last output:\n    nginx: [emerg] cannot load certificate \"/x/a.crt\"\n    nginx: configuration file /x/a.conf test failed"}},
		{"daemon never ready", `sleep 60 & echo $! > PIDFILE`, `kill $(cat PIDFILE)`,
			"server start failed: not ready after 700ms (tcp probe): dial tcp ADDR: connect: connection refused",
			[]string{"variant a: server start ", "not ready after 700ms (tcp probe)"}},
		{"foreground never ready", `echo $$ > PIDFILE; exec sleep 60`, ``,
			"server start failed: not ready after 700ms (tcp probe): dial tcp ADDR: connect: connection refused",
			[]string{"variant a: server start ", "not ready after 700ms (tcp probe)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			p := builtinPlan(300*time.Millisecond, []int{0})
			commandLog(t, p, nil)
			p.Server.Ready.Addr = testkit.FreeAddr(t) // nothing listens there
			p.Server.Ready.Timeout = readyTimeout
			p.Variants[0].Start = strings.ReplaceAll(tt.start, "PIDFILE", pidFile)
			p.Variants[0].Stop = strings.ReplaceAll(tt.stop, "PIDFILE", pidFile)
			opts := testOptions(t, "1")
			log := &testkit.LockedBuffer{}
			opts.Log = log
			workers := 0
			opts.hooks.workerStart = func(int, int) { workers++ }
			start := time.Now()
			run, err := Run(context.Background(), p, opts)
			took := time.Since(start)
			if err != nil {
				t.Fatalf("Run: %v, want the variant given up on and no error\n%s", err, log)
			}
			want := []results.NotMeasured{{Variant: "a", Reason: strings.ReplaceAll(tt.reason, "ADDR", p.Server.Ready.Addr)}}
			if got := run.NotMeasured; !slices.Equal(got, want) {
				t.Errorf("NotMeasured\n got %q\nwant %q", got, want)
			}
			for _, s := range tt.log {
				if !strings.Contains(log.String(), s) {
					t.Errorf("log does not contain %q:\n%s", s, log)
				}
			}
			if took > readyTimeout+3*time.Second {
				t.Errorf("Run took %s to give up, want about the ready timeout %s", took, readyTimeout)
			}
			if workers != 0 {
				t.Errorf("%d workers started for a server that never came up", workers)
			}
			if len(run.Variants) != 0 || run.Interrupted {
				t.Errorf("run = %+v, want one with no variants, not interrupted", run)
			}
			if b, err := os.ReadFile(pidFile); err == nil {
				pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				if left := waitGone([]int{pid}, 2*time.Second); len(left) > 0 {
					t.Errorf("the start command's process %d still runs after Run returned", pid)
				}
			} else if tt.name != "exits non-zero" {
				t.Errorf("start command left no pid file: %v", err)
			}
		})
	}
}

// TestStartFailureGoesOn runs three variants in the default order
// (randomized, a new seed each time), two rounds: a's start command
// fails; c's fails only after something else (the always-ready built-in
// target, like an old server still shutting down) answered the readiness
// probe and a window was measured. Both are given up on at their first
// start — never started again, c's window discarded — while b is
// measured in full, and the run records why, in one line each.
func TestStartFailureGoesOn(t *testing.T) {
	endToEndOnce(t, "a variant whose server fails, then one that runs")
	needCPUs(t, 1)
	p := builtinPlan(300*time.Millisecond, []int{0})
	p.Load.Warmup = 100 * time.Millisecond
	p.Repeat = 2
	p.Order = results.OrderRandomized // unseeded: Run draws one
	calls := commandLog(t, p, nil, nil, nil)
	flag := filepath.Join(t.TempDir(), "flag")
	file := p.Variants[1].Start[strings.LastIndex(p.Variants[1].Start, ">> ")+3:] // commandLog's file
	p.Variants[0].Start = fmt.Sprintf(`echo "start a" >> %s; echo 'nginx: [emerg] cannot load certificate "/x/a.crt"' >&2; exit 1`, file)
	// c stays in the foreground until its window's worker starts (the
	// flag), then fails as a daemonizing nginx does.
	p.Variants[2].Start = fmt.Sprintf(`echo "start c" >> %s; while [ ! -e %s ]; do sleep 0.01; done; echo 'nginx: [emerg] bind() to 127.0.0.1:443 failed (98: Address already in use)' >&2; exit 1`, file, flag)
	opts := testOptions(t, "1")
	log := &testkit.LockedBuffer{}
	opts.Log = log
	opts.hooks.workerStart = func(int, int) {
		if lines := strings.Split(calls(), ", "); lines[len(lines)-1] == "start c" {
			if err := os.WriteFile(flag, nil, 0o644); err != nil {
				t.Error(err)
			}
		}
	}
	run, err := Run(context.Background(), p, opts)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, log)
	}
	t.Logf("seed %d; server commands: %s", run.Seed, calls())
	got := slices.Clone(run.NotMeasured)
	slices.SortFunc(got, func(x, y results.NotMeasured) int { return strings.Compare(x.Variant, y.Variant) })
	want := []results.NotMeasured{
		{Variant: "a", Reason: `server start failed: nginx: [emerg] cannot load certificate "/x/a.crt"`},
		{Variant: "c", Reason: "server start failed: nginx: [emerg] bind() to 127.0.0.1:443 failed (98: Address already in use)"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("NotMeasured\n got %q\nwant %q", got, want)
	}
	var measured []string
	for _, v := range run.Variants {
		measured = append(measured, fmt.Sprintf("%s×%d", v.Name, len(v.Reps)))
	}
	if got, want := strings.Join(measured, " "), "b×2"; got != want {
		t.Fatalf("measured %q, want %q (b alone, both repetitions)\n%s", got, want, log)
	}
	for _, v := range []string{"a", "c"} {
		if n := strings.Count(calls(), "start "+v); n != 1 {
			t.Errorf("variant %s started %d times, want once: given up on at its first failure (%s)", v, n, calls())
		}
	}
	if !strings.Contains(log.String(), "variant c rep 1/2 discarded: the server's start command failed meanwhile") {
		t.Errorf("log does not say that c's window was discarded:\n%s", log)
	}
}

// nginxSite is a private nginx directory for server-control tests: one
// configuration and certificate per variant, one pid file, an access log
// per variant.
type nginxSite struct {
	bin, dir, addr string
}

// newNginxSite prepares configurations named after the certificate kinds
// (each with its own certificate and access log "access-KIND.log") on one
// free loopback port. masterOff runs nginx as one process, whose environ
// is not overwritten by a process title.
func newNginxSite(t *testing.T, masterOff bool, certs ...string) *nginxSite {
	t.Helper()
	s := &nginxSite{bin: nginxtest.Binary(t), dir: t.TempDir(), addr: testkit.FreeAddr(t)}
	for _, d := range []string{"tmp", "www"} {
		if err := os.Mkdir(filepath.Join(s.dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(s.dir, "www", "index.html"), []byte(strings.Repeat("kaeload server test\n", 30)), 0o644); err != nil {
		t.Fatal(err)
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;"
	}
	master := "on"
	if masterOff {
		master = "off"
	}
	for _, c := range certs {
		cert, key, err := target.GenerateCert(c)
		if err != nil {
			t.Fatal(err)
		}
		for name, b := range map[string][]byte{c + ".crt": cert, c + ".key": key} {
			if err := os.WriteFile(filepath.Join(s.dir, name), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		conf := fmt.Sprintf(`daemon on; master_process %[4]s; worker_processes 1; %[3]s
pid %[1]s/nginx.pid; error_log %[1]s/error.log warn;
events { worker_connections 1024; }
http {
  log_format kaeload '$msec $status $ssl_session_reused $ssl_protocol $ssl_cipher $bytes_sent $connection $connection_requests';
  client_body_temp_path %[1]s/tmp; proxy_temp_path %[1]s/tmp; fastcgi_temp_path %[1]s/tmp; uwsgi_temp_path %[1]s/tmp; scgi_temp_path %[1]s/tmp;
  server {
    listen %[2]s ssl;
    ssl_certificate %[1]s/%[5]s.crt; ssl_certificate_key %[1]s/%[5]s.key;
    ssl_protocols TLSv1.2 TLSv1.3; ssl_session_cache off; ssl_session_tickets off;
    access_log %[1]s/access-%[5]s.log kaeload;
    root %[1]s/www; location / { }
  }
}
`, s.dir, s.addr, user, master, c)
		if err := os.WriteFile(filepath.Join(s.dir, c+".conf"), []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { // a last resort when a test failed half-way
		if b, err := os.ReadFile(filepath.Join(s.dir, "nginx.pid")); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && testkit.Alive(pid) {
				t.Errorf("nginx (pid %d) still running at the end of the test; killing it", pid)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	return s
}

// start is the start command for configuration conf, pinned with taskset
// when cpus is not "".
func (s *nginxSite) start(conf, cpus string) string {
	cmd := fmt.Sprintf("%s -e %s/error.log -p %s -c %s/%s.conf", s.bin, s.dir, s.dir, s.dir, conf)
	if cpus != "" {
		cmd = "taskset -c " + cpus + " " + cmd
	}
	return cmd
}

// stop is a stop command that ends nginx and waits until it has gone (it
// removes its pid file on exit); with nothing running it succeeds.
func (s *nginxSite) stop() string {
	return fmt.Sprintf(`pidf=%s/nginx.pid; [ -e $pidf ] || exit 0; kill -TERM "$(cat $pidf)" || exit 0
i=0; while [ -e $pidf ]; do sleep 0.05; i=$((i+1)); if [ $i -ge 200 ]; then echo "nginx did not exit within 10s" >&2; exit 1; fi; done`, s.dir)
}

// serverPlan is plan against the site, with server control on and no
// variants yet.
func serverPlan(s *nginxSite, dur time.Duration, cpus ...[]int) *plans.Plan {
	p := plan(s.addr, dur, cpus...)
	p.Variants = nil
	p.Server = &plans.Server{
		Host:           "local",
		Ready:          plans.Ready{Kind: "tls", Addr: s.addr, Interval: 20 * time.Millisecond, Timeout: 5 * time.Second},
		CommandTimeout: 15 * time.Second,
	}
	return p
}

// TestSweepEnv: a sweep of three values runs three variants, and each
// variant's env reached the server process — a probe reads it back from
// /proc/<nginx pid>/environ, so the reading equals the swept value. The
// results keep the sweep's series and values; no nginx is left running.
func TestSweepEnv(t *testing.T) {
	endToEndOnce(t, "sweep values in the server's env")
	needCPUs(t, 1)
	site := newNginxSite(t, true, "ecdsa-p256")
	p := serverPlan(site, 300*time.Millisecond, nil)
	p.Load.Warmup = 100 * time.Millisecond
	pidFile := filepath.Join(site.dir, "nginx.pid")
	ratios := []string{"0", "33", "100"}
	for _, r := range ratios {
		p.Variants = append(p.Variants, plans.Variant{
			Name:   "soft-" + r,
			Env:    map[string]string{"KAE_SOFT_RATIO": r, "OPENSSL_CONF": "/dev/null"},
			Vars:   map[string]string{"ratio": r},
			Start:  site.start("ecdsa-p256", ""),
			Stop:   site.stop(),
			Series: "soft-{ratio}",
			Sweep:  map[string]string{"ratio": r},
			Probes: []plans.Probe{
				{Name: "ratio", Command: fmt.Sprintf(`tr '\0' '\n' < /proc/$(cat %s)/environ | grep '^KAE_SOFT_RATIO='`, pidFile), Pattern: `KAE_SOFT_RATIO=(\d+)`},
				{Name: "pid", Command: "cat " + pidFile},
			},
		})
	}
	run, _ := runLogged(t, p)
	if got, want := len(run.Variants), len(ratios); got != want {
		t.Fatalf("run has %d variants, want %d", got, want)
	}
	var pids []int
	for i, v := range run.Variants {
		r := ratios[i]
		if got, want := v.Name, "soft-"+r; got != want {
			t.Errorf("variant %d: name %q, want %q", i, got, want)
		}
		if got, want := fmt.Sprintf("%s %v %v", v.Series, v.Sweep, v.Env), fmt.Sprintf("soft-{ratio} map[ratio:%s] map[KAE_SOFT_RATIO:%s OPENSSL_CONF:/dev/null]", r, r); got != want {
			t.Errorf("variant %d: series, sweep, env = %s, want %s", i, got, want)
		}
		rep := v.Reps[0]
		want, _ := strconv.ParseFloat(r, 64)
		if got := rep.Probes["ratio"]; got.Error != "" || got.Before != want || got.After != want {
			t.Errorf("variant %s: the server's KAE_SOFT_RATIO read %+v, want %v before and after", v.Name, got, want)
		}
		pid := rep.Probes["pid"]
		if pid.Error != "" || pid.Before == 0 || pid.Before != pid.After {
			t.Errorf("variant %s: nginx pid read %+v, want one pid before and after", v.Name, pid)
		}
		pids = append(pids, int(pid.Before))
		if rep.Total.Requests == 0 || rep.Total.Errors.Total() != 0 {
			t.Errorf("variant %s: %d requests, %d errors; want some and none", v.Name, rep.Total.Requests, rep.Total.Errors.Total())
		}
	}
	if pids[0] == pids[1] || pids[1] == pids[2] {
		t.Errorf("nginx pids %v: want a new server for every variant", pids)
	}
	// The stop command returns once nginx has removed its pid file, which
	// it does just before it exits: allow it a moment to finish exiting.
	if left := waitGone(pids, 2*time.Second); len(left) > 0 {
		t.Errorf("nginx %v still running 2 s after Run returned", left)
	}
}

// TestRefusedTarget: with nothing listening on a target kaeload does not
// control, the run stops before any load — no worker started — within
// about a second, though its warm-up and window would take 35 s, and
// says that nothing listens.
func TestRefusedTarget(t *testing.T) {
	p := plan(testkit.FreeAddr(t), 30*time.Second, nil)
	p.Load.Warmup = 5 * time.Second
	opts := testOptions(t, "1")
	workers := 0
	opts.hooks.workerStart = func(int, int) { workers++ }
	start := time.Now()
	run, err := Run(context.Background(), p, opts)
	took := time.Since(start)
	if err == nil {
		t.Fatal("Run succeeded against a closed port")
	}
	t.Logf("after %s: %v", took.Round(time.Millisecond), err)
	for _, s := range []string{"target " + p.Target.Addr + ": nothing listens on it", "3 connections within 1s were refused", "connection refused", "no load was sent"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not contain %q", err, s)
		}
	}
	if workers != 0 {
		t.Errorf("%d workers started, want none", workers)
	}
	if took > 5*time.Second {
		t.Errorf("Run took %s, want about a second (the warm-up alone is %s)", took, p.Load.Warmup)
	}
	if run != nil && len(run.Variants) != 0 {
		t.Errorf("run has variants %+v, want none measured", run.Variants)
	}
}

// TestCalibrateStartFails: repeat: auto cannot estimate the noise when the
// baseline's server does not start; Calibrate says so instead of reporting
// "no noise estimate".
func TestCalibrateStartFails(t *testing.T) {
	p := builtinPlan(300*time.Millisecond, nil)
	commandLog(t, p, nil)
	p.Variants[0].Start = `echo "nginx: [emerg] cannot load certificate" >&2; exit 1`
	_, err := Calibrate(context.Background(), p, 3, 0.05, 10, testOptions(t, "1"))
	if want := "calibration: variant a not measured: server start failed: nginx: [emerg] cannot load certificate"; err == nil || err.Error() != want {
		t.Errorf("Calibrate: %v, want %q", err, want)
	}
}
