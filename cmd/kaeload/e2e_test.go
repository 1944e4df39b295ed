package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/runner"
	"github.com/kaeload/kaeload/scenarios"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestMain lets the test binary stand in for the kaeload binary: with
// KAELOAD_TEST_MAIN=1 it runs main, so tests can run "kaeload run …" as a
// real process and the runner's workers are real "kaeload worker" processes.
// With KAELOAD_TEST_SEARCH_TARGET it is the search tests' target.
func TestMain(m *testing.M) {
	if os.Getenv("KAELOAD_TEST_MAIN") == "1" {
		main()
		return
	}
	if ctl := os.Getenv(envSearchTarget); ctl != "" {
		os.Exit(serveSearchTarget(ctl))
	}
	code := m.Run()
	stopSearchTarget()
	removeSharedRun()
	os.Exit(code)
}

// kaeload runs the CLI as a child process.
func kaeload(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "KAELOAD_TEST_MAIN=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("kaeload %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// TestQuickstart is the README's first command, shortened: it must exit 0,
// report a positive rate and no resumed handshake.
func TestQuickstart(t *testing.T) {
	alongside(t)
	out, errOut, code := kaeload(t, "run", "../../examples/quickstart.yaml", "--set", "load.duration=1s", "--set", "load.warmup=200ms", "--progress", "off", "--no-save")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	m := regexp.MustCompile(`(?m)^requests\s+([\d,]+)\s+\(([\d,.]+) req/s(, client ([\d.]+) µs per request)?\)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no requests line in:\n%s", out)
	}
	// The generator's own cost beside the rate (the worker's CPU time over
	// the window per request).
	if us, _ := strconv.ParseFloat(m[4], 64); us <= 0 {
		t.Errorf("client µs per request %q, want > 0, beside req/s in:\n%s", m[4], out)
	}
	if rate, _ := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64); rate <= 0 {
		t.Errorf("rate %s req/s, want > 0", m[2])
	}
	if !regexp.MustCompile(`(?m)^handshakes\s+[\d,]+\s+\(resumed 0\)$`).MatchString(out) {
		t.Errorf("want 0 resumed handshakes in:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^errors\s+0$`).MatchString(out) {
		t.Errorf("want 0 errors in:\n%s", out)
	}
}

// The scenario runner of these tests: YAML text → a scenario file → a
// Plan → runner.Run with real "kaeload worker" processes (this test binary
// standing in for kaeload, see TestMain).

// writeScenario writes YAML text to a scenario file in a temporary
// directory and returns its path.
func writeScenario(t *testing.T, yaml string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "scenario.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// compileYAML writes and compiles a scenario for this machine.
func compileYAML(t *testing.T, yaml string) *plans.Plan {
	t.Helper()
	sc, err := scenarios.LoadFile(writeScenario(t, yaml))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := sc.Compile(scenarios.LocalHost())
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// workerOptions makes runner.Run start this test binary as the workers,
// logging to log.
func workerOptions(log io.Writer) runner.Options {
	return runner.Options{Executable: os.Args[0], Env: []string{"KAELOAD_TEST_MAIN=1"}, Log: log}
}

// runPlan runs plan and returns the run and the controller's log; it
// fails the test, showing the log, when the run fails.
func runPlan(t *testing.T, plan *plans.Plan) (*results.Run, string) {
	t.Helper()
	var log testkit.LockedBuffer
	r, err := runner.Run(context.Background(), plan, workerOptions(&log))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, log.String())
	}
	return r, log.String()
}

// runScenario compiles YAML text and runs it (runPlan).
func runScenario(t *testing.T, yaml string) *results.Run {
	t.Helper()
	r, _ := runPlan(t, compileYAML(t, yaml))
	return r
}

// ianaToOpenSSL maps the TLS 1.2 suite the tests ask for to nginx's name.
var ianaToOpenSSL = map[string]string{
	"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256": "ECDHE-RSA-AES128-GCM-SHA256",
}

// TestNginxCounts checks kaeload against real nginx's own access log: every
// logged request is a response kaeload read and accounted for (in the
// window, warm-up or drained after it), every handshake was full, and the
// protocol and cipher are the ones the scenario asked for.
func TestNginxCounts(t *testing.T) {
	for _, tc := range []struct {
		name, tls       string
		protocol, suite string // what nginx must log
	}{
		{"tls12", `{min_version: "1.2", max_version: "1.2", ciphers: [ECDHE-RSA-AES128-GCM-SHA256]}`, "TLSv1.2", "ECDHE-RSA-AES128-GCM-SHA256"},
		{"tls13", `{min_version: "1.3", max_version: "1.3"}`, "TLSv1.3", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Server on CPU 0, client on CPU 1 where the machine has two.
			server, client := "", ""
			if online, _ := pinning.Online(); online.Contains(0) && online.Contains(1) {
				server, client = "0", "\n      cpus: \"1\""
			}
			ng := nginxtest.Start(t, nginxtest.Config{Cert: "rsa2048", CPUs: server})
			r := runScenario(t, fmt.Sprintf(`
name: nginx-%s
target:
  url: https://%s/index.html
  tls: %s
load:
  connection: close
  warmup: 300ms
  duration: 1s
  groups:
    - connections: 8%s
`, tc.name, ng.Addr, tc.tls, client))
			total := r.Variants[0].Reps[0].Total
			lines := ng.Log(t)
			if total.Requests == 0 {
				t.Fatal("no requests counted")
			}
			// No server control: the listener's processes are the server, named.
			if s := r.Variants[0].Reps[0].ServerCPUs; s == nil || s.Name != "nginx" || len(s.PIDs) < 2 {
				t.Errorf("server's processes %+v, want nginx's master and worker named", s)
			}
			if total.Resumed != 0 || total.Handshakes != total.Requests {
				t.Errorf("client: %d handshakes, %d resumed for %d requests", total.Handshakes, total.Resumed, total.Requests)
			}
			ciphers := map[string]int{}
			for _, l := range lines {
				if l.Reused {
					t.Fatalf("nginx logged a resumed session: %+v", l)
				}
				if l.Protocol != tc.protocol || (tc.suite != "" && l.Cipher != tc.suite) {
					t.Fatalf("nginx logged %s %s, want %s %s", l.Protocol, l.Cipher, tc.protocol, tc.suite)
				}
				ciphers[l.Cipher]++
			}
			// The client's negotiated parameters agree with the server's log.
			for key := range total.Negotiated {
				f := strings.Fields(key)
				name := f[1]
				if n, ok := ianaToOpenSSL[name]; ok {
					name = n
				}
				if ciphers[name] == 0 || f[0] != strings.ReplaceAll(tc.protocol, "v", "") {
					t.Errorf("client negotiated %q; nginx logged %s %v", key, tc.protocol, ciphers)
				}
			}
			testkit.SameResponses(t, "nginx", uint64(len(lines)), total.Counts)
		})
	}
}

// TestNginxResumption: with resumption: true against an nginx that allows
// it, resumed handshakes happen and are counted on both sides.
func TestNginxResumption(t *testing.T) {
	ng := nginxtest.Start(t, nginxtest.Config{SessionReuse: true})
	r := runScenario(t, fmt.Sprintf(`
name: resume
target:
  url: https://%s/index.html
  tls: {resumption: true}
load: {warmup: 0s, duration: 1s, groups: [{connections: 4}]}
`, ng.Addr))
	total := r.Variants[0].Reps[0].Total
	reused := 0
	for _, l := range ng.Log(t) {
		if l.Reused {
			reused++
		}
	}
	if total.Resumed == 0 || reused == 0 {
		t.Fatalf("client counted %d resumed of %d handshakes; nginx logged %d reused", total.Resumed, total.Handshakes, reused)
	}
	if total.Resumed > uint64(reused) {
		t.Errorf("client counted %d resumed handshakes, more than the %d nginx logged", total.Resumed, reused)
	}
}
