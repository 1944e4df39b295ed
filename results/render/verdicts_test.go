package render

import (
	"bytes"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/stats"
	"path/filepath"
	"strings"
	"testing"
)

// verdictsRun is a randomized run whose variants get every kind of
// verdict: one significantly faster, one the same within ±2 %, one too
// noisy to tell, and a two-value sweep whose values no test separates.
func verdictsRun() *results.Run {
	return &results.Run{
		Name: "verdicts", Baseline: "baseline", Order: results.OrderRandomized, Seed: 12345, Equivalence: 0.02,
		Started: fixture.T0,
		Variants: []results.Variant{
			{Name: "baseline", Reps: reps(200000, 200400, 199600)},
			{Name: "faster", Reps: reps(210000, 210400, 209600)},
			{Name: "same", Reps: reps(200200, 199800, 200300)},
			{Name: "noisy", Reps: reps(180000, 215000, 196000)},
			{Name: "soft-10", Series: "soft-{r}", Sweep: map[string]string{"r": "10"}, Reps: reps(199000, 203000, 195000)},
			{Name: "soft-20", Series: "soft-{r}", Sweep: map[string]string{"r": "20"}, Reps: reps(201000, 197000, 203000)},
		},
	}
}

// TestDriftWarnings: a sequential run says drift is not controlled, and a
// trend over the rounds as large as a difference called significant is
// called out by name; a randomized run without such a trend says nothing.
func TestDriftWarnings(t *testing.T) {
	ramp := func(start, step uint64, n int) []uint64 {
		out := make([]uint64, n)
		for i := range out {
			out[i] = start - uint64(i)*step
		}
		return out
	}
	// Ten rounds, the machine 3 % slower at the end; "faster" is 2.5 %
	// ahead throughout, which ten repetitions call significant.
	r := &results.Run{Name: "drift", Baseline: "baseline", Order: results.OrderSequential, Variants: []results.Variant{
		{Name: "baseline", Reps: reps(ramp(200000, 667, 10)...)},
		{Name: "faster", Reps: reps(ramp(205000, 683, 10)...)},
	}}
	s := analysis.Analyze(r).Summary
	if c := s.Variants[1].Comparison; !c.Significant || c.DeltaPct > 3 {
		t.Fatalf("fixture: faster %+v, want a significant difference below 3 %%", c)
	}
	if !s.Drift.HasTrend || s.Drift.TrendPct > -2.8 || s.Drift.TrendPct < -3.2 {
		t.Errorf("trend %v %%, want about -3 %%", s.Drift.TrendPct)
	}
	got := strings.Join(s.Warnings.Strings(), "\n")
	for _, want := range []string{"order sequential: drift is not controlled", "drift: the rates moved -3.", "as much as the difference called significant for faster (+2.5"} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings %q lack %q", got, want)
		}
	}
	analysis.Annotate(r)
	if !strings.Contains(strings.Join(r.Warnings.Strings(), "\n"), "drift: the rates moved") {
		t.Errorf("Annotate did not store the drift warning: %q", r.Warnings)
	}
	if s := analysis.Analyze(verdictsRun()).Summary; len(s.Warnings) != 0 {
		t.Errorf("a randomized run without drift warns: %q", s.Warnings)
	}
}

// TestVerdicts checks the words every rendering shows for verdictsRun,
// directly, so that a careless -update of the goldens cannot bless a
// wrong verdict, then the goldens themselves.
func TestVerdicts(t *testing.T) {
	r := verdictsRun()
	s := analysis.Analyze(r).Summary
	by := map[string]*analysis.VariantSummary{}
	for i := range s.Variants {
		by[s.Variants[i].Name] = &s.Variants[i]
	}
	if s.Family != 5 {
		t.Errorf("family %d, want 5 comparisons", s.Family)
	}
	for name, want := range map[string]string{
		"faster": ", significant",
		"same":   "no difference larger than ±2 % (equivalent; within ±",
		"noisy":  "inconclusive: could be up to ±",
	} {
		c := by[name].Comparison
		if got := format.VerdictWords(c); !strings.Contains(got, want) {
			t.Errorf("%s: verdict %q, want it to contain %q (%+v)", name, got, want, c)
		}
		if c.PAdjusted < c.PValue || c.Adjustment != stats.AdjustHolm || !c.HasMDE {
			t.Errorf("%s: p %v adjusted %v (%s), MDE %v: want a Holm-adjusted p no smaller than the raw one and an MDE", name, c.PValue, c.PAdjusted, c.Adjustment, c.HasMDE)
		}
	}
	sw := s.Sweeps[0]
	if sw.Best != -1 || len(sw.Plateau) != 2 {
		t.Errorf("sweep best %d plateau %v, want no best and both values on the plateau", sw.Best, sw.Plateau)
	}
	var text, md bytes.Buffer
	if err := WriteText(&text, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{text.String(), md.String()} {
		for _, want := range []string{
			"randomized blocks (every round runs each variant once, in a random order), seed 12345 (replay: --seed 12345)",
			"Holm over the run's 5 comparisons",
			"o best value: no r is significantly faster than another (plateau: 10, 20; one pair of values tested)",
			"round effect",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("report lacks %q:\n%s", want, out)
			}
		}
	}
	golden(t, filepath.Join("testdata", "verdicts.golden"), text.Bytes())
	golden(t, filepath.Join("testdata", "verdicts.md.golden"), md.Bytes())
}

// reps is one single-group repetition per request count.
func reps(requests ...uint64) []results.Rep {
	out := make([]results.Rep, len(requests))
	for i, n := range requests {
		out[i] = fixture.Rep(i, 5, n)
	}
	return out
}
