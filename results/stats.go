package results

import "math"

// Alpha is the significance level of Compare (two-sided).
const Alpha = 0.05

// Stats summarises one sample, typically the total rates of a variant's
// repetitions. Every field is finite (no NaN or Inf), so Stats encodes to
// JSON as is.
type Stats struct {
	// N is the sample size.
	N int `json:"n"`
	// Mean is the arithmetic mean; 0 when N is 0.
	Mean float64 `json:"mean"`
	// StdDev is the sample standard deviation (divisor N-1); 0 when N < 2.
	StdDev float64 `json:"stddev"`
	// CI95Low and CI95High bound the 95 % confidence interval of the mean,
	// Mean ± t(0.975, N-1)·StdDev/√N with Student's t quantile. When HasCI
	// is false (N < 2) the interval is undefined and both equal Mean.
	CI95Low  float64 `json:"ci95_low"`
	CI95High float64 `json:"ci95_high"`
	// HasCI reports whether the confidence interval is defined (N ≥ 2).
	HasCI bool `json:"has_ci"`
}

// Summarize returns the Stats of xs.
func Summarize(xs []float64) Stats {
	s := Stats{N: len(xs)}
	if s.N == 0 {
		return s
	}
	s.Mean, s.StdDev = meanStdDev(xs)
	s.CI95Low, s.CI95High = s.Mean, s.Mean
	if s.N < 2 {
		return s
	}
	half := StudentTQuantile(0.975, float64(s.N-1)) * s.StdDev / math.Sqrt(float64(s.N))
	s.CI95Low, s.CI95High, s.HasCI = s.Mean-half, s.Mean+half, true
	return s
}

// meanStdDev returns the mean and the sample standard deviation (n-1) of
// xs, two-pass for accuracy; the deviation is 0 for fewer than two values.
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

// The values of Comparison.Test.
const (
	// TestStudentLog is TestStudent on the natural logarithm of the values:
	// what Compare uses for positive samples of equal size such as the
	// req/s of a run's variants (see Compare).
	TestStudentLog = "t-test on ln(req/s)"
	// TestStudent is Student's two-sample t-test with pooled variance,
	// two-sided: with samples of equal size it is Welch's statistic with
	// n_a + n_b − 2 degrees of freedom, robust to unequal variances.
	TestStudent = "t-test"
	// TestWelchLog is TestWelch on the natural logarithm of the values:
	// what Compare uses for positive samples of different sizes.
	TestWelchLog = "welch t-test on ln(req/s)"
	// TestWelch is Welch's unequal-variance two-sample t-test, two-sided.
	TestWelch = "welch t-test"
	// TestZeroVariance is a t-test where both samples have zero variance:
	// p is 1 if the means are equal and 0 otherwise.
	TestZeroVariance = "t-test (zero variance)"
	// TestNone means a sample had fewer than two values, so no test ran.
	TestNone = "n<2: no test"
)

// Comparison says how a sample differs from a baseline sample and whether
// the difference is larger than the noise. Every field is finite.
type Comparison struct {
	// DeltaPct is (mean(other) - mean(base)) / mean(base) in percent; 0
	// when mean(base) is 0.
	DeltaPct float64 `json:"delta_pct"`
	// PValue is the two-sided p-value of Test, unadjusted; 1 when no test ran.
	PValue float64 `json:"p_value"`
	// PAdjusted is PValue adjusted for the other comparisons of its
	// family (Adjustment over Family comparisons, CompareFamily); equal to
	// PValue for a comparison judged alone, 1 when no test ran.
	PAdjusted float64 `json:"p_adjusted"`
	// Adjustment names the adjustment (AdjustHolm or AdjustNone) and
	// Family the number of comparisons adjusted together.
	Adjustment string `json:"adjustment,omitempty"`
	Family     int    `json:"family,omitempty"`
	// Significant is PAdjusted < Alpha for a test that ran; false otherwise.
	Significant bool `json:"significant"`
	// SEPct is the standard error of the difference in percent of the
	// baseline; MDEPct the minimum detectable effect: the smallest true
	// difference, in percent, found significant with probability Power at
	// the level Alpha/Family. HasMDE is false when no test ran.
	SEPct  float64 `json:"se_pct,omitempty"`
	MDEPct float64 `json:"mde_pct,omitempty"`
	HasMDE bool    `json:"has_mde,omitempty"`
	// EquivalenceBoundPct is the smallest ±X % that the data rule out: the
	// farther end of the (1 − 2·Alpha/Family) confidence interval of the
	// difference. Two one-sided tests against a margin of X % would both
	// pass at level Alpha/Family. Defined when HasMDE.
	EquivalenceBoundPct float64 `json:"equivalence_bound_pct,omitempty"`
	// EquivalenceMarginPct is the margin tested (the scenario's
	// equivalence, in percent; 0 when none), and Equivalent says whether
	// the bound is within it: "no difference larger than ±margin".
	EquivalenceMarginPct float64 `json:"equivalence_margin_pct,omitempty"`
	Equivalent           bool    `json:"equivalent,omitempty"`
	// Test names the test (TestWelchLog, TestWelch, TestZeroVariance or TestNone).
	Test string `json:"test"`
	// T and DF are Welch's statistic (other minus base) and its
	// Welch–Satterthwaite degrees of freedom; 0 when not defined.
	T  float64 `json:"t"`
	DF float64 `json:"df"`
}

// Compare compares other with base: DeltaPct from the means, and whether
// the difference is larger than the noise by a two-sample t-test
// (two-sided, significance level Alpha) on the logarithms of the values
// when all are positive (TestStudentLog or TestWelchLog), on the values
// otherwise (TestStudent or TestWelch).
//
// Why logarithms: the noise of a throughput measurement is proportional to
// the throughput (a shared machine slows every request by a few percent),
// so two variants of very different speed — RSA-4096 at 150 req/s against
// ECDSA at 2,000 — have very different variances on the raw scale. Welch's
// degrees of freedom then collapse towards 1 and the test loses nearly all
// its power. On the log scale the variances are comparable, the question
// becomes "is the ratio different from 1", which is what Δ % reports, and
// the test keeps its power.
//
// Which t-test: with samples of equal size (every variant of a run gets
// the same repetitions) Student's and Welch's statistics are the same
// number, and Student's n_a + n_b − 2 degrees of freedom are known
// exactly, where Welch's are estimated from the very noise they judge and
// drop to as few as n − 1: with three repetitions Welch would need a
// t of up to 4.30 instead of 2.78, and its power could not be stated.
// Equal sizes are also the case where the pooled test stays accurate
// when the variances differ. With sizes that differ (a repetition lost)
// Compare uses Welch's test.
//
// With fewer than two values on either side no test runs: Significant is
// false and Test is TestNone. Compare judges the comparison alone
// (PAdjusted = PValue, Family 1) and gives no MDE or equivalence;
// CompareFamily judges several together.
func Compare(base, other []float64) Comparison {
	var c Comparison
	if logs, ok := logAll(base, other); ok {
		c = tTest(logs[0], logs[1])
		switch c.Test {
		case TestWelch:
			c.Test = TestWelchLog
		case TestStudent:
			c.Test = TestStudentLog
		}
	} else {
		c = tTest(base, other)
	}
	c.PAdjusted = c.PValue
	if c.Test != TestNone {
		c.Adjustment, c.Family = AdjustNone, 1
	}
	if len(base) > 0 && len(other) > 0 {
		mb, _ := meanStdDev(base)
		mo, _ := meanStdDev(other)
		if mb != 0 {
			c.DeltaPct = (mo - mb) / mb * 100
		}
	}
	return c
}

// tTest runs Student's pooled test when the samples have the same size,
// Welch's otherwise.
func tTest(base, other []float64) Comparison {
	c := Welch(base, other)
	if c.Test != TestWelch || len(base) != len(other) {
		return c
	}
	c.Test = TestStudent
	c.DF = float64(len(base) + len(other) - 2)
	c.PValue = min(1, 2*studentTUpper(math.Abs(c.T), c.DF))
	c.Significant = c.PValue < Alpha
	return c
}

// logAll returns the natural logarithms of both samples when every value
// is positive and finite.
func logAll(a, b []float64) ([2][]float64, bool) {
	var out [2][]float64
	for i, xs := range [][]float64{a, b} {
		out[i] = make([]float64, len(xs))
		for j, x := range xs {
			if !(x > 0) || math.IsInf(x, 1) {
				return out, false
			}
			out[i][j] = math.Log(x)
		}
	}
	return out, true
}

// Welch runs Welch's unequal-variance two-sample t-test of other against
// base on the values as given (two-sided, significance level Alpha). It
// fills T, DF, PValue, Significant and Test; DeltaPct is left 0.
func Welch(base, other []float64) Comparison {
	c := Comparison{PValue: 1, Test: TestNone}
	if len(base) < 2 || len(other) < 2 {
		return c
	}
	mb, sb := meanStdDev(base)
	mo, so := meanStdDev(other)
	nb, no := float64(len(base)), float64(len(other))
	vb, vo := sb*sb/nb, so*so/no // squared standard errors of the means
	se2 := vb + vo
	if se2 == 0 {
		c.Test = TestZeroVariance
		if mo != mb {
			c.PValue, c.Significant = 0, true
		}
		return c
	}
	c.Test = TestWelch
	c.T = (mo - mb) / math.Sqrt(se2)
	c.DF = se2 * se2 / (vb*vb/(nb-1) + vo*vo/(no-1))
	c.PValue = 2 * studentTUpper(math.Abs(c.T), c.DF)
	if c.PValue > 1 {
		c.PValue = 1
	}
	c.Significant = c.PValue < Alpha
	return c
}

// StudentTCDF returns P(T ≤ t) for Student's t distribution with df > 0
// degrees of freedom (df need not be an integer).
func StudentTCDF(t, df float64) float64 {
	if t >= 0 {
		return 1 - studentTUpper(t, df)
	}
	return studentTUpper(-t, df)
}

// studentTUpper returns P(T > t) for t ≥ 0:
// ½·I_x(df/2, ½) with x = df/(df+t²), the regularized incomplete beta.
func studentTUpper(t, df float64) float64 {
	if math.IsInf(t, 1) {
		return 0
	}
	t2 := t * t
	return 0.5 * betaInc(df/2, 0.5, df/(df+t2), t2/(df+t2))
}

// StudentTQuantile returns the t with StudentTCDF(t, df) = p for 0 < p < 1
// and df > 0 (df need not be an integer). It inverts the CDF by bisection
// to full float64 precision; it returns NaN for p or df out of range.
func StudentTQuantile(p, df float64) float64 {
	switch {
	case !(p > 0 && p < 1) || !(df > 0):
		return math.NaN()
	case p == 0.5:
		return 0
	case p < 0.5:
		return -StudentTQuantile(1-p, df)
	}
	q := 1 - p // target upper tail, decreasing in t
	lo, hi := 0.0, 1.0
	for studentTUpper(hi, df) > q {
		lo, hi = hi, hi*2
		if math.IsInf(hi, 1) {
			return hi
		}
	}
	for {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			return mid
		}
		if studentTUpper(mid, df) > q {
			lo = mid
		} else {
			hi = mid
		}
	}
}

// betaInc returns the regularized incomplete beta function I_x(a, b) for
// a, b > 0, given x and xc = 1-x (passed separately to keep precision when
// x is close to 1). It uses the continued fraction of Numerical Recipes
// (§6.4) on whichever side converges quickly.
func betaInc(a, b, x, xc float64) float64 {
	switch {
	case x <= 0:
		return 0
	case xc <= 0:
		return 1
	}
	lga, _ := math.Lgamma(a)
	lgb, _ := math.Lgamma(b)
	lgab, _ := math.Lgamma(a + b)
	front := math.Exp(lgab - lga - lgb + a*math.Log(x) + b*math.Log(xc))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, xc)/b
}

// betaCF evaluates the continued fraction for the incomplete beta function
// by the modified Lentz method.
func betaCF(a, b, x float64) float64 {
	const (
		eps     = 1e-15
		tiny    = 1e-300
		maxIter = 100000 // converges in O(√max(a,b)) steps
	)
	fix := func(v float64) float64 {
		if math.Abs(v) < tiny {
			return tiny
		}
		return v
	}
	qab, qap, qam := a+b, a+1, a-1
	c := 1.0
	d := 1 / fix(1-qab*x/qap)
	h := d
	for m := 1; m <= maxIter; m++ {
		fm := float64(m)
		m2 := 2 * fm
		aa := fm * (b - fm) * x / ((qam + m2) * (a + m2))
		d = 1 / fix(1+aa*d)
		c = fix(1 + aa/c)
		h *= d * c
		aa = -(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))
		d = 1 / fix(1+aa*d)
		c = fix(1 + aa/c)
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}
