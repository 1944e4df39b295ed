package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelpOnce runs the built binary with --help (and -h) for every
// subcommand: the usage is printed once, on stdout, with nothing on
// stderr, and the exit status is 0.
func TestHelpOnce(t *testing.T) {
	alongside(t)
	for _, c := range commands {
		for _, flag := range []string{"--help", "-h"} {
			out, errOut, code := kaeload(t, c.name, flag)
			if code != 0 || errOut != "" {
				t.Errorf("kaeload %s %s: exit %d, stderr %q; want 0 and nothing", c.name, flag, code, errOut)
			}
			head := "Usage: kaeload " + c.name
			if n := strings.Count(out, head); n != 1 {
				t.Errorf("kaeload %s %s: %q printed %d times, want once:\n%s", c.name, flag, head, n, out)
			}
		}
		// "kaeload help CMD" is the same text.
		out, errOut, code := kaeload(t, "help", c.name)
		if code != 0 || errOut != "" || strings.Count(out, "Usage: kaeload "+c.name) != 1 {
			t.Errorf("kaeload help %s: exit %d, stderr %q, stdout:\n%s", c.name, code, errOut, out)
		}
	}
}

// TestBareAndVersion: a bare kaeload prints the help on stdout and exits
// 0 with nothing on stderr; --version, -v and version print the version.
func TestBareAndVersion(t *testing.T) {
	out, errOut, code := kaeload(t)
	if code != 0 || errOut != "" || !strings.Contains(out, "Commands:") || !strings.Contains(out, "Exit status:") {
		t.Errorf("bare kaeload: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	for _, arg := range []string{"--version", "-v", "version"} {
		out, errOut, code := kaeload(t, arg)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "kaeload ") || strings.Count(out, "\n") != 1 {
			t.Errorf("kaeload %s: exit %d, stderr %q, stdout %q; want one version line", arg, code, errOut, out)
		}
	}
}

// TestExitStatusUsage: a mistake on the command line is exit status 2 and
// a message on stderr, nothing on stdout but the usage where asked.
func TestExitStatusUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bogus"},
		{"run"},
		{"run", "--nope", "x.yaml"},
		{"report", "--format", "pdf", "x"},
		{"compare", "only-one"},
	} {
		_, errOut, code := kaeload(t, args...)
		if code != 2 || !strings.HasPrefix(errOut, "kaeload") {
			t.Errorf("kaeload %v: exit %d, stderr %q; want 2 and a message", args, code, errOut)
		}
	}
}

// TestExitStatusStatusDocumented: every exit status is in the top-level
// help and the README.
func TestExitStatusDocumented(t *testing.T) {
	out, _, _ := kaeload(t, "help")
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{"0", "1", "2", "3", "99", "130"} {
		line := "\n  " + code + " "
		if !strings.Contains(out, line) {
			t.Errorf("kaeload help does not document exit status %s:\n%s", code, out)
		}
		if !strings.Contains(string(readme), "| "+code+" ") {
			t.Errorf("README does not document exit status %s in its table", code)
		}
	}
}

// TestReportOutputFlags: report -o writes the file atomically (no
// temporary file left), flags go before or after RUN, and an output that
// cannot be rendered leaves an existing file untouched (exit 2 for the
// bad format, before anything is written).
func TestReportOutputFlags(t *testing.T) {
	alongside(t)
	dir := t.TempDir()
	// A stored run: what is tested is report's -o, not a window a loaded
	// machine may leave without a success (run -o: TestRunDirectory).
	run := filepath.Join("testdata", "stored", "done")
	out := filepath.Join(dir, "r.md")
	for _, args := range [][]string{
		{"report", run, "--format", "md", "-o", out},
		{"report", "--format", "md", "-o", out, run},
	} {
		if stdout, errOut, code := kaeload(t, args...); code != 0 || stdout != "" || errOut != "" {
			t.Fatalf("kaeload %v: exit %d, stdout %q, stderr %q", args, code, stdout, errOut)
		}
		b, err := os.ReadFile(out)
		if err != nil || !strings.Contains(string(b), "|") {
			t.Fatalf("%s: %v\n%s", out, err, b)
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
	if _, _, code := kaeload(t, "report", run, "-o", filepath.Join(dir, "no", "such", "dir", "x.md")); code != 1 {
		t.Errorf("report -o into a missing directory: exit %d, want 1", code)
	}
}

// TestCIRunsTheREADMECommand: the README's test command and .ci/run race
// the same packages. They drifted once (CI raced metrics and serverprof,
// the README did not), and a user who runs the README's command must run
// what CI does.
func TestCIRunsTheREADMECommand(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "go test -p 1 ./... && go test -race -p 1 "
	var fromREADME []string
	for _, line := range strings.Split(string(readme), "\n") {
		if rest, ok := strings.CutPrefix(line, cmd); ok {
			fromREADME = strings.Fields(rest)
		}
	}
	var fromCI []string
	for _, line := range strings.Split(string(ci), "\n") {
		if rest, ok := strings.CutPrefix(line, "race=("); ok {
			fromCI = strings.Fields(strings.TrimSuffix(rest, ")"))
		}
	}
	if len(fromREADME) == 0 || len(fromCI) == 0 {
		t.Fatalf("no test command found: README %q, .ci/run race=(%q)", fromREADME, fromCI)
	}
	if strings.Join(fromREADME, " ") != strings.Join(fromCI, " ") {
		t.Errorf("the README races %q, .ci/run races %q", fromREADME, fromCI)
	}
	// -vet=off: .ci/run's go vet ./... has vetted everything already.
	if !strings.Contains(string(ci), "\ngo vet ./...\n") || !strings.Contains(string(ci), "\ngo test -p 1 -timeout 10m -vet=off ./...\n") {
		t.Error(".ci/run does not run go vet ./... and the README's go test -p 1 ./...")
	}
}
