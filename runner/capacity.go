package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/kaeload/kaeload/capacity"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/server"
)

// searchCapacity is the capacity driver: it picks each step's rate from
// the finished ones and measures it split over the groups, as a
// repetition with Rep.Step set.
func (c *controller) searchCapacity(ctx context.Context, p *plans.Plan, s session, ctl *server.Control) error {
	v := p.Variants[s.variant]
	cp := p.Load.Capacity
	search, err := capacity.New(capacity.Config{From: cp.From, Factor: cp.Factor, Resolution: cp.Resolution, Max: cp.Max})
	if err != nil {
		return err
	}
	targets := capacity.Targets{P99Handshake: cp.P99Handshake, P99Total: cp.P99Total, MaxErrors: cp.MaxErrors, MaxMissed: cp.MaxMissed}
	failed := false
	for i := 0; ; i++ {
		rate, phase, ok := search.Next()
		if !ok {
			break
		}
		step := *p // the plan this step measures
		step.Load = p.Load.SplitRate(rate)
		step.Load.Duration = cp.Window
		label := fmt.Sprintf("variant %s capacity step %d (%s, %s/s)", v.Name, i+1, phase, format.Count(uint64(rate+0.5)))
		interrupted := notes.New(notes.Interrupted, "label", label).Warning() // a step is never measured again
		if err := c.cooldown(ctx); err != nil {
			return c.windowErr(ctx, label, interrupted, err)
		}
		if failed {
			if err := c.settle(ctx, v.Name); err != nil {
				return err
			}
		}
		rep, err := c.rep(ctx, &step, WindowID{Variant: v.Name, Rep: i}, label, ctl, c.probes[s.variant])
		if err != nil {
			if rep != nil {
				c.keepPartial(s.variant, label, i, rep)
			}
			return c.windowErr(ctx, label, interrupted, err)
		}
		pass, why := targets.Judge(measure(&rep.Total))
		search.Record(pass, why)
		failed = !pass
		rep.Index = i
		rep.Step = &results.CapacityStep{Rate: rate, Phase: string(phase), Pass: pass, Why: why}
		rep.Failed = nil // a step that misses the targets is what the search looks for
		c.change(results.Change{Type: results.ChangeRep, Variant: s.variant, Rep: rep})
		verdict := "pass"
		if !pass {
			verdict = "FAIL: " + why
		}
		fmt.Fprintf(c.opts.Log, "%s: %s/s achieved, p99 handshake %s ms, missed %s: %s\n", label,
			format.Rate(rep.Total.Rate()), format.QuantileMillis(rep.Total.Latency.Handshake, 99), format.Share(rep.Total.MissedShare()), verdict)
	}
	res := search.Result()
	switch res.Limit {
	case capacity.BelowFrom:
		fmt.Fprintf(c.opts.Log, "variant %s: capacity below %s/s (the first step failed)\n", v.Name, format.Count(uint64(cp.From)))
	case capacity.AtMax:
		fmt.Fprintf(c.opts.Log, "variant %s: capacity at least %s/s (every step passed up to max)\n", v.Name, format.Count(uint64(cp.Max)))
	default:
		fmt.Fprintf(c.opts.Log, "variant %s: capacity %s/s (%s/s failed) after %d steps\n", v.Name, format.Count(uint64(res.Knee)), format.Count(uint64(res.Fail)), len(res.Steps))
	}
	return nil
}

// After a failed step the server may still serve queued handshakes:
// settle waits, at most settleMax, until its CPU use over settleSample is
// below settleBusy, so the next step measures the server, not the hangover.
const (
	settleSample = 100 * time.Millisecond
	settleBusy   = 0.05
	settleMax    = 15 * time.Second
)

// settle waits until the server is idle; at once if its CPU is unmeasured.
func (c *controller) settle(ctx context.Context, variant string) error {
	if c.server == nil {
		return nil
	}
	began := time.Now()
	for time.Since(began) < settleMax {
		finish, err := c.server()
		if err != nil {
			return nil
		}
		if !sleepUntil(ctx, time.Now().Add(settleSample)) {
			return ctx.Err()
		}
		u, err := finish(settleSample)
		if err != nil || u == nil {
			return nil
		}
		if u.Busy < settleBusy {
			if waited := time.Since(began); waited > 2*settleSample {
				fmt.Fprintf(c.opts.Log, "variant %s: the server worked for %s after the failed step before it was idle\n", variant, waited.Round(10*time.Millisecond))
			}
			return nil
		}
	}
	fmt.Fprintf(c.opts.Log, "variant %s: the server is still busy %s after the failed step; the next step starts anyway\n", variant, settleMax)
	return nil
}

// measure is what the capacity judge reads of a step's total.
func measure(g *results.Group) capacity.Measure {
	p99 := func(h *results.Histogram) time.Duration {
		if results.EmptyHistogram(h) {
			return 0
		}
		return time.Duration(h.ValueAtQuantile(99)) * time.Microsecond
	}
	return capacity.Measure{Succeeded: g.Succeeded(), ErrorShare: g.ErrorShare(), MissedShare: g.MissedShare(),
		P99Handshake: p99(g.Latency.Handshake), P99Total: p99(g.Latency.Intended)}
}
