package runner

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/ports"
	"github.com/kaeload/kaeload/remote"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
	"github.com/kaeload/kaeload/runner/internal/wire"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/server"
	"github.com/kaeload/kaeload/target"
)

// Timing of a repetition.
const (
	startLead    = 200 * time.Millisecond // the load begins at least this far ahead: every worker has read start
	readyTimeout = 15 * time.Second       // process start plus spec handling
	finishGrace  = 5 * time.Second        // after the window's end plus one request timeout, for final records
	spareFiles   = 64                     // open files each process needs beyond its connections
)

// Options tune how Run executes a plan.
type Options struct {
	// Executable and WorkerArgs run a worker (default: this program,
	// "worker"); Env is added to its environment.
	Executable string
	WorkerArgs []string
	Env        []string
	// Progress receives the progress display in ProgressMode (default
	// ProgressAuto); nil = none.
	Progress     io.Writer
	ProgressMode string
	// Log receives the controller's notes (nil: discarded); WorkerLog every
	// worker stderr line, prefixed "worker N: " (nil: Log).
	Log, WorkerLog io.Writer
	// Outputs subscribe to the run's events (journal, live metrics).
	Outputs []Output
	// About goes into the run's header.
	About About
	// Resume is an interrupted run of the same plan: its windows, visits and
	// calibration are kept, not measured again.
	Resume *results.Run
	// Abort, closed after ctx was cancelled (a second Ctrl-C), kills the
	// workers at once; the server's stop command still runs.
	Abort <-chan struct{}

	hooks hooks // this package's tests watch processes; nil funcs are skipped
}

// hooks are test-only observers of a run.
type hooks struct {
	workerStart func(group, pid int)                       // a worker started
	workerExit  func(group int, state *os.ProcessState)    // a worker was waited for
	builtin     func(s *target.Server)                     // the built-in target listens
	tcpRead     func(host string, s cpustat.TCPSnapshot)   // the timeline read a host's TCP counters
	interval    func(group int, iv results.IntervalSample) // the controller got a group's interval
}

// About is what the caller knows of a run and does not measure.
type About struct {
	Kaeload, GoVersion string
	Host               []byte
	Scenario           string
}

// Run executes every variant × repetition of plan, one pinned worker per group
// on one window. On cancel, a lost worker or a failed stop it returns what was
// measured, Interrupted set, and an error; nothing writes the run afterwards.
func Run(ctx context.Context, plan *plans.Plan, opts Options) (*results.Run, error) {
	if err := checkPlan(plan); err != nil {
		return nil, err
	}
	plan, cal, err := calibrated(ctx, seeded(plan), opts)
	if err != nil {
		return nil, err
	}
	probes, err := compileProbes(plan)
	if err != nil {
		return nil, err
	}
	opts, err = withDefaults(opts)
	if err != nil {
		return nil, err
	}
	if err := checkFiles(plan); err != nil {
		return nil, err
	}
	p, srv, stopBuiltin, err := startBuiltin(ctx, plan, opts)
	if err != nil {
		return nil, err
	}
	defer stopBuiltin()
	run, err := newRecord(p, cal, opts)
	if err != nil {
		return nil, err
	}
	c := &controller{book: &book{run: run, outputs: opts.Outputs, log: opts.Log}, plan: p, opts: opts,
		probes: accelProbes(probes, srv), eta: newETA(p, run), target: srv, builtin: srv != nil}
	if err := c.connectHosts(ctx); err != nil {
		return nil, err
	}
	defer closeHosts(c.hosts)
	if err := c.start(p); err != nil {
		return nil, err
	}
	c.publish(Event{Kind: EventPlanned, Windows: plannedWindows(p, run)})
	for _, w := range checkPorts(p) {
		c.warn(w)
	}
	err = c.schedule(ctx, run)
	// The outputs may hold the final values for a scrape; a second Ctrl-C cuts that short.
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	cancelWhen(sctx, c.opts.Abort, cancel)
	c.stop(sctx)
	cancel()
	return run, c.finish(ctx, err)
}

// seeded draws a seed for a randomized order the plan left unseeded (here,
// so that Compile stays deterministic).
func seeded(plan *plans.Plan) *plans.Plan {
	if plan.Order == results.OrderRandomized && !plan.SeedSet {
		return plan.WithSeed(rand.Uint64())
	}
	return plan
}

// calibrated returns plan with the repetitions repeat: auto asks for, and
// the calibration (the resumed run's, or measured now).
func calibrated(ctx context.Context, plan *plans.Plan, opts Options) (*plans.Plan, *stats.Calibration, error) {
	a := plan.Auto
	if a == nil {
		return plan, nil, nil
	}
	var cal *stats.Calibration
	if r := opts.Resume; r != nil && r.Calibration != nil {
		cal = r.Calibration
	} else {
		c, err := Calibrate(ctx, plan, a.Calibrate, a.Effect, a.Max, opts)
		if err != nil {
			return nil, nil, err
		}
		if opts.Log != nil {
			fmt.Fprintln(opts.Log, calibrationLine(c))
		}
		cal = c
	}
	cp := *plan
	cp.Repeat = cal.Repeat
	return &cp, cal, nil
}

// withDefaults fills in the options left out and puts the progress
// display first among the outputs.
func withDefaults(opts Options) (Options, error) {
	if opts.Executable == "" {
		exe, err := os.Executable()
		if err != nil {
			return opts, fmt.Errorf("find own executable for workers: %w", err)
		}
		opts.Executable = exe
	}
	if opts.WorkerArgs == nil {
		opts.WorkerArgs = []string{"worker"}
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	sink := &logSink{w: opts.Log}
	opts.Log = sink
	if opts.WorkerLog == nil {
		opts.WorkerLog = sink
	}
	disp, err := newDisplay(opts.ProgressMode, opts.Progress, sink)
	if disp != nil {
		opts.Outputs = append([]Output{disp}, opts.Outputs...)
	}
	return opts, err
}

// startBuiltin starts the built-in target when the plan asks for one and
// returns the plan dialling it, the target and a func that stops it.
func startBuiltin(ctx context.Context, plan *plans.Plan, opts Options) (*plans.Plan, *target.Server, func(), error) {
	b := plan.Target.Builtin
	if b == nil {
		return plan, nil, func() {}, nil
	}
	// The built-in target resumes sessions only when the client may.
	resume := plan.Target.TLS != nil && plan.Target.TLS.Resumption
	srv, err := target.Listen(target.Options{Addr: "127.0.0.1:0", Cert: b.Cert, Resumption: resume, Accel: b.Accel})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("start built-in target: %w", err)
	}
	srvCtx, stopSrv := context.WithCancel(context.WithoutCancel(ctx))
	served := make(chan error, 1)
	go func() { served <- srv.Serve(srvCtx) }()
	stop := func() {
		stopSrv()
		select {
		case err := <-served:
			if err != nil && !errors.Is(err, context.Canceled) {
				fmt.Fprintf(opts.Log, "built-in target: %v\n", err)
			}
		case <-time.After(5 * time.Second):
			fmt.Fprintf(opts.Log, "built-in target did not stop within 5 s\n")
		}
	}
	fmt.Fprintf(opts.Log, "built-in target (%s) listening on %s\n", b.Cert, srv.Addr())
	if opts.hooks.builtin != nil {
		opts.hooks.builtin(srv)
	}
	return plan.WithAddr(srv.Addr()), srv, stop, nil
}

// newRecord is the run's record before anything is measured, with what a
// resumed run measured already.
func newRecord(p *plans.Plan, cal *stats.Calibration, opts Options) (*results.Run, error) {
	planJSON, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encode plan: %w", err)
	}
	run := &results.Run{
		SchemaVersion: results.SchemaVersion,
		Name:          p.Name,
		Started:       time.Now(),
		Plan:          planJSON,
		Baseline:      p.Baseline,
		MaxErrors:     p.MaxErrors,
		Order:         p.Order,
		Equivalence:   p.Equivalence,
		Calibration:   cal,
		Profile:       p.Profile,
		Thresholds:    p.Thresholds,
		Kaeload:       opts.About.Kaeload,
		GoVersion:     opts.About.GoVersion,
		Host:          opts.About.Host,
		Scenario:      opts.About.Scenario,
	}
	if cp := p.Load.Capacity; cp != nil {
		spec := cp.CapacitySpec // the record's part of the plan's search
		run.Capacity = &spec
	}
	if p.Order == results.OrderRandomized {
		run.Seed = p.Seed
	}
	fmt.Fprintln(opts.Log, orderLine(p))
	shown := p.Redacted()
	for _, w := range shown.Warnings {
		run.Warnings = append(run.Warnings, notes.New(notes.PlanWarning, "text", w).Warning())
	}
	for _, v := range shown.Variants {
		run.Variants = append(run.Variants, results.Variant{Name: v.Name, Env: v.Env, Series: v.Series, Sweep: v.Sweep})
	}
	run.Search = searchRecord(p)
	return run, resume(run, opts.Resume)
}

// connectHosts connects to the plan's ssh hosts and records their facts.
func (c *controller) connectHosts(ctx context.Context) error {
	if len(c.plan.Hosts) == 0 {
		return nil
	}
	hosts, err := dialHosts(ctx, c.plan, c.opts)
	if err != nil {
		return err
	}
	c.hosts = hosts
	for _, h := range c.plan.Hosts {
		c.run.Hosts = append(c.run.Hosts, hosts[h.Name].info)
	}
	return nil
}

// finish closes the record once the schedule returned err and returns the
// run's error: err, the interruption said once, and the outputs' failures.
func (c *controller) finish(ctx context.Context, err error) error {
	run := c.run
	run.Finished = time.Now()
	for i := range run.Hosts {
		run.Hosts[i] = c.hosts[run.Hosts[i].Name].info // the last clock readings
	}
	if we := (*WorkerError)(nil); errors.As(err, &we) {
		run.Interrupted = true // a lost worker stopped the run early
	}
	if ctx.Err() != nil {
		run.Interrupted = true
		if err == nil || errors.Is(err, ctx.Err()) {
			err = nil // said once, below
		}
		err = errors.Join(fmt.Errorf("run interrupted: %w", ctx.Err()), err)
	}
	if c.storeErr != nil {
		err = errors.Join(err, fmt.Errorf("results could not all be stored (they are still reported): %w", c.storeErr))
	}
	return err
}

// resume carries the repetitions, visits, warnings and start time of the
// run so far into run, whose variants must be the same, in the same order.
func resume(run, prev *results.Run) error {
	if prev == nil {
		return nil
	}
	if len(prev.Variants) != len(run.Variants) {
		return fmt.Errorf("resume: the stored run has %d variants, the plan %d: not the same plan", len(prev.Variants), len(run.Variants))
	}
	for i := range run.Variants {
		if prev.Variants[i].Name != run.Variants[i].Name {
			return fmt.Errorf("resume: variant %d is %s in the stored run and %s in the plan: not the same plan", i, prev.Variants[i].Name, run.Variants[i].Name)
		}
		run.Variants[i].Reps = append([]results.Rep(nil), prev.Variants[i].Reps...)
		run.Variants[i].Speed = prev.Variants[i].Speed
	}
	if (prev.Search == nil) != (run.Search == nil) {
		return errors.New("resume: the stored run and the plan differ in whether they search")
	}
	if run.Search != nil {
		run.Search.Visits = append([]results.Visit(nil), prev.Search.Visits...)
	}
	run.Started = prev.Started
	run.Warnings = run.Warnings.AppendNew(prev.Warnings...)
	return nil
}

// checkPlan rejects plans Compile would never produce.
func checkPlan(plan *plans.Plan) error {
	if err := plan.Check(); err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	return nil
}

// checkFiles raises the open-file limit as far as allowed (workers inherit
// it) and fails when a process could not hold its connections.
func checkFiles(plan *plans.Plan) error {
	limit, err := raiseNoFile()
	if err != nil || limit == 0 {
		return err // 0: unknown on this OS
	}
	var errs []error
	total := 0
	for i, g := range plan.Load.Groups {
		if g.Host != nil {
			continue // another machine's limit
		}
		total += g.Connections
		if need := uint64(g.Connections) + spareFiles; need > limit {
			errs = append(errs, fmt.Errorf("group %d needs %d open files (%d connections + %d spare) but the limit is %d: raise the hard limit (ulimit -Hn %d, or LimitNOFILE=) or use fewer connections per group (at most %d)",
				i, need, g.Connections, spareFiles, limit, need, limit-spareFiles))
		}
	}
	if plan.Target.Builtin != nil {
		if need := uint64(total) + spareFiles; need > limit {
			errs = append(errs, fmt.Errorf("the built-in target needs %d open files (%d connections in all + %d spare) but the limit is %d: raise the hard limit (ulimit -Hn %d) or use fewer connections",
				need, total, spareFiles, limit, need))
		}
	}
	return errors.Join(errs...)
}

// controller runs the repetitions of one plan, with its server and hosts.
type controller struct {
	*book   // the run's record and its outputs
	plan    *plans.Plan
	opts    Options
	probes  [][]server.Probe // per variant
	lastEnd time.Time        // end of the last measured window, for Cooldown
	eta     *eta             // the run's time left for the display; nil: none
	target  *target.Server   // the built-in target; nil when the plan has none
	builtin bool             // the server is the built-in target in this process
	hosts   map[string]*hostConn
	server  meter // the server's CPU; nil when it cannot be measured
	// serverPID is the server's process on its host; 0 when not found.
	serverPID int
	// started are the process families found on the target's port after a start.
	started map[int]bool
	// readiness is the last start's readiness probes, for the next window.
	readiness      *results.Readiness
	timeWaitWarned bool // the client's TIME_WAIT was warned about
}

// rep runs one repetition: spawn the workers, start them on one window and
// collect, reading probes and server CPU beside it. An interrupt or a lost
// worker returns the partial window; no worker outlives rep.
func (c *controller) rep(ctx context.Context, p *plans.Plan, w WindowID, label string, ctl *server.Control, probes []server.Probe) (rep *results.Rep, err error) {
	quiet, err := c.beforeLoad(ctx, w, label)
	if err != nil {
		return nil, err
	}
	defer func() {
		e := Event{Kind: EventWindowEnded, Window: w} // Rep nil: the window did not complete
		if rep != nil {
			rep.Readiness, c.readiness = c.readiness, nil // the first window after a start holds them
			e.Rep = new(*rep)
			e.Rep.Index = w.Rep
		}
		c.publish(e)
	}()
	ws, err := c.spawn(p)
	ws.feed = c.feed(w)
	defer ws.stop(c.opts)
	if err != nil {
		return nil, err
	}
	if err := ws.awaitReady(ctx, c.opts.Log); err != nil {
		return nil, err
	}
	if err := ws.syncClocks(ctx, p.Load.Duration, c.warn); err != nil {
		return nil, err
	}
	mctx, stopMeter := context.WithCancel(ctx)
	defer stopMeter()
	profile := c.startProfile(mctx, label, p.Load.Warmup+p.Load.Duration+ws.lead()) // perf attached before the window is set
	tl := c.beginTimeline(mctx, label)                                              // before the load: its first interval holds all of it
	win, begin, err := ws.start(p.Load)
	serverProfile := profile(win)
	if err != nil {
		stopMeter()
		if serverProfile != nil {
			<-serverProfile
		}
		return nil, err
	}
	c.lastEnd = win.End
	lv := newLive(len(ws.procs))
	tl.start(mctx, win, lv, ws.feed)

	probed, stopProbes := c.startProbes(ctx, label, ctl, probes, win)
	defer stopProbes()
	c.publish(Event{Kind: eventShow, Window: w, live: lv, show: &repInfo{label: label, begin: begin, window: win, groups: groupNames(p.Load.Groups),
		runEnd: c.eta.begin(begin, win.End), runAtMost: c.eta != nil && c.eta.atMost}})
	serverCPU := measureWindow(mctx, c.server, win, nil, logTo(c.opts.Log, label+": server "))
	serverCPUs := measureWindow(mctx, c.serverCPUsOf(ws), win, nil, logTo(c.opts.Log, label+": server's CPUs: "))
	groups, lost, err := ws.collect(ctx, win, p.Load.Timeout, lv, tl.builderOrNil())
	if lost != nil || ctx.Err() != nil {
		end := time.Now()
		stopMeter() // the readings end with the window
		return partialRep(groups, tl.finish(mctx, groups), win, lost, end), cmp.Or(err, ctx.Err())
	}
	if err != nil {
		return nil, err
	}
	rep = new(results.NewRep(0, groups))
	rep.RecordSpread()
	rep.Timeline, rep.Quiet = tl.finish(ctx, groups), quiet
	var ok [4]bool // the side readings, unless ctx ends first
	rep.Probes, ok[0] = recv(ctx, probed)
	rep.ServerCPU, ok[1] = recv(ctx, serverCPU)
	rep.ServerCPUs, ok[2] = recv(ctx, serverCPUs)
	rep.ServerProfile, ok[3] = recv(ctx, serverProfile)
	if slices.Contains(ok[:], false) {
		return nil, ctx.Err()
	}
	c.check(p, label, rep)
	return rep, nil
}

// check judges a measured repetition: failed, the client's TIME_WAIT,
// and a wait for a quiet machine that timed out.
func (c *controller) check(p *plans.Plan, label string, rep *results.Rep) {
	rep.Failed = analysis.CheckRep(&rep.Total, p.MaxErrors) // Compile's default: 1 %
	if n, err := ports.TimeWait(); err == nil {             // this namespace's, from /proc/net/sockstat
		rep.TimeWait = &n
	}
	c.checkTimeWait(rep)
	if q := rep.Quiet; q != nil && q.TimedOut {
		n := notes.New(notes.QuietTimedOut, "label", label, "waited", q.Waited, "others", q.Others, "max_other", q.MaxOther)
		if b := q.Busiest; b != nil {
			n.Args["busiest"], n.Args["pid"] = b.Comm, b.PID
		}
		c.warn(n.Warning())
	}
}

// startProbes reads probes beside the load (probeWindow). stop cancels
// them for a repetition that ends early and waits for them.
func (c *controller) startProbes(ctx context.Context, label string, ctl *server.Control, probes []server.Probe, win results.Window) (<-chan map[string]results.ProbeReading, func()) {
	out, done := make(chan map[string]results.ProbeReading, 1), make(chan struct{})
	if len(probes) == 0 {
		out <- nil
		return out, func() {}
	}
	pctx, cancel := context.WithCancel(ctx)
	go func() {
		defer close(done)
		out <- c.probeWindow(pctx, label, ctl, probes, win)
	}()
	return out, func() { cancel(); <-done }
}

// recv receives from ch (nothing from a nil one); false when ctx ends first.
func recv[T any](ctx context.Context, ch <-chan T) (T, bool) {
	var zero T
	if ch == nil {
		return zero, true
	}
	select {
	case v := <-ch:
		return v, true
	case <-ctx.Done():
		return zero, false
	}
}

// logTo is a printf to w, each line prefixed and ended.
func logTo(w io.Writer, prefix string) func(string, ...any) {
	prefix = strings.ReplaceAll(prefix, "%", "%%")
	return func(f string, a ...any) { fmt.Fprintf(w, prefix+f+"\n", a...) }
}

// withPrefix is logf with prefix before each line.
func withPrefix(logf func(string, ...any), prefix string) func(string, ...any) {
	prefix = strings.ReplaceAll(prefix, "%", "%%")
	return func(f string, a ...any) { logf(prefix+f, a...) }
}

// partialRep is the repetition an interrupt or the loss of group lost cut
// short at end, without whole-window readings; nil when the window never
// opened.
func partialRep(groups []results.Group, timeline *results.Timeline, win results.Window, lost *results.LostGroup, end time.Time) *results.Rep {
	rep := results.NewRep(0, groups)
	if lost != nil && len(groups) == 0 && end.After(win.Start) {
		rep.Total.Window = results.Window{Start: win.Start, End: end} // no group's record: when it was lost
		if end.After(win.End) {
			rep.Total.Window.End = win.End
		}
	}
	if rep.Total.Window.Length() <= 0 {
		return nil
	}
	rep.Timeline, rep.PartialOf, rep.Lost = timeline, win.Length(), lost
	rep.RecordSpread()
	return &rep
}

// groupNames labels the groups for the progress display.
func groupNames(groups []plans.Group) []string {
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = fmt.Sprintf("group %d [%s]", i, cmp.Or(pinning.Set(g.CPUs).String(), "unpinned"))
	}
	return names
}

// workers are one repetition's worker processes and their lines.
type workers struct {
	procs  []*proc
	events chan event
	abort  <-chan struct{}
	log    io.Writer
	// chatter receives the workers' own lines (Options.WorkerLog).
	chatter io.Writer
	// feed, when not nil, gets each interval a worker sends.
	feed func(LiveReading)
}

// spawn starts one pinned worker per group and sends each its spec; the
// workers started are returned even on failure, for stop.
func (c *controller) spawn(p *plans.Plan) (*workers, error) {
	groups := p.Load.Groups
	ws := &workers{events: make(chan event, 4*len(groups)), abort: c.opts.Abort, log: c.opts.Log, chatter: c.opts.WorkerLog}
	env := append(os.Environ(), c.opts.Env...)
	for i, g := range groups {
		cmd, hc := exec.Command(c.opts.Executable, c.opts.WorkerArgs...), (*hostConn)(nil)
		cmd.Env = env
		if g.Host != nil {
			// `kaeload worker --relay` over ssh, with env passed explicitly.
			hc = c.hosts[g.Host.Name]
			cmd = hc.conn.Command(nil, remote.Exec(c.opts.Env, hc.exe, append(slices.Clone(c.opts.WorkerArgs), "--relay")...))
		}
		w, err := startCmd(i, pinning.Set(g.CPUs), cmd, hc, c.opts.WorkerLog, ws.events)
		if err != nil {
			return ws, err
		}
		ws.procs = append(ws.procs, w)
		if c.opts.hooks.workerStart != nil {
			c.opts.hooks.workerStart(i, w.pid)
		}
	}
	for i, w := range ws.procs {
		spec := wire.Spec{Type: wire.TypeSpec, Group: i, Target: p.Target, Load: p.Load, GroupSpec: groups[i]}
		if err := w.send(spec); err != nil {
			return ws, err
		}
	}
	return ws, nil
}

// stop closes the workers' input, kills those still running killAfter
// later (or when abort closes) and waits for every one.
func (ws *workers) stop(opts Options) {
	for _, p := range ws.procs {
		p.quitOnce.Do(func() { close(p.quit) })
		_ = p.stdin.Close()
	}
	over := make(chan struct{}) // closed when the grace period ends
	t := time.AfterFunc(killAfter, func() { close(over) })
	defer t.Stop()
	for _, p := range ws.procs {
		select {
		case <-p.exited:
			continue
		case <-over:
		case <-ws.abort:
		}
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
	for _, p := range ws.procs {
		if opts.hooks.workerExit != nil {
			opts.hooks.workerExit(p.index, p.cmd.ProcessState)
		}
	}
}

// awaitReady is the barrier: it returns once every worker has answered
// ready, with the CPUs it was pinned to checked against its group's.
func (ws *workers) awaitReady(ctx context.Context, log io.Writer) error {
	isReady := make([]bool, len(ws.procs))
	timeout := time.NewTimer(readyTimeout)
	defer timeout.Stop()
	for range ws.procs {
		var e event
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timeout.C:
			return ws.procs[slices.Index(isReady, false)].fail(fmt.Errorf("not ready within %s", readyTimeout))
		case e = <-ws.events:
		}
		p := e.w
		if err := eventErr(e); err != nil {
			return cmp.Or(ctx.Err(), err)
		}
		if e.msg.Type != wire.TypeReady || isReady[p.index] {
			return p.fail(fmt.Errorf("protocol: unexpected %q message before start", e.msg.Type))
		}
		var r wire.Ready
		if err := p.decode(e.msg, &r); err != nil {
			return err
		}
		if want := p.cpus.String(); want != "" && r.CPUs != want {
			return p.fail(fmt.Errorf("worker reports CPUs %q, want %q", r.CPUs, want))
		}
		fmt.Fprintf(log, "worker %d ready: pid %d, CPUs %s, GOMAXPROCS %d\n", p.index, r.PID, r.CPUs, r.GOMAXPROCS)
		p.workerPID, isReady[p.index] = r.PID, true
	}
	return nil
}

// start sends every worker the same window as instants on this clock,
// which each converts with its offset; the load begins lead from now.
func (ws *workers) start(l plans.Load) (results.Window, time.Time, error) {
	begin := time.Now().Add(ws.lead())
	win := results.Window{Start: begin.Add(l.Warmup)}
	win.End = win.Start.Add(l.Duration)
	// Each worker learns its siblings on its host: kaeload's own load.
	pids := map[*hostConn][]int{}
	for _, p := range ws.procs {
		if p.workerPID > 0 {
			pids[p.host] = append(pids[p.host], p.workerPID)
		}
	}
	for _, p := range ws.procs {
		m := wire.Start{Type: wire.TypeStart, Begin: begin, WarmupEnd: win.Start, End: win.End, Offset: p.offset, Workers: pids[p.host]}
		if err := p.send(m); err != nil {
			return win, begin, err
		}
	}
	return win, begin, nil
}

// lead is how far ahead the start is sent: startLead beyond twice the
// slowest round trip (syncClocks).
func (ws *workers) lead() time.Duration {
	var slowest time.Duration
	for _, p := range ws.procs {
		slowest = max(slowest, p.slowest)
	}
	return startLead + 2*slowest
}

// orderLine says in what order the windows run, and how to replay a random one.
func orderLine(p *plans.Plan) string {
	rounds := fmt.Sprintf("%d rounds", p.Repeat)
	if p.Repeat == 1 {
		rounds = "1 round"
	}
	if len(p.Variants) == 1 {
		return fmt.Sprintf("order: one variant, %d window(s)", p.Repeat)
	}
	switch p.Order {
	case results.OrderRandomized:
		return fmt.Sprintf("order: randomized blocks, %s of every variant once in a random order, seed %d (replay with --seed %d)", rounds, p.Seed, p.Seed)
	case results.OrderInterleaved:
		return fmt.Sprintf("order: interleaved, %s of every variant once in plan order", rounds)
	}
	return "order: sequential (every repetition of a variant, then the next): drift of the machine over time is not controlled"
}
