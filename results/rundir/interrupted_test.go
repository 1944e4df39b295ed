package rundir

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"path/filepath"
	"slices"
	"testing"
)

// TestInterruptedWarningWithdrawn: the warning that a window was
// interrupted holds until a resumed run measures that window; then the
// journal's run, the run read back and a run built with AddRep no longer
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
	stale := results.InterruptedWarning(results.RepLabel("kae", 1, 3))
	keep := []string{
		results.InterruptedWarning(results.RepLabel("kae", 2, 3)),
		results.InterruptedWarning(results.RepLabel("kae-2", 1, 3)),
		results.InterruptedWarning(results.SearchWindowLabel("baseline", 1)),
		"variant kae rep 2/3 was interrupted and is not included, and more",
		"server restarted",
	}
	for _, w := range append([]string{stale}, keep...) {
		if err := j.Warning(w); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Rep(1, full.Variants[1].Reps[0]); err != nil {
		t.Fatal(err)
	}
	if err := j.End(fixture.T0, true); err != nil {
		t.Fatal(err)
	}
	mid, err := ReadRunFile(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(mid.Warnings, stale) {
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
	prev.AddRep(1, full.Variants[1].Reps[1])
	if err := j.Rep(1, full.Variants[1].Reps[1]); err != nil {
		t.Fatal(err)
	}
	if err := j.End(fixture.T0, false); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRunFile(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*results.Run{"journal": got, "AddRep": prev} {
		if slices.Contains(r.Warnings, stale) {
			t.Errorf("%s: the measured window is still said to be interrupted: %q", name, r.Warnings)
		}
		for _, w := range keep {
			if !slices.Contains(r.Warnings, w) {
				t.Errorf("%s: warning %q was dropped", name, w)
			}
		}
	}

	// A searched variant's window too.
	r := &results.Run{Variants: []results.Variant{{Name: "s-10"}}, Warnings: []string{results.InterruptedWarning(results.SearchWindowLabel("s-10", 4))}}
	r.AddRep(0, results.Rep{Index: 4})
	if len(r.Warnings) != 0 {
		t.Errorf("search window measured, warnings still %q", r.Warnings)
	}
}
