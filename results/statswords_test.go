package results

import (
	"bytes"
	"encoding/json"
	"github.com/kaeload/kaeload/results/stats"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// lostRepRun is the example of a lost repetition: the baseline
// kept two windows, 1,000 and 1,400 req/s, against ten of 1,000 ± 1:
// Welch's degrees of freedom fall to 1.0, where the MDE was +Inf and
// `run --format json` wrote nothing.
func lostRepRun() *Run {
	var other []uint64
	for i := range 10 {
		other = append(other, uint64(1999+i%3)) // 2 s windows: 999.5 .. 1,000.5 req/s
	}
	return &Run{Name: "lost", Baseline: "base", Started: t0, Order: OrderRandomized, Seed: 1, Variants: []Variant{
		{Name: "base", Reps: fixtureReps(2000, 2800)},
		{Name: "other", Reps: fixtureReps(other...)},
	}}
}

// TestLostRepetitionJSON: with Welch's df below 1.2 the summary JSON and
// run.json are written (through the journal, as a run stores them), the
// MDE is a finite number, and the text says what it is.
func TestLostRepetitionJSON(t *testing.T) {
	singleGoroutine(t)
	r := lostRepRun()
	s, err := SummarizeRun(r)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Variants[1].Comparison
	if c.Test != stats.TestWelchLog || !(c.DF < 1.2) || !c.HasMDE || !finite(c.MDEPct) {
		t.Fatalf("comparison %+v: want Welch's test with df < 1.2 and a finite MDE", c)
	}
	var js bytes.Buffer
	if err := WriteSummaryJSON(&js, Analyze(r)); err != nil {
		t.Fatalf("summary json: %v", err)
	}
	var back SummaryJSON
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Variants) != 2 || back.Variants[1].Comparison == nil {
		t.Fatalf("summary json does not read back (%v):\n%s", err, js.String())
	}
	dir := filepath.Join(t.TempDir(), "run")
	j, err := CreateJournal(dir, header(r), JournalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for v := range r.Variants {
		for _, rep := range r.Variants[v].Reps {
			if err := j.Rep(v, rep); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := j.End(t0.Add(time.Minute), false); err != nil {
		t.Fatal(err)
	}
	stored, err := ReadRunFile(filepath.Join(dir, RunFile))
	if err != nil || len(stored.Variants) != 2 || len(stored.Variants[1].Reps) != 10 {
		t.Fatalf("run.json: %v", err)
	}
	var text bytes.Buffer
	if err := WriteText(&text, Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if out := text.String(); strings.Contains(out, "Inf") || strings.Contains(out, "NaN") {
		t.Errorf("text report shows Inf or NaN:\n%s", out)
	}
}

// TestMDENotDeterminableWords: the MDE that cannot be determined (see
// stats.TestMDENotDeterminable) reads "not determinable" in the text and
// the verdict, never Inf.
func TestMDENotDeterminableWords(t *testing.T) {
	c := stats.CompareFamily([]float64{1000, 1e150}, [][]float64{{999, 1000, 1001, 1000, 999, 1001, 1000, 999, 1001, 1000}}, DefaultEquivalence)[0]
	if got := MDE(c); got != stats.MDENotDeterminable {
		t.Errorf("MDE(c) = %q, want %q", got, stats.MDENotDeterminable)
	}
	if w := VerdictWords(c); !strings.HasPrefix(w, "inconclusive") || strings.Contains(w, "Inf") {
		t.Errorf("VerdictWords = %q, want an inconclusive verdict without Inf", w)
	}
}

// TestCompareCannotTest: a rate that has no logarithm gives "cannot
// test" with the reason, outside any family; the test never switches to
// the raw scale, where it would judge a difference, not a ratio.
func TestCompareCannotTest(t *testing.T) {
	for _, tt := range []struct {
		name        string
		base, other []float64
	}{
		{"zero base", []float64{0, 0}, []float64{1, 2}},
		{"zero other", []float64{1000, 1010}, []float64{0, 990}},
		{"negative", []float64{1000, 1010}, []float64{-5, 990}},
		{"NaN", []float64{1000, math.NaN()}, []float64{990, 995}},
		{"+Inf", []float64{1000, 1010}, []float64{math.Inf(1), 995}},
	} {
		got := stats.Compare(tt.base, tt.other)
		if got.Test != stats.TestCannot || got.Why == "" || got.Significant || got.PValue != 1 || got.PAdjusted != 1 || got.Family != 0 {
			t.Errorf("%s: Compare(%v, %v) = %+v, want Test %q with a reason, not significant", tt.name, tt.base, tt.other, got, stats.TestCannot)
		}
		if _, err := json.Marshal(got); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
		if w := VerdictWords(got); !strings.HasPrefix(w, "cannot test: ") {
			t.Errorf("%s: VerdictWords = %q, want \"cannot test: …\"", tt.name, w)
		}
	}
}

// TestCompareConstantSamples: two variants whose repetitions are one
// constant (a rate-limited server) are the same, whatever their sizes
// make of the rounding of the mean of the logarithms: no difference.
func TestCompareConstantSamples(t *testing.T) {
	const x = 153126.78528368345
	rep := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = x
		}
		return xs
	}
	for _, sizes := range [][2]int{{8, 3}, {3, 8}, {2, 2}, {5, 7}, {10, 3}} {
		got := stats.CompareFamily(rep(sizes[0]), [][]float64{rep(sizes[1]), {x * 1.05, x * 1.05, x * 1.05}}, DefaultEquivalence)
		c := got[0]
		if c.Test != stats.TestZeroVariance || c.Significant || c.PValue != 1 || c.DeltaPct != 0 || !c.Equivalent {
			t.Errorf("%d × %v against %d × the same: %+v, want zero variance, p 1, Δ 0, equivalent", sizes[0], x, sizes[1], c)
		}
		if w := VerdictWords(c); !strings.HasPrefix(w, "no difference") {
			t.Errorf("%d × %v against %d × the same: verdict %q, want \"no difference …\"", sizes[0], x, sizes[1], w)
		}
		// A real difference between constants is still one.
		if d := got[1]; d.Test != stats.TestZeroVariance || !d.Significant {
			t.Errorf("%d × %v against 3 × 5 %% more: %+v, want significant (zero variance)", sizes[0], x, d)
		}
	}
}
