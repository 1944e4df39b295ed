package rundir

import (
	"bytes"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestJournalSearchResume: a journal rebuilds the visits from its rep
// records; ResumeJournal continues it, and a run read afterwards holds the
// visits before and after, complete once it ends. A resume that ends
// before its run begins (no Resume) leaves the journal byte for byte as
// it was.
func TestJournalSearchResume(t *testing.T) {
	fixture.SingleGoroutine(t)
	full := fixture.SearchRun()
	dir := filepath.Join(t.TempDir(), "run")
	h := header(full)
	h.Search.Visits = nil
	j, err := CreateJournal(dir, h, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	record := func(j *Journal, from, to int) {
		for _, vis := range full.Search.Visits[from:to] {
			for i := range full.Variants {
				if full.Variants[i].Name == vis.Variant {
					if err := j.rep(i, full.Variants[i].Reps[vis.Rep]); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	record(j, 0, 3)
	if err := j.End(fixture.T0, true); err != nil {
		t.Fatal(err)
	}
	mid, err := ReadRunFile(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mid.Search.Visits, full.Search.Visits[:3]; !slices.Equal(got, want) {
		t.Fatalf("visits after 3 windows %+v, want %+v", got, want)
	}
	jpath := filepath.Join(dir, JournalFile)
	before, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // resumes that fail before their run begins
		j, _, err := ResumeJournal(dir, testOptions)
		if err != nil {
			t.Fatal(err)
		}
		if err := j.End(fixture.T0, true); err != nil {
			t.Fatal(err)
		}
	}
	if after, _ := os.ReadFile(jpath); !bytes.Equal(after, before) {
		t.Errorf("resumes that never began changed the journal:\n%s\nwas\n%s", after, before)
	}
	j2, prev, err := ResumeJournal(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	if err := j2.rep(0, full.Variants[0].Reps[0]); err == nil {
		t.Errorf("a record before Resume was taken")
	}
	if err := j2.Resume(); err != nil {
		t.Fatal(err)
	}
	if got, want := len(prev.Variants), len(full.Variants); got != want || !slices.Equal(prev.Search.Visits, full.Search.Visits[:3]) {
		t.Fatalf("resumed run: %d variants (want %d, every planned one), visits %+v", got, want, prev.Search.Visits)
	}
	if r := j2.Run(); !r.Incomplete || r.Interrupted {
		t.Errorf("resumed run: incomplete %v interrupted %v, want incomplete until End", r.Incomplete, r.Interrupted)
	}
	record(j2, 3, 6)
	if err := j2.End(fixture.T0, false); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRunFile(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Search.Visits, full.Search.Visits) || got.Incomplete || got.Interrupted {
		t.Errorf("after the resume: visits %+v incomplete %v interrupted %v; want all 6, complete", got.Search.Visits, got.Incomplete, got.Interrupted)
	}
}
