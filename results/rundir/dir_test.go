package rundir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDefaultDirName(t *testing.T) {
	at := time.Date(2026, 12, 2, 14, 45, 0, 0, time.FixedZone("CET", 3600))
	tests := []struct{ name, want string }{
		{"nginx-kae", "20261202T134500Z-nginx-kae"},
		{"nginx kae/soft: 33%", "20261202T134500Z-nginx-kae-soft-33-"},
		{"../etc", "20261202T134500Z-..-etc"},
		{"v1.2_rsa", "20261202T134500Z-v1.2_rsa"},
		{"ünïcode", "20261202T134500Z--n-code"},
		{"", "20261202T134500Z-run"},
		{strings.Repeat("a", 100), "20261202T134500Z-" + strings.Repeat("a", 64)},
	}
	for _, tt := range tests {
		if got := DefaultDirName(at, tt.name); got != tt.want {
			t.Errorf("DefaultDirName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestCheckWritable(t *testing.T) {
	root := t.TempDir()
	nested := filepath.Join(root, "a", "b")
	if err := CheckWritable(nested); err != nil {
		t.Fatalf("CheckWritable(%s) = %v, want nil", nested, err)
	}
	entries, err := os.ReadDir(nested)
	if err != nil || len(entries) != 0 {
		t.Errorf("CheckWritable left %v (err %v) in %s, want nothing", entries, err, nested)
	}
	// A regular file where a directory should be: not writable, whoever we are.
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckWritable(filepath.Join(file, "results")); err == nil || !strings.Contains(err.Error(), "results directory") {
		t.Errorf("CheckWritable under a file = %v, want an error naming the results directory", err)
	}
}

func TestReadRunFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadRunFile(dir, testOptions); err == nil || !strings.Contains(err.Error(), "run.json") {
		t.Errorf("ReadRunFile(dir without run.json) = %v, want an error naming run.json", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"schema_version": 9}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRunFile(bad, testOptions); err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "schema version 9") {
		t.Errorf("ReadRunFile(bad) = %v, want the path and the schema error", err)
	}
}
