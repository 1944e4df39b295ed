package stats

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat/distuv"
)

// Alpha is the significance level of Compare (two-sided).
const Alpha = 0.05

// Stats summarises a variant's repetition rates, every field finite; the 95 %
// interval is exp(mean(ln x) ± t(0.975, N-1)·sd(ln x)/√N), Mean without HasCI.
type Stats struct {
	N        int     `json:"n"`
	Mean     float64 `json:"mean"`   // 0 when a value is not finite
	StdDev   float64 `json:"stddev"` // n-1; math.MaxFloat64 beyond float64's range
	GeoMean  float64 `json:"geo_mean,omitempty"`
	CI95Low  float64 `json:"ci95_low"`
	CI95High float64 `json:"ci95_high"`
	HasCI    bool    `json:"has_ci"`
	NoCI     string  `json:"no_ci,omitempty"`
}

// The values of Stats.NoCI.
const (
	NoCITooFew      = "n<2"
	NoCINotPositive = "a value is not positive"
)

// Summarize returns the Stats of xs.
func Summarize(xs []float64) Stats {
	s := Stats{N: len(xs)}
	if s.N == 0 {
		return s
	}
	if !slices.ContainsFunc(xs, func(x float64) bool { return !finite(x) }) {
		s.Mean, s.StdDev = MeanStdDev(xs)
	}
	s.CI95Low, s.CI95High = s.Mean, s.Mean
	logs, positive := logOf(xs)
	switch {
	case !positive:
		s.NoCI = NoCINotPositive
		if s.N < 2 {
			s.NoCI = NoCITooFew
		}
		return s
	case s.N < 2:
		s.GeoMean, s.NoCI = xs[0], NoCITooFew
		return s
	}
	lm, ls := MeanStdDev(logs)
	if ls <= roundingTolerance(logs) {
		ls = 0
	}
	half := StudentTQuantile(0.975, float64(s.N-1)) * ls / math.Sqrt(float64(s.N))
	s.GeoMean = math.Exp(lm)
	s.CI95Low, s.CI95High, s.HasCI = math.Exp(lm-half), math.Exp(lm+half), true
	if math.IsInf(s.CI95High, 0) || math.IsInf(s.GeoMean, 0) {
		s.GeoMean, s.CI95Low, s.CI95High, s.HasCI, s.NoCI = 0, s.Mean, s.Mean, false, NoCINotPositive
	}
	return s
}

// MeanStdDev is the mean and sample standard deviation (n-1) of xs, sums that
// would overflow taken on scaled values.
func MeanStdDev(xs []float64) (mean, sd float64) {
	mean, sd = meanStdDev(xs)
	if !math.IsInf(mean, 0) && !math.IsInf(sd, 0) {
		return mean, sd
	}
	scale := maxAbs(xs)
	if math.IsInf(scale, 0) || math.IsNaN(scale) || scale == 0 {
		return mean, sd // a value is not finite: nothing to scale
	}
	scaled := make([]float64, len(xs))
	for i, x := range xs {
		scaled[i] = x / scale
	}
	mean, sd = meanStdDev(scaled)
	mean, sd = mean*scale, sd*scale
	if math.IsInf(sd, 1) {
		sd = math.MaxFloat64
	}
	return mean, sd
}

// meanStdDev is MeanStdDev on values whose sums do not overflow.
func meanStdDev(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		d := x - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}

// roundingTolerance is the spread below which logarithms count as equal: far
// below one request in a window, above the rounding of sums.
func roundingTolerance(xs ...[]float64) float64 { return 1e-12 * (maxAbs(xs...) + 1) }

func maxAbs(xs ...[]float64) float64 {
	m := 0.0
	for _, s := range xs {
		for _, x := range s {
			m = math.Max(m, math.Abs(x))
		}
	}
	return m
}

// The values of Comparison.Test: Student's pooled test for equal sizes,
// Welch's for different ones; without "ln" on raw values (older runs).
const (
	TestStudentLog   = "t-test on ln(req/s)"
	TestStudent      = "t-test"
	TestWelchLog     = "welch t-test on ln(req/s)"
	TestWelch        = "welch t-test"
	TestZeroVariance = "t-test (zero variance)"
	TestNone         = "n<2: no test"
	TestCannot       = "cannot test" // Comparison.Why says why
)

// Comparison says how a sample differs from a baseline and whether beyond
// the noise; every field finite, p-values 1 when no test ran, DeltaPct 0 when
// undefined or within rounding. MDEPct is the smallest true difference found
// with probability Power at level Alpha/Family; EquivalenceBoundPct the
// smallest ±X % the data rule out (TOST at that level).
type Comparison struct {
	DeltaPct             float64 `json:"delta_pct"`
	PValue               float64 `json:"p_value"`    // two-sided, unadjusted
	PAdjusted            float64 `json:"p_adjusted"` // over the Family
	Adjustment           string  `json:"adjustment,omitempty"`
	Family               int     `json:"family,omitempty"`
	Significant          bool    `json:"significant"` // PAdjusted < Alpha
	SEPct                float64 `json:"se_pct,omitempty"`
	MDEPct               float64 `json:"mde_pct,omitempty"`
	HasMDE               bool    `json:"has_mde,omitempty"`
	MDENote              string  `json:"mde_note,omitempty"`
	EquivalenceBoundPct  float64 `json:"equivalence_bound_pct,omitempty"`
	HasBound             bool    `json:"has_bound,omitempty"`
	EquivalenceMarginPct float64 `json:"equivalence_margin_pct,omitempty"`
	Equivalent           bool    `json:"equivalent,omitempty"`
	Test                 string  `json:"test"`
	Why                  string  `json:"why,omitempty"`
	T                    float64 `json:"t"` // other minus base
	DF                   float64 `json:"df"`
	N                    int     `json:"n,omitempty"`       // the smaller sample's size
	Caution              string  `json:"caution,omitempty"` // with fewer than three values a side
}

// MDENotDeterminable is MDENote when no finite effect is found with Power.
const MDENotDeterminable = "not determinable"

// Compare compares other with base alone: DeltaPct from the means, and a
// two-sided t-test at Alpha on the logarithms, as throughput noise is
// proportional to throughput (on the raw scale Welch's test loses its power).
func Compare(base, other []float64) Comparison {
	c, _, _ := compare(base, other)
	return c
}

// compare is Compare, with the logarithms' means' difference and its standard error.
func compare(base, other []float64) (c Comparison, d, se float64) {
	c = Comparison{PValue: 1, PAdjusted: 1, Test: TestNone}
	if len(base) > 0 && len(other) > 0 {
		mb, _ := MeanStdDev(base)
		mo, _ := MeanStdDev(other)
		if d := (mo - mb) / mb * 100; mb != 0 && finite(d) {
			c.DeltaPct = d
		}
	}
	if len(base) < 2 || len(other) < 2 {
		return c, 0, 0
	}
	lb, okb := logOf(base)
	lo, oko := logOf(other)
	if !okb || !oko {
		c.Test, c.Why = TestCannot, "a rate is zero, negative or not a finite number"
		return c, 0, 0
	}
	delta := c.DeltaPct
	c, d, se = tTest(lb, lo, roundingTolerance(lb, lo), len(base) == len(other))
	c.DeltaPct = delta
	switch c.Test {
	case TestWelch:
		c.Test = TestWelchLog
	case TestStudent:
		c.Test = TestStudentLog
	case TestZeroVariance:
		if !c.Significant {
			c.DeltaPct = 0 // the same to within rounding
		}
	}
	if math.IsNaN(c.PValue) {
		return Comparison{DeltaPct: delta, PValue: 1, PAdjusted: 1, Test: TestCannot, Why: "p is not a number"}, 0, 0
	}
	c.PAdjusted = c.PValue
	c.Adjustment, c.Family = AdjustNone, 1
	c.N = min(len(base), len(other))
	c.Caution = caution(c)
	return c, d, se
}

// caution is Comparison.Caution; "" with three values a side or more.
func caution(c Comparison) string {
	if c.N >= 3 {
		return ""
	}
	if c.Test == TestZeroVariance {
		return fmt.Sprintf("%d repetitions: no noise seen, which two values may show by chance", c.N)
	}
	df := strconv.FormatFloat(c.DF, 'f', 1, 64)
	if c.DF == math.Trunc(c.DF) {
		df = strconv.FormatFloat(c.DF, 'f', 0, 64)
	}
	return fmt.Sprintf("%d repetitions: t has %s degrees of freedom", c.N, df)
}

// logOf is ln of each x, false when one is not positive and finite.
func logOf(xs []float64) ([]float64, bool) {
	out := make([]float64, len(xs))
	for i, x := range xs {
		if !(x > 0) || math.IsInf(x, 1) {
			return nil, false
		}
		out[i] = math.Log(x)
	}
	return out, true
}

// tTest is the two-sided t-test of other against base, Welch's or Student's
// pooled (exact df for one size), spreads up to tol as zero; d and se are the
// means' difference (0 within tol) and its standard error.
func tTest(base, other []float64, tol float64, pooled bool) (c Comparison, d, se float64) {
	c = Comparison{PValue: 1, PAdjusted: 1, Test: TestNone}
	if len(base) < 2 || len(other) < 2 {
		return c, 0, 0
	}
	d, vb, vo := difference(base, other, tol)
	if se = math.Sqrt(vb + vo); se == 0 {
		c.Test = TestZeroVariance
		if math.Abs(d) > tol {
			c.PValue, c.Significant = 0, true
		} else {
			d = 0
		}
		return c, d, 0
	}
	c.Test, c.DF = TestWelch, welchDF(vb, vo, len(base), len(other))
	if pooled {
		c.Test, c.DF = TestStudent, float64(len(base)+len(other)-2)
	}
	c.T = d / se
	c.PValue = min(1, 2*studentTUpper(math.Abs(c.T), c.DF))
	c.Significant = c.PValue < Alpha
	return c, d, se
}

// difference is other − base of the means and their squared standard errors,
// spreads up to tol as zero.
func difference(base, other []float64, tol float64) (d, vb, vo float64) {
	mb, sb := MeanStdDev(base)
	mo, so := MeanStdDev(other)
	if sb <= tol {
		sb = 0
	}
	if so <= tol {
		so = 0
	}
	return mo - mb, sb * sb / float64(len(base)), so * so / float64(len(other))
}

func welchDF(vb, vo float64, nb, no int) float64 {
	return (vb + vo) * (vb + vo) / (vb*vb/float64(nb-1) + vo*vo/float64(no-1))
}

// studentTUpper is P(T > t) for t ≥ 0: gonum's up to hugeDF, above it the
// expansion around the normal, as the incomplete beta loses its digits
// (StudentTQuantile(0.975, 1e15) was 0.0548).
func studentTUpper(t, df float64) float64 {
	switch {
	case math.IsInf(t, 1):
		return 0
	case df > hugeDF:
		return studentTUpperHuge(t, df)
	}
	return distuv.StudentsT{Sigma: 1, Nu: df}.Survival(t)
}

// hugeDF: above it, the expansion's first neglected term is below 1e-30 for |t| ≤ 10.
const hugeDF = 1e4

// studentTUpperHuge is P(T > t) for a huge df: the normal tail at the x whose
// Cornish–Fisher quantile is t, by fixed point.
func studentTUpperHuge(t, df float64) float64 {
	x := t
	for range 50 {
		next := t - cornishFisherShift(x, df)
		if next == x {
			break
		}
		x = next
	}
	return distuv.UnitNormal.CDF(-x) // Survival loses the tail to 1 − Erf
}

// cornishFisherShift is t(p) − x for x the normal quantile of p, to four
// terms in 1/df (A&S 26.7.5).
func cornishFisherShift(x, df float64) float64 {
	x2 := x * x
	g1 := (x2 + 1) * x / 4
	g2 := ((5*x2+16)*x2 + 3) * x / 96
	g3 := (((3*x2+19)*x2+17)*x2 - 15) * x / 384
	g4 := ((((79*x2+776)*x2+1482)*x2-1920)*x2 - 945) * x / 92160
	return (g1 + (g2+(g3+g4/df)/df)/df) / df
}

// StudentTQuantile is the t with P(T ≤ t) = p for df > 0 (+Inf: the normal);
// NaN out of range.
func StudentTQuantile(p, df float64) float64 {
	switch {
	case !(p > 0 && p < 1) || !(df > 0):
		return math.NaN()
	case df > hugeDF:
		x := distuv.UnitNormal.Quantile(p)
		return x + cornishFisherShift(x, df)
	}
	return distuv.StudentsT{Sigma: 1, Nu: df}.Quantile(p)
}

// TestNoBaseline is Comparison.Test when the baseline was not measured.
const TestNoBaseline = "baseline not measured: no test"

// Tested reports whether c's test ran (else it is in no family).
func (c Comparison) Tested() bool {
	return c.Test != TestNone && c.Test != TestCannot && c.Test != TestNoBaseline
}
