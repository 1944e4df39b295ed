package scenarios

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Open-loop limits and the capacity search's defaults.
const (
	// MaxRate is the highest open-loop rate, per group and in all, per
	// second (the engine's schedule has nanosecond resolution).
	MaxRate = 1e8
	// DefaultCapacityFrom, DefaultCapacityFactor, DefaultCapacityResolution,
	// DefaultCapacityMax and DefaultCapacityWindow are load.capacity's
	// defaults: start at 1000/s, double while the targets hold, bisect to
	// 5 %, never above 1,000,000/s, 2 s per step.
	DefaultCapacityFrom       = 1000
	DefaultCapacityFactor     = 2
	DefaultCapacityResolution = 0.05
	DefaultCapacityMax        = 1e6
	DefaultCapacityWindow     = 2 * time.Second
	// MaxCapacityFactor bounds the step-up factor: larger steps leave
	// the bisection most of the work.
	MaxCapacityFactor = 100
	// MaxMissed is the share of an open-loop window's scheduled starts
	// that may be missed (every slot busy): above it the window did not
	// run at the rate asked. A capacity step above it fails.
	MaxMissed = 0.01
)

// Capacity is load.capacity resolved: per variant, find the highest rate
// that meets the targets. The search steps up from From by Factor while
// each step meets them, then bisects between the last rate that met them
// and the first that did not until the two are within Resolution of the
// lower; each step is one open-loop window of length Window (after the
// load's warm-up). A step meets the targets when its p99 handshake time
// (p99 request time from the intended start) is at most P99Handshake
// (P99Total), its error share at most MaxErrors and its missed share at
// most MaxMissed.
type Capacity struct {
	// P99Handshake and P99Total are the latency targets; 0 = none.
	P99Handshake time.Duration `json:"p99_handshake,omitempty"`
	P99Total     time.Duration `json:"p99_total,omitempty"`
	// MaxErrors is the error share a step may have, a fraction.
	MaxErrors float64 `json:"max_errors"`
	// From, Factor and Max: the first rate, its multiplier while the
	// targets hold, the highest rate tried (per second).
	From   float64 `json:"from"`
	Factor float64 `json:"factor"`
	Max    float64 `json:"max"`
	// Resolution is the bisection's stopping width relative to the rate.
	Resolution float64 `json:"resolution"`
	// Window is each step's measured window.
	Window time.Duration `json:"window"`
}

// StepBound is the most steps one search takes: the step-up steps from
// From to Max (each Factor times the last, the last one at Max), then the
// bisection steps that narrow Factor-1 times the lower rate down to
// Resolution of it.
func (c Capacity) StepBound() (up, bisect int) {
	up = 1
	if c.Max > c.From && c.Factor > 1 {
		up += int(math.Ceil(math.Log(c.Max/c.From)/math.Log(c.Factor) - 1e-9))
	}
	if c.Factor > 1 && c.Resolution > 0 && c.Factor-1 > c.Resolution {
		bisect = int(math.Ceil(math.Log2((c.Factor-1)/c.Resolution) - 1e-9))
	}
	return up, bisect
}

// SplitRate returns a copy of l running open loop at total per second in
// all: each group's share is its weight over the weights of all groups,
// where a group's weight is its Rate when every group has one (the
// scenario gave per-group rates), and otherwise its CPU count (its Threads
// when unpinned). l itself is not modified; Capacity is kept.
func (l Load) SplitRate(total float64) Load {
	groups := make([]Group, len(l.Groups))
	copy(groups, l.Groups)
	weight := func(g Group) float64 {
		if len(g.CPUs) > 0 {
			return float64(len(g.CPUs))
		}
		return float64(max(g.Threads, 1))
	}
	perGroup := len(groups) > 0
	for _, g := range groups {
		perGroup = perGroup && g.Rate > 0
	}
	var sum float64
	for _, g := range groups {
		if perGroup {
			sum += g.Rate
		} else {
			sum += weight(g)
		}
	}
	for i := range groups {
		w := weight(groups[i])
		if perGroup {
			w = groups[i].Rate
		}
		groups[i].Rate = total * w / sum
	}
	l.Groups = groups
	l.Rate = total
	return l
}

// rateProblem says what is wrong with an open-loop rate, or "".
func rateProblem(r float64) string {
	if !(r > 0) || r > MaxRate || math.IsInf(r, 0) {
		return fmt.Sprintf("must be more than 0 and at most %s per second, got %s", formatNum(MaxRate, -1), formatNum(r, -1))
	}
	return ""
}

// rate resolves load.rate and the groups' rates into l.
func (c *compiler) rate(ls *LoadSpec, l *Load) {
	given := 0
	for _, gs := range ls.Groups {
		if gs.Rate != nil {
			given++
		}
	}
	switch {
	case ls.Rate != nil && ls.Capacity != nil:
		c.errorf("load.capacity", "give load.rate (a fixed rate) or load.capacity (a search for the highest rate), not both")
	case given > 0 && ls.Capacity != nil:
		c.errorf("load.capacity", "the capacity search splits its rates by the groups' CPUs: leave the groups' rate out")
	case ls.Rate != nil && given > 0:
		c.errorf("load.rate", "give load.rate (split by CPU share) or a rate for every group, not both")
	case ls.Rate != nil:
		if msg := rateProblem(*ls.Rate); msg != "" {
			c.problem("load.rate", msg)
			return
		}
		if len(l.Groups) > 0 {
			*l = l.SplitRate(*ls.Rate)
		}
	case given > 0:
		var total float64
		ok := true
		for i, gs := range ls.Groups {
			path := fmt.Sprintf("load.groups[%d]", i)
			if gs.Rate == nil {
				if c.leftOut(path + ".rate") {
					ok = false
					continue
				}
				c.errorf(path, "rate is missing: give every group a rate, or none and load.rate")
				ok = false
				continue
			}
			if msg := rateProblem(*gs.Rate); msg != "" {
				c.problem(path+".rate", msg)
				ok = false
				continue
			}
			total += *gs.Rate
		}
		if !ok || len(l.Groups) != len(ls.Groups) {
			return
		}
		for i, gs := range ls.Groups {
			l.Groups[i].Rate = *gs.Rate
		}
		if msg := rateProblem(total); msg != "" {
			c.problem("load.groups", "the groups' rates add up to too much: "+msg)
		}
		l.Rate = total
	}
}

// capacity resolves load.capacity into p.Load.Capacity; p.MaxErrors and
// p.Repeat are resolved.
func (c *compiler) capacity(p *Plan) {
	ls := c.s.Load
	if ls == nil || ls.Capacity == nil || ls.Rate != nil {
		return
	}
	cs := ls.Capacity
	const path = "load.capacity"
	cp := &Capacity{
		MaxErrors: p.MaxErrors, From: DefaultCapacityFrom, Factor: DefaultCapacityFactor,
		Resolution: DefaultCapacityResolution, Max: DefaultCapacityMax, Window: DefaultCapacityWindow,
	}
	if cs.P99Handshake != nil {
		cp.P99Handshake = *cs.P99Handshake
		switch {
		case cp.P99Handshake <= 0:
			c.errorf(path+".p99_handshake", "must be positive, got %s", cp.P99Handshake)
		case p.Target.TLS == nil && strings.HasPrefix(strings.ToLower(p.Target.URL), "http://"):
			c.errorf(path+".p99_handshake", "the target is http://: there is no handshake to time (use p99_total)")
		}
	}
	if cs.P99Total != nil {
		cp.P99Total = *cs.P99Total
		if cp.P99Total <= 0 {
			c.errorf(path+".p99_total", "must be positive, got %s", cp.P99Total)
		}
	}
	if cs.P99Handshake == nil && cs.P99Total == nil && !c.leftOut(path+".p99_handshake") && !c.leftOut(path+".p99_total") {
		c.errorf(path, "no latency target: give p99_handshake (e.g. 20ms) or p99_total")
	}
	if cs.MaxErrors != nil {
		cp.MaxErrors = float64(*cs.MaxErrors)
		c.problem(path+".max_errors", maxErrorsProblem(cp.MaxErrors))
	}
	if cs.From != nil {
		cp.From = *cs.From
		c.problem(path+".from", rateProblem(cp.From))
	}
	if cs.Max != nil {
		cp.Max = *cs.Max
		c.problem(path+".max", rateProblem(cp.Max))
	}
	if cp.Max < cp.From && rateProblem(cp.Max) == "" && rateProblem(cp.From) == "" {
		c.errorf(path+".max", "%s is below from (%s)", formatNum(cp.Max, -1), formatNum(cp.From, -1))
	}
	if cs.Factor != nil {
		cp.Factor = *cs.Factor
		if !(cp.Factor > 1 && cp.Factor <= MaxCapacityFactor) {
			c.errorf(path+".factor", "must be more than 1 and at most %d, got %s", MaxCapacityFactor, formatNum(cp.Factor, -1))
		}
	}
	if cs.Resolution != nil {
		cp.Resolution = float64(*cs.Resolution)
		if !(cp.Resolution > 0 && cp.Resolution <= 0.5) {
			c.errorf(path+".resolution", "must be more than 0%% and at most 50%%, got %s", percent(cp.Resolution))
		}
	}
	if cs.Window != nil {
		cp.Window = *cs.Window
		c.problem(path+".window", durationBound.problem(cp.Window))
	}
	if p.Repeat != 1 || p.Auto != nil {
		c.errorf("repeat", "a capacity search runs once per variant: leave repeat out (or 1)")
	}
	for i, vs := range c.s.Variants {
		if vs.Search != nil {
			c.errorf(fmt.Sprintf("variants[%d].search", i), "a search of a variable measures each value at one load; with load.capacity, sweep the variable instead")
		}
	}
	if c.s.Thresholds != nil {
		c.errorf("thresholds", "thresholds judge repetitions at one load; a capacity search's steps run at different rates: leave thresholds out")
	}
	p.Load.Capacity = cp
}

// rate checks a Load's open-loop fields: Rate within limits and equal to
// the groups' rates added up, which are all set or all 0, and Capacity's
// values within their limits.
func (k *checker) rate(l Load) {
	if l.Rate != 0 {
		k.problem("load.rate", rateProblem(l.Rate))
		var sum float64
		for i, g := range l.Groups {
			if g.Rate == 0 {
				k.add(fmt.Sprintf("load.groups[%d].rate", i), "0 in an open loop of %s per second", formatNum(l.Rate, -1))
			}
			sum += g.Rate
		}
		if math.Abs(sum-l.Rate) > 1e-6*l.Rate {
			k.add("load.rate", "%s per second, but the groups' rates add up to %s", formatNum(l.Rate, -1), formatNum(sum, -1))
		}
	} else {
		for i, g := range l.Groups {
			if g.Rate != 0 {
				k.add(fmt.Sprintf("load.groups[%d].rate", i), "%s per second in a closed loop (load.rate is 0)", formatNum(g.Rate, -1))
			}
		}
	}
	cp := l.Capacity
	if cp == nil {
		return
	}
	const path = "load.capacity"
	if cp.P99Handshake < 0 || cp.P99Total < 0 || cp.P99Handshake == 0 && cp.P99Total == 0 {
		k.add(path, "want a positive p99_handshake or p99_total, got %s and %s", cp.P99Handshake, cp.P99Total)
	}
	k.problem(path+".max_errors", maxErrorsProblem(cp.MaxErrors))
	k.problem(path+".from", rateProblem(cp.From))
	k.problem(path+".max", rateProblem(cp.Max))
	if cp.Max < cp.From {
		k.add(path+".max", "%s is below from (%s)", formatNum(cp.Max, -1), formatNum(cp.From, -1))
	}
	if !(cp.Factor > 1 && cp.Factor <= MaxCapacityFactor) {
		k.add(path+".factor", "must be more than 1 and at most %d, got %s", MaxCapacityFactor, formatNum(cp.Factor, -1))
	}
	if !(cp.Resolution > 0 && cp.Resolution <= 0.5) {
		k.add(path+".resolution", "must be more than 0%% and at most 50%%, got %s", percent(cp.Resolution))
	}
	k.problem(path+".window", durationBound.problem(cp.Window))
}

// describeRate writes the open-loop schedule or the capacity search of
// Describe: the rate in all and what a missed start means, or the
// targets, the bound on the search's steps and its longest duration.
func (p *Plan) describeRate(row func(k, format string, args ...any)) {
	l := p.Load
	if l.Rate > 0 {
		row("rate", "open loop: %s new %s per second in all (the groups' rates above), start k of a group at k/rate after its start, no drift", formatNum(l.Rate, -1), perRequest(l))
		row("", "a start due while every connection slot is busy is missed, never run late; a window missing more than %s of its starts is flagged", percent(MaxMissed))
		row("", "per window: %s starts in the measured %s, %s more in the warm-up", formatNum(math.Floor(l.Rate*l.Duration.Seconds()), -1), l.Duration, formatNum(math.Floor(l.Rate*l.Warmup.Seconds()), -1))
		return
	}
	c := l.Capacity
	if c == nil {
		return
	}
	var targets []string
	if c.P99Handshake > 0 {
		targets = append(targets, "p99 handshake ≤ "+c.P99Handshake.String())
	}
	if c.P99Total > 0 {
		targets = append(targets, "p99 total from intended start ≤ "+c.P99Total.String())
	}
	targets = append(targets, "errors ≤ "+percent(c.MaxErrors), "missed starts ≤ "+percent(MaxMissed))
	up, bisect := c.StepBound()
	row("capacity", "per variant, the highest rate with %s", strings.Join(targets, ", "))
	row("", "steps: %s, ×%s while the targets hold, at most %s; then bisect to %s: at most %d + %d = %d steps", formatNum(c.From, -1), formatNum(c.Factor, -1), formatNum(c.Max, -1), percent(c.Resolution), up, bisect, up+bisect)
	step := l.Warmup + c.Window + p.Cooldown
	worst := time.Duration(up+bisect) * step * time.Duration(len(p.Variants))
	row("", "each step: warm-up %s, measure %s (open loop); worst case %d variants × %d steps × %s = %s, plus server restarts", l.Warmup, c.Window, len(p.Variants), up+bisect, step, worst)
}

// perRequest names what the rate counts: connections in close mode,
// requests on kept-alive ones.
func perRequest(l Load) string {
	if l.Connection == KeepAlive {
		return "requests"
	}
	return "connections"
}
