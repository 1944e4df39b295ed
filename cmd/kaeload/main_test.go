package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/pinning"
)

func runArgs(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	err := run(context.Background(), args, stdio{in: strings.NewReader(""), out: &out, err: &errb})
	if err != nil && !strings.Contains(err.Error(), "silent") {
		errb.WriteString("kaeload: " + err.Error() + "\n")
	}
	return out.String(), errb.String(), exitCode(err)
}

func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 0, "Commands:"},
		{[]string{"help"}, 0, "kaeload run examples/quickstart.yaml"},
		{[]string{"run", "--help"}, 0, "--dry-run"},
		{[]string{"help", "serve"}, 0, "--cert"},
		{[]string{"validate", "-h"}, 0, "file:line:col"},
		{[]string{"version"}, 0, "kaeload "},
		{[]string{"bogus"}, 2, `unknown command "bogus"`},
		{[]string{"run"}, 2, "want one scenario file"},
		{[]string{"run", "--progress", "maybe", "x.yaml"}, 2, `--progress "maybe"`},
		{[]string{"run", "--nope", "x.yaml"}, 2, "flag provided but not defined: -nope"},
		{[]string{"run", "does-not-exist.yaml"}, 2, "does-not-exist.yaml"},
	} {
		out, errOut, code := runArgs(tc.args...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("kaeload %v: exit %d, want %d; output lacks %q:\n%s%s", tc.args, code, tc.code, tc.want, out, errOut)
		}
		if strings.Contains(out+errOut, "goroutine ") {
			t.Errorf("kaeload %v printed a stack trace", tc.args)
		}
	}
}

func TestValidateBadScenario(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(path, []byte("name: x\nload:\n  duration: [5s]\n  bogus: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runArgs("validate", path)
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	for _, want := range []string{path + ":3:", path + ":4:"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("error output lacks %q:\n%s", want, errOut)
		}
	}
}

func TestDryRunNginxKAE(t *testing.T) {
	// --dry-run shows the plan even on a machine too small to run it.
	out, errOut, code := runArgs("run", "../../examples/nginx-kae.yaml", "--dry-run")
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
	for g := 0; g < 11; g++ {
		row := fmt.Sprintf("%d-%d       11          200", g*10, g*10+9)
		if !strings.Contains(out, row) {
			t.Errorf("plan lacks group %d as %q:\n%s", g, row, out)
		}
	}
}

// TestRunNginxKAEMissingCPUs runs the KAE example (groups on CPUs 0-109)
// on a machine that lacks some of them: it must exit 2 naming the missing
// CPUs, and fail before anything of the run begins, however long that
// takes. The example is pointed (--set) at a loopback listener this test
// holds, both as its target and as its server's readiness check, its
// nginx is a script that records every call, and it gets a results
// directory of its own. Then no connection may have reached the listener
// (the load and the readiness check both dial it), the server commands
// (stop and start run before any load) may not have run, and no run
// directory may exist (kaeload creates it before the load).
func TestRunNginxKAEMissingCPUs(t *testing.T) {
	online, err := pinning.Online()
	if err != nil {
		t.Fatal(err)
	}
	if online.Contains(109) {
		t.Skip("this machine has CPUs 0-109: the layout fits")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := t.TempDir()
	calls := filepath.Join(dir, "nginx-calls")
	nginx := filepath.Join(dir, "nginx")
	if err := os.WriteFile(nginx, []byte("#!/bin/sh\necho \"$@\" >> "+calls+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	resultsDir := filepath.Join(dir, "results")
	if err := os.Mkdir(resultsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runArgs("run", "--results", resultsDir,
		"--set", "target.url=https://"+ln.Addr().String()+"/index.html",
		"--set", "server.ready.tcp="+ln.Addr().String(),
		"--set", "vars.nginx="+nginx,
		"../../examples/nginx-kae.yaml")
	want := "CPU " + pinning.Set{0, 1, 2}.Missing(online).String()
	if code != 2 || !strings.Contains(errOut, "do not exist (this machine has "+online.String()+")") || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, want 2 and a message naming the missing CPUs:\n%s", code, errOut)
	}
	// The accept queue is FIFO: if the run dialled the listener, its
	// connection is accepted before this one.
	probe, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	first, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	if got, want := first.RemoteAddr().String(), probe.LocalAddr().String(); got != want {
		t.Errorf("first connection to the target came from %s, want this test's probe %s: the run dialled the target before failing", got, want)
	}
	if b, err := os.ReadFile(calls); err == nil {
		t.Errorf("the server commands ran before the run failed:\n%s", b)
	}
	if ents, err := os.ReadDir(resultsDir); err != nil || len(ents) != 0 {
		t.Errorf("results directory holds %v (err %v), want nothing: the run got as far as its run directory", ents, err)
	}
}

// skipIfStarved skips the test when a run exited 3 only because a window
// completed no request and met no error: on a machine loaded by other
// work, a worker can be kept off its CPU for a whole short window. That
// is a precondition of the test failing, not a defect of kaeload (a window
// with errors, or one that failed for any other reason, is not skipped).
// Another window of the same output must have completed requests, so that
// a kaeload that sends nothing at all still fails the test.
func skipIfStarved(t *testing.T, code int, output string) {
	t.Helper()
	if code != 3 || !regexp.MustCompile(`(?m)^requests +[1-9]`).MatchString(output) {
		return
	}
	for _, line := range strings.Split(output, "\n") {
		if !strings.Contains(line, "no request succeeded in the window (") {
			continue
		}
		if strings.Contains(line, "(no request ended at all)") || strings.Contains(line, "(unanswered at the window's end") {
			testkit.SkipBusy(t, "the machine is too loaded for this test: a window completed no request and met no error:\n%s", line)
		}
	}
}

// alongside marks a test that checks behaviour, not a measurement (exit
// statuses, stored files, messages, processes left behind; no rate, CPU
// share or count compared with a server's log), and lets it run beside
// the other such tests (t.Parallel). Go starts parallel tests only once
// every test that did not call t.Parallel has ended, so the measuring
// tests, which never call alongside, still have the CPUs to themselves.
// Tests that kill this process's ssh masters (TestRemoteConnectionDropped)
// or check counts against a server's log (testkit.SameResponses) stay out
// of it.
func alongside(t *testing.T) {
	t.Helper()
	t.Parallel()
}
