package scenarios

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kaeload/kaeload/internal/numfmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// The capacity search's defaults.
const (
	// DefaultCapacityFrom, DefaultCapacityFactor, DefaultCapacityResolution,
	// DefaultCapacityMax and DefaultCapacityWindow are load.capacity's
	// defaults: start at 1000/s, double while the targets hold, bisect to
	// 5 %, never above 1,000,000/s, 2 s per step.
	DefaultCapacityFrom       = 1000
	DefaultCapacityFactor     = 2
	DefaultCapacityResolution = 0.05
	DefaultCapacityMax        = 1e6
	DefaultCapacityWindow     = 2 * time.Second
)

// rate resolves load.rate and the groups' rates into l.
func (c *compiler) rate(ls *LoadSpec, l *plans.Load) {
	given := slices.ContainsFunc(ls.Groups, func(gs GroupSpec) bool { return gs.Rate != nil })
	switch {
	case ls.Rate != nil && ls.Capacity != nil:
		c.errorf("load.capacity", "give load.rate (a fixed rate) or load.capacity (a search for the highest rate), not both")
	case given && ls.Capacity != nil:
		c.errorf("load.capacity", "the capacity search splits its rates by the groups' CPUs: leave the groups' rate out")
	case ls.Rate != nil && given:
		c.errorf("load.rate", "give load.rate (split by CPU share) or a rate for every group, not both")
	case ls.Rate != nil && plans.RateProblem(*ls.Rate) != "":
		c.problem("load.rate", plans.RateProblem(*ls.Rate))
	case ls.Rate != nil && len(l.Groups) > 0:
		*l = l.SplitRate(*ls.Rate)
	case given:
		var total float64
		ok := true
		for i, gs := range ls.Groups {
			path := fmt.Sprintf("load.groups[%d]", i)
			switch {
			case gs.Rate == nil:
				c.missing(path, "rate", ": give every group a rate, or none and load.rate")
				ok = false
			case plans.RateProblem(*gs.Rate) != "":
				c.problem(path+".rate", plans.RateProblem(*gs.Rate))
				ok = false
			default:
				total += *gs.Rate
			}
		}
		if !ok || len(l.Groups) != len(ls.Groups) {
			return
		}
		for i, gs := range ls.Groups {
			l.Groups[i].Rate = *gs.Rate
		}
		if msg := plans.RateProblem(total); msg != "" {
			c.problem("load.groups", "the groups' rates add up to too much: "+msg)
		}
		l.Rate = total
	}
}

// capacity resolves load.capacity into p.Load.Capacity; p.MaxErrors and
// p.Repeat are resolved.
func (c *compiler) capacity(p *plans.Plan) {
	ls := c.s.Load
	if ls == nil || ls.Capacity == nil || ls.Rate != nil {
		return
	}
	cs := ls.Capacity
	const path = "load.capacity"
	cp := &plans.Capacity{CapacitySpec: results.CapacitySpec{
		MaxErrors: p.MaxErrors, MaxMissed: plans.MaxMissed, From: DefaultCapacityFrom, Factor: DefaultCapacityFactor,
		Resolution: DefaultCapacityResolution, Max: DefaultCapacityMax,
	}, Window: DefaultCapacityWindow}
	positive := func(d time.Duration) string {
		if d > 0 {
			return ""
		}
		return "must be positive, got " + d.String()
	}
	opt(c, path+".p99_handshake", cs.P99Handshake, &cp.P99Handshake, positive)
	opt(c, path+".p99_total", cs.P99Total, &cp.P99Total, positive)
	http := p.Target.TLS == nil && strings.HasPrefix(strings.ToLower(p.Target.URL), "http://")
	if cp.P99Handshake > 0 && http {
		c.errorf(path+".p99_handshake", "the target is http://: there is no handshake to time (use p99_total)")
	}
	if cs.P99Handshake == nil && cs.P99Total == nil && !c.leftOut(path+".p99_handshake") && !c.leftOut(path+".p99_total") {
		c.errorf(path, "no latency target: give p99_handshake (e.g. 20ms) or p99_total")
	}
	opt(c, path+".max_errors", (*float64)(cs.MaxErrors), &cp.MaxErrors, plans.MaxErrorsProblem)
	opt(c, path+".from", cs.From, &cp.From, plans.RateProblem)
	opt(c, path+".max", cs.Max, &cp.Max, plans.RateProblem)
	if cp.Max < cp.From && plans.RateProblem(cp.Max) == "" && plans.RateProblem(cp.From) == "" {
		c.errorf(path+".max", "%s is below from (%s)", numfmt.Num(cp.Max, -1), numfmt.Num(cp.From, -1))
	}
	opt(c, path+".factor", cs.Factor, &cp.Factor, plans.FactorProblem)
	opt(c, path+".resolution", (*float64)(cs.Resolution), &cp.Resolution, plans.ResolutionProblem)
	opt(c, path+".window", cs.Window, &cp.Window, plans.DurationBound.Problem)
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

// describeRate writes the open-loop schedule or the capacity search.
func describeRate(row rowFunc, p *plans.Plan) {
	l := p.Load
	if l.Rate > 0 {
		per := "connections" // a new one per request in close mode
		if l.Connection == plans.KeepAlive {
			per = "requests"
		}
		row("rate", "open loop: %s new %s per second in all (the groups' rates above), start k of a group at k/rate after its start, no drift", numfmt.Num(l.Rate, -1), per)
		row("", "a start due while every connection slot is busy is missed, never run late; a window missing more than %s of its starts is flagged", numfmt.Percent(plans.MaxMissed))
		row("", "per window: %s starts in the measured %s, %s more in the warm-up", numfmt.Num(math.Floor(l.Rate*l.Duration.Seconds()), -1), l.Duration, numfmt.Num(math.Floor(l.Rate*l.Warmup.Seconds()), -1))
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
	targets = append(targets, "errors ≤ "+numfmt.Percent(c.MaxErrors), "missed starts ≤ "+numfmt.Percent(c.MaxMissed))
	up, bisect := c.StepBound()
	row("capacity", "per variant, the highest rate with %s", strings.Join(targets, ", "))
	row("", "steps: %s, ×%s while the targets hold, at most %s; then bisect to %s: at most %d + %d = %d steps", numfmt.Num(c.From, -1), numfmt.Num(c.Factor, -1), numfmt.Num(c.Max, -1), numfmt.Percent(c.Resolution), up, bisect, up+bisect)
	step := l.Warmup + c.Window + p.Cooldown
	worst := time.Duration(up+bisect) * step * time.Duration(len(p.Variants))
	row("", "each step: warm-up %s, measure %s (open loop); worst case %d variants × %d steps × %s = %s, plus server restarts", l.Warmup, c.Window, len(p.Variants), up+bisect, step, worst)
}
