package rundir

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/notes"
	"path/filepath"
	"testing"
)

// TestInterruptedWarningWithdrawn: the warning that a window was
// interrupted holds until a resumed run measures that window; then the
// journal's run, the run read back and a run the runner changes no longer
// carry it. Warnings about other windows, other variants (also one whose
// name extends this one's) and other things stay.
func TestInterruptedWarningWithdrawn(t *testing.T) {
	fixture.SingleGoroutine(t)
	full := fixture.CompareRun()
	h := header(full)
	h.Baseline = "kae"
	h.Variants = append(h.Variants, results.Variant{Name: "kae-2"})
	dir := filepath.Join(t.TempDir(), "run")
	j, err := CreateJournal(dir, h, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	interrupted := func(label, variant string, index int) results.Warning {
		return notes.New(notes.Interrupted, "label", label, "variant", variant, "index", index).Warning()
	}
	stale := interrupted(results.RepLabel("kae", 1, 3), "kae", 1)
	keep := []results.Warning{
		interrupted(results.RepLabel("kae", 2, 3), "kae", 2),
		interrupted(results.RepLabel("kae-2", 1, 3), "kae-2", 1),
		interrupted(results.SearchWindowLabel("baseline", 1), "baseline", 1),
		notes.New(notes.Interrupted, "label", "variant kae capacity step 2 (up, 100/s)").Warning(), // never measured again
		{Message: results.RepLabel("kae", 1, 4) + " was interrupted and is not included"},          // an older run's words: no code to withdraw by
		{Message: "server restarted"},
	}
	for _, w := range append([]results.Warning{stale}, keep...) {
		if err := j.Record(results.Change{Type: results.ChangeWarning, Warning: &w}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.rep(1, full.Variants[1].Reps[0]); err != nil {
		t.Fatal(err)
	}
	if err := j.End(fixture.T0, true); err != nil {
		t.Fatal(err)
	}
	mid, err := ReadRunFile(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	if !mid.Warnings.Has(stale) {
		t.Fatalf("the interrupted run lacks %q: %q", stale, mid.Warnings)
	}

	j, prev, err := ResumeJournal(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Resume(); err != nil {
		t.Fatal(err)
	}
	// The runner's own copy of the run, as it records the window.
	if err := prev.Apply(results.Change{Type: results.ChangeRep, Variant: 1, Rep: &full.Variants[1].Reps[1]}); err != nil {
		t.Fatal(err)
	}
	if err := j.rep(1, full.Variants[1].Reps[1]); err != nil {
		t.Fatal(err)
	}
	if err := j.End(fixture.T0, false); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRunFile(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*results.Run{"journal": got, "runner": prev} {
		if r.Warnings.Has(stale) {
			t.Errorf("%s: the measured window is still said to be interrupted: %q", name, r.Warnings)
		}
		for _, w := range keep {
			if !r.Warnings.Has(w) {
				t.Errorf("%s: warning %q was dropped", name, w)
			}
		}
	}

	// A searched variant's window too.
	r := &results.Run{Variants: []results.Variant{{Name: "s-10"}}, Warnings: results.Warnings{interrupted(results.SearchWindowLabel("s-10", 4), "s-10", 4)}}
	if err := r.Apply(results.Change{Type: results.ChangeRep, Rep: &results.Rep{Index: 4}}); err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("search window measured, warnings still %q", r.Warnings)
	}
}
