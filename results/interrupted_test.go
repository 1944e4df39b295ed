package results

import (
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
	singleGoroutine(t)
	full := compareRun()
	h := header(full)
	h.Baseline = "kae"
	h.Variants = append(h.Variants, Variant{Name: "kae-2"})
	dir := filepath.Join(t.TempDir(), "run")
	j, err := CreateJournal(dir, h, JournalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stale := InterruptedWarning(RepLabel("kae", 1, 3))
	keep := []string{
		InterruptedWarning(RepLabel("kae", 2, 3)),
		InterruptedWarning(RepLabel("kae-2", 1, 3)),
		InterruptedWarning(SearchWindowLabel("baseline", 1)),
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
	if err := j.End(t0, true); err != nil {
		t.Fatal(err)
	}
	mid, err := ReadRunFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(mid.Warnings, stale) {
		t.Fatalf("the interrupted run lacks %q: %q", stale, mid.Warnings)
	}

	j, prev, err := ResumeJournal(dir, JournalOptions{})
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
	if err := j.End(t0, false); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRunFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*Run{"journal": got, "AddRep": prev} {
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
	r := &Run{Variants: []Variant{{Name: "s-10"}}, Warnings: []string{InterruptedWarning(SearchWindowLabel("s-10", 4))}}
	r.AddRep(0, Rep{Index: 4})
	if len(r.Warnings) != 0 {
		t.Errorf("search window measured, warnings still %q", r.Warnings)
	}
}
