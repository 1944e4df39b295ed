package plans

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/kaeload/kaeload/internal/numfmt"
	"github.com/kaeload/kaeload/results"
)

// Open-loop limits.
const (
	// MaxRate is the highest open-loop rate per second, per group and in all.
	MaxRate = 1e8
	// MaxCapacityFactor bounds the step-up factor: larger steps leave the
	// bisection most of the work.
	MaxCapacityFactor = 100
	// MaxMissed is the share of scheduled starts a window may miss (every
	// slot busy) and still have run at the rate asked.
	MaxMissed = 0.01
)

// Capacity is load.capacity resolved: per variant, step the rate up from
// From by Factor while each step meets the targets, then bisect down to
// Resolution. The targets are the record's CapacitySpec, embedded as stored.
type Capacity struct {
	results.CapacitySpec
	Window time.Duration `json:"window"` // each step's measured window
}

// StepBound is the most steps one search takes: step-up from From to Max,
// then bisection from Factor-1 down to Resolution.
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

// SplitRate returns a copy of l open loop at total per second, split by the
// groups' own rates when all have one, else by CPUs (unpinned: Threads).
func (l Load) SplitRate(total float64) Load {
	groups := slices.Clone(l.Groups)
	perGroup := len(groups) > 0 && !slices.ContainsFunc(groups, func(g Group) bool { return !(g.Rate > 0) })
	weight := func(g Group) float64 {
		switch {
		case perGroup:
			return g.Rate
		case len(g.CPUs) > 0:
			return float64(len(g.CPUs))
		}
		return float64(max(g.Threads, 1))
	}
	var sum float64
	for _, g := range groups {
		sum += weight(g)
	}
	for i := range groups {
		groups[i].Rate = total * weight(groups[i]) / sum
	}
	l.Groups, l.Rate = groups, total
	return l
}

// RateProblem says what is wrong with an open-loop rate, or "".
func RateProblem(r float64) string {
	if !(r > 0) || r > MaxRate || math.IsInf(r, 0) {
		return fmt.Sprintf("must be more than 0 and at most %s per second, got %s", numfmt.Num(MaxRate, -1), numfmt.Num(r, -1))
	}
	return ""
}

// FactorProblem says what is wrong with load.capacity.factor, or "".
func FactorProblem(f float64) string {
	if f > 1 && f <= MaxCapacityFactor {
		return ""
	}
	return fmt.Sprintf("must be more than 1 and at most %d, got %s", MaxCapacityFactor, numfmt.Num(f, -1))
}

// ResolutionProblem says what is wrong with load.capacity.resolution, or "".
func ResolutionProblem(r float64) string {
	if r > 0 && r <= 0.5 {
		return ""
	}
	return fmt.Sprintf("must be more than 0%% and at most 50%%, got %s", numfmt.Percent(r))
}

// rate checks a Load's open-loop fields: Rate is the groups' rates added
// up, all set or all 0, and Capacity within its limits.
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
	k.problem(path+".factor", FactorProblem(cp.Factor))
	k.problem(path+".resolution", ResolutionProblem(cp.Resolution))
	k.problem(path+".window", DurationBound.Problem(cp.Window))
}
