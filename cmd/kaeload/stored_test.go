package main

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var updateStored = flag.Bool("update-stored", false, "rewrite testdata/stored's goldens from this build")

// TestStoredRunsRender: runs written by the main of 2026-12-07 (fd9102d;
// a finished local-nginx run and one interrupted mid-window) still open,
// and every format renders what that build rendered; compare lines them up.
func TestStoredRunsRender(t *testing.T) {
	check := func(name string, args ...string) {
		t.Helper()
		out, errOut, code := kaeload(t, args...)
		if code != 0 {
			t.Fatalf("kaeload %v: exit %d\n%s", args, code, errOut)
		}
		golden := filepath.Join("testdata", "stored", name)
		if *updateStored {
			if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("kaeload %v differs from %s (-update-stored rewrites it)\ngot:\n%s", args, golden, out)
		}
	}
	for _, run := range []string{"done", "interrupted"} {
		for _, format := range []string{"text", "md", "csv", "summary"} {
			check(filepath.Join(run, "report."+format+".golden"), "report", filepath.Join("testdata", "stored", run), "--format", format)
		}
	}
	check("compare.golden", "compare", filepath.Join("testdata", "stored", "done"), filepath.Join("testdata", "stored", "interrupted"))
}

// TestDamagedStoredRun: a repetition index of 1e9 or 1e15, in run.json or
// in the journal, and a journal of zeros are clear errors for report,
// compare and run --resume, at once (they once hung or panicked every
// command), and the failed resume leaves the directory byte-identical.
func TestDamagedStoredRun(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "stored", "interrupted", "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file string
		data       func(t *testing.T) []byte
		zeros      int64 // instead of data: a sparse file of this many zero bytes, which costs no write
		want       string
	}{
		{"index 1e9 in run.json", "run.json", withIndex(src, 1e9), 0, "index 1000000000 is out of range"},
		{"index 1e15 in run.json", "run.json", withIndex(src, 1e15), 0, "index 1000000000000000 is out of range"},
		{"index 1e15 in the journal", "journal.ndjson", journalOf(withIndex(src, 1e15)), 0, "index 1000000000000000 is out of range"},
		{"200 MB of zeros", "journal.ndjson", nil, 200 << 20, "line 1 does not start with '{'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			writeDamaged(t, filepath.Join(dir, tc.file), tc.data, tc.zeros)
			before := dirSum(t, dir)
			cmds := [][]string{{"report", dir}, {"compare", dir, dir}}
			if tc.file == "journal.ndjson" { // --resume continues a journal
				cmds = append(cmds, []string{"run", "--resume", dir, "--progress", "off"})
			}
			for _, args := range cmds {
				start := time.Now()
				_, errOut, code := kaeload(t, args...)
				if code == 0 || !strings.Contains(errOut, tc.want) {
					t.Errorf("kaeload %v: exit %d, want an error with %q:\n%s", args[:1], code, tc.want, errOut)
				}
				if d := time.Since(start); d > 30*time.Second {
					t.Errorf("kaeload %v took %v to refuse a damaged run", args[:1], d)
				}
			}
			if after := dirSum(t, dir); after != before {
				t.Errorf("the failed commands changed the run directory")
			}
		})
	}
}

// withIndex is run.json src with its first repetition's index set to idx.
func withIndex(src []byte, idx float64) func(t *testing.T) []byte {
	return func(t *testing.T) []byte {
		var r map[string]any
		if err := json.Unmarshal(src, &r); err != nil {
			t.Fatal(err)
		}
		for _, v := range r["variants"].([]any) {
			if reps, ok := v.(map[string]any)["reps"].([]any); ok && len(reps) > 0 {
				reps[0].(map[string]any)["index"] = idx
				break
			}
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
}

// journalOf is a journal holding the run data gives as its begin record,
// with no repetition recorded since: what a run that died at once leaves.
func journalOf(data func(t *testing.T) []byte) func(t *testing.T) []byte {
	return func(t *testing.T) []byte {
		return append(append([]byte(`{"type":"begin","run":`), data(t)...), "}\n"...)
	}
}

// writeDamaged writes data's bytes to path or, with data nil, makes it a
// sparse file of zeros zero bytes (as read back, but with no write).
func writeDamaged(t *testing.T, path string, data func(t *testing.T) []byte, zeros int64) {
	t.Helper()
	var err error
	if data != nil {
		err = os.WriteFile(path, data(t), 0o644)
	} else if err = os.WriteFile(path, nil, 0o644); err == nil {
		err = os.Truncate(path, zeros)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// dirSum hashes every file under dir with its name.
func dirSum(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		h.Write([]byte(p))
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(h.Sum(nil))
}
