package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/kaeload/kaeload/engine"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/runner/internal/wire"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// snapshotEvery is how often a worker reports its running counts; the
// controller treats silenceLimit without a line as a dead worker.
const (
	snapshotEvery = 250 * time.Millisecond
	silenceLimit  = 3 * time.Second
)

// Worker is the hidden `kaeload worker`: read the group spec from in,
// answer ready, wait for start, run the load and stream snapshots and the
// final record to out. A failure is also sent to the controller.
func Worker(ctx context.Context, in io.Reader, w io.Writer) (err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &syncWriter{w: w}
	defer func() {
		if err != nil && !errors.Is(err, errControllerGone) {
			_ = wire.Write(out, wire.Error{Type: wire.TypeError, Message: err.Error()})
		}
	}()
	lr := wire.NewReader(in)
	spec, err := readSpec(lr)
	if err != nil {
		return err
	}
	eng, memReady, err := prepare(spec, out)
	if err != nil {
		return err
	}
	start, win, err := awaitStart(lr, out)
	if err != nil {
		return err
	}
	// From here on the input carries at most a stop, which ends the window
	// early and keeps what it measured; its end or any other line cancels.
	inputErr := make(chan error, 1)
	early := make(chan struct{})
	go func() {
		m, err := lr.Next()
		if err == nil && m.Type == wire.TypeStop {
			close(early)
			m, err = lr.Next()
		}
		if err == nil {
			err = fmt.Errorf("unexpected %q message during the load", m.Type)
		}
		if errors.Is(err, io.EOF) {
			err = errControllerGone
		}
		inputErr <- err
		cancel()
	}()
	return load(ctx, spec, eng, start.Local(start.Begin), win, start.Workers, memReady, out, inputErr, early)
}

// errControllerGone is returned by Worker when its input closes early.
var errControllerGone = errors.New("controller closed the worker's input")

// syncWriter serialises writes from several goroutines (protocol lines,
// the log of the ssh dials).
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// readSpec reads the controller's first line and checks it as Compile
// would: an absurd spec is an error, never a panic or a huge allocation.
func readSpec(lr *wire.Reader) (wire.Spec, error) {
	var spec wire.Spec
	m, err := lr.Next()
	if errors.Is(err, io.EOF) {
		return spec, errControllerGone
	}
	if err != nil {
		return spec, fmt.Errorf("read spec: %w", err)
	}
	if m.Type != wire.TypeSpec {
		return spec, fmt.Errorf("want a %q message first, got %q", wire.TypeSpec, m.Type)
	}
	if err := m.Decode(&spec); err != nil {
		return spec, err
	}
	if err := plans.CheckWorker(spec.Target, spec.Load, spec.GroupSpec); err != nil {
		return spec, fmt.Errorf("group %d: bad spec: %w", spec.Group, err)
	}
	return spec, nil
}

// prepare checks the pinning, sizes GOMAXPROCS, builds the engine and
// answers ready; it returns the engine and the private memory before it.
func prepare(spec wire.Spec, out io.Writer) (*engine.Engine, uint64, error) {
	g := spec.GroupSpec
	if want := pinning.Set(g.CPUs); len(want) > 0 {
		if err := verifyAffinity(want); err != nil {
			return nil, 0, fmt.Errorf("group %d: %w", spec.Group, err)
		}
	}
	runtime.GOMAXPROCS(g.Threads)
	// An idle worker's memory: what the load adds is what the slots cost.
	memReady := anonRSS()
	eng, err := engine.New(spec.Target, spec.Load, g.Connections)
	if err != nil {
		return nil, 0, fmt.Errorf("group %d: %w", spec.Group, err)
	}
	if g.Rate > 0 {
		if err := eng.SetRate(g.Rate); err != nil {
			return nil, 0, fmt.Errorf("group %d: %w", spec.Group, err)
		}
	}
	cpus := ""
	if have, err := pinning.Allowed("self"); err == nil {
		cpus = have.String()
	}
	if err := wire.Write(out, wire.Ready{Type: wire.TypeReady, PID: os.Getpid(), CPUs: cpus, GOMAXPROCS: runtime.GOMAXPROCS(0)}); err != nil {
		return nil, 0, fmt.Errorf("send ready: %w", err)
	}
	return eng, memReady, nil
}

// awaitStart reads the start message and its window on this clock.
func awaitStart(lr *wire.Reader, out io.Writer) (wire.Start, results.Window, error) {
	var start wire.Start
	m, err := lr.Next()
	for err == nil && m.Type == wire.TypeClock {
		// A timestamp exchange (syncClocks): answer with this clock.
		if err := wire.Write(out, wire.Clock{Type: wire.TypeClock, Time: time.Now()}); err != nil {
			return start, results.Window{}, fmt.Errorf("send clock: %w", err)
		}
		m, err = lr.Next()
	}
	if errors.Is(err, io.EOF) {
		return start, results.Window{}, errControllerGone
	}
	if err != nil {
		return start, results.Window{}, fmt.Errorf("read start: %w", err)
	}
	if m.Type != wire.TypeStart {
		return start, results.Window{}, fmt.Errorf("want a %q message, got %q", wire.TypeStart, m.Type)
	}
	if err := m.Decode(&start); err != nil {
		return start, results.Window{}, err
	}
	win := results.Window{Start: start.Local(start.WarmupEnd), End: start.Local(start.End)}
	if !win.End.After(win.Start) {
		return start, win, fmt.Errorf("start: window ends (%s) before it starts (%s)", win.End, win.Start)
	}
	if l := win.Length(); l > plans.MaxDuration {
		return start, win, fmt.Errorf("start: a %s window is longer than the %s allowed", l, plans.MaxDuration)
	}
	return start, win, nil
}

// stopped is the input's error when the controller stopped the load, or ctx's.
func stopped(ctx context.Context, inputErr <-chan error) error {
	select {
	case err := <-inputErr:
		return err
	default:
		return ctx.Err()
	}
}

// groupMeters measure a worker's window beside its load: its CPUs, own
// CPU, CPU wait, other processes on its CPUs, and the timeline.
type groupMeters struct {
	cpu, proc, wait <-chan *results.CPUUsage
	others          <-chan []results.ProcessCPU
	timeline        *workerTimeline // nil without a timeline
}

// startMeters starts the meters of win; the timeline's run under wctx.
func startMeters(ctx, wctx context.Context, spec wire.Spec, win results.Window, siblings []int, early <-chan struct{}) *groupMeters {
	want := pinning.Set(spec.GroupSpec.CPUs)
	logf := logTo(os.Stderr, fmt.Sprintf("group %d: ", spec.Group))
	cm := selfMeter(nil)
	var othersM meterOf[[]results.ProcessCPU]
	if len(want) > 0 {
		cm, othersM = cpusMeter(want), othersMeter(want, siblings)
	}
	m := &groupMeters{
		cpu:    measureWindow(ctx, cm, win, early, logf),
		proc:   measureWindow(ctx, selfMeter(want), win, early, logf),
		wait:   measureWindow(ctx, waitMeter(want), win, early, withPrefix(logf, "CPU wait: ")),
		others: measureWindow(ctx, othersM, win, early, withPrefix(logf, "other processes: ")),
	}
	if ivl := spec.Load.Interval; ivl > 0 {
		gr := grid{start: win.Start, end: win.End, ivl: ivl}
		m.timeline = &workerTimeline{}
		m.timeline.proc = sampleNow(selfMeter(want)).seriesTo(wctx, gr, withPrefix(logf, "timeline CPU: "), nil)
		if len(want) > 0 {
			m.timeline.cpus = sampleNow(cpusMeter(want)).seriesTo(wctx, gr, withPrefix(logf, "timeline CPUs: "), nil)
		}
	}
	return m
}

// load runs the engine from begin over win, streaming snapshots and
// ending with the final record (meters' readings, peak memory). A close of
// early ends the window at once.
func load(ctx context.Context, spec wire.Spec, eng *engine.Engine, begin time.Time, win results.Window, siblings []int, memReady uint64, out io.Writer, inputErr <-chan error, early <-chan struct{}) error {
	// The load and the window's meters run under wctx, which a stop ends.
	wctx, endWindow := context.WithCancel(ctx)
	defer endWindow()
	cancelWhen(wctx, early, endWindow)
	g := spec.GroupSpec
	want := pinning.Set(g.CPUs)
	m := startMeters(ctx, wctx, spec, win, siblings, early)
	wt := m.timeline
	memPeak := anonRSS()
	done := make(chan results.Group, 1)
	go func() { done <- runAt(wctx, eng, begin, win) }()
	tick := time.NewTicker(snapshotEvery)
	defer tick.Stop()
	intervals := func(final bool) error {
		if wt == nil {
			return nil
		}
		ivs := wt.take(eng.TakeIntervals(final), final)
		if len(ivs) == 0 {
			return nil
		}
		if err := wire.Write(out, wire.Intervals{Type: wire.TypeIntervals, Intervals: ivs}); err != nil {
			return fmt.Errorf("send intervals: %w", err)
		}
		return nil
	}
	snapshot := func() error {
		memPeak = max(memPeak, anonRSS())
		s := eng.Snapshot()
		if err := wire.Write(out, wire.Snapshot{Type: wire.TypeSnapshot, Requests: s.Requests, Errors: s.Errors, Bytes: s.Bytes, Missed: s.Missed}); err != nil {
			return fmt.Errorf("send snapshot: %w", err)
		}
		return intervals(false)
	}
	for {
		select {
		case <-tick.C:
			if err := snapshot(); err != nil {
				return err
			}
		case <-ctx.Done():
			return stopped(ctx, inputErr)
		case res := <-done:
			if ctx.Err() != nil {
				return stopped(ctx, inputErr) // Run returned because the controller went away
			}
			res.CPU, res.Process, res.Wait, res.Others = <-m.cpu, <-m.proc, <-m.wait, <-m.others
			res.Index, res.CPUs, res.Threads, res.Slots = spec.Group, want.String(), g.Threads, g.Connections
			if err := snapshot(); err != nil {
				return err
			}
			if wt != nil {
				wt.proc.wait(wctx) // its last reading is at the window's end, before Run returned
				wt.cpus.wait(wctx)
			}
			if err := intervals(true); err != nil {
				return err
			}
			res.PeakRSS = peakRSS()
			if memReady > 0 && memPeak > 0 {
				res.MemoryReady, res.MemoryPeak = memReady, memPeak
			}
			if err := wire.Write(out, wire.Final{Type: wire.TypeFinal, Group: res}); err != nil {
				return fmt.Errorf("send final: %w", err)
			}
			return nil
		}
	}
}

// runAt runs eng over win once begin has come (or ctx has ended). A
// group that began after win opened reports the start it counted from.
func runAt(ctx context.Context, eng *engine.Engine, begin time.Time, win results.Window) results.Group {
	sleepUntil(ctx, begin)
	started := time.Now()
	res := eng.Run(ctx, win)
	if started.After(res.Window.Start) {
		res.Window.Start = started
		if started.After(res.Window.End) {
			res.Window.Start = res.Window.End
		}
	}
	return res
}
