package stats

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// Power is the chance of finding significant a difference of the MDE.
const Power = 0.80

// The values of Comparison.Adjustment: Holm keeps below Alpha the chance any identical pair is significant.
const (
	AdjustHolm = "holm"
	AdjustNone = "none" // judged alone
)

// CompareFamily compares each of others with base as one Holm family, the MDE and equivalence
// bound (margin a fraction, ≤ 0: no verdict) at Alpha/Family whatever a comparison's rank.
func CompareFamily(base []float64, others [][]float64, margin float64) []Comparison {
	return ComparePairs(slices.Repeat([][]float64{base}, len(others)), others, margin)
}

// ComparePairs is CompareFamily comparing others[i] with bases[i].
func ComparePairs(bases, others [][]float64, margin float64) []Comparison {
	out := make([]Comparison, len(others))
	d, se, ps := make([]float64, len(others)), make([]float64, len(others)), make([]float64, len(others))
	m := 0 // the family: the comparisons tested
	for i, o := range others {
		out[i], d[i], se[i] = compare(bases[i], o)
		ps[i] = math.NaN()
		if out[i].Tested() {
			ps[i], m = out[i].PValue, m+1
		}
	}
	for i, adj := range Holm(ps) {
		c := &out[i]
		if math.IsNaN(adj) {
			continue
		}
		c.Family, c.PAdjusted, c.Adjustment = m, adj, AdjustHolm
		if m == 1 {
			c.Adjustment = AdjustNone
		}
		c.Significant = c.PAdjusted < Alpha
		judge(c, d[i], se[i], Alpha/float64(m), margin)
	}
	return out
}

// Holm is Holm's step-down adjusted ps; a NaN p (no test) is outside the family and stays NaN.
func Holm(ps []float64) []float64 { return stepDown(ps, func(j, m int) int { return m - j }) }

// stepDown takes the m ps not NaN from the smallest up, step j's p times mult(j, m), at most 1, never down.
func stepDown(ps []float64, mult func(j, m int) int) []float64 {
	out := slices.Repeat([]float64{math.NaN()}, len(ps))
	var idx []int
	for i, p := range ps {
		if !math.IsNaN(p) {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Or(cmp.Compare(ps[a], ps[b]), a-b) })
	running := 0.0
	for j, i := range idx {
		running = math.Max(running, math.Min(1, float64(mult(j, len(idx)))*ps[i]))
		out[i] = running
	}
	return out
}

// judge fills c's MDE and equivalence at level alpha from d, the log means' difference, and its se.
func judge(c *Comparison, d, se, alpha, margin float64) {
	c.SEPct, c.MDEPct, c.HasMDE = math.Expm1(se)*100, 0, se == 0
	lo, hi := d, d // no noise at all: any difference is found (MDE 0), and it is its own bound
	if se != 0 {
		if pct := math.Expm1(noncentralityAt(c.DF, alpha, Power, true)*se) * 100; finite(pct) {
			c.MDEPct, c.HasMDE = pct, true
		} else {
			c.MDENote = MDENotDeterminable
		}
		q := StudentTQuantile(1-alpha, c.DF) * se
		lo, hi = d-q, d+q
	}
	// The interval of the ratio lies within 1 ± bound/100.
	if bound := math.Max(-math.Expm1(lo), math.Expm1(hi)) * 100; finite(bound) {
		c.EquivalenceBoundPct, c.HasBound = bound, true
	}
	if margin > 0 {
		c.EquivalenceMarginPct = margin * 100
		c.Equivalent = c.HasBound && c.EquivalenceBoundPct < c.EquivalenceMarginPct
	}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

var noncentralities sync.Map // noncentralityKey -> float64

type noncentralityKey struct {
	df, alpha, power float64
	reported         bool
}

// noncentralityAt is the λ where a t-test at alpha rejects with power (+Inf past 1e9): the MDE of a
// known se (the shortcut t(1−α/2) + t(Power) gives 68 %, not 80 %, at n = 3); when reported, the c at
// which c·(estimated se) is found with power, averaged over se (judge's MDE). Both cached.
func noncentralityAt(df, alpha, power float64, reported bool) float64 {
	key := noncentralityKey{df, alpha, power, reported}
	if v, ok := noncentralities.Load(key); ok {
		return v.(float64)
	}
	root := math.Inf(1)
	if df > 0 && alpha > 0 && alpha < 1 && power > 0 && power < 1 {
		tc := StudentTQuantile(1-alpha/2, df) // where the test rejects about half the time
		g, start := func(l float64) float64 { return tPower(l, tc, df, powerTolerance) - power }, tc
		if reported {
			g = func(c float64) float64 { return reportedPower(c, tc, df, powerTolerance) - power }
			start = noncentralityAt(df, alpha, power, false)
		}
		root = findRoot(g, start, 1e9)
	}
	noncentralities.Store(key, root)
	return root
}

// reportedPower is P(|Z + c·R′| > tc·R), Z normal, R and R′ √(χ²(df)/df): in polar coordinates (cos²θ ~
// Beta(df/2, df/2)) E[F(√2(c·sin θ − tc·cos θ)) + F(−√2(c·sin θ + tc·cos θ))], F Student's t, 2·df.
func reportedPower(c, tc, df, tol float64) float64 {
	logNorm := math.Ln2 - mathext.Lbeta(df/2, df/2) // 2 / B(df/2, df/2)
	nu := 2 * df
	f := func(th float64) float64 {
		sin, cos := math.Sincos(th)
		if sin <= 0 || cos <= 0 {
			return 0 // the endpoints, where the weight is 0 or infinite; never a node
		}
		w := math.Exp(logNorm + (df-1)*math.Log(sin*cos))
		return w * (studentTCDF(math.Sqrt2*(c*sin-tc*cos), nu) + studentTCDF(-math.Sqrt2*(c*sin+tc*cos), nu))
	}
	cuts := []float64{0, math.Pi / 2, math.Atan2(tc, c)}
	for _, k := range []float64{0, 1, 2, 4, 8} {
		d := k / math.Sqrt(2*df)
		cuts = append(cuts, math.Pi/4-d, math.Pi/4+d)
	}
	return integratePieces(f, cuts, 0, math.Pi/2, tol)
}

func studentTCDF(t, df float64) float64 {
	if t >= 0 {
		return 1 - studentTUpper(t, df)
	}
	return studentTUpper(-t, df)
}

// powerTolerance: the roots then agree with mpmath's to 1e-12.
const powerTolerance = 1e-12

// findRoot is where the increasing g crosses 0 in [0, limit] (+Inf past it), to a relative 1e-10, by Illinois
// regula falsi: gonum has no scalar root finder, and bisection took five times as long.
func findRoot(g func(float64) float64, start, limit float64) float64 {
	if !(start > 0) || math.IsInf(start, 1) {
		start = 1
	}
	lo, hi := 0.0, start
	glo, ghi := math.NaN(), g(hi)
	for ghi < 0 {
		if hi > limit {
			return math.Inf(1)
		}
		lo, glo, hi = hi, ghi, 2*hi
		ghi = g(hi)
	}
	if lo == 0 {
		if glo = g(0); glo >= 0 {
			return 0
		}
	}
	side := 0 // the end moved last
	for i := 0; i < 200 && hi-lo > 1e-10*hi; i++ {
		x := hi - ghi*(hi-lo)/(ghi-glo)
		if !(x > lo && x < hi) {
			x = (lo + hi) / 2
		}
		switch gx := g(x); {
		case math.Abs(gx) <= 1e-14:
			return x
		case gx < 0:
			lo, glo = x, gx
			if side == -1 {
				ghi /= 2
			}
			side = -1
		default:
			hi, ghi = x, gx
			if side == 1 {
				glo /= 2
			}
			side = 1
		}
	}
	return hi
}

// tPower is P(|T| > tc), T noncentral t: E[Φ(λ − tc·√(V/df)) + Φ(−λ − tc·√(V/df))], V ~ χ²(df), integrated
// over V^(1/4), where the density is finite for df ≥ ½ (over V the MDE came out up to 150 % too large).
func tPower(lambda, tc, df, tol float64) float64 {
	sd := math.Sqrt(2 * df)
	lg, _ := math.Lgamma(df / 2)
	logNorm := math.Log(4) - df/2*math.Ln2 - lg
	root := math.Sqrt(df)
	g := func(s float64) float64 {
		if s <= 0 {
			return 0
		}
		density := math.Exp(logNorm + (2*df-1)*math.Log(s) - s*s*s*s/2)
		if density == 0 {
			return 0
		}
		x := tc * (s * s / root)
		return density * (distuv.UnitNormal.CDF(lambda-x) + distuv.UnitNormal.CDF(-lambda-x))
	}
	cuts := []float64{0, df + 40*sd + 100}
	for _, k := range []float64{0, 1, 2, 4, 8, 16} {
		cuts = append(cuts, df-k*sd, df+k*sd)
	}
	if step := lambda / tc; step >= 0 && !math.IsInf(step, 1) {
		cuts = append(cuts, df*step*step) // where the Φ terms step
	}
	for i, v := range cuts {
		cuts[i] = math.Sqrt(math.Sqrt(math.Max(0, v)))
	}
	return integratePieces(g, cuts, 0, cuts[1], tol)
}

func integratePieces(f func(float64) float64, cuts []float64, lo, hi, tol float64) float64 {
	outside := func(x float64) bool { return !(x > lo && x < hi) }
	xs := append(slices.DeleteFunc(slices.Clone(cuts), outside), lo, hi)
	slices.Sort(xs)
	xs = slices.Compact(xs)
	sum := 0.0
	for i := 1; i < len(xs); i++ {
		sum += adaptiveGK(f, xs[i-1], xs[i], tol*(xs[i]-xs[i-1])/(hi-lo), 40)
	}
	return sum
}

// adaptiveGK is Gauss–Kronrod halving up to depth times (gonum's fixed rules: minutes, 1e-4 off at df 0.6).
func adaptiveGK(f func(float64) float64, a, b, tol float64, depth int) float64 {
	v, e := gaussKronrod(f, a, b)
	if e <= tol || depth == 0 {
		return v
	}
	m := a + (b-a)/2
	return adaptiveGK(f, a, m, tol/2, depth-1) + adaptiveGK(f, m, b, tol/2, depth-1)
}

// QUADPACK's qk15 on [−1, 1], as its table prints them; its 7-point Gauss rule at the odd nodes.
var (
	kronrodNodes = [8]float64{
		0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
		0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
		0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
		0.207784955007898467600689403773245, 0,
	}
	kronrodWeights = [8]float64{
		0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
		0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
		0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
		0.204432940075298892414161999234649, 0.209482141084727828012999174891714,
	}
	gaussWeights = [4]float64{
		0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
		0.381830050505118944950369775488975, 0.417959183673469387755102040816327,
	}
)

// gaussKronrod is the Kronrod estimate and QUADPACK's error, (200·|K−G|/I)^1.5·I, I = ∫|f − mean|.
func gaussKronrod(f func(float64) float64, a, b float64) (value, err float64) {
	c, h := (a+b)/2, (b-a)/2
	var fs [15]float64
	fs[7] = f(c)
	k, g := fs[7]*kronrodWeights[7], fs[7]*gaussWeights[3]
	for i := 0; i < 7; i++ {
		x := h * kronrodNodes[i]
		fs[i], fs[14-i] = f(c-x), f(c+x)
		pair := fs[i] + fs[14-i]
		k += kronrodWeights[i] * pair
		if i%2 == 1 {
			g += gaussWeights[i/2] * pair
		}
	}
	mean := k / 2
	asc := kronrodWeights[7] * math.Abs(fs[7]-mean)
	for i := 0; i < 7; i++ {
		asc += kronrodWeights[i] * (math.Abs(fs[i]-mean) + math.Abs(fs[14-i]-mean))
	}
	value, err, asc = k*h, math.Abs((k-g)*h), asc*math.Abs(h)
	if asc != 0 && err != 0 {
		err = asc * math.Min(1, math.Pow(200*err/asc, 1.5))
	}
	return value, err
}

// NoisePct is the sd of ln xs in percent; (0, false) under two values or with one ≤ 0.
func NoisePct(xs []float64) (pct float64, ok bool) {
	logs, isLog := logOf(xs)
	if len(xs) < 2 || !isLog {
		return 0, false
	}
	_, sd := MeanStdDev(logs)
	return sd * 100, true
}

// RepsFor is the repetitions per variant that find an effect (a fraction) with Power at noise
// noisePct and level Alpha/family; false, n = limit, when limit is too few.
func RepsFor(noisePct, effect float64, family, limit int) (n int, ok bool) {
	return repsUntil(noisePct, effect, Alpha/float64(max(family, 1)), Power, limit)
}

func repsUntil(noisePct, effect, alpha, power float64, limit int) (n int, ok bool) {
	limit = max(limit, 2)
	for n = 2; n <= limit; n++ {
		se := noisePct / 100 * math.Sqrt(2/float64(n))
		if se == 0 || noncentralityAt(float64(2*n-2), alpha, power, false)*se <= math.Log1p(effect) {
			return n, true
		}
	}
	return limit, false
}

// Calibration is the noise a run measured to choose its repetitions (repeat: auto, plan-reps).
type Calibration struct {
	Variant   string    `json:"variant"` // the baseline
	Rates     []float64 `json:"rates"`   // the calibration windows'
	NoisePct  float64   `json:"noise_pct"`
	HasNoise  bool      `json:"has_noise"`
	EffectPct float64   `json:"effect_pct"` // the difference to detect
	Family    int       `json:"family"`
	Repeat    int       `json:"repeat"` // chosen; Capped when Max was too few
	Max       int       `json:"max"`
	Capped    bool      `json:"capped,omitempty"`
}

// Calibrate fills NoisePct, Repeat and Capped (Max without a noise).
func (c *Calibration) Calibrate() {
	positive := slices.DeleteFunc(slices.Clone(c.Rates), func(x float64) bool { return !(x > 0) })
	c.Repeat, c.Capped = c.Max, true // without a noise
	if c.NoisePct, c.HasNoise = NoisePct(positive); c.HasNoise {
		n, ok := RepsFor(c.NoisePct, c.EffectPct/100, c.Family, c.Max)
		c.Repeat, c.Capped = n, !ok
	}
}

// PlannedMDEPct is the MDE of two variants of n repetitions among family comparisons.
func PlannedMDEPct(noisePct float64, n, family int) float64 {
	if n < 2 {
		return math.Inf(1)
	}
	se := noisePct / 100 * math.Sqrt(2/float64(n))
	return math.Expm1(noncentralityAt(float64(2*n-2), Alpha/float64(max(family, 1)), Power, false)*se) * 100
}

// RepsForBest is the repetitions per value that name a best effect above every other with Power
// (conservatively: each pair at level Alpha/pairs and power Power^(1/(values−1))).
func RepsForBest(noisePct, effect float64, values, limit int) (n int, ok bool) {
	values = max(values, 2)
	alpha := Alpha / float64(values*(values-1)/2)
	return repsUntil(noisePct, effect, alpha, math.Pow(Power, 1/float64(values-1)), limit)
}
