package stats

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestNoncentralityReference checks the power integrals against scipy
// 1.10: noncentrality is the λ with P(|T| > t(1−α/2, df)) = 0.8 for T
// noncentral t (scipy.stats.nct), and reportedNoncentrality the c whose
// power, averaged over an estimated standard error √(V/df) with
// V ~ χ²(df), is 0.8 (scipy.integrate.quad over the χ² density, in
// V^(1/4) like the code, of nct's power). Both were also integrated a
// second way, quad over Φ(λ − tc·√(V/df)) instead of nct, and agreed to
// 1e-9. Below df 2 the integration over V gave +Inf (1.2) or up to 150 %
// too much; at 2.5 and 3, 1.3 % and 0.3 % too much.
func TestNoncentralityReference(t *testing.T) {
	for _, tt := range []struct{ df, alpha, planned, reported float64 }{
		{1, 0.05, 16.3340088702, 39.0928891791},
		{1.2, 0.05, 11.1836337132, 23.1521835633},
		{1.5, 0.0125, 19.7013911661, 35.5800684035},
		{2, 0.05, 5.6534892664, 8.77058019339},
		{2.5, 0.0125, 8.34326499729, 12.0373826499},
		{3, 0.05, 4.25589868652, 5.70071079615},
		{8, 0.0125, 4.17548301144, 4.704140396},
	} {
		if got := noncentrality(tt.df, tt.alpha); !near(got, tt.planned, 1e-6) {
			t.Errorf("noncentrality(df %v, α %v) = %.10g, want %.10g (scipy)", tt.df, tt.alpha, got, tt.planned)
		}
		if got := reportedNoncentrality(tt.df, tt.alpha); !near(got, tt.reported, 1e-6) {
			t.Errorf("reportedNoncentrality(df %v, α %v) = %.10g, want %.10g (scipy)", tt.df, tt.alpha, got, tt.reported)
		}
	}
}

// TestNoncentralitySmallAlpha: with df near 1 and a level of α/55 (a
// run of 56 variants) the critical t is 700 and the power steps from 1
// to 0 within 1/700 of the standard error's spread, which the fixed
// Simpson rule this replaced took as one or two nodes: noncentrality(1,
// α/55) was 897.534 and reportedNoncentrality(1.01, α/55) 2005.54.
//
// The references are mpmath 1.3's, at 30 digits, by other integrals than
// the code's: noncentrality by quad over the χ density of √(V/df) of
// Φ(λ − tc·r) + Φ(−λ − tc·r), cut at the step, with tc from mpmath's
// betainc (at df 1 also by quad over Z of erf(|Z + λ|/(tc·√2)), which
// agreed to 20 digits), and the root by regula falsi to 1e-15.
// reportedNoncentrality at df 1 from its closed form: with R and R′
// half-normal the power P(|Z + c·R′| > tc·R) is a trivariate normal
// orthant probability, 1 − (2/π)·asin(tc/√(1 + c² + tc²)), so c =
// √(tc²·cot²(π/10) − 1) (at α 0.05 it gives scipy's 39.0928891791
// above); at 1.01 and 2 by quad over θ of the polar form (reportedPower)
// with mpmath's own t distribution function, which gives the closed
// form's value at df 1 to 20 digits. testdata/noncentrality_refs.py
// computes them.
func TestNoncentralitySmallAlpha(t *testing.T) {
	const alpha = 0.05 / 55
	for _, tt := range []struct{ df, planned, reported float64 }{
		{1, 897.44747753638507548, 2155.2439151751307391},
		{1.01, 842.89640314995609613, 2006.8835793825722174},
		{2, 42.073576967038296818, 66.309868313423152068},
	} {
		if got := noncentrality(tt.df, alpha); !near(got, tt.planned, 1e-9) {
			t.Errorf("noncentrality(df %v, α/55) = %.15g, want %.15g (mpmath)", tt.df, got, tt.planned)
		}
		if got := reportedNoncentrality(tt.df, alpha); !near(got, tt.reported, 1e-9) {
			t.Errorf("reportedNoncentrality(df %v, α/55) = %.15g, want %.15g (mpmath)", tt.df, got, tt.reported)
		}
	}
	// The closed form at df 1 for other levels too.
	for _, a := range []float64{0.05, 0.05 / 3, 0.05 / 10, 0.05 / 1000} {
		tc := math.Tan(math.Pi * (0.5 - a/2))
		cot := 1 / math.Tan(math.Pi/10)
		if got, want := reportedNoncentrality(1, a), math.Sqrt(tc*tc*cot*cot-1); !near(got, want, 1e-9) {
			t.Errorf("reportedNoncentrality(df 1, α %v) = %.15g, want %.15g (closed form)", a, got, want)
		}
	}
}

// TestHolmNaN: a NaN p (a test that produced no number) is no test. It
// must not change another p's adjustment: the others are adjusted as if
// it were absent. Before, it sorted anywhere and the running maximum
// carried it onto every later rank, so a p = 3e-13 lost its significance.
func TestHolmNaN(t *testing.T) {
	ps := []float64{0.01, math.NaN(), 3e-13, 0.02, 0.2}
	without := Holm([]float64{0.01, 3e-13, 0.02, 0.2})
	got := Holm(ps)
	if !math.IsNaN(got[1]) {
		t.Errorf("Holm(%v)[1] = %v, want NaN", ps, got[1])
	}
	for i, j := range []int{0, 2, 3, 4} {
		if got[j] != without[i] {
			t.Errorf("Holm(%v)[%d] = %v, want %v as without the NaN", ps, j, got[j], without[i])
		}
	}
	if got[2] >= Alpha {
		t.Errorf("p = 3e-13 adjusted to %v, want significant", got[2])
	}
}

// TestCompareFamilyNaNRate: a variant with a rate that is not a number
// cannot be tested; every other variant's verdict is the one it gets in
// the family without it.
func TestCompareFamilyNaNRate(t *testing.T) {
	base := []float64{1000, 1010, 990}
	others := [][]float64{{1100, 1110, 1090}, {1000, 1012, 995}, {1060, 1040, 1070}}
	bad := []float64{math.NaN(), 1005, 1000}
	want := CompareFamily(base, others, defaultEquivalence)
	got := CompareFamily(base, [][]float64{others[0], bad, others[1], others[2]}, defaultEquivalence)
	if c := got[1]; c.Test != TestCannot || c.Family != 0 || c.Significant {
		t.Errorf("NaN rate: %+v, want %q outside the family", c, TestCannot)
	}
	for i, j := range []int{0, 2, 3} {
		if got[j] != want[i] {
			t.Errorf("variant %d with a NaN beside it: %+v, want %+v", i, got[j], want[i])
		}
	}
	for _, c := range got {
		if _, err := json.Marshal(c); err != nil {
			t.Errorf("comparison %+v: %v", c, err)
		}
	}
}

// TestShaffer: the counts of equalities among k means that can be true at
// once (Shaffer 1986, table 1), and adjusted p-values that are never above
// Holm's and equal to them at the first step.
func TestShaffer(t *testing.T) {
	for k, want := range map[int][]int{2: {0, 1}, 3: {0, 1, 3}, 4: {0, 1, 2, 3, 6}, 5: {0, 1, 2, 3, 4, 6, 10}} {
		got := trueNullCounts(k)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("trueNullCounts(%d) = %v, want %v", k, got, want)
		}
	}
	ps := []float64{0.001, 0.004, 0.008, 0.3, 0.5, 0.02, 0.6, 0.9, 0.01, 0.04} // 10 pairs of 5
	h, s := Holm(ps), shaffer(ps, 5)
	for i := range ps {
		if s[i] > h[i] {
			t.Errorf("pair %d: Shaffer %v above Holm %v", i, s[i], h[i])
		}
	}
	// Smallest: ×10 either way; second: Holm ×9, Shaffer ×6 (one
	// difference among five means leaves at most six equalities true).
	if s[0] != 0.01 || !near(h[1], 0.036, 1e-12) || !near(s[1], 0.024, 1e-12) {
		t.Errorf("Shaffer %v, Holm %v: want 0.01 first, then 0.024 against Holm's 0.036", s[:2], h[:2])
	}
	if got := shaffer(ps[:9], 5); !slices.Equal(got, Holm(ps[:9])) {
		t.Errorf("shaffer with a pair missing = %v, want Holm's %v", got, Holm(ps[:9]))
	}
}

// TestMDENotDeterminable: when the noise is so large that no finite
// effect reaches 80 % power in float64 (a baseline of 1,000 and 1e150
// req/s), the MDE is "not determinable": in the JSON, the text and the
// verdict, never Inf.
func TestMDENotDeterminable(t *testing.T) {
	c := CompareFamily([]float64{1000, 1e150}, [][]float64{{999, 1000, 1001, 1000, 999, 1001, 1000, 999, 1001, 1000}}, defaultEquivalence)[0]
	if c.HasMDE || c.MDENote != MDENotDeterminable || !finite(c.MDEPct) || !finite(c.EquivalenceBoundPct) {
		t.Fatalf("comparison %+v: want no MDE, MDENote %q, every field finite", c, MDENotDeterminable)
	}
	b, err := json.Marshal(c)
	if err != nil || !strings.Contains(string(b), `"mde_note":"not determinable"`) {
		t.Errorf("json %s (%v): want mde_note \"not determinable\"", b, err)
	}
}

// TestEquivalenceSymmetric: "±2 %" means a ratio between 0.98 and 1.02
// on both sides. With no noise the bound is the difference itself: a
// 1.99 % drop is within ±2 %, where ±ln(1.02) (−1.96 %) called it outside.
func TestEquivalenceSymmetric(t *testing.T) {
	base := []float64{1000, 1000, 1000}
	for _, tt := range []struct {
		other []float64
		want  bool
	}{
		{[]float64{980.1, 980.1, 980.1}, true},    // −1.99 %
		{[]float64{979.9, 979.9, 979.9}, false},   // −2.01 %
		{[]float64{1019.9, 1019.9, 1019.9}, true}, // +1.99 %
		{[]float64{1020.1, 1020.1, 1020.1}, false},
	} {
		c := CompareFamily(base, [][]float64{tt.other}, 0.02)[0]
		if c.Equivalent != tt.want || !near(c.EquivalenceBoundPct, math.Abs(tt.other[0]/10-100), 1e-9) {
			t.Errorf("%v against 1,000: equivalent %v bound %v %%, want %v and %v %%", tt.other[0], c.Equivalent, c.EquivalenceBoundPct, tt.want, math.Abs(tt.other[0]/10-100))
		}
	}
}

// defaultEquivalence is results.DefaultEquivalence, the run's default
// margin (results imports stats, so the test cannot import it).
const defaultEquivalence = 0.02

// trueNullCounts returns every number of pairwise equalities among k means
// that can be true at once: sums of C(j, 2) over a partition of k.
func trueNullCounts(k int) []int {
	var out []int
	fewest, _ := fewestMeansSteps(k)
	for t, n := range fewest {
		if int(n) <= k {
			out = append(out, t)
		}
	}
	return out
}

// noncentrality is the λ where a t-test at alpha rejects with Power: the MDE of a known se.
func noncentrality(df, alpha float64) float64 { return noncentralityAt(df, alpha, Power, false) }

// reportedNoncentrality is the c at which c·(estimated se) is found with Power, averaged over se.
func reportedNoncentrality(df, alpha float64) float64 { return noncentralityAt(df, alpha, Power, true) }
