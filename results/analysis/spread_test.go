package analysis

import (
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
)

func TestGroupSpread(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	w := results.Window{Start: t0, End: t0.Add(time.Second)}
	groups := []results.Group{
		{Index: 0, Window: w, Counts: results.Counts{Requests: 150}},
		{Index: 1, Window: w, Counts: results.Counts{Requests: 200}},
		{Index: 2, Window: w, Counts: results.Counts{Requests: 100}},
	}
	got := GroupSpread(groups)
	want := Spread{Min: 100, Max: 200, MinIndex: 2, MaxIndex: 1, Mean: 150, Pct: 200.0 / 3} // (200-100)/150 = 66.67 %
	if got.Pct-want.Pct > 1e-12 || want.Pct-got.Pct > 1e-12 {
		t.Errorf("GroupSpread Pct = %v, want %v", got.Pct, want.Pct)
	}
	got.Pct = want.Pct
	if got != want {
		t.Errorf("GroupSpread = %+v, want %+v", got, want)
	}
	if got := GroupSpread(nil); got != (Spread{}) {
		t.Errorf("GroupSpread(nil) = %+v, want zero", got)
	}
	if got := GroupSpread([]results.Group{{Index: 4}}); got != (Spread{MinIndex: 4, MaxIndex: 4}) {
		t.Errorf("GroupSpread(one empty group) = %+v, want indexes 4, zero rates", got)
	}
}

// TestMDESpread: a baseline repetition far below its others inflates the
// MDE, and the comparison names it; with the repetitions alike (the
// fixture as it is) nothing is named.
func TestMDESpread(t *testing.T) {
	r := fixture.CompareRun()
	s := Analyze(r).Summary
	for _, v := range s.Variants {
		if !v.MDESpread.IsZero() {
			t.Errorf("%s: MDE spread %q on alike repetitions", v.Name, v.MDESpread.String())
		}
	}
	r.Variants[0].Reps[1] = fixture.Rep(1, 10, 20000, 20100) // rep 2 of the baseline: a sixth of the others
	s = Analyze(r).Summary
	v := &s.Variants[1]
	if !v.Comparison.HasMDE || !strings.HasPrefix(v.MDESpread.String(), "baseline rep 2 (") {
		t.Errorf("kae: MDE %v (%.2f %%), spread %q; want baseline rep 2 named", v.Comparison.HasMDE, v.Comparison.MDEPct, v.MDESpread.String())
	}
	if got := spreadRep(&results.Variant{Reps: r.Variants[0].Reps[:2]}); got != -1 {
		t.Errorf("two repetitions: spreadRep %d, want -1 (neither can be told from the other)", got)
	}
}
