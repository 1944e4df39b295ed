package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSpeedFiles runs "kaeload speed" on every recorded output (this
// machine's openssl speed, -multi 2, -async_jobs 4 and -mr included) and
// on the shared fixtures, in each format: exit 0, a figure per line.
func TestSpeedFiles(t *testing.T) {
	alongside(t)
	files, _ := filepath.Glob("../../speed/testdata/*.txt")
	shared, _ := filepath.Glob("/work/shared/fixtures/*.txt")
	files = append(files, shared...)
	if len(files) < 10 {
		t.Fatalf("found %d speed outputs, want the recorded ones", len(files))
	}
	for _, f := range files {
		out, errOut, code := kaeload(t, "speed", f)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "figure") || strings.Count(out, "\n") < 2 {
			t.Errorf("kaeload speed %s: exit %d, stderr %q, stdout:\n%s", f, code, errOut, out)
		}
		out, _, code = kaeload(t, "speed", "--format", "json", f)
		var rs []struct {
			Algorithm string  `json:"algorithm"`
			Value     float64 `json:"value"`
		}
		if err := json.Unmarshal([]byte(out), &rs); code != 0 || err != nil || len(rs) == 0 {
			t.Errorf("kaeload speed --format json %s: exit %d, %v:\n%s", f, code, err, out)
		}
		out, _, code = kaeload(t, "speed", f, "--format", "csv")
		if code != 0 || !strings.HasPrefix(out, "algorithm,operation,block,value,unit\n") || strings.Count(out, "\n") != len(rs)+1 {
			t.Errorf("kaeload speed %s --format csv: exit %d, want %d rows:\n%s", f, code, len(rs), out)
		}
	}
}

// TestSpeedPair: two outputs side by side, one on stdin, with the line
// users paste; -o writes it to a file.
func TestSpeedPair(t *testing.T) {
	a := "../../speed/testdata/openssl3-multi2-rsa2048.txt"
	b := "../../speed/testdata/openssl3-async4-rsa2048.txt"
	out, errOut, code := kaeload(t, "speed", a, b)
	if want := "rsa 2048 bits sign    1371.6 → 1085.4 ops/s, 0.79× (-20.87 %)"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d, stderr %q; stdout lacks %q:\n%s", code, errOut, want, out)
	}
	o := filepath.Join(t.TempDir(), "pair.csv")
	if _, errOut, code := kaeload(t, "speed", "--format", "csv", a, b, "-o", o); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got, err := os.ReadFile(o); err != nil || !strings.Contains(string(got), "rsa 2048 bits verify,ops/s,42480,37680.9,") {
		t.Errorf("%s: %v\n%s", o, err, got)
	}
}

// TestSpeedGarbage: an output without a result is exit status 1 with its
// first lines quoted, never a panic; bad usage is 2.
func TestSpeedGarbage(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"empty":  "",
		"words":  "openssl: command not found\nsecond line\n",
		"binary": "\x00\x01\xff+F2:x:y\nGot: +H:-1 from 0\ntype 16 bytes\n",
		"doing":  "Doing 2048 bits private rsa's for 1s: 3377 2048 bits private RSA's in 1.00s\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := kaeload(t, "speed", p)
		if code != 1 || out != "" || !strings.Contains(errOut, "no speed results found") || strings.Contains(errOut, "goroutine ") {
			t.Errorf("%s: exit %d, stdout %q, stderr:\n%s", name, code, out, errOut)
		}
		if first, _, _ := strings.Cut(text, "\n"); name == "words" && !strings.Contains(errOut, "| "+first) {
			t.Errorf("%s: the error does not quote the first line:\n%s", name, errOut)
		}
	}
	if _, _, code := kaeload(t, "speed", "a", "b", "c"); code != 2 {
		t.Errorf("three outputs: exit %d, want 2", code)
	}
	if _, _, code := kaeload(t, "speed", "--format", "xml", "a"); code != 2 {
		t.Errorf("--format xml: exit %d, want 2", code)
	}
	if _, _, code := kaeload(t, "speed", filepath.Join(dir, "missing")); code != 1 {
		t.Errorf("missing file: exit %d, want 1", code)
	}
}
