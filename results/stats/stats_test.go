package stats

import (
	"encoding/json"
	"math"
	"testing"
)

// near reports whether got is within rel (relative) of want.
func near(got, want, rel float64) bool {
	if want == 0 {
		return math.Abs(got) <= rel
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// cornishFisher975 is A&S 26.7.5 for p = 0.975, with x = Φ⁻¹(0.975).
func cornishFisher975(df float64) float64 {
	const x = 1.959963984540054
	x3, x5, x7, x9 := x*x*x, x*x*x*x*x, math.Pow(x, 7), math.Pow(x, 9)
	g1 := (x3 + x) / 4
	g2 := (5*x5 + 16*x3 + 3*x) / 96
	g3 := (3*x7 + 19*x5 + 17*x3 - 15*x) / 384
	g4 := (79*x9 + 776*x7 + 1482*x5 - 1920*x3 - 945*x) / 92160
	return x + g1/df + g2/(df*df) + g3/(df*df*df) + g4/(df*df*df*df)
}

// Reference values. Where a closed form exists it is used: for df=1 the t
// distribution is Cauchy, so t(p) = tan(π(p-½)); for df=2,
// t(p) = (2p-1)·√(2/(4p(1-p))). The others agree with printed tables and
// R's qt(p, df) (2.570582, 2.364624, 2.042272) and, to 1e-12, with an
// independent Python script that integrates the t density by Simpson's rule
// and inverts it by bisection (no incomplete beta function involved).
//
// For large df the reference is the Cornish–Fisher expansion of the t
// quantile in 1/df around the normal quantile (Abramowitz & Stegun 26.7.5),
// whose truncation error at df ≥ 1000 is below 1e-14.
func TestStudentTQuantile(t *testing.T) {
	twoDF := func(p float64) float64 { return (2*p - 1) * math.Sqrt(2/(4*p*(1-p))) }
	tests := []struct {
		p, df, want float64
	}{
		{0.975, 1, math.Tan(math.Pi * (0.975 - 0.5))}, // 12.706204736174707
		{0.975, 2, twoDF(0.975)},                      // 4.302652729749464
		{0.995, 2, twoDF(0.995)},
		{0.6, 2, twoDF(0.6)},
		{0.975, 5, 2.570581835636314},
		{0.975, 7, 2.364624251592785},
		{0.975, 30, 2.042272456301238},
		{0.025, 30, -2.042272456301238},
		{0.975, 1000, cornishFisher975(1000)},
		{0.975, 1e5, cornishFisher975(1e5)},
		{0.975, 1e7, cornishFisher975(1e7)},
		{0.5, 3, 0},
	}
	for _, tt := range tests {
		if got := StudentTQuantile(tt.p, tt.df); !near(got, tt.want, 1e-9) {
			t.Errorf("StudentTQuantile(%v, %v) = %.15g, want %.15g", tt.p, tt.df, got, tt.want)
		}
	}
}

// TestStudentTQuantileHugeDF: with df far above any run's the t
// quantile is the normal one plus corrections in 1/df, and the
// incomplete beta lost its digits there: StudentTQuantile(0.975, 1e15)
// was 0.0548 and at 1e12 1.95991. The references are mpmath 1.3's, at 50
// digits: its regularized betainc(df/2, 1/2, 0, df/(df+t²)) / 2 is the
// upper tail, inverted by findroot. Each side of hugeDF, where the
// expansion takes over, is checked, and tails of 1e-10 by the tail itself
// (1 − p would round the p). testdata/tquantile_refs.py computes them.
func TestStudentTQuantileHugeDF(t *testing.T) {
	for _, tt := range []struct{ q, df, want float64 }{
		{0.025, 1e15, 1.959963984540056608}, // the normal's 1.959963984540054 + 2.37e-15
		{0.025, 1e12, 1.959963984542426507},
		{0.025, 1e8, 1.959964008262766821},
		{0.025, 1e7, 1.959964221767205490},
		{0.025, 1e5, 1.9599877075346096386},
		{0.025, 99999, 1.9599877077718447791},
		{0.025, 10001, 1.9602012161646410479},
		{0.025, 10000, 1.9602012398906262341},
		{0.0005, 10000, 3.2914999659416046741},
		{0.2, 10000, 0.84165717914165277328},
	} {
		if got := StudentTQuantile(1-tt.q, tt.df); !near(got, tt.want, 1e-12) {
			t.Errorf("StudentTQuantile(1 − %v, %v) = %.16g, want %.16g (mpmath)", tt.q, tt.df, got, tt.want)
		}
	}
	for _, tt := range []struct{ t, df, q float64 }{
		{6.3679413514828028678, 1e4, 1e-10},
		{6.3620004198436912012, 1e5, 1e-10},
		{6.3614068488767426196, 1e6, 1e-10},
	} {
		if got := studentTUpper(tt.t, tt.df); !near(got, tt.q, 1e-12) {
			t.Errorf("studentTUpper(%v, %v) = %.16g, want %v (mpmath)", tt.t, tt.df, got, tt.q)
		}
	}
}

func TestStudentTQuantileInvertsCDF(t *testing.T) {
	for _, df := range []float64{0.5, 1, 1.7, 3, 9.904741248650831, 24.98852929023142, 120, 5000} {
		for _, p := range []float64{1e-6, 0.001, 0.025, 0.3, 0.5, 0.8, 0.975, 0.999999} {
			x := StudentTQuantile(p, df)
			if got := studentTCDF(x, df); !near(got, p, 1e-10) {
				t.Errorf("studentTCDF(StudentTQuantile(%v, %v) = %v) = %.15g, want %v", p, df, x, got, p)
			}
		}
	}
}

func TestStudentTQuantileOutOfRange(t *testing.T) {
	for _, c := range [][2]float64{{0, 3}, {1, 3}, {-0.1, 3}, {0.5, 0}, {0.9, -1}, {math.NaN(), 3}} {
		if got := StudentTQuantile(c[0], c[1]); !math.IsNaN(got) {
			t.Errorf("StudentTQuantile(%v, %v) = %v, want NaN", c[0], c[1], got)
		}
	}
}

func TestSummarize(t *testing.T) {
	// The interval is the geometric mean's, on the log scale:
	// exp(mean(ln x) ± qt(0.975, n-1)·sd(ln x)/√n). {2,4,4,4,5,5,7,9}:
	// qt(0.975, 7) = 2.364624251592785.
	eight := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	var lm, ss float64
	for _, x := range eight {
		lm += math.Log(x) / 8
	}
	for _, x := range eight {
		ss += (math.Log(x) - lm) * (math.Log(x) - lm)
	}
	half := 2.364624251592785 * math.Sqrt(ss/7) / math.Sqrt(8)
	// Two values a, b: sd(ln) = |ln(b/a)|/√2, so the interval is
	// √(ab)·(b/a)^(±qt(0.975, 1)/2), qt(0.975, 1) = 12.706204736174707.
	gm2, f2 := math.Sqrt(100*110), math.Pow(110.0/100, 12.706204736174707/2)
	tests := []struct {
		name string
		xs   []float64
		want Stats
	}{
		{"empty", nil, Stats{}},
		{"one", []float64{120340}, Stats{N: 1, Mean: 120340, GeoMean: 120340, CI95Low: 120340, CI95High: 120340, NoCI: NoCITooFew}},
		{"eight", eight, Stats{N: 8, Mean: 5, StdDev: math.Sqrt(32.0 / 7), GeoMean: math.Exp(lm), CI95Low: math.Exp(lm - half), CI95High: math.Exp(lm + half), HasCI: true}},
		{"two", []float64{100, 110}, Stats{N: 2, Mean: 105, StdDev: 10 / math.Sqrt2, GeoMean: gm2, CI95Low: gm2 / f2, CI95High: gm2 * f2, HasCI: true}},
		{"constant", []float64{7, 7, 7}, Stats{N: 3, Mean: 7, GeoMean: 7, CI95Low: 7, CI95High: 7, HasCI: true}},
		// A repetition that completed nothing has no logarithm: no
		// interval (the raw one went below zero).
		{"zero", []float64{0, 100, 110}, Stats{N: 3, Mean: 70, StdDev: math.Sqrt(3700), CI95Low: 70, CI95High: 70, NoCI: NoCINotPositive}},
	}
	for _, tt := range tests {
		got := Summarize(tt.xs)
		if got.N != tt.want.N || got.HasCI != tt.want.HasCI || got.NoCI != tt.want.NoCI || !near(got.Mean, tt.want.Mean, 1e-12) ||
			!near(got.StdDev, tt.want.StdDev, 1e-12) || !near(got.GeoMean, tt.want.GeoMean, 1e-12) ||
			!near(got.CI95Low, tt.want.CI95Low, 1e-12) || !near(got.CI95High, tt.want.CI95High, 1e-12) {
			t.Errorf("%s: Summarize(%v) = %+v, want %+v", tt.name, tt.xs, got, tt.want)
		}
	}
}

// TestSummarizeExtreme: every field stays finite at the ends of
// float64's range, as Stats promises (two values of 1.7e308 had a mean of
// +Inf, which JSON cannot encode).
func TestSummarizeExtreme(t *testing.T) {
	tests := []struct {
		name     string
		xs       []float64
		mean, sd float64
	}{
		{"two huge", []float64{1.7e308, 1.7e308}, 1.7e308, 0},
		{"huge pair", []float64{1.7e308, 1.5e308}, 1.6e308, 0.2e308 / math.Sqrt2},
		{"three huge", []float64{1.7e308, 1.7e308, 1.6e308}, 1.6666666666666667e308, 0.05773502691896258e308},
		{"opposite", []float64{1.7e308, -1.7e308}, 0, math.MaxFloat64},
		{"tiny", []float64{5e-324, 5e-324}, 5e-324, 0},
	}
	for _, tt := range tests {
		s := Summarize(tt.xs)
		fields := []float64{s.Mean, s.StdDev, s.GeoMean, s.CI95Low, s.CI95High}
		for _, f := range fields {
			if !finite(f) {
				t.Errorf("%s: Summarize(%v) = %+v, want every field finite", tt.name, tt.xs, s)
				break
			}
		}
		if !near(s.Mean, tt.mean, 1e-12) || !near(s.StdDev, tt.sd, 1e-12) {
			t.Errorf("%s: mean %v sd %v, want %v and %v", tt.name, s.Mean, s.StdDev, tt.mean, tt.sd)
		}
		if _, err := json.Marshal(s); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestSummarizeCINeverNegative: the raw-scale interval of the issue's
// n = 2 example (205.5 .. 1,330 around a mean of 768) went below zero for
// noisier pairs; on the log scale the bounds are exponentials, positive
// whatever the noise, and the geometric mean lies inside.
func TestSummarizeCINeverNegative(t *testing.T) {
	for _, xs := range [][]float64{{300, 1236}, {10, 1000}, {1, 1e6}, {150, 151, 20000}, {0.5, 1e-3}} {
		s := Summarize(xs)
		if !s.HasCI || !(s.CI95Low > 0) || !(s.CI95Low <= s.GeoMean && s.GeoMean <= s.CI95High) || math.IsInf(s.CI95High, 0) {
			t.Errorf("Summarize(%v) = %+v, want 0 < low ≤ geometric mean ≤ high < Inf", xs, s)
		}
	}
}

// The Welch examples are the two of Wikipedia's "Welch's t-test" article
// (A1 vs A2), which reports t = 2.46, ν = 24.99, p = 0.021 and t = 1.57,
// ν = 9.90, p = 0.149 (rounded; signs as other minus base here). The
// full-precision values come from the independent Simpson-rule script
// described above: t = (m2-m1)/√(s1²/n1+s2²/n2), ν by Welch–Satterthwaite,
// p = 2·(1-F_ν(|t|)).
func TestWelchTextbook(t *testing.T) {
	tests := []struct {
		name                 string
		base, other          []float64
		wantT, wantDF, wantP float64
		wantSig              bool
	}{
		{
			name:    "wikipedia 1",
			base:    []float64{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4},
			other:   []float64{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4},
			wantT:   2.45535639828601,
			wantDF:  24.98852929023142,
			wantP:   0.02137800146286,
			wantSig: true,
		},
		{
			name:    "wikipedia 2",
			base:    []float64{17.2, 20.9, 22.6, 18.1, 21.7, 21.4, 23.5, 24.2, 14.7, 21.8},
			other:   []float64{21.5, 22.8, 21.0, 23.0, 21.6, 23.6, 22.5, 20.7, 23.4, 21.8, 20.7, 21.7, 21.5, 22.5, 23.6, 21.5, 22.5, 23.5, 21.5, 21.8},
			wantT:   1.5654335235985073,
			wantDF:  9.904741248650831,
			wantP:   0.14884169660533,
			wantSig: false,
		},
	}
	for _, tt := range tests {
		got := Welch(tt.base, tt.other)
		if got.Test != TestWelchLog || got.Significant != tt.wantSig || !near(got.T, tt.wantT, 1e-12) ||
			!near(got.DF, tt.wantDF, 1e-12) || !near(got.PValue, tt.wantP, 1e-9) {
			t.Errorf("%s: Welch = %+v, want t=%v df=%v p=%v significant=%v test=%q",
				tt.name, got, tt.wantT, tt.wantDF, tt.wantP, tt.wantSig, TestWelchLog)
		}
		// Swapping the sides flips t, not p.
		rev := Welch(tt.other, tt.base)
		if !near(rev.T, -tt.wantT, 1e-12) || !near(rev.PValue, got.PValue, 1e-12) {
			t.Errorf("%s reversed: Welch = %+v, want t=%v p=%v", tt.name, rev, -tt.wantT, got.PValue)
		}
	}
}

// TestCompareLog: Compare tests positive samples on the log scale. The
// reference values come from the same independent Simpson-rule script:
// Welch on ln(x) and, for contrast, on x. The first case is a real pair
// of runs from this project's CI machine (RSA-4096 against ECDSA P-256,
// two repetitions each); the second shows what the log scale is for: with
// proportional noise the raw-scale test (p = 0.107) misses a 12-fold
// difference that the ratio test finds (p = 0.039). The samples have the
// same size, so Compare runs Student's test: Welch's t with n_a + n_b − 2
// = 2 degrees of freedom, whose two-sided p has the closed form
// 1 − |t|/√(t² + 2).
func TestCompareLog(t *testing.T) {
	tests := []struct {
		name                 string
		base, other          []float64
		wantT, wantDF, wantP float64
		rawP                 float64
		wantDelta            float64
	}{
		{"rsa4096 vs ecdsa", []float64{182, 189.3333333333333}, []float64{2219.3333333333335, 2411.3333333333335},
			54.90288752232918, 1.4311683584889594, 0.0023673641244007504, 0.028456386432874514, 1147.0},
		{"proportional noise", []float64{185, 190}, []float64{1900, 2600},
			15.710499321421157, 1.0144572178424738, 0.03899742152952734, 0.10699819551448975, 1100},
	}
	for _, tt := range tests {
		got := Compare(tt.base, tt.other)
		studentP := 1 - tt.wantT/math.Sqrt(tt.wantT*tt.wantT+2)
		if got.Test != TestStudentLog || !got.Significant || !near(got.T, tt.wantT, 1e-9) ||
			got.DF != 2 || !near(got.PValue, studentP, 1e-9) || !near(got.DeltaPct, tt.wantDelta, 0.1) {
			t.Errorf("%s: Compare = %+v, want t=%v df=2 p=%v Δ=%v%% test %q", tt.name, got, tt.wantT, studentP, tt.wantDelta, TestStudentLog)
		}
		lb, _ := logOf(tt.base)
		lo, _ := logOf(tt.other)
		if w := Welch(lb, lo); !near(w.T, tt.wantT, 1e-9) || !near(w.DF, tt.wantDF, 1e-9) || !near(w.PValue, tt.wantP, 1e-6) {
			t.Errorf("%s: Welch on logs = %+v, want t=%v df=%v p=%v", tt.name, w, tt.wantT, tt.wantDF, tt.wantP)
		}
		if raw := Welch(tt.base, tt.other); !near(raw.PValue, tt.rawP, 1e-6) {
			t.Errorf("%s: raw Welch p = %v, want %v", tt.name, raw.PValue, tt.rawP)
		}
	}
	// Samples of different sizes get Welch's test on the logs.
	base, other := []float64{182, 189.3333333333333, 185}, []float64{2219.3333333333335, 2411.3333333333335}
	lb, _ := logOf(base)
	lo, _ := logOf(other)
	if got, w := Compare(base, other), Welch(lb, lo); got.Test != TestWelchLog || got.PValue != w.PValue || got.DF != w.DF {
		t.Errorf("Compare(n=3, n=2) = %+v, want Welch on logs %+v", got, w)
	}
}

func TestCompareEdgeCases(t *testing.T) {
	tests := []struct {
		name        string
		base, other []float64
		want        Comparison
	}{
		{"n<2 other", []float64{99, 101}, []float64{150}, Comparison{DeltaPct: 50, PValue: 1, Test: TestNone}},
		{"n<2 base", []float64{100}, []float64{150, 152}, Comparison{DeltaPct: 51, PValue: 1, Test: TestNone}},
		{"empty", nil, nil, Comparison{PValue: 1, Test: TestNone}},
		{"zero variance equal", []float64{5, 5}, []float64{5, 5, 5}, Comparison{PValue: 1, Test: TestZeroVariance}},
		{"zero variance different", []float64{5, 5}, []float64{6, 6}, Comparison{DeltaPct: 20, PValue: 0, Significant: true, Test: TestZeroVariance}},
	}
	for _, tt := range tests {
		got := Compare(tt.base, tt.other)
		if got.Test != tt.want.Test || got.Significant != tt.want.Significant || got.PValue != tt.want.PValue ||
			!near(got.DeltaPct, tt.want.DeltaPct, 1e-12) || got.T != 0 || got.DF != 0 {
			t.Errorf("%s: Compare(%v, %v) = %+v, want %+v", tt.name, tt.base, tt.other, got, tt.want)
		}
	}
}

// TestStudentTQuantileInfinite: with infinite degrees of freedom the t
// distribution is the normal one (it returned 1.3e154).
func TestStudentTQuantileInfinite(t *testing.T) {
	for _, tt := range []struct{ p, want float64 }{
		{0.975, 1.959963984540054}, {0.995, 2.5758293035489004}, {0.025, -1.959963984540054}, {0.8, 0.8416212335729143},
	} {
		if got := StudentTQuantile(tt.p, math.Inf(1)); !near(got, tt.want, 1e-12) {
			t.Errorf("StudentTQuantile(%v, +Inf) = %.16g, want %.16g", tt.p, got, tt.want)
		}
	}
	if got, want := studentTCDF(1.959963984540054, math.Inf(1)), 0.975; !near(got, want, 1e-12) {
		t.Errorf("studentTCDF(1.96, +Inf) = %.16g, want %v", got, want)
	}
}

// Welch runs Welch's two-sided t-test of other against base on the values
// as given; spreads below 1e-12 of their magnitude count as zero.
func Welch(base, other []float64) Comparison {
	c, _, _ := tTest(base, other, 1e-12*maxAbs(base, other), false)
	return c
}
