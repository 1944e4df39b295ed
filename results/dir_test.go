package results

import (
	"bytes"
	"errors"
	"io/fs"
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

func TestWriteDirAndRead(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "results")
	r := sweepRun()
	dir := filepath.Join(parent, DefaultDirName(r.Started, r.Name))
	logPath := filepath.Join(t.TempDir(), "live.log")
	if err := os.WriteFile(logPath, []byte("nginx: started\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteDir(dir, r, DirFiles{
		Report:  []byte("<html>report</html>"),
		LogPath: logPath,
		Other:   map[string][]byte{"scenario.yaml": []byte("name: nginx-kae-sweep\n")},
	})
	if err != nil {
		t.Fatalf("WriteDir: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got, want := strings.Join(names, " "), "report.html run.json run.log scenario.yaml summary.csv"; got != want {
		t.Errorf("run directory holds %q, want %q", got, want)
	}
	for name, want := range map[string]string{ReportFile: "<html>report</html>", LogFile: "nginx: started\n", "scenario.yaml": "name: nginx-kae-sweep\n"} {
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(got) != want {
			t.Errorf("%s = %q (%v), want %q", name, got, err, want)
		}
	}
	var csvWant bytes.Buffer
	if err := WriteCSV(&csvWant, sweepRun()); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, SummaryFile)); !bytes.Equal(got, csvWant.Bytes()) {
		t.Errorf("summary.csv differs from WriteCSV's output")
	}
	// Nothing else appeared next to the run.
	if pe, _ := os.ReadDir(parent); len(pe) != 1 {
		t.Errorf("parent holds %d entries, want only the run directory", len(pe))
	}

	for _, path := range []string{dir, filepath.Join(dir, RunFile)} {
		got, err := ReadRunFile(path)
		if err != nil {
			t.Fatalf("ReadRunFile(%s): %v", path, err)
		}
		if got.Name != r.Name || len(got.Variants) != 5 || got.Variants[4].Reps[2].Total.Requests != 362200 {
			t.Errorf("ReadRunFile(%s) = run %q with %d variants, want the written run", path, got.Name, len(got.Variants))
		}
		// WriteDir annotated the run: the client-bound warning is stored.
		if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "CLIENT-BOUND: group 1 (CPUs 4-7) was 97 % busy") {
			t.Errorf("stored warnings = %q, want the client-bound one", got.Warnings)
		}
	}

	// Never overwrite: a second write fails with fs.ErrExist and leaves the first intact.
	err = WriteDir(dir, singleRun(), DirFiles{})
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("WriteDir over an existing run = %v, want fs.ErrExist", err)
	}
	if got, err := ReadRunFile(dir); err != nil || got.Name != r.Name {
		t.Errorf("after the refused write the run is %v (%v), want %q", got, err, r.Name)
	}
	if pe, _ := os.ReadDir(parent); len(pe) != 1 {
		t.Errorf("a refused write left %d entries in the parent, want 1", len(pe))
	}
}

// TestRenameNoReplace checks the last step of WriteDir against a
// directory that appears after the existence check: rename(2) would
// silently replace an empty directory; this must not.
func TestRenameNoReplace(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "src"), filepath.Join(root, "dst")
	for _, d := range []string{src, dst} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(src, "run.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := renameNoReplace(src, dst); !errors.Is(err, fs.ErrExist) {
		t.Errorf("renameNoReplace onto an empty directory = %v, want fs.ErrExist", err)
	}
	if _, err := os.Stat(filepath.Join(dst, "run.json")); err == nil {
		t.Errorf("the existing directory was replaced")
	}
	if err := os.Remove(dst); err != nil {
		t.Fatal(err)
	}
	if err := renameNoReplace(src, dst); err != nil {
		t.Errorf("renameNoReplace to a free name = %v, want nil", err)
	}
}

func TestWriteDirErrors(t *testing.T) {
	parent := t.TempDir()
	tests := []struct {
		name  string
		run   *Run
		files DirFiles
		want  string
	}{
		{"log twice", singleRun(), DirFiles{Log: []byte("x"), LogPath: "/nonexistent"}, "both log bytes and a log path"},
		{"reserved", singleRun(), DirFiles{Other: map[string][]byte{"run.json": nil}}, `"run.json": reserved`},
		{"reserved speed", singleRun(), DirFiles{Other: map[string][]byte{"speed.csv": nil}}, `"speed.csv": reserved`},
		{"path", singleRun(), DirFiles{Other: map[string][]byte{"../x": nil}}, `"../x": want a plain`},
		{"hidden", singleRun(), DirFiles{Other: map[string][]byte{".x": nil}}, `".x": want a plain`},
		{"missing log", singleRun(), DirFiles{LogPath: filepath.Join(parent, "nope.log")}, "copy log"},
	}
	for _, tt := range tests {
		dir := filepath.Join(parent, tt.name)
		err := WriteDir(dir, tt.run, tt.files)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: WriteDir = %v, want an error containing %q", tt.name, err, tt.want)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%s: a failed WriteDir left %s", tt.name, dir)
		}
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("failed writes left %d entries in the parent, want none", len(entries))
	}

	// A baseline that was not measured costs no file.
	r := compareRun()
	r.Baseline = "nope"
	dir := filepath.Join(parent, "bad-baseline")
	if err := WriteDir(dir, r, DirFiles{}); err != nil {
		t.Errorf("WriteDir with a baseline not measured = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, SummaryFile)); err != nil {
		t.Errorf("summary.csv of the run without its baseline: %v", err)
	}
	if _, err := ReadRunFile(dir); err != nil {
		t.Errorf("run.json of the run with an unknown baseline: %v", err)
	}
}

func TestReadRunFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadRunFile(dir); err == nil || !strings.Contains(err.Error(), "run.json") {
		t.Errorf("ReadRunFile(dir without run.json) = %v, want an error naming run.json", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"schema_version": 9}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRunFile(bad); err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "schema version 9") {
		t.Errorf("ReadRunFile(bad) = %v, want the path and the schema error", err)
	}
}
