package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/rundir"
)

// kaeloadWatch starts the CLI as a child process and calls on(line, cmd)
// for every stderr line as it comes. It returns the outputs and the exit
// code.
func kaeloadWatch(t *testing.T, on func(line string, cmd *exec.Cmd), args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "KAELOAD_TEST_MAIN=1")
	var out, errb testkit.LockedBuffer
	cmd.Stdout = &out
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		line := sc.Text()
		errb.Write([]byte(line + "\n"))
		on(line, cmd)
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("kaeload %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// silentListener accepts TCP connections and never writes or closes them
// until the test ends.
func silentListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	return ln.Addr().String()
}

// TestSilentListener: a server that accepts TCP and never answers must not
// look like a quiet success. The run reports the requests left unanswered
// at the window's end by stage, marks the variant FAILED in the report and
// in run.json, and exits 3.
func TestSilentListener(t *testing.T) {
	alongside(t)
	addr := silentListener(t)
	dir := filepath.Join(t.TempDir(), "run")
	out, errOut, code := kaeload(t, "run", writeScenario(t, fmt.Sprintf(`name: silent
target: {url: "https://%s/"}
load:
  connection: close
  warmup: 0s
  duration: 1s
  groups: [{connections: 4}]
`, addr)), "--progress", "off", "--out", dir)
	if code != 3 {
		t.Errorf("exit status %d, want 3 (a variant failed)\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"FAILED: default (see below)",
		"FAILED: no request succeeded in the window (unanswered at the window's end: 4 (connect 0, handshake 4, response 0))",
		"4 (connect 0, handshake 4, response 0) at the window's end",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "variant failed: default") {
		t.Errorf("stderr does not say which variant failed:\n%s", errOut)
	}
	r, err := readRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := analysis.Analyze(r).Failed; len(got) != 1 {
		t.Errorf("stored run: failed variants %v, want [default]", got)
	}
}

// TestNginx5xx: a server answering 503 gives status errors, never
// successes: the rate is 0, the variant fails, and kaeload's accounting
// still equals nginx's access log line for line.
func TestNginx5xx(t *testing.T) {
	ng := nginxtest.Start(t, nginxtest.Config{Location: "return 503;"})
	r := runScenario(t, fmt.Sprintf(`name: nginx-503
target: {url: "https://%s/index.html"}
load:
  connection: close
  warmup: 200ms
  duration: 1s
  groups: [{connections: 4}]
`, ng.Addr))
	rep := r.Variants[0].Reps[0]
	total := rep.Total
	if total.Requests == 0 {
		t.Fatal("no responses read")
	}
	if got, want := total.Errors[results.ErrStatus].Count, total.Requests; got != want {
		t.Errorf("status errors %d, want one per response (%d)", got, want)
	}
	if total.Succeeded() != 0 || total.Rate() != 0 {
		t.Errorf("succeeded %d, rate %v: a 503 is not a success", total.Succeeded(), total.Rate())
	}
	if rep.Failed == nil {
		t.Errorf("repetition not marked failed")
	}
	lines := ng.Log(t)
	for _, l := range lines {
		if l.Status != 503 {
			t.Fatalf("nginx logged status %d, want 503", l.Status)
		}
	}
	testkit.SameResponses(t, "nginx", uint64(len(lines)), total.Counts)
}

// TestNginxLimitReqPhases: nginx limiting requests to 200 r/s answers
// the excess with 503 in the warm-up as in the window. kaeload counts the
// warm-up's 503s as warm-up errors of class status, like the window's,
// and the phases' responses by status class add up to nginx's access log,
// status by status.
func TestNginxLimitReqPhases(t *testing.T) {
	ng := nginxtest.Start(t, nginxtest.Config{
		HTTP:     "limit_req_zone $server_port zone=kaeload:1m rate=200r/s;",
		Location: "limit_req zone=kaeload; limit_req_status 503;",
	})
	r := runScenario(t, fmt.Sprintf(`name: nginx-limit-req
target: {url: "https://%s/index.html"}
load:
  connection: close
  warmup: 500ms
  duration: 1s
  groups: [{connections: 8}]
`, ng.Addr))
	total := r.Variants[0].Reps[0].Total
	o := total.Outside
	if o.WarmupStatus[5] == 0 || o.WarmupClasses[results.ErrStatus] != o.WarmupStatus[5] {
		t.Errorf("warm-up: 5xx %d, status errors %d (errors %d); want the warm-up's 503s counted as status errors",
			o.WarmupStatus[5], o.WarmupClasses[results.ErrStatus], o.WarmupErrorTotal())
	}
	if total.Errors[results.ErrStatus].Count == 0 {
		t.Errorf("the window counted no 503: limit_req did not limit")
	}
	lines := ng.Log(t)
	logged := map[int]uint64{}
	for _, l := range lines {
		logged[l.Status/100]++
	}
	if o.Abandoned == 0 && o.WarmupErrors == 0 {
		for class := 1; class <= 5; class++ {
			if got, want := total.Status[class]+o.WarmupStatus[class]+o.LateStatus[class], logged[class]; got != want {
				t.Errorf("%dxx: window %d + warm-up %d + after %d = %d, nginx logged %d", class,
					total.Status[class], o.WarmupStatus[class], o.LateStatus[class], got, want)
			}
		}
	}
	testkit.SameResponses(t, "nginx", uint64(len(lines)), total.Counts)
}

// TestServerKilledMidWindow kills nginx (master and workers, SIGKILL) in
// the middle of the first variant's window and starts it again: the
// failures are counted by class, the slots back off while nothing listens
// (and the report says so), the window keeps its planned length, the
// repetition is marked FAILED, and the second variant runs and passes.
func TestServerKilledMidWindow(t *testing.T) {
	addr := testkit.FreeAddr(t)
	dir, start, stop := nginxDir(t, addr)
	scenario := writeScenario(t, fmt.Sprintf(`name: killed
target: {url: "https://%[1]s/"}
load:
  connection: close
  warmup: 100ms
  duration: 2s
  timeout: 1s
  groups: [{connections: 4}]
server:
  start: %[2]q
  stop: %[3]q
  ready: {tls: %[1]q, timeout: 10s}
order: sequential  # the kill lands in a's window: a runs first
variants:
  - name: a
  - name: b
`, addr, start, stop))
	var once sync.Once
	restarted := make(chan error, 1)
	inA := windowOf("variant a rep 1/1")
	out, errOut, code := kaeloadWatch(t, func(line string, _ *exec.Cmd) {
		if !inA(line) {
			return
		}
		once.Do(func() {
			go func() {
				// a's 2 s window has begun (the bars left its
				// warm-up): kill now, restart 300 ms later.
				pid := pidOf(dir)
				if pid == 0 {
					restarted <- fmt.Errorf("no nginx pid")
					return
				}
				// nginx's workers are its children: kill them and the
				// master, and wait until every one is gone (the last one
				// holding the listening socket releases the port).
				pids := []int{pid}
				if out, err := exec.Command("pgrep", "-P", fmt.Sprint(pid)).Output(); err == nil {
					for _, f := range strings.Fields(string(out)) {
						var p int
						fmt.Sscan(f, &p)
						pids = append(pids, p)
					}
				}
				for _, p := range pids {
					_ = syscall.Kill(p, syscall.SIGKILL)
				}
				for _, p := range pids {
					for testkit.Alive(p) {
						time.Sleep(10 * time.Millisecond)
					}
				}
				os.Remove(filepath.Join(dir, "nginx.pid"))
				time.Sleep(300 * time.Millisecond) // down for a while
				// A killed process's socket can outlive it by a moment:
				// retry while the port is still taken.
				var err error
				for i := 0; i < 50; i++ {
					var out []byte
					if out, err = exec.Command("sh", "-c", start).CombinedOutput(); err == nil {
						break
					} else {
						err = fmt.Errorf("%v: %s", err, out)
					}
					time.Sleep(50 * time.Millisecond)
				}
				restarted <- err
			}()
		})
	}, "run", scenario, "--progress", "on", "--no-save")
	if err := <-restarted; err != nil {
		t.Fatalf("restart nginx: %v", err)
	}
	t.Logf("stdout:\n%s", out)
	if code != 3 {
		t.Errorf("exit status %d, want 3 (variant a failed)\nstderr:\n%s", code, errOut)
	}
	// The report: variant a failed with connect (or reset/read) errors, b did not.
	a := section(out, "== variant a", "== variant b")
	b := section(out, "== variant b", "== comparison")
	if !strings.Contains(a, "FAILED: errors were") {
		t.Errorf("variant a not marked FAILED by its error share:\n%s", a)
	}
	if !regexp.MustCompile(`(?m)^\s+connect\s+[1-9]`).MatchString(a) {
		t.Errorf("variant a shows no connect errors while nginx was down:\n%s", a)
	}
	// While nginx was down its slots backed off instead of spinning, and
	// the report says so.
	if !regexp.MustCompile(`(?m)^BACKED OFF: connection slots waited [1-9][\d,]* times`).MatchString(a) {
		t.Errorf("variant a does not say that its slots backed off:\n%s", a)
	}
	if !regexp.MustCompile(`(?m)^window\s+2\.000 s$`).MatchString(a) {
		t.Errorf("variant a's window is not the planned 2 s:\n%s", a)
	}
	if strings.Contains(b, "FAILED") || !regexp.MustCompile(`(?m)^errors\s+0$`).MatchString(b) {
		t.Errorf("variant b, after the restart, should be clean:\n%s", b)
	}
}

// section returns the part of s from the line starting with from up to
// the line starting with to (or the end).
func section(s, from, to string) string {
	i := strings.Index(s, "\n"+from)
	if i < 0 {
		return ""
	}
	s = s[i+1:]
	if j := strings.Index(s, "\n"+to); j >= 0 {
		s = s[:j]
	}
	return s
}

// quickScenario is the built-in target with two repetitions of short
// windows, so that a test can act between the first and the second.
func quickScenario(t *testing.T) string {
	return writeScenario(t, `name: two-reps
target: {builtin: {cert: ecdsa-p256}}
load:
  connection: close
  warmup: 100ms
  duration: 1s
  groups: [{connections: 4}]
repeat: 2
cooldown: 1s
`)
}

// TestControllerSIGKILL kills `kaeload run` with SIGKILL after its first
// repetition: the journal keeps that repetition, `kaeload report DIR`
// shows it marked INCOMPLETE, and no worker outlives the controller.
func TestControllerSIGKILL(t *testing.T) {
	alongside(t)
	dir := filepath.Join(t.TempDir(), "run")
	var workers []int
	workerRe := regexp.MustCompile(`worker \d+ ready: pid (\d+)`)
	_, errOut, code := kaeloadWatch(t, func(line string, cmd *exec.Cmd) {
		if m := workerRe.FindStringSubmatch(line); m != nil {
			var pid int
			fmt.Sscan(m[1], &pid)
			workers = append(workers, pid)
		}
		if strings.Contains(line, "rep 1/2 done") {
			_ = cmd.Process.Kill()
		}
	}, "run", quickScenario(t), "--progress", "off", "--out", dir)
	if code != -1 {
		t.Logf("exit code %d (want killed)\n%s", code, errOut)
	}
	out, errOut, code := kaeload(t, "report", dir)
	if code != 0 {
		t.Fatalf("report of the killed run: exit %d\n%s", code, errOut)
	}
	if !strings.Contains(out, "INCOMPLETE:") || !strings.Contains(out, "repetition 1") || strings.Contains(out, "repetition 2") {
		t.Errorf("report of the killed run should show repetition 1 only, marked INCOMPLETE:\n%s", out)
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range workers {
		for testkit.Alive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if testkit.Alive(pid) {
			t.Errorf("worker pid %d outlived its killed controller", pid)
		}
	}
}

// TestResultsDirRemoved removes the run directory after the first
// repetition: the run goes on, the error says the results could not be
// stored, and the report with both repetitions is still printed.
func TestResultsDirRemoved(t *testing.T) {
	alongside(t)
	dir := filepath.Join(t.TempDir(), "run")
	out, errOut, code := kaeloadWatch(t, func(line string, _ *exec.Cmd) {
		if strings.Contains(line, "rep 1/2 done") {
			if err := os.RemoveAll(dir); err != nil {
				t.Error(err)
			}
		}
	}, "run", quickScenario(t), "--progress", "off", "--out", dir)
	if code != 1 {
		t.Errorf("exit status %d, want 1 (results not stored)", code)
	}
	if !strings.Contains(errOut, "results could not be stored") || !strings.Contains(errOut, dir) {
		t.Errorf("stderr does not say the results could not be stored in %s:\n%s", dir, errOut)
	}
	if !strings.Contains(out, "repetition 1") || !strings.Contains(out, "repetition 2") {
		t.Errorf("the report on stdout lacks a repetition:\n%s", out)
	}
}

// TestWorkerKilledKeepsReps kills the worker of the second repetition: the
// run fails naming the group, the stop command runs, and the first
// repetition is in the run directory.
func TestWorkerKilledKeepsReps(t *testing.T) {
	alongside(t)
	addr := testkit.FreeAddr(t)
	ndir, start, stop := nginxDir(t, addr)
	scenario := writeScenario(t, fmt.Sprintf(`name: worker-killed
target: {url: "https://%[1]s/"}
load:
  connection: close
  warmup: 100ms
  duration: 1s
  groups: [{connections: 4}]
repeat: 2
server:
  start: %[2]q
  stop: %[3]q
  ready: {tls: %[1]q, timeout: 10s}
`, addr, start, stop))
	dir := filepath.Join(t.TempDir(), "run")
	workerRe := regexp.MustCompile(`worker 0 ready: pid (\d+)`)
	second := false
	var nginxPid int
	_, errOut, code := kaeloadWatch(t, func(line string, _ *exec.Cmd) {
		if strings.Contains(line, "rep 1/2 done") {
			second = true
			nginxPid = pidOf(ndir)
		}
		if m := workerRe.FindStringSubmatch(line); m != nil && second {
			var pid int
			fmt.Sscan(m[1], &pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}, "run", scenario, "--progress", "off", "--out", dir)
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	if !strings.Contains(errOut, "group 0 (CPUs unpinned)") || !strings.Contains(errOut, "exited before its final record") {
		t.Errorf("the error does not name the group and what happened:\n%s", errOut)
	}
	if !strings.Contains(errOut, "variant default: stopping the server") {
		t.Errorf("the server was not stopped:\n%s", errOut)
	}
	if nginxPid != 0 && testkit.Alive(nginxPid) {
		t.Errorf("nginx (pid %d) still running", nginxPid)
	}
	r, err := readRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Variants) != 1 || len(r.Variants[0].Reps) != 1 || r.Incomplete {
		t.Errorf("stored run: %d variants, incomplete %v; want the first repetition, ended", len(r.Variants), r.Incomplete)
	}
}

// TestDoubleInterrupt sends SIGINT twice in the middle of a window: the
// second still lets the stop command end the server, the run exits 130,
// and the repetitions finished before are in the run directory. The stop
// command takes a second before it stops nginx, so the second signal,
// sent when the first is acknowledged, always lands in the teardown,
// however fast the machine.
func TestDoubleInterrupt(t *testing.T) {
	alongside(t)
	addr := testkit.FreeAddr(t)
	ndir, start, stop := nginxDir(t, addr)
	scenario := writeScenario(t, fmt.Sprintf(`name: double
target: {url: "https://%[1]s/"}
load:
  connection: close
  warmup: 100ms
  duration: 1s
  groups: [{connections: 4}]
repeat: 2
server:
  start: %[2]q
  stop: %[3]q
  ready: {tls: %[1]q, timeout: 10s}
`, addr, start, "sleep 1; "+stop))
	dir := filepath.Join(t.TempDir(), "run")
	var nginxPid int
	// Into the second window: the bars leave its warm-up.
	inSecond := windowOf("variant default rep 2/2")
	_, errOut, code := kaeloadWatch(t, func(line string, cmd *exec.Cmd) {
		switch {
		case nginxPid == 0 && inSecond(line):
			nginxPid = pidOf(ndir)
			_ = cmd.Process.Signal(os.Interrupt)
		case strings.Contains(line, "stopping the load and tearing down"):
			// The first was seen: the second once it no longer counts as
			// the same one (sameSignal).
			time.AfterFunc(2*sameSignal, func() { _ = cmd.Process.Signal(os.Interrupt) })
		}
	}, "run", scenario, "--progress", "on", "--out", dir)
	if code != 130 {
		t.Errorf("exit status %d, want 130\n%s", code, errOut)
	}
	if !strings.Contains(errOut, "aborting: stopping the server first") {
		t.Errorf("the second signal was not seen:\n%s", errOut)
	}
	if nginxPid == 0 {
		t.Fatal("no nginx pid")
	}
	if testkit.Alive(nginxPid) {
		t.Errorf("nginx (pid %d) still running after a double Ctrl-C", nginxPid)
	}
	r, err := readRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Variants) != 1 || len(r.Variants[0].Reps) != 1 || !r.Interrupted {
		t.Errorf("stored run: %d variants, interrupted %v; want the first repetition, interrupted", len(r.Variants), r.Interrupted)
	}
}

// TestSecretsStayOut runs a variant whose env holds a value marked
// secret, with a start command that prints it: the value reaches the
// server, but appears nowhere kaeload writes — stdout, stderr, run.json,
// the journal, run.log, summary.csv, report.html.
func TestSecretsStayOut(t *testing.T) {
	alongside(t)
	const secret = "s3cr3t-Pa55w0rd"
	addr := testkit.FreeAddr(t)
	ndir, start, stop := nginxDir(t, addr)
	seen := filepath.Join(t.TempDir(), "seen")
	scenario := writeScenario(t, fmt.Sprintf(`name: secrets
target: {url: "https://%[1]s/"}
load:
  connection: close
  warmup: 100ms
  duration: 500ms
  groups: [{connections: 2}]
server:
  start: 'echo "token is $KAE_TOKEN" && printf %%s "$KAE_TOKEN" > %[4]s && %[2]s'
  stop: %[3]q
  ready: {tls: %[1]q, timeout: 10s}
variants:
  - name: kae
    env:
      KAE_TOKEN: {value: %[5]q, secret: true}
      KAE_LEVEL: "3"
`, addr, start, stop, seen, secret))
	_ = ndir
	dir := filepath.Join(t.TempDir(), "run")
	out, errOut, code := kaeload(t, "run", scenario, "--progress", "off", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if b, err := os.ReadFile(seen); err != nil || string(b) != secret {
		t.Fatalf("the server did not get the secret: %q, %v", b, err)
	}
	if !strings.Contains(errOut, "token is <secret>") {
		t.Errorf("the start command's output is not in the log, redacted:\n%s", errOut)
	}
	places := map[string]string{"stdout": out, "stderr": errOut}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		places[e.Name()] = string(b)
	}
	for _, name := range []string{rundir.RunFile, rundir.JournalFile, rundir.LogFile, rundir.SummaryFile, rundir.ReportFile} {
		if _, ok := places[name]; !ok {
			t.Errorf("%s not written", name)
		}
	}
	for name, text := range places {
		if strings.Contains(text, secret) {
			t.Errorf("%s holds the secret value", name)
		}
	}
	if !strings.Contains(places[rundir.RunFile], "KAE_LEVEL") || !strings.Contains(out, "KAE_LEVEL=3") {
		t.Errorf("the non-secret env is not shown")
	}
}

// TestInterruptKeepsPartialWindow sends SIGINT 1.2 s into a 3 s window:
// the run exits 130, and `kaeload report` on its directory shows the
// window as PARTIAL, with about the 1.2 s it ran and what it counted,
// while no repetition (and no statistic) holds it.
func TestInterruptKeepsPartialWindow(t *testing.T) {
	alongside(t)
	scenario := filepath.Join(t.TempDir(), "partial.yaml")
	if err := os.WriteFile(scenario, []byte(`name: partial
target: {builtin: {cert: ecdsa-p256}}
load:
  connection: close
  warmup: 200ms
  duration: 3s
  groups: [{connections: 2}]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(t.TempDir(), "run")
	in := windowOf("variant default rep 1/1")
	var timer *time.Timer
	out, errOut, code := kaeloadWatch(t, func(line string, cmd *exec.Cmd) {
		if timer == nil && in(line) {
			timer = time.AfterFunc(1200*time.Millisecond, func() { _ = cmd.Process.Signal(os.Interrupt) })
		}
	}, "run", scenario, "--progress", "on", "--out", runDir)
	t.Logf("stdout:\n%s\nstderr:\n%s", out, errOut)
	if timer == nil {
		t.Fatalf("the window never began (exit %d)", code)
	}
	if code != 130 {
		t.Errorf("exit status %d, want 130 (interrupted)", code)
	}
	r, err := readRun(runDir)
	if err != nil {
		t.Fatalf("interrupted run not stored: %v", err)
	}
	if len(r.Variants) != 1 || len(r.Variants[0].Reps) != 0 || len(r.Variants[0].Partial) != 1 {
		t.Fatalf("stored run: %d variants (want 1 with no repetition and 1 partial window)", len(r.Variants))
	}
	p := r.Variants[0].Partial[0]
	if got := p.Total.Window.Length(); got < 700*time.Millisecond || got > 2500*time.Millisecond || p.PartialOf != 3*time.Second {
		t.Errorf("partial window %s of %s, want about 1.2 s of 3s", got, p.PartialOf)
	}
	if p.Total.Requests == 0 {
		t.Errorf("the partial window counted no request")
	}
	report, _, code := kaeload(t, "report", runDir)
	if want := fmt.Sprintf("PARTIAL: variant default rep 1: interrupted after %s s of its 3s window: %s requests",
		format.Float(p.Total.Window.Length().Seconds(), 2), format.Count(p.Total.Requests)); code != 0 || !strings.Contains(report, want) {
		t.Errorf("report (exit %d) lacks %q:\n%s", code, want, report)
	}
}

// TestForwardedInterrupt: GNU timeout forwards a Ctrl-C to kaeload and
// to its group, so one interrupt arrives twice within microseconds. It
// counts once: the window in progress is kept as PARTIAL, not aborted.
func TestForwardedInterrupt(t *testing.T) {
	alongside(t)
	addr := testkit.FreeAddr(t)
	_, start, stop := nginxDir(t, addr)
	scenario := writeScenario(t, fmt.Sprintf(`name: forwarded
target: {url: "https://%[1]s/"}
load: {connection: close, warmup: 100ms, duration: 10s, groups: [{connections: 4}]}
server: {start: %[2]q, stop: %[3]q, ready: {tls: %[1]q, timeout: 10s}}
`, addr, start, stop))
	dir := filepath.Join(t.TempDir(), "run")
	inWindow := windowOf("variant default rep 1/1")
	sent := false
	_, errOut, _ := kaeloadWatch(t, func(line string, cmd *exec.Cmd) {
		if !sent && inWindow(line) {
			sent = true
			_ = cmd.Process.Signal(os.Interrupt)
			_ = cmd.Process.Signal(os.Interrupt)
		}
	}, "run", scenario, "--progress", "on", "--out", dir)
	if strings.Contains(errOut, "aborting") {
		t.Errorf("two signals within microseconds read as an abort:\n%s", errOut)
	}
	r, err := readRun(dir)
	if err != nil {
		t.Fatalf("the run directory: %v\n%s", err, errOut)
	}
	if len(r.Variants) != 1 || len(r.Variants[0].Partial) != 1 || !r.Interrupted {
		t.Errorf("stored run: %d variants, interrupted %v; want one PARTIAL window", len(r.Variants), r.Interrupted)
	}
}
