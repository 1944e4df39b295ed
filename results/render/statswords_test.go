package render

import (
	"encoding/json"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/stats"
	"math"
	"strings"
	"testing"
)

// TestMDENotDeterminableWords: the MDE that cannot be determined (see
// stats.TestMDENotDeterminable) reads "not determinable" in the text and
// the verdict, never Inf.
func TestMDENotDeterminableWords(t *testing.T) {
	c := stats.CompareFamily([]float64{1000, 1e150}, [][]float64{{999, 1000, 1001, 1000, 999, 1001, 1000, 999, 1001, 1000}}, results.DefaultEquivalence)[0]
	if got := format.MDE(c); got != stats.MDENotDeterminable {
		t.Errorf("MDE(c) = %q, want %q", got, stats.MDENotDeterminable)
	}
	if w := format.VerdictWords(c); !strings.HasPrefix(w, "inconclusive") || strings.Contains(w, "Inf") {
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
		if w := format.VerdictWords(got); !strings.HasPrefix(w, "cannot test: ") {
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
		got := stats.CompareFamily(rep(sizes[0]), [][]float64{rep(sizes[1]), {x * 1.05, x * 1.05, x * 1.05}}, results.DefaultEquivalence)
		c := got[0]
		if c.Test != stats.TestZeroVariance || c.Significant || c.PValue != 1 || c.DeltaPct != 0 || !c.Equivalent {
			t.Errorf("%d × %v against %d × the same: %+v, want zero variance, p 1, Δ 0, equivalent", sizes[0], x, sizes[1], c)
		}
		if w := format.VerdictWords(c); !strings.HasPrefix(w, "no difference") {
			t.Errorf("%d × %v against %d × the same: verdict %q, want \"no difference …\"", sizes[0], x, sizes[1], w)
		}
		// A real difference between constants is still one.
		if d := got[1]; d.Test != stats.TestZeroVariance || !d.Significant {
			t.Errorf("%d × %v against 3 × 5 %% more: %+v, want significant (zero variance)", sizes[0], x, d)
		}
	}
}
