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
)

// snapshotEvery is how often a worker reports its running counts; the
// controller treats silenceLimit without a line as a dead worker.
const (
	snapshotEvery = 250 * time.Millisecond
	silenceLimit  = 3 * time.Second
)

// Worker is the body of the hidden `kaeload worker` subcommand: it reads the
// group spec from in, checks that the process is pinned as the spec says,
// sets GOMAXPROCS to the group's thread count, answers ready, waits for
// start, runs the load, streams snapshots and ends with the final record on
// out. Nothing but protocol lines is written to out (log to stderr). When in
// closes before the final record — the controller died or gave up — the
// load stops and Worker returns an error; the caller should then exit.
// A failure is also reported to the controller as an error message.
func Worker(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := &syncWriter{w: out}
	err := work(ctx, cancel, newLineReader(in), w)
	if err != nil && !errors.Is(err, errControllerGone) {
		_ = writeMsg(w, errorMsg{Type: msgError, Message: err.Error()})
	}
	return err
}

// errControllerGone is returned by Worker when its input closes early.
var errControllerGone = errors.New("controller closed the worker's input")

// syncWriter serialises protocol lines from several goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

func work(ctx context.Context, cancel context.CancelFunc, lr *lineReader, out io.Writer) error {
	m, err := lr.next()
	if errors.Is(err, io.EOF) {
		return errControllerGone
	}
	if err != nil {
		return fmt.Errorf("read spec: %w", err)
	}
	if m.Type != msgSpec {
		return fmt.Errorf("want a %q message first, got %q", msgSpec, m.Type)
	}
	var spec specMsg
	if err := m.decode(&spec); err != nil {
		return err
	}
	g := spec.GroupSpec
	if g.Threads < 1 || g.Connections < 1 {
		return fmt.Errorf("group %d: threads %d and connections %d must be >= 1", spec.Group, g.Threads, g.Connections)
	}
	want := pinning.Set(g.CPUs)
	if len(want) > 0 {
		if err := verifyAffinity(want); err != nil {
			return fmt.Errorf("group %d: %w", spec.Group, err)
		}
	}
	runtime.GOMAXPROCS(g.Threads)
	eng, err := engine.New(spec.Target, spec.Load, g.Connections)
	if err != nil {
		return fmt.Errorf("group %d: %w", spec.Group, err)
	}
	cpus := ""
	if have, err := pinning.Allowed("self"); err == nil {
		cpus = have.String()
	}
	if err := writeMsg(out, readyMsg{Type: msgReady, PID: os.Getpid(), CPUs: cpus, GOMAXPROCS: runtime.GOMAXPROCS(0)}); err != nil {
		return fmt.Errorf("send ready: %w", err)
	}

	m, err = lr.next()
	if errors.Is(err, io.EOF) {
		return errControllerGone
	}
	if err != nil {
		return fmt.Errorf("read start: %w", err)
	}
	if m.Type != msgStart {
		return fmt.Errorf("want a %q message, got %q", msgStart, m.Type)
	}
	var start startMsg
	if err := m.decode(&start); err != nil {
		return err
	}
	win := results.Window{Start: start.WarmupEnd, End: start.End}
	if !win.End.After(win.Start) {
		return fmt.Errorf("start: window ends (%s) before it starts (%s)", win.End, win.Start)
	}

	// From here on the input carries nothing: its end (the controller
	// stopped the run or died) or any line cancels the load.
	inputErr := make(chan error, 1)
	go func() {
		m, err := lr.next()
		if err == nil {
			err = fmt.Errorf("unexpected %q message during the load", m.Type)
		}
		if errors.Is(err, io.EOF) {
			err = errControllerGone
		}
		inputErr <- err
		cancel()
	}()

	// The group's CPUs are measured over the window: pinned, the CPUs
	// themselves (busy with anything means no room for more load);
	// unpinned, this process.
	cm := selfMeter()
	if len(want) > 0 {
		cm = cpusMeter(want)
	}
	cpu := measureWindow(ctx, cm, win, func(f string, a ...any) {
		fmt.Fprintf(os.Stderr, "group %d: "+f+"\n", append([]any{spec.Group}, a...)...)
	})
	done := make(chan results.Group, 1)
	go func() { done <- eng.Run(ctx, win) }()
	tick := time.NewTicker(snapshotEvery)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			s := eng.Snapshot()
			if err := writeMsg(out, snapshotMsg{Type: msgSnapshot, Requests: s.Requests, Errors: s.Errors, Bytes: s.Bytes}); err != nil {
				return fmt.Errorf("send snapshot: %w", err)
			}
		case <-ctx.Done():
			select {
			case err := <-inputErr:
				return err
			default:
				return ctx.Err()
			}
		case res := <-done:
			if ctx.Err() != nil {
				// Run returned because the controller went away.
				select {
				case err := <-inputErr:
					return err
				default:
					return ctx.Err()
				}
			}
			res.CPU = <-cpu
			res.Index = spec.Group
			res.CPUs = want.String()
			res.Threads = g.Threads
			res.Slots = g.Connections
			s := eng.Snapshot()
			if err := writeMsg(out, snapshotMsg{Type: msgSnapshot, Requests: s.Requests, Errors: s.Errors, Bytes: s.Bytes}); err != nil {
				return fmt.Errorf("send snapshot: %w", err)
			}
			if err := writeMsg(out, finalMsg{Type: msgFinal, Group: res}); err != nil {
				return fmt.Errorf("send final: %w", err)
			}
			return nil
		}
	}
}
