package softratio

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// Window is one measured window (one repetition at one soft ratio).
type Window struct {
	// Ratio is the soft ratio r in [0, 1], Rate the measured req/s.
	Ratio float64 `json:"ratio"`
	Rate  float64 `json:"rate"`
	// CPUPerRequest is the server's CPU-seconds per request.
	CPUPerRequest float64 `json:"cpu_per_request"`
	// Busy is the server's CPUs' busy fraction, CPUs their count.
	Busy float64 `json:"busy"`
	CPUs int     `json:"cpus"`
	// Saturated says the server's CPUs were the bottleneck.
	Saturated bool `json:"saturated"`
}

// Source says where a parameter came from.
type Source string

// The sources.
const (
	FromWindows   Source = "windows"
	FromScenario  Source = "scenario"   // accelerator.capacity
	FromSpeedFile Source = "speed-file" // kaeload speed on openssl speed's output
	Assumed       Source = "assumed"    // β = 1: no window saturated the CPUs
)

// Input is what Predict fits.
type Input struct {
	Windows []Window
	// Capacity is the device's capacity in ops/s when the scenario or a
	// speed file gives it (0: none), CapacityFrom which. A device-bound
	// window, when there is one, takes precedence.
	Capacity     float64
	CapacityFrom Source
}

// Code is a prediction's status, or a thing it needs.
type Code string

// The codes. Message turns them into words.
const (
	OK Code = "ok"
	// TooFewRatios: windows at fewer than two soft ratios (Prediction.Ratios).
	TooFewRatios Code = "too-few-ratios"
	// BadWindow: Prediction.Window has a value out of range or not finite.
	BadWindow Code = "bad-window"
	// BadCapacity: Input.Capacity is negative or not finite.
	BadCapacity Code = "bad-capacity"
	// CPUsDiffer: the windows' server CPU counts differ.
	CPUsDiffer Code = "cpus-differ"
	// NoCapacity: D is unknown; Prediction.Needs names what would give it.
	NoCapacity Code = "no-capacity"
	// BadFit: the fit gives a CPU per request ≤ 0 or a number that is not finite.
	BadFit Code = "bad-fit"

	// NeedDeviceWindow, NeedScenarioCapacity and NeedSpeedFile are what
	// would give D: a window with the server's CPUs not saturated and
	// r < 1, accelerator.capacity in the scenario, or a speed file.
	NeedDeviceWindow     Code = "need-device-window"
	NeedScenarioCapacity Code = "need-scenario-capacity"
	NeedSpeedFile        Code = "need-speed-file"
)

// Range is an estimate and its 95 % range. Low = High = Value when the
// data give no spread.
type Range struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// Prediction is the fitted model, the best ratio and what bounds each side.
type Prediction struct {
	Status Code `json:"status"`
	// Window is the offending window's index (BadWindow), Ratios the
	// count of distinct ratios (TooFewRatios), Needs the sources of D
	// (NoCapacity).
	Window int    `json:"window,omitempty"`
	Ratios int    `json:"ratios"`
	Needs  []Code `json:"needs,omitempty"`
	// Model holds the point estimates; A, B, Beta and Capacity their ranges.
	Model        Model  `json:"model"`
	A            Range  `json:"a"`
	B            Range  `json:"b"`
	Beta         Range  `json:"beta"`
	Capacity     Range  `json:"capacity"`
	BetaFrom     Source `json:"beta_from,omitempty"`
	CapacityFrom Source `json:"capacity_from,omitempty"`
	// Ranged says every fitted parameter had a spread, so the ranges of
	// Ratio and Rate reflect all of them.
	Ranged bool `json:"ranged"`
	// Ratio and Rate are r* and T*, Sides the bounds on each side of r*.
	Ratio Range  `json:"ratio"`
	Rate  Range  `json:"rate"`
	Sides []Side `json:"sides,omitempty"`
}

// Draws and Seed fix the parametric resample behind the ranges, so that
// a prediction is deterministic.
const (
	Draws = 4000
	Seed  = 40
)

// estimate is a mean, its standard error and the degrees of freedom of
// its Student-t distribution (df 0: exact).
type estimate struct {
	mean, se float64
	df       int
}

// Predict fits a and b (least squares of the CPU per request on r over
// every window), β (the mean busy fraction of the CPU-saturated windows)
// and D (the mean of T·(1−r) over the device-bound windows, else the
// given capacity), then r*, T* and their ranges.
func Predict(in Input) Prediction {
	p := Prediction{Status: OK}
	if p.Status, p.Window = check(in); p.Status != OK {
		return p
	}
	ws := in.Windows
	p.Model.CPUs = ws[0].CPUs
	p.Ratios = distinct(ws)
	if p.Ratios < 2 {
		p.Status = TooFewRatios
		return p
	}
	mean, slope := fitLine(ws)
	beta, dev := busyAndCapacity(ws)
	p.BetaFrom, p.CapacityFrom = FromWindows, FromWindows
	if beta.df < 0 {
		beta, p.BetaFrom = estimate{mean: 1}, Assumed
	}
	if dev.df < 0 && in.Capacity > 0 {
		dev, p.CapacityFrom = estimate{mean: in.Capacity}, in.CapacityFrom
	}
	x := xbar(ws)
	p.Model.B = mean.mean - slope.mean*x
	p.Model.A = p.Model.B + slope.mean
	p.Model.Beta, p.Model.Capacity = beta.mean, dev.mean
	if !(p.Model.A > 0 && p.Model.B > 0) || math.IsInf(p.Model.A, 0) || math.IsInf(p.Model.B, 0) {
		p.Status = BadFit
		return p
	}
	if dev.df < 0 {
		p.Status, p.CapacityFrom, p.Model.Capacity = NoCapacity, "", 0
		p.Needs = []Code{NeedDeviceWindow, NeedScenarioCapacity, NeedSpeedFile}
		return p
	}
	p.Ranged = mean.df > 0 && beta.df != 0 && dev.df != 0
	p.resample(mean, slope, x, beta, dev)
	if !finite(p.Ratio.Low, p.Ratio.High, p.Rate.Low, p.Rate.High, p.A.Low, p.A.High,
		p.B.Low, p.B.High, p.Beta.Low, p.Beta.High, p.Capacity.Low, p.Capacity.High) {
		p.Status = BadFit
	}
	p.Sides = p.Model.Sides()
	return p
}

// check validates the input: finite values in range, one CPU count.
func check(in Input) (Code, int) {
	if !(in.Capacity >= 0) || math.IsInf(in.Capacity, 0) {
		return BadCapacity, 0
	}
	for i, w := range in.Windows {
		if !(w.Ratio >= 0 && w.Ratio <= 1 && w.Rate > 0 && w.CPUPerRequest > 0 && w.Busy >= 0 && w.CPUs > 0) ||
			!finite(w.Rate, w.CPUPerRequest, w.Busy) {
			return BadWindow, i
		}
		if w.CPUs != in.Windows[0].CPUs {
			return CPUsDiffer, i
		}
	}
	return OK, 0
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

func distinct(ws []Window) int {
	rs := make([]float64, len(ws))
	for i, w := range ws {
		rs[i] = w.Ratio
	}
	slices.Sort(rs)
	return len(slices.Compact(rs))
}

func xbar(ws []Window) float64 {
	var s float64
	for _, w := range ws {
		s += w.Ratio
	}
	return s / float64(len(ws))
}

// fitLine fits CPUPerRequest = m + s·(r − r̄) by least squares and returns
// the estimates of m (the mean) and s (the slope, a − b); the two are
// independent, with n − 2 degrees of freedom.
func fitLine(ws []Window) (mean, slope estimate) {
	n, x := float64(len(ws)), xbar(ws)
	var y, sxx, sxy float64
	for _, w := range ws {
		y += w.CPUPerRequest / n
	}
	for _, w := range ws {
		sxx += (w.Ratio - x) * (w.Ratio - x)
		sxy += (w.Ratio - x) * (w.CPUPerRequest - y)
	}
	s := sxy / sxx
	var rss float64
	for _, w := range ws {
		e := w.CPUPerRequest - y - s*(w.Ratio-x)
		rss += e * e
	}
	df := len(ws) - 2
	if df == 0 {
		return estimate{mean: y}, estimate{mean: s}
	}
	sigma := math.Sqrt(rss / float64(df))
	return estimate{y, sigma / math.Sqrt(n), df}, estimate{s, sigma / math.Sqrt(sxx), df}
}

// busyAndCapacity estimates β from the CPU-saturated windows and D from
// the device-bound ones (CPUs not saturated, r < 1); df −1 when none.
func busyAndCapacity(ws []Window) (beta, dev estimate) {
	var busy, caps []float64
	for _, w := range ws {
		if w.Saturated {
			busy = append(busy, w.Busy)
		} else if w.Ratio < 1 {
			caps = append(caps, w.Rate*(1-w.Ratio))
		}
	}
	return meanOf(busy), meanOf(caps)
}

func meanOf(xs []float64) estimate {
	n := float64(len(xs))
	var m, ss float64
	for _, x := range xs {
		m += x / n
	}
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	if len(xs) < 2 {
		return estimate{mean: m, df: len(xs) - 1}
	}
	return estimate{m, math.Sqrt(ss / (n - 1) / n), len(xs) - 1}
}

// resample sets the ranges: the 2.5th and 97.5th percentiles of r*, T*
// and the parameters over Draws seeded draws of the parameters from their
// Student-t distributions (a and b from one regression, sharing its
// scale), widened to hold the point estimates.
func (p *Prediction) resample(mean, slope estimate, x float64, beta, dev estimate) {
	rng := rand.New(rand.NewPCG(Seed, Seed))
	var as, bs, betas, devs, ratios, rates []float64
	for range Draws {
		u := scale(rng, mean.df)
		mn, s := mean.mean+u*mean.se*rng.NormFloat64(), slope.mean+u*slope.se*rng.NormFloat64()
		m := Model{B: mn - s*x, CPUs: p.Model.CPUs}
		m.A = m.B + s
		m.Beta = beta.mean + scale(rng, beta.df)*beta.se*rng.NormFloat64()
		m.Capacity = dev.mean + scale(rng, dev.df)*dev.se*rng.NormFloat64()
		if !(m.A > 0 && m.B > 0 && m.Beta > 0 && m.Capacity > 0) {
			continue
		}
		r, t := m.Best()
		as, bs, betas, devs = append(as, m.A), append(bs, m.B), append(betas, m.Beta), append(devs, m.Capacity)
		ratios, rates = append(ratios, r), append(rates, t)
	}
	r, t := p.Model.Best()
	p.A, p.B = spread(p.Model.A, as), spread(p.Model.B, bs)
	p.Beta, p.Capacity = spread(p.Model.Beta, betas), spread(p.Model.Capacity, devs)
	p.Ratio, p.Rate = spread(r, ratios), spread(t, rates)
}

// scale is the factor that turns a normal draw into a Student-t draw with
// df degrees of freedom: sqrt(df/χ²_df); 1 for df ≤ 0 (se is 0 there).
func scale(rng *rand.Rand, df int) float64 {
	if df <= 0 {
		return 1
	}
	var chi float64
	for range df {
		z := rng.NormFloat64()
		chi += z * z
	}
	return math.Sqrt(float64(df) / chi)
}

// spread is v with the 2.5th and 97.5th percentiles of the draws, widened
// to hold v.
func spread(v float64, draws []float64) Range {
	rg := Range{v, v, v}
	if len(draws) == 0 {
		return rg
	}
	sort.Float64s(draws)
	q := func(p float64) float64 { return draws[int(p*float64(len(draws)-1)+0.5)] }
	rg.Low, rg.High = min(q(0.025), v), max(q(0.975), v)
	return rg
}
