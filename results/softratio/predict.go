package softratio

import (
	"cmp"
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
	// Saturated says the server's CPUs were the bottleneck; OtherBound
	// that something else set the rate (kaeload's CPUs, the connections
	// in flight), so the window gives neither β nor D, only its CPU per
	// request. A window with neither, at r < 1, was device-bound.
	Saturated  bool `json:"saturated"`
	OtherBound bool `json:"other_bound,omitempty"`
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

// The codes; notes.SoftRatioWords turns them into words.
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
	// Ranged says the windows had repetitions, so the ranges carry their
	// spread; without, the ranges are points.
	Ranged bool `json:"ranged"`
	// Ratio and Rate are r* and T*, Sides the bounds on each side of r*.
	Ratio Range  `json:"ratio"`
	Rate  Range  `json:"rate"`
	Sides []Side `json:"sides,omitempty"`
}

// Draws and Seed fix the parametric resample behind the ranges, so that
// a prediction is deterministic.
const (
	Draws = 2000
	Seed  = 40
)

// Predict fits a and b (least squares of the CPU per request on r over
// every window), β (the mean busy fraction of the CPU-saturated windows)
// and D (the mean of T·(1−r) over the device-bound windows, else the
// given capacity), then r*, T* and their ranges.
func Predict(in Input) Prediction {
	var p Prediction
	if p.Status, p.Window = check(in); p.Status != OK {
		return p
	}
	if p.Ratios = distinct(in.Windows); p.Ratios < 2 {
		p.Status = TooFewRatios
		return p
	}
	p.Model, p.BetaFrom, p.CapacityFrom = fit(in.Windows, in)
	if !valid(p.Model) {
		p.Status = BadFit
		return p
	}
	if p.Model.Capacity == 0 {
		p.Status, p.CapacityFrom = NoCapacity, ""
		p.Needs = []Code{NeedDeviceWindow, NeedScenarioCapacity, NeedSpeedFile}
		return p
	}
	p.resample(in)
	p.Sides = p.Model.Sides()
	return p
}

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

// valid says the model's numbers are finite and its CPU costs positive
// (a capacity of 0 stands for an unknown one).
func valid(m Model) bool {
	return m.A > 0 && m.B > 0 && m.Beta > 0 && m.Capacity >= 0 && finite(m.A, m.B, m.Beta, m.Capacity, m.cpuBound(0), m.cpuBound(1))
}

// fit is the point fit. β is 1 (Assumed) when no window saturated the
// CPUs; D is in.Capacity when no window was device-bound.
func fit(ws []Window, in Input) (m Model, betaFrom, capFrom Source) {
	n, x := float64(len(ws)), 0.0
	var y, sxx, sxy float64
	for _, w := range ws {
		x, y = x+w.Ratio/n, y+w.CPUPerRequest/n
	}
	var busy, caps []float64
	for _, w := range ws {
		sxx += (w.Ratio - x) * (w.Ratio - x)
		sxy += (w.Ratio - x) * (w.CPUPerRequest - y)
		switch {
		case w.OtherBound:
		case w.Saturated:
			busy = append(busy, w.Busy)
		case w.Ratio < 1:
			caps = append(caps, w.Rate*(1-w.Ratio))
		}
	}
	slope := sxy / sxx
	m = Model{B: y - slope*x, A: y + slope*(1-x), CPUs: ws[0].CPUs, Beta: 1, Capacity: in.Capacity}
	betaFrom, capFrom = Assumed, in.CapacityFrom
	if len(busy) > 0 {
		m.Beta, betaFrom = mean(busy), FromWindows
	}
	if len(caps) > 0 {
		m.Capacity, capFrom = mean(caps), FromWindows
	}
	return m, betaFrom, capFrom
}

func mean(xs []float64) float64 {
	var m float64
	for _, x := range xs {
		m += x / float64(len(xs))
	}
	return m
}

// noise is the relative noise of the rate and of the CPU per request
// between repetitions at one ratio (the pooled standard deviation of
// their logarithms) and its degrees of freedom: windows less ratios.
func noise(ws []Window) (rate, cpu float64, df int) {
	sorted := slices.Clone(ws)
	slices.SortStableFunc(sorted, func(x, y Window) int { return cmp.Compare(x.Ratio, y.Ratio) })
	groups := 0
	for g := sorted; len(g) > 0; groups++ {
		n := 1
		for n < len(g) && g[n].Ratio == g[0].Ratio {
			n++
		}
		var lt, lc float64
		for _, w := range g[:n] {
			lt, lc = lt+math.Log(w.Rate)/float64(n), lc+math.Log(w.CPUPerRequest)/float64(n)
		}
		for _, w := range g[:n] {
			rate += (math.Log(w.Rate) - lt) * (math.Log(w.Rate) - lt)
			cpu += (math.Log(w.CPUPerRequest) - lc) * (math.Log(w.CPUPerRequest) - lc)
		}
		g = g[n:]
	}
	if df = len(ws) - groups; df == 0 {
		return 0, 0, 0
	}
	return math.Sqrt(rate / float64(df)), math.Sqrt(cpu / float64(df)), df
}

// resample sets the ranges, from a seeded parametric bootstrap: Draws
// times, every window's rate and CPU per request are scaled by noise
// drawn at the measured spread between repetitions (Student-t, through a
// shared χ² scale), its busy fraction with them (busy = T·c/N), and the
// model is fitted again. Refitting keeps what the estimates share (β and
// a both see the CPU per request), so their correlation. The ranges are
// the draws' 2.5th and 97.5th percentiles, widened to hold the point
// estimates. Without repetitions there is no spread: Ranged is false and
// the ranges are points.
func (p *Prediction) resample(in Input) {
	sr, sc, df := noise(in.Windows)
	p.Ranged = df > 0
	rng := rand.New(rand.NewPCG(Seed, Seed))
	ws := slices.Clone(in.Windows)
	var draws [6][]float64 // a, b, β, D, r*, T*
	for i := 0; i < Draws && p.Ranged; i++ {
		u := scale(rng, df)
		for j, w := range in.Windows {
			fr, fc := math.Exp(u*sr*rng.NormFloat64()), math.Exp(u*sc*rng.NormFloat64())
			ws[j].Rate, ws[j].CPUPerRequest, ws[j].Busy = w.Rate*fr, w.CPUPerRequest*fc, w.Busy*fr*fc
		}
		m, _, _ := fit(ws, in)
		if !valid(m) {
			continue
		}
		r, t := m.Best()
		for k, v := range []float64{m.A, m.B, m.Beta, m.Capacity, r, t} {
			draws[k] = append(draws[k], v)
		}
	}
	m := p.Model
	r, t := m.Best()
	rgs := []*Range{&p.A, &p.B, &p.Beta, &p.Capacity, &p.Ratio, &p.Rate}
	for k, v := range []float64{m.A, m.B, m.Beta, m.Capacity, r, t} {
		*rgs[k] = spread(v, draws[k])
	}
}

// scale is the factor that turns a normal draw into a Student-t draw with
// df degrees of freedom: sqrt(df/χ²_df), χ² summed from df normal draws,
// or above 30 by Wilson and Hilferty's cube (so many windows stay cheap).
func scale(rng *rand.Rand, df int) float64 {
	if df > 30 {
		k := 2 / (9 * float64(df))
		return math.Pow(max(1-k+rng.NormFloat64()*math.Sqrt(k), 0.1), -1.5)
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
