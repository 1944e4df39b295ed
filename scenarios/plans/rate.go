package plans

import (
	"fmt"
	"math"
	"time"

	"github.com/kaeload/kaeload/internal/numfmt"
	"github.com/kaeload/kaeload/results"
)

// Open-loop limits.
const (
	// MaxRate is the highest open-loop rate, per group and in all, per
	// second (the engine's schedule has nanosecond resolution).
	MaxRate = 1e8
	// MaxCapacityFactor bounds the step-up factor: larger steps leave
	// the bisection most of the work.
	MaxCapacityFactor = 100
	// MaxMissed is the share of an open-loop window's scheduled starts
	// that may be missed (every slot busy): above it the window did not
	// run at the rate asked. A capacity step above it fails (the
	// compiler sets Capacity.MaxMissed to it).
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
//
// The targets and the steps' shape are the run record's
// results.CapacitySpec, embedded, so that the record stores them as the
// plan holds them; Window is the plan's alone.
type Capacity struct {
	results.CapacitySpec
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

// RateProblem says what is wrong with an open-loop rate (a group's or all
// groups'), or "" when there is nothing: more than 0 and at most MaxRate.
func RateProblem(r float64) string {
	if !(r > 0) || r > MaxRate || math.IsInf(r, 0) {
		return fmt.Sprintf("must be more than 0 and at most %s per second, got %s", numfmt.Num(MaxRate, -1), numfmt.Num(r, -1))
	}
	return ""
}

// rate checks a Load's open-loop fields: Rate within limits and equal to
// the groups' rates added up, which are all set or all 0, and Capacity's
// values within their limits.
func (k *checker) rate(l Load) {
	if l.Rate != 0 {
		k.problem("load.rate", RateProblem(l.Rate))
		var sum float64
		for i, g := range l.Groups {
			if g.Rate == 0 {
				k.add(fmt.Sprintf("load.groups[%d].rate", i), "0 in an open loop of %s per second", numfmt.Num(l.Rate, -1))
			}
			sum += g.Rate
		}
		if math.Abs(sum-l.Rate) > 1e-6*l.Rate {
			k.add("load.rate", "%s per second, but the groups' rates add up to %s", numfmt.Num(l.Rate, -1), numfmt.Num(sum, -1))
		}
	} else {
		for i, g := range l.Groups {
			if g.Rate != 0 {
				k.add(fmt.Sprintf("load.groups[%d].rate", i), "%s per second in a closed loop (load.rate is 0)", numfmt.Num(g.Rate, -1))
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
	k.problem(path+".max_errors", MaxErrorsProblem(cp.MaxErrors))
	if !(cp.MaxMissed >= 0 && cp.MaxMissed <= 1) {
		k.add(path+".max_missed", "want a share from 0%% to 100%% of the scheduled starts, got %s", numfmt.Percent(cp.MaxMissed))
	}
	k.problem(path+".from", RateProblem(cp.From))
	k.problem(path+".max", RateProblem(cp.Max))
	if cp.Max < cp.From {
		k.add(path+".max", "%s is below from (%s)", numfmt.Num(cp.Max, -1), numfmt.Num(cp.From, -1))
	}
	if !(cp.Factor > 1 && cp.Factor <= MaxCapacityFactor) {
		k.add(path+".factor", "must be more than 1 and at most %d, got %s", MaxCapacityFactor, numfmt.Num(cp.Factor, -1))
	}
	if !(cp.Resolution > 0 && cp.Resolution <= 0.5) {
		k.add(path+".resolution", "must be more than 0%% and at most 50%%, got %s", numfmt.Percent(cp.Resolution))
	}
	k.problem(path+".window", DurationBound.Problem(cp.Window))
}
