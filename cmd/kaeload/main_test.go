package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/pinning"
)

func runArgs(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(""), &out, &errb)
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
		{nil, 2, "Commands:"},
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

func TestRunNginxKAEMissingCPUs(t *testing.T) {
	online, err := pinning.Online()
	if err != nil {
		t.Fatal(err)
	}
	if online.Contains(109) {
		t.Skip("this machine has CPUs 0-109: the layout fits")
	}
	start := time.Now()
	_, errOut, code := runArgs("run", "../../examples/nginx-kae.yaml")
	want := "CPU " + pinning.Set{0, 1, 2}.Missing(online).String()
	if code != 2 || !strings.Contains(errOut, "do not exist (this machine has "+online.String()+")") || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, want 2 and a message naming the missing CPUs:\n%s", code, errOut)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("failing took %v: it must fail before any load", d)
	}
}
