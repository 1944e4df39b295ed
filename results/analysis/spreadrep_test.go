package analysis

import (
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
)

// TestMDESpread: a baseline repetition far below its others inflates the
// MDE, and the comparison names it; with the repetitions alike (the
// fixture as it is) nothing is named.
func TestMDESpread(t *testing.T) {
	r := fixture.CompareRun()
	s, _ := SummarizeRun(r)
	for _, v := range s.Variants {
		if !v.MDESpread.IsZero() {
			t.Errorf("%s: MDE spread %q on alike repetitions", v.Name, v.MDESpread.String())
		}
	}
	r.Variants[0].Reps[1] = fixture.Rep(1, 10, 20000, 20100) // rep 2 of the baseline: a sixth of the others
	s, _ = SummarizeRun(r)
	v := &s.Variants[1]
	if !v.Comparison.HasMDE || !strings.HasPrefix(v.MDESpread.String(), "baseline rep 2 (") {
		t.Errorf("kae: MDE %v (%.2f %%), spread %q; want baseline rep 2 named", v.Comparison.HasMDE, v.Comparison.MDEPct, v.MDESpread.String())
	}
	if got := spreadRep(&results.Variant{Reps: r.Variants[0].Reps[:2]}); got != -1 {
		t.Errorf("two repetitions: spreadRep %d, want -1 (neither can be told from the other)", got)
	}
}
