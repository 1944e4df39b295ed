package softratio

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Window is a repetition at a soft ratio; its bound the server's CPUs (Saturated), something else
// (OtherBound: kaeload's CPUs, the connections; only its CPU per request counts) or, at r < 1, the device.
type Window struct {
	Ratio         float64 `json:"ratio"` // r in [0, 1]
	Rate          float64 `json:"rate"`  // req/s
	CPUPerRequest float64 `json:"cpu_per_request"`
	Busy          float64 `json:"busy"` // the server's CPUs' busy fraction
	CPUs          int     `json:"cpus"`
	Saturated     bool    `json:"saturated"`
	OtherBound    bool    `json:"other_bound,omitempty"`
}

// Input is what Predict fits; Capacity is the device's ops/s from the scenario's accelerator (0: none).
type Input struct {
	Windows  []Window
	Capacity float64
}

// Code is a prediction's status.
type Code string

// The codes, worded by notes (which name what would give D).
const (
	OK           Code = "ok"
	TooFewRatios Code = "too-few-ratios" // under two ratios (Prediction.Ratios)
	BadWindow    Code = "bad-window"     // Prediction.Window's is out of range or not finite
	BadCapacity  Code = "bad-capacity"   // negative or not finite
	CPUsDiffer   Code = "cpus-differ"    // the windows' server CPU counts
	NoCapacity   Code = "no-capacity"    // D unknown
	BadFit       Code = "bad-fit"        // a CPU per request ≤ 0 or not finite
)

// Range is an estimate and its 95 % range (Low = High = Value without spread).
type Range struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// Prediction is the fitted model, r* and T* with their ranges (Ranged: with repetitions), each side's bound.
type Prediction struct {
	Status Code   `json:"status"`
	Window int    `json:"window,omitempty"` // BadWindow's index
	Ratios int    `json:"ratios"`           // distinct ratios
	Model  Model  `json:"model"`
	Ranged bool   `json:"ranged"`
	Ratio  Range  `json:"ratio"` // r*
	Rate   Range  `json:"rate"`  // T*
	Sides  []Side `json:"sides,omitempty"`
}

// Draws and Seed fix the resample behind the ranges.
const (
	Draws = 2000
	Seed  = 40
)

// Predict fits a and b (least squares of the CPU per request on r), β (the mean busy fraction of the
// saturated windows) and D (the device-bound ones' mean T·(1−r), else in.Capacity), r*, T*, ranges.
func Predict(in Input) Prediction {
	var p Prediction
	if p.Status, p.Window = check(in); p.Status != OK {
		return p
	}
	sr, sc, df, ratios := noise(in.Windows)
	if p.Ratios = ratios; p.Ratios < 2 {
		p.Status = TooFewRatios
		return p
	}
	p.Model = fit(in.Windows, in)
	if !valid(p.Model) {
		p.Status = BadFit
		return p
	}
	if p.Model.Capacity == 0 {
		p.Status = NoCapacity
		return p
	}
	p.resample(in, sr, sc, df)
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
	return !slices.ContainsFunc(xs, func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) })
}

// valid: finite, CPU costs positive (capacity 0 is unknown).
func valid(m Model) bool {
	return m.A > 0 && m.B > 0 && m.Beta > 0 && m.Capacity >= 0 && finite(m.A, m.B, m.Beta, m.Capacity, m.cpuBound(0), m.cpuBound(1))
}

// fit assumes β = 1 when no window saturated the CPUs.
func fit(ws []Window, in Input) Model {
	var ratios, cpus, busy, caps []float64
	for _, w := range ws {
		ratios, cpus = append(ratios, w.Ratio), append(cpus, w.CPUPerRequest)
		switch {
		case w.OtherBound:
		case w.Saturated:
			busy = append(busy, w.Busy)
		case w.Ratio < 1:
			caps = append(caps, w.Rate*(1-w.Ratio))
		}
	}
	b, slope := stat.LinearRegression(ratios, cpus, nil, false)
	m := Model{B: b, A: b + slope, CPUs: ws[0].CPUs, Beta: 1, Capacity: in.Capacity}
	if len(busy) > 0 {
		m.Beta = stat.Mean(busy, nil)
	}
	if len(caps) > 0 {
		m.Capacity = stat.Mean(caps, nil)
	}
	return m
}

// noise is the pooled sd of ln rate and ln CPU per request among a ratio's repetitions; df = windows − ratios.
// Its windows passed check, so no ratio is NaN: the search for a ratio's group needs that.
func noise(ws []Window) (rate, cpu float64, df, ratios int) {
	sorted := slices.Clone(ws)
	slices.SortStableFunc(sorted, func(x, y Window) int { return cmp.Compare(x.Ratio, y.Ratio) })
	for g, n := sorted, 0; len(g) > 0; g, ratios = g[n:], ratios+1 {
		n = sort.Search(len(g), func(i int) bool { return g[i].Ratio > g[0].Ratio })
		var lt, lc float64
		for _, w := range g[:n] {
			lt, lc = lt+math.Log(w.Rate)/float64(n), lc+math.Log(w.CPUPerRequest)/float64(n)
		}
		for _, w := range g[:n] {
			rate += (math.Log(w.Rate) - lt) * (math.Log(w.Rate) - lt)
			cpu += (math.Log(w.CPUPerRequest) - lc) * (math.Log(w.CPUPerRequest) - lc)
		}
	}
	if df = len(ws) - ratios; df == 0 {
		return 0, 0, 0, ratios
	}
	return math.Sqrt(rate / float64(df)), math.Sqrt(cpu / float64(df)), df, ratios
}

// resample sets the ranges to the 2.5th and 97.5th percentiles of Draws refits of the windows scaled
// by Student-t noise at the spread between repetitions (keeping the estimates' correlation).
func (p *Prediction) resample(in Input, sr, sc float64, df int) {
	p.Ranged = df > 0
	rng := rand.New(rand.NewPCG(Seed, Seed))
	ws := slices.Clone(in.Windows)
	var draws [2][]float64 // r*, T*
	for i := 0; i < Draws && p.Ranged; i++ {
		// u turns the normal noise below into Student-t noise.
		u := math.Sqrt(float64(df) / distuv.ChiSquared{K: float64(df), Src: rng}.Rand())
		for j, w := range in.Windows {
			fr, fc := math.Exp(u*sr*rng.NormFloat64()), math.Exp(u*sc*rng.NormFloat64())
			ws[j].Rate, ws[j].CPUPerRequest, ws[j].Busy = w.Rate*fr, w.CPUPerRequest*fc, w.Busy*fr*fc
		}
		if m := fit(ws, in); valid(m) {
			r, t := m.Best()
			draws[0], draws[1] = append(draws[0], r), append(draws[1], t)
		}
	}
	r, t := p.Model.Best()
	rgs := []*Range{&p.Ratio, &p.Rate}
	for k, v := range []float64{r, t} {
		*rgs[k] = Range{v, v, v}
		if d := draws[k]; len(d) > 0 {
			slices.Sort(d)
			q := func(f float64) float64 { return d[int(f*float64(len(d)-1)+0.5)] }
			rgs[k].Low, rgs[k].High = min(q(0.025), v), max(q(0.975), v)
		}
	}
}
