package runner

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/server"
)

// defaultCommandTimeout bounds stop, reload and probe commands when the
// plan leaves Server.CommandTimeout at 0.
const defaultCommandTimeout = 30 * time.Second

// teardownSlack is added to the command timeout for a teardown: Stop may
// also have to end a foreground start command (SIGTERM, SIGKILL after 5 s).
const teardownSlack = 10 * time.Second

// session is one start of the server for one variant and the repetitions
// measured on it: all (Sequential) or one (Randomized, Interleaved).
type session struct {
	variant int   // index in plan.Variants
	reps    []int // repetition indexes, 0-based
}

// sessions groups the plan's steps (Plan.Steps) into sessions: a new one
// at every restart of the server and every change of variant.
func sessions(p *plans.Plan) []session {
	var out []session
	for _, st := range p.Steps() {
		if n := len(out); n > 0 && !st.Restart && out[n-1].variant == st.Variant {
			out[n-1].reps = append(out[n-1].reps, st.Rep)
			continue
		}
		out = append(out, session{variant: st.Variant, reps: []int{st.Rep}})
	}
	return out
}

// compileProbes turns every variant's probes into server.Probes, compiling
// their patterns; a bad pattern fails the run before anything starts.
func compileProbes(p *plans.Plan) ([][]server.Probe, error) {
	timeout := commandTimeout(p)
	out := make([][]server.Probe, len(p.Variants))
	var errs []error
	for i, v := range p.Variants {
		for _, pr := range v.Probes {
			sp := server.Probe{Name: pr.Name, Command: pr.Command, Timeout: timeout}
			if pr.Pattern != "" {
				re, err := regexp.Compile(pr.Pattern)
				if err != nil {
					errs = append(errs, fmt.Errorf("plan: variant %s: probe %s: pattern: %w", v.Name, pr.Name, err))
					continue
				}
				sp.Pattern = re
			}
			out[i] = append(out[i], sp)
		}
	}
	return out, errors.Join(errs...)
}

// commandTimeout is the plan's bound on stop, reload and probe commands.
func commandTimeout(p *plans.Plan) time.Duration {
	if p.Server != nil && p.Server.CommandTimeout > 0 {
		return p.Server.CommandTimeout
	}
	return defaultCommandTimeout
}

// schedule runs every session into run.Variants (every planned variant in
// plan order), then leaves out those that measured nothing.
func (c *controller) schedule(ctx context.Context, run *results.Run) error {
	defer func() { run.Variants = results.Measured(run.Variants) }()
	gaveUp := make([]bool, len(c.plan.Variants))
	for _, s := range sessions(c.plan) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// A resumed run measured some repetitions already.
		rv := &run.Variants[s.variant]
		s.reps = slices.DeleteFunc(s.reps, func(r int) bool {
			return slices.ContainsFunc(rv.Reps, func(rep results.Rep) bool { return rep.Index == r })
		})
		if len(s.reps) == 0 || gaveUp[s.variant] {
			continue
		}
		err := c.session(ctx, c.plan, s, rv)
		if se := (*startError)(nil); errors.As(err, &se) && ctx.Err() == nil {
			// Its server does not start: the other variants still run.
			gaveUp[s.variant] = true
			fmt.Fprintf(c.opts.Log, "%s\n", c.plan.Redact(se.Error()))
			c.notMeasured(s.variant, c.plan.Redact(se.reason)) // it may quote a secret env value
			continue
		}
		if err != nil {
			return err
		}
	}
	return c.searchWindows(ctx, c.plan, run)
}

// startError is a server that did not come up for a variant: the run
// gives up on it (NotMeasured) and goes on with the others.
type startError struct {
	reason string // "server start failed: FIRST LINE OF OUTPUT"
	err    error
}

func (e *startError) Error() string { return e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

// startFailure wraps err, why the server did not come up for v, in a
// one-line *startError; a cancelled run's err is returned as it is.
func startFailure(ctx context.Context, v plans.Variant, err error) error {
	if ctx.Err() != nil {
		return err
	}
	step, why := "start", err.Error()
	var ce *server.CommandError
	var re *server.ReadyError
	switch {
	case errors.As(err, &ce):
		step, why = ce.Step, ce.Summary()
	case errors.As(err, &re):
		why = re.Err.Error()
	}
	if v.Start == "" && v.Reload == "" {
		step = "readiness check"
	}
	return &startError{reason: fmt.Sprintf("server %s failed: %s", step, why), err: fmt.Errorf("variant %s: %w", v.Name, err)}
}

// session starts the server for one variant (when the plan controls it),
// measures the session's windows and stops it; the stop always runs.
func (c *controller) session(ctx context.Context, p *plans.Plan, s session, rv *results.Variant) (err error) {
	v := p.Variants[s.variant]
	ctl := &server.Control{Env: v.Env, Log: c.opts.Log}
	// Speed commands run once per variant while the server is stopped.
	speed := func() error { return nil }
	if len(v.Speed) > 0 && rv.Speed == nil { // not run before a resume or in an earlier session
		speed = func() error {
			c.change(results.Change{Type: results.ChangeSpeed, Variant: s.variant, Speed: c.runSpeed(ctx, ctl, v)})
			return ctx.Err()
		}
	}
	if p.Server == nil {
		if err := speed(); err != nil {
			return err
		}
		if err := c.accelSession(v); err != nil {
			return err
		}
		if err := c.listening(ctx); err != nil {
			return err
		}
	} else {
		ctl.Host = p.Server.Host
		if hc := c.serverHost(); hc != nil {
			ctl.Remote = shellOn(hc.conn)
		}
		startErr := c.serverUp(ctx, ctl, v, speed)
		startFailed := startErr != nil
		defer func() {
			if serr := c.serverDown(ctl, v, startFailed); serr != nil {
				err = errors.Join(err, serr)
			}
		}()
		if startErr != nil {
			return startErr
		}
		// Something else (an old server still draining) may have answered the
		// readiness probe while the start command failed: checked after every
		// window too.
		defer func() {
			if ferr := ctl.StartFailed(); ferr != nil && err == nil && ctx.Err() == nil {
				startFailed = true
				err = startFailure(ctx, v, ferr)
			}
		}()
		if ctl.StartFailed() != nil {
			return nil // the deferred check reports it
		}
	}
	if err := c.findServer(v); err != nil {
		c.warn(notes.New(notes.ServerCPUUnmeasured, "variant", v.Name, "error", err.Error()).Warning())
	}
	c.runInfo(ctx, ctl, s.variant, rv)
	if p.Load.Capacity != nil {
		return c.searchCapacity(ctx, p, s, ctl)
	}
	return c.sweep(ctx, p, s, ctl)
}

// sweep measures the session's repetitions; a window cut short is kept
// as partial, one set aside by exclude_flagged is measured again.
func (c *controller) sweep(ctx context.Context, p *plans.Plan, s session, ctl *server.Control) error {
	v := p.Variants[s.variant]
	for k := 0; k < len(s.reps); k++ {
		r := s.reps[k]
		label := results.RepLabel(v.Name, r, p.Repeat)
		if p.Searched(s.variant) {
			label = results.SearchWindowLabel(v.Name, r)
		}
		interrupted := notes.New(notes.Interrupted, "label", label, "variant", v.Name, "index", r).Warning()
		if err := c.cooldown(ctx); err != nil {
			return c.windowErr(ctx, label, interrupted, err)
		}
		rep, err := c.rep(ctx, p, WindowID{Variant: v.Name, Rep: r}, label, ctl, c.probes[s.variant])
		if rep != nil && rep.PartialOf > 0 {
			c.keepPartial(s.variant, label, r, rep)
			rep = nil
		}
		if rep != nil && ctl.StartFailed() != nil {
			fmt.Fprintf(c.opts.Log, "%s discarded: the server's start command failed meanwhile, so what answered was not the server it started\n", label)
			return nil // the deferred check reports it
		}
		if rep != nil && err == nil && c.excludeFlagged(s.variant, label, r, rep) {
			k-- // the same window again
			continue
		}
		if rep != nil {
			rep.Index = r
			c.change(results.Change{Type: results.ChangeRep, Variant: s.variant, Rep: rep})
			t := &rep.Total
			fmt.Fprintf(c.opts.Log, "%s done: %s req/s, %s errors\n", label, format.Rate(t.Rate()), format.Count(t.Errors.Total()))
			if rep.Failed != nil {
				fmt.Fprintf(c.opts.Log, "%s %s (the run goes on)\n", label, analysis.AnalyzeRep(rep).Failed)
			}
		}
		if err != nil {
			return c.windowErr(ctx, label, interrupted, err)
		}
	}
	return nil
}

// windowErr is the error of the window label: an interrupt is warned
// about (interrupted) and returned as ctx's error.
func (c *controller) windowErr(ctx context.Context, label string, interrupted results.Warning, err error) error {
	if ctx.Err() != nil {
		c.warn(interrupted)
		return ctx.Err()
	}
	return fmt.Errorf("%s: %w", label, err)
}

// Before load is sent to a server kaeload does not control, listenTries
// refused connections over listenWithin stop the run at once.
const (
	listenTries  = 3
	listenWithin = time.Second
)

// cooldown waits until plan.Cooldown has passed since the last window.
func (c *controller) cooldown(ctx context.Context) error {
	if c.plan.Cooldown <= 0 || c.lastEnd.IsZero() {
		return nil
	}
	d := time.Until(c.lastEnd.Add(c.plan.Cooldown))
	if d <= 0 {
		return nil
	}
	fmt.Fprintf(c.opts.Log, "cooldown: %s before the next window\n", d.Round(time.Millisecond))
	if !sleepUntil(ctx, c.lastEnd.Add(c.plan.Cooldown)) {
		return ctx.Err()
	}
	return nil
}

// probeWindow reads every probe when the window starts and after it ends;
// a failure is recorded and logged, not fatal. nil when ctx ends first.
func (c *controller) probeWindow(ctx context.Context, label string, ctl *server.Control, probes []server.Probe, win results.Window) map[string]results.ProbeReading {
	vals, errs := make([][2]float64, len(probes)), make([][2]error, len(probes))
	for end, at := range []time.Time{win.Start, win.End} {
		if !sleepUntil(ctx, at) {
			return nil
		}
		for i, p := range probes {
			if vals[i][end], errs[i][end] = ctl.Read(ctx, p); ctx.Err() != nil {
				return nil
			}
		}
	}
	out := make(map[string]results.ProbeReading, len(probes))
	for i, p := range probes {
		r := results.ProbeReading{Before: vals[i][0], After: vals[i][1]}
		b, a := errs[i][0], errs[i][1]
		err := errors.Join(b, a)
		if b != nil && a != nil && b.Error() == a.Error() {
			err = b // the same failure twice says no more than once
		}
		if err != nil {
			r = results.ProbeReading{Error: err.Error()}
			fmt.Fprintf(c.opts.Log, "%s: probe %s failed (recorded, not fatal): %v\n", label, p.Name, err)
		}
		out[p.Name] = r
	}
	return out
}

// keepPartial keeps rep, window r cut short, as PARTIAL, in no statistic.
func (c *controller) keepPartial(variant int, label string, r int, rep *results.Rep) {
	rep.Index = r
	c.change(results.Change{Type: results.ChangePartial, Variant: variant, Rep: rep})
	fmt.Fprintf(c.opts.Log, "PARTIAL: %s\n", analysis.PartialLine(c.run.Variants[variant].Name, rep))
}

// excludeFlagged sets rep aside when it measured the client or shared CPUs
// and exclude_flagged allows one more: kept, in no statistic, measured
// again. A failed window is reported as failed instead.
func (c *controller) excludeFlagged(variant int, label string, r int, rep *results.Rep) bool {
	rv := &c.run.Variants[variant] // a resumed run's excluded windows are not carried over
	if len(rv.Excluded) >= c.plan.ExcludeFlagged || rep.Failed != nil {
		return false
	}
	why := analysis.AnalyzeRep(rep).Flagged()
	if why.IsZero() {
		return false
	}
	rep.Index, rep.Excluded = r, why.String()
	c.change(results.Change{Type: results.ChangeExcluded, Variant: variant, Rep: rep})
	fmt.Fprintf(c.opts.Log, "%s EXCLUDED (%d of the %d exclude_flagged allows): %s req/s: %s; measuring it again\n", label,
		len(rv.Excluded), c.plan.ExcludeFlagged, format.Rate(rep.Total.Rate()), why)
	return true
}
