package rundir

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results/internal/fixture"
)

// TestJournalFlippedByte: a digit changed inside a record, which still
// reads as JSON, is an error naming the line; the journal as written reads.
func TestJournalFlippedByte(t *testing.T) {
	fixture.SingleGoroutine(t)
	full := fixture.CompareRun()
	dir := filepath.Join(t.TempDir(), "r")
	j, err := CreateJournal(dir, header(full), testOptions)
	if err != nil {
		t.Fatal(err)
	}
	for _, rep := range full.Variants[0].Reps {
		if err := j.rep(0, rep); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ReadRunFile(dir, testOptions); err != nil {
		t.Fatalf("the journal as written: %v", err)
	}
	path := filepath.Join(dir, JournalFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	for n := range 2 { // the begin record, then a repetition
		i := bytes.IndexAny(lines[n][20:], "123456789") + 20
		bad := bytes.Clone(lines[n])
		bad[i] = '0'
		damaged := bytes.Join(append(append(append([][]byte{}, lines[:n]...), bad), lines[n+1:]...), nil)
		if err := os.WriteFile(path, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadRunFile(dir, testOptions)
		if want := "line " + string(rune('1'+n)) + ": damaged"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a flipped digit on line %d: err = %v, want %q", n+1, err, want)
		}
	}
}

// TestUnsealLegacy: a line written before checksums reads as it is.
func TestUnsealLegacy(t *testing.T) {
	for _, line := range []string{`{"type":"end"}`, `{"type":"end","crc32":"zz"}`} {
		got, err := unseal([]byte(line + "\n"))
		if err != nil || string(got) != line {
			t.Errorf("unseal(%s) = %s, %v", line, got, err)
		}
	}
	if got, err := unseal(seal([]byte(`{"type":"end"}`))); err != nil || string(got) != `{"type":"end"}` {
		t.Errorf("unseal(seal) = %s, %v", got, err)
	}
}
