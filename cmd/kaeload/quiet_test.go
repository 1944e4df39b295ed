package main

import (
	"strings"
	"testing"
)

// TestWaitQuietFlag: --wait-quiet turns on the quiet defaults, keeps a
// scenario's own quiet section, and does not go with --resume.
func TestWaitQuietFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--wait-quiet"}, "wait until others take under 10% of the CPUs for 5s (at most 2m0s)"},
		{[]string{"--wait-quiet", "--set", "quiet.max_other=20%"}, "under 20% of the CPUs for 5s"},
		{[]string{"--set", "quiet.for=1s"}, "under 10% of the CPUs for 1s"},
	} {
		args := append([]string{"run", "../../examples/quickstart.yaml", "--dry-run"}, tc.args...)
		out, errOut, code := runArgs(args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("kaeload %v: exit %d, want %q in:\n%s%s", args, code, tc.want, out, errOut)
		}
	}
	if out, _, _ := runArgs("run", "../../examples/quickstart.yaml", "--dry-run"); strings.Contains(out, "quiet") {
		t.Errorf("a scenario without quiet waits:\n%s", out)
	}
	if _, errOut, code := runArgs("run", "--resume", t.TempDir(), "--wait-quiet"); code != 2 || !strings.Contains(errOut, "--wait-quiet") {
		t.Errorf("run --resume DIR --wait-quiet: exit %d, %s", code, errOut)
	}
}
