package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat/distuv"
)

// Alpha is the significance level of Compare (two-sided).
const Alpha = 0.05

// Stats summarises rates, all finite; CI95: exp(mean ln x ± t(0.975, N-1)·sd(ln x)/√N), Mean without HasCI.
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
	s.CI95Low, s.CI95High, s.NoCI = s.Mean, s.Mean, NoCINotPositive // also when the interval overflows
	logs, positive := logOf(xs)
	if s.N < 2 {
		s.NoCI = NoCITooFew
		if positive {
			s.GeoMean = xs[0]
		}
	}
	if s.N < 2 || !positive {
		return s
	}
	lm, ls := MeanStdDev(logs)
	if ls <= roundingTolerance(logs) {
		ls = 0
	}
	half := StudentTQuantile(0.975, float64(s.N-1)) * ls / math.Sqrt(float64(s.N))
	if geo, hi := math.Exp(lm), math.Exp(lm+half); !math.IsInf(geo, 0) && !math.IsInf(hi, 0) {
		s.GeoMean, s.CI95Low, s.CI95High, s.HasCI, s.NoCI = geo, math.Exp(lm-half), hi, true, ""
	}
	return s
}

// MeanStdDev is the mean and sample sd (n-1) of xs, sums that would overflow taken scaled.
func MeanStdDev(xs []float64) (mean, sd float64) {
	if mean, sd = meanStdDev(xs, 1); !math.IsInf(mean, 0) && !math.IsInf(sd, 0) {
		return mean, sd
	}
	if scale := maxAbs(xs); finite(scale) && scale > 0 { // else a value is not finite: nothing to scale
		mean, sd = meanStdDev(xs, scale)
		mean, sd = mean*scale, min(sd*scale, math.MaxFloat64)
	}
	return mean, sd
}

// meanStdDev is MeanStdDev of xs/scale (x/1 is x).
func meanStdDev(xs []float64, scale float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x / scale
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x/scale - mean) * (x/scale - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}

// roundingTolerance: logarithms closer count as equal (far below one request, above rounding).
func roundingTolerance(xs ...[]float64) float64 { return 1e-12 * (maxAbs(xs...) + 1) }

func maxAbs(xs ...[]float64) float64 {
	m := 0.0
	for _, s := range xs {
		m = math.Max(m, floats.Norm(s, math.Inf(1)))
	}
	return m
}

// The values of Comparison.Test: Student's (pooled) for equal sizes, else Welch's.
const (
	TestStudentLog   = "t-test on ln(req/s)"
	TestWelchLog     = "welch t-test on ln(req/s)"
	TestZeroVariance = "t-test (zero variance)"
	TestNone         = "n<2: no test"
	TestCannot       = "cannot test" // Comparison.Why says why
	TestNoBaseline   = "baseline not measured: no test"
)

// Comparison is a sample against a baseline, every field finite (p 1 untested); MDEPct: the least true
// difference found with Power at Alpha/Family; EquivalenceBoundPct: the least ±X % TOST rules out.
type Comparison struct {
	DeltaPct             float64 `json:"delta_pct"`  // 0 when undefined or within rounding
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

// Compare compares other with base alone: DeltaPct from the means, a t-test on the logs (noise is
// proportional to throughput: on the raw scale Welch's test loses its power).
func Compare(base, other []float64) Comparison {
	c, _, _ := compare(base, other)
	return c
}

// compare is Compare with the log means' difference and its se.
func compare(base, other []float64) (c Comparison, d, se float64) {
	none := Comparison{PValue: 1, PAdjusted: 1, Test: TestNone}
	mb, _ := MeanStdDev(base) // NaN when empty
	mo, _ := MeanStdDev(other)
	if pct := (mo - mb) / mb * 100; finite(pct) {
		none.DeltaPct = pct
	}
	lb, okb := logOf(base)
	lo, oko := logOf(other)
	if len(base) < 2 || len(other) < 2 {
		return none, 0, 0
	}
	none.Test, none.Why = TestCannot, "a rate is zero, negative or not a finite number"
	if !okb || !oko {
		return none, 0, 0
	}
	if c, d, se = tTest(lb, lo, roundingTolerance(lb, lo), len(base) == len(other)); math.IsNaN(c.PValue) {
		none.Why = "p is not a number"
		return none, 0, 0
	}
	c.DeltaPct = none.DeltaPct
	if c.Test == TestZeroVariance && !c.Significant {
		c.DeltaPct = 0 // the same to within rounding
	}
	c.PAdjusted, c.Adjustment, c.Family = c.PValue, AdjustNone, 1
	c.N = min(len(base), len(other))
	c.Caution = caution(c)
	return c, d, se
}

func caution(c Comparison) string {
	if c.N >= 3 {
		return ""
	}
	if c.Test == TestZeroVariance {
		return fmt.Sprintf("%d repetitions: no noise seen, which two values may show by chance", c.N)
	}
	prec := 1
	if c.DF == math.Trunc(c.DF) {
		prec = 0
	}
	return fmt.Sprintf("%d repetitions: t has %.*f degrees of freedom", c.N, prec, c.DF)
}

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

// tTest is Welch's or the pooled two-sided t-test of logs, spreads up to tol as zero; d (0 within tol), se.
func tTest(base, other []float64, tol float64, pooled bool) (c Comparison, d, se float64) {
	c = Comparison{PValue: 1, PAdjusted: 1, Test: TestNone} // both callers pass 2+ values a side
	mb, sb := MeanStdDev(base)
	mo, so := MeanStdDev(other)
	vb, vo := sb*sb/float64(len(base)), so*so/float64(len(other))
	if sb <= tol {
		vb = 0
	}
	if so <= tol {
		vo = 0
	}
	if d, se = mo-mb, math.Sqrt(vb+vo); se == 0 {
		c.Test = TestZeroVariance
		if math.Abs(d) > tol {
			c.PValue, c.Significant = 0, true
		} else {
			d = 0
		}
		return c, d, 0
	}
	welchDF := (vb + vo) * (vb + vo) / (vb*vb/float64(len(base)-1) + vo*vo/float64(len(other)-1))
	c.Test, c.DF = TestWelchLog, welchDF
	if pooled {
		c.Test, c.DF = TestStudentLog, float64(len(base)+len(other)-2)
	}
	c.T = d / se
	c.PValue = min(1, 2*studentTUpper(math.Abs(c.T), c.DF))
	c.Significant = c.PValue < Alpha
	return c, d, se
}

// studentTUpper is P(T > t), t ≥ 0; above hugeDF (the incomplete beta loses its digits) the normal
// tail at the x whose Cornish–Fisher quantile is t.
func studentTUpper(t, df float64) float64 {
	switch {
	case math.IsInf(t, 1):
		return 0
	case df <= hugeDF:
		return distuv.StudentsT{Sigma: 1, Nu: df}.Survival(t)
	}
	x, prev := t, math.NaN()
	for i := 0; i < 50 && x != prev; i++ {
		x, prev = t-cornishFisherShift(x, df), x
	}
	return distuv.UnitNormal.CDF(-x) // Survival loses the tail to 1 − Erf
}

// hugeDF: above it, the expansion's first neglected term is below 1e-30 for |t| ≤ 10.
const hugeDF = 1e4

// cornishFisherShift is t(p) − x, x the normal quantile of p, to 1/df⁴ (A&S 26.7.5).
func cornishFisherShift(x, df float64) float64 {
	x2 := x * x
	g1 := (x2 + 1) * x / 4
	g2 := ((5*x2+16)*x2 + 3) * x / 96
	g3 := (((3*x2+19)*x2+17)*x2 - 15) * x / 384
	g4 := ((((79*x2+776)*x2+1482)*x2-1920)*x2 - 945) * x / 92160
	return (g1 + (g2+(g3+g4/df)/df)/df) / df
}

// StudentTQuantile is t with P(T ≤ t) = p, df > 0 (+Inf: normal); NaN out of range.
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

// Tested reports whether c's test ran (else it is in no family).
func (c Comparison) Tested() bool {
	return c.Test != TestNone && c.Test != TestCannot && c.Test != TestNoBaseline
}
