package rundir

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"path/filepath"
	"slices"
	"testing"
)

// nocertReason is the one-line reason NotMeasuredRun stores for nocert, whose nginx did not start.
var nocertReason = fixture.NotMeasuredRun().NotMeasured[0].Reason

// TestJournalNotMeasured: a variant given up on is in the journal, so the
// run read back from the directory (`kaeload report DIR`) still names it,
// also when no variant was measured at all; once a resumed run begins, it
// tries the variant again.
func TestJournalNotMeasured(t *testing.T) {
	fixture.SingleGoroutine(t)
	full := fixture.NotMeasuredRun()
	full.NotMeasured = nil
	full.Variants = append(full.Variants, results.Variant{Name: "nocert"})
	dir := filepath.Join(t.TempDir(), "run")
	j, err := CreateJournal(dir, header(full), testOptions)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Record(results.Change{Type: results.ChangeNotMeasured, Variant: 2, Reason: nocertReason}); err != nil {
		t.Fatal(err)
	}
	// Before anything was measured: the summary names it already.
	r, err := ReadRunFile(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	if want := []results.NotMeasured{{Variant: "nocert", Reason: nocertReason}}; !slices.Equal(r.NotMeasured, want) {
		t.Errorf("read back before any repetition: NotMeasured %+v, want %+v", r.NotMeasured, want)
	}
	for _, rep := range full.Variants[0].Reps {
		if err := j.rep(0, rep); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.End(fixture.T0, false); err != nil {
		t.Fatal(err)
	}
	r, err = ReadRunFile(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	if got := analysis.Analyze(r).NotMeasured.Strings(); !slices.Equal(got, []string{"variant nocert: " + nocertReason}) {
		t.Errorf("read back at the end: NotMeasured %q", got)
	}
	if len(r.Variants) != 1 || len(r.Variants[0].Reps) != 3 {
		t.Errorf("read back: %d variants, want baseline alone with its 3 repetitions", len(r.Variants))
	}

	j, prev, err := ResumeJournal(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer j.End(fixture.T0, false)
	if len(prev.NotMeasured) != 1 {
		t.Errorf("the run so far: NotMeasured %+v, want nocert's, as stored", prev.NotMeasured)
	}
	if err := j.Resume(); err != nil {
		t.Fatal(err)
	}
	if got := j.Run().NotMeasured; got != nil {
		t.Errorf("resumed: NotMeasured %+v, want none: the resumed run tries the variant again", got)
	}
}
