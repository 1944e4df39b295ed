package rundir

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
)

// resumeUnwritable runs j.Resume with the journal unable to grow
// (RLIMIT_FSIZE at its size), as on a full disk.
func resumeUnwritable(t *testing.T, j *Journal, dir string) error {
	t.Helper()
	fi, err := os.Stat(filepath.Join(dir, JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	lim := old
	lim.Cur = uint64(fi.Size())
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
			t.Fatal(err)
		}
	}()
	return j.Resume()
}

// TestResumeUnwritableLeavesRun: a resume whose record the disk refuses
// leaves the run as it was, whether it had ended interrupted or its
// controller had died, once the journal is closed as run --resume closes
// it after a failed start.
func TestResumeUnwritableLeavesRun(t *testing.T) {
	for _, ended := range []bool{true, false} {
		full := fixture.CompareRun()
		dir := filepath.Join(t.TempDir(), "r")
		if ended {
			full.Interrupted = true
			full.Finished = time.Date(2025, 3, 1, 11, 0, 0, 0, time.UTC)
			storeRun(t, dir, full)
		} else {
			j0, err := CreateJournal(dir, header(full), testOptions)
			if err != nil {
				t.Fatal(err)
			}
			if err := j0.rep(0, full.Variants[0].Reps[0]); err != nil {
				t.Fatal(err)
			}
			j0.f.Close() // the controller died: no end
		}
		before, err := ReadRunFile(dir, testOptions)
		if err != nil {
			t.Fatal(err)
		}
		j, prev, err := ResumeJournal(dir, testOptions)
		if err != nil {
			t.Fatal(err)
		}
		if err := resumeUnwritable(t, j, dir); err == nil {
			t.Fatalf("ended %v: Resume wrote past RLIMIT_FSIZE", ended)
		}
		if err := j.End(prev.Finished, prev.Interrupted); err != nil {
			t.Errorf("ended %v: End after a failed Resume: %v", ended, err)
		}
		after, err := ReadRunFile(dir, testOptions)
		if err != nil {
			t.Fatalf("ended %v: the run is unreadable after a failed resume: %v", ended, err)
		}
		if !sameRun(before, after) {
			t.Errorf("ended %v: a failed resume changed the run: interrupted %v→%v, incomplete %v→%v, finished %v→%v",
				ended, before.Interrupted, after.Interrupted, before.Incomplete, after.Incomplete, before.Finished, after.Finished)
		}
	}
}

// TestRenderReplacesNoRecord: a rendering named run.json or journal.ndjson
// replaces neither.
func TestRenderReplacesNoRecord(t *testing.T) {
	opts := JournalOptions{Render: func(*results.Run) (map[string][]byte, error) {
		return map[string][]byte{RunFile: []byte("not a run\n"), JournalFile: []byte("not a journal\n")}, nil
	}}
	dir := filepath.Join(t.TempDir(), "r")
	j, err := CreateJournal(dir, header(fixture.CompareRun()), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.End(fixture.T0, false); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{RunFile, JournalFile} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b[:4]) == "not " {
			t.Errorf("%s: %q, %v: a rendering replaced it", name, b, err)
		}
	}
	if _, err := ReadRunFile(dir, opts); err != nil {
		t.Errorf("the run reads back: %v", err)
	}
}

// sameRun reports whether a and b are stored alike.
func sameRun(a, b *results.Run) bool {
	var x, y bytes.Buffer
	return results.WriteJSON(&x, a) == nil && results.WriteJSON(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}
