package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestValidateReportsEveryProblem: a file with a unit-less duration and a
// misspelt connection, validated with a bad --set, reports all three at
// once (the duration used to hide the rest until it was fixed), exit 2.
func TestValidateReportsEveryProblem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "two.yaml")
	if err := os.WriteFile(path, []byte("target: {builtin: {}}\nload:\n  duration: 2\n  connection: clse\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runArgs("validate", path, "--set", "load.timeout=soon")
	want := "kaeload: --set load.timeout: load.timeout: want a duration such as 500ms, 10s or 1m30s, got \"soon\"\n" +
		path + ":3:13: load.duration: want a duration with a unit, such as 10s, got 2\n" +
		path + ":4:15: load.connection: want close or keep-alive, got \"clse\"\n"
	if code != 2 || errOut != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and:\n%s", code, errOut, want)
	}
}
