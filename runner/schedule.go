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
// measured on it: all of them (Sequential) or one (Randomized,
// Interleaved).
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

// schedule runs every session into run.Variants, which holds every
// planned variant in plan order; when it returns, the variants without a
// completed repetition or a partial window are left out.
func (c *controller) schedule(ctx context.Context, run *results.Run) error {
	defer func() {
		var kept []results.Variant
		for _, v := range run.Variants {
			if len(v.Reps) > 0 || len(v.Partial) > 0 {
				kept = append(kept, v)
			}
		}
		run.Variants = kept
	}()
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
		err := c.session(ctx, s, rv)
		if se := (*startError)(nil); errors.As(err, &se) && ctx.Err() == nil {
			// Its server does not start: the other variants still run.
			gaveUp[s.variant] = true
			fmt.Fprintf(c.opts.Log, "%s\n", c.plan.Redact(se.Error()))
			c.notMeasured(s.variant, se.reason)
			continue
		}
		if err != nil {
			return err
		}
	}
	return c.searchWindows(ctx, run)
}

// startError is a server that did not come up for a variant (its start or
// reload command failed, or it never became ready): the run gives up on
// the variant (results.Run.NotMeasured) and goes on with the others.
type startError struct {
	reason string // "server start failed: FIRST LINE OF OUTPUT"
	err    error
}

func (e *startError) Error() string { return e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

// startFailure wraps err, why the server did not come up for variant v,
// in a *startError saying in one line what went wrong: a command's first
// line of output (server.CommandError.Summary), or why it never became
// ready. A cancelled run's err is returned as it is.
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
// measures the session's repetitions and stops the server again. The stop
// always runs: after the last repetition, on any error and when ctx is
// cancelled (then with a fresh context bounded by the command timeout).
func (c *controller) session(ctx context.Context, s session, rv *results.Variant) (err error) {
	v := c.plan.Variants[s.variant]
	ctl := &server.Control{Env: v.Env, Log: c.opts.Log}
	// Speed commands run once per variant, at its first session, while
	// the server is stopped: after serverUp's stop, before its start.
	speed := func() error { return nil }
	if len(v.Speed) > 0 && !c.speedDone[s.variant] {
		c.speedDone[s.variant] = true
		speed = func() error {
			rv.Speed = c.runSpeed(ctx, ctl, v)
			c.record(func(r Recorder) error { return r.Speed(s.variant, rv.Speed) })
			return ctx.Err()
		}
	}
	if c.plan.Server == nil {
		if err := speed(); err != nil {
			return err
		}
		if err := c.listening(ctx); err != nil {
			return err
		}
	} else {
		ctl.Host = c.plan.Server.Host
		ctl.Remote = c.serverRemote()
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
		// The start command may have failed after something else (an
		// old server still shutting down) answered the readiness probe:
		// checked now and after every window, whose figures would not be
		// this server's.
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
	c.findServer(v)
	c.runInfo(ctx, ctl, s.variant, rv)
	if c.plan.Load.Capacity != nil {
		return c.searchCapacity(ctx, s, ctl)
	}
	for k := 0; k < len(s.reps); k++ {
		r := s.reps[k]
		label := results.RepLabel(v.Name, r, c.plan.Repeat)
		if c.plan.Searched(s.variant) {
			label = results.SearchWindowLabel(v.Name, r)
		}
		if err := c.cooldown(ctx); err != nil {
			c.warn(results.InterruptedWarning(label))
			return err
		}
		rep, err := c.rep(ctx, WindowID{Variant: v.Name, Rep: r}, label, ctl, c.probes[s.variant])
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
			c.run.AddRep(s.variant, *rep) // withdraws an earlier try's warning that it was interrupted
			c.record(func(rec Recorder) error { return rec.Rep(s.variant, *rep) })
			t := &rep.Total
			fmt.Fprintf(c.opts.Log, "%s done: %s req/s, %s errors\n", label, format.Rate(t.Rate()), format.Count(t.Errors.Total()))
			if rep.Failed != nil {
				fmt.Fprintf(c.opts.Log, "%s %s (the run goes on)\n", label, analysis.FailedLine(rep))
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				c.warn(results.InterruptedWarning(label))
				return ctx.Err()
			}
			return fmt.Errorf("%s: %w", label, err)
		}
	}
	return nil
}

// Before load is sent to a server that kaeload does not control, the
// target is checked (server.Listening): listenTries connections spread
// over listenWithin, all refused, stop the run at once.
const (
	listenTries  = 3
	listenWithin = time.Second
)

// listening checks, before a session's load, that something listens on
// the target when the plan does not control the server (a controlled one
// passed its readiness probe, the built-in target listens). A target that
// refuses every connection fails the run at once: otherwise every slot
// would spend the warm-up and the window on connect errors. Targets only
// remote groups load are not checked: this machine may not see what they
// see.
func (c *controller) listening(ctx context.Context) error {
	if c.builtin || !slices.ContainsFunc(c.plan.Load.Groups, func(g plans.Group) bool { return g.Host == nil }) {
		return nil
	}
	if err := server.Listening(ctx, c.plan.Target.Addr, listenTries, listenWithin); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("target %w; no load was sent (start the server, or check target.url)", err)
	}
	return nil
}

// findServer picks how the server's CPU is measured for a session: the
// controller itself for the built-in target, else the process tree
// listening on the target's port when that is on this machine (found anew
// each session, since a restart makes new processes).
//
// It also remembers the server's PID (0 when not found), whose network
// namespace holds the server's TCP counters (tcpSources).
func (c *controller) findServer(v plans.Variant) {
	c.serverPID = 0
	if c.builtin {
		c.server = selfMeter(nil)
		return
	}
	if s := c.plan.Server; s != nil && s.SSH != nil {
		// Over the server host's ssh connection: its process tree, or
		// the whole machine.
		m, how, pid := remoteServerMeter(c.hosts[s.SSH.Name], c.plan.Target.Addr)
		fmt.Fprintf(c.opts.Log, "variant %s: server CPU: %s\n", v.Name, how)
		c.server, c.serverPID = m, pid
		return
	}
	m, pid, err := localServer(c.plan.Target.Addr)
	if err != nil {
		fmt.Fprintf(c.opts.Log, "variant %s: server CPU not measured: %v\n", v.Name, err)
	}
	c.server, c.serverPID = m, pid
}

// cooldown waits until plan.Cooldown has passed since the last window
// ended, so that no load runs in the pause between measured windows.
func (c *controller) cooldown(ctx context.Context) error {
	if c.plan.Cooldown <= 0 || c.lastEnd.IsZero() {
		return nil
	}
	d := time.Until(c.lastEnd.Add(c.plan.Cooldown))
	if d <= 0 {
		return nil
	}
	fmt.Fprintf(c.opts.Log, "cooldown: %s before the next window\n", d.Round(time.Millisecond))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// ready is the plan's readiness probe (Compile, or WithAddr for a
// built-in target, filled in its address).
func (c *controller) ready() server.Ready {
	r := c.plan.Server.Ready
	return server.Ready{Kind: r.Kind, Addr: r.Addr, URL: r.URL, Interval: r.Interval, Timeout: r.Timeout}
}

// serverUp prepares the server for variant v. With a start command: the
// stop command first, to clear whatever runs (its failure is only
// logged), then stopped (the speed commands run here, so that they have
// the machine to themselves), then start and wait until ready. Without
// one: stopped first, then the reload command when there is one, then
// wait until ready. An error from stopped ends serverUp.
func (c *controller) serverUp(ctx context.Context, ctl *server.Control, v plans.Variant, stopped func() error) error {
	log := c.opts.Log
	timeout := commandTimeout(c.plan)
	ready := c.ready()
	began := time.Now()
	switch {
	case v.Start != "":
		if v.Stop != "" {
			fmt.Fprintf(log, "variant %s: running the stop command first, to clear whatever runs\n", v.Name)
			if err := ctl.Stop(ctx, v.Stop, timeout); err != nil {
				fmt.Fprintf(log, "variant %s: stop before start failed (ignored): %v\n", v.Name, err)
			}
		}
		if err := stopped(); err != nil {
			return err
		}
		began = time.Now()
		fmt.Fprintf(log, "variant %s: starting the server\n", v.Name)
		if err := ctl.Start(ctx, v.Start, ready); err != nil {
			return startFailure(ctx, v, err)
		}
	case v.Reload != "":
		if err := stopped(); err != nil {
			return err
		}
		fmt.Fprintf(log, "variant %s: reloading the server\n", v.Name)
		if _, err := ctl.Run(ctx, "reload", v.Reload, timeout); err != nil {
			return startFailure(ctx, v, err)
		}
		fallthrough
	default:
		if v.Reload == "" {
			if err := stopped(); err != nil {
				return err
			}
		}
		if err := server.WaitReady(ctx, ready, nil); err != nil {
			return startFailure(ctx, v, fmt.Errorf("server: %w", err))
		}
	}
	fmt.Fprintf(log, "variant %s: server ready after %s\n", v.Name, time.Since(began).Round(time.Millisecond))
	return nil
}

// serverDown stops the server started for variant v: the stop command and
// the end of a start command still in the foreground. It runs with a fresh
// context, so that it also runs when the run's context was cancelled.
// After a failed start the stop command's failure (usually: nothing to
// stop) is only logged.
func (c *controller) serverDown(ctl *server.Control, v plans.Variant, startFailed bool) error {
	if v.Start == "" {
		return nil // kaeload did not start it: leave it running
	}
	timeout := commandTimeout(c.plan)
	ctx, cancel := context.WithTimeout(context.Background(), timeout+teardownSlack)
	defer cancel()
	fmt.Fprintf(c.opts.Log, "variant %s: stopping the server\n", v.Name)
	err := ctl.Stop(ctx, v.Stop, timeout)
	if err == nil {
		return nil
	}
	if startFailed {
		fmt.Fprintf(c.opts.Log, "variant %s: stop after the failed start: %v\n", v.Name, err)
		return nil
	}
	return fmt.Errorf("variant %s: %w", v.Name, err)
}

// probeWindow reads every probe right when the window starts and right
// after it ends. A probe that fails is recorded with its error, and noted
// in the log; it does not fail the run. It returns nil when ctx ends first.
func (c *controller) probeWindow(ctx context.Context, label string, ctl *server.Control, probes []server.Probe, win results.Window) map[string]results.ProbeReading {
	before, ok := c.readProbes(ctx, ctl, probes, win.Start)
	if !ok {
		return nil
	}
	after, ok := c.readProbes(ctx, ctl, probes, win.End)
	if !ok {
		return nil
	}
	out := make(map[string]results.ProbeReading, len(probes))
	for i, p := range probes {
		r := results.ProbeReading{Before: before[i].v, After: after[i].v}
		err := errors.Join(before[i].err, after[i].err)
		if b, a := before[i].err, after[i].err; b != nil && a != nil && b.Error() == a.Error() {
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

// reading is one probe's value or error.
type reading struct {
	v   float64
	err error
}

// readProbes waits until at, then reads every probe in order; ok is false
// when ctx ended.
func (c *controller) readProbes(ctx context.Context, ctl *server.Control, probes []server.Probe, at time.Time) ([]reading, bool) {
	t := time.NewTimer(time.Until(at))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return nil, false
	case <-t.C:
	}
	out := make([]reading, len(probes))
	for i, p := range probes {
		v, err := ctl.Read(ctx, p)
		if ctx.Err() != nil {
			return nil, false
		}
		out[i] = reading{v, err}
	}
	return out, true
}

// keepPartial keeps rep, window r of the variant cut short by an
// interrupt, in the run and its journal (results.Run.AddPartial): shown,
// marked PARTIAL, and in no statistic.
func (c *controller) keepPartial(variant int, label string, r int, rep *results.Rep) {
	rep.Index = r
	c.run.AddPartial(variant, *rep)
	c.record(func(rec Recorder) error { return rec.Partial(variant, *rep) })
	t := &rep.Total
	fmt.Fprintf(c.opts.Log, "%s PARTIAL: interrupted after %s of %s: %s req/s, %s errors (kept, not in the statistics)\n", label,
		t.Window.Length().Round(time.Millisecond), rep.PartialOf, format.Rate(t.Rate()), format.Count(t.Errors.Total()))
}

// excludeFlagged sets rep, window r of the variant, aside when it
// measured the client or shared CPUs (analysis.FlaggedLine) and the
// plan's ExcludeFlagged policy allows the variant one more: it is kept in
// the run and its journal (Variant.Excluded), in no statistic, and the
// caller measures the window again. A failed window is not set aside: it
// is reported as failed.
func (c *controller) excludeFlagged(variant int, label string, r int, rep *results.Rep) bool {
	if c.excluded[variant] >= c.plan.ExcludeFlagged || rep.Failed != nil {
		return false
	}
	why := analysis.FlaggedLine(rep)
	if why.IsZero() {
		return false
	}
	if c.excluded == nil {
		c.excluded = map[int]int{}
	}
	c.excluded[variant]++
	rep.Index, rep.Excluded = r, why.String()
	c.run.AddExcluded(variant, *rep)
	c.record(func(rec Recorder) error { return rec.Excluded(variant, *rep) })
	fmt.Fprintf(c.opts.Log, "%s EXCLUDED (%d of the %d exclude_flagged allows): %s req/s: %s; measuring it again\n", label,
		c.excluded[variant], c.plan.ExcludeFlagged, format.Rate(rep.Total.Rate()), why)
	return true
}
