package runner

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/runner/internal/wire"
)

// stopGrace bounds the wait for the workers' final records after an
// interrupt: their load ends at once, and what remains is the record.
const stopGrace = 5 * time.Second

// collection is the state of collect: each worker's final record, and
// when it was last heard from.
type collection struct {
	ws       *workers
	finals   []*results.Group
	got      int
	busy     []float64 // CPU seconds when last found silent
	starved  []bool
	lastSeen []time.Time
	lv       *live
	tb       *results.TimelineBuilder
	// lost is the first worker lost (its group no longer awaited) and
	// lostErr why; the others are told to stop and their records kept.
	lost    *results.LostGroup
	lostErr error
}

// collect reads snapshots into lv and intervals into tb (nil: none) until every
// final record is in. A lost worker stops the others (their records, it and a
// *WorkerError return); an interrupt waits stopGrace for records, a second not.
func (ws *workers) collect(ctx context.Context, win results.Window, timeout time.Duration, lv *live, tb *results.TimelineBuilder) ([]results.Group, *results.LostGroup, error) {
	n := len(ws.procs)
	c := &collection{ws: ws, finals: make([]*results.Group, n), busy: make([]float64, n), starved: make([]bool, n), lastSeen: make([]time.Time, n), lv: lv, tb: tb}
	now := time.Now()
	for i, p := range ws.procs {
		c.lastSeen[i] = now
		// The CPU a worker used to start is not work done while silent.
		if p.host == nil {
			c.busy[i], _ = cpuSeconds(p.pid)
		}
	}
	deadline := time.NewTimer(time.Until(win.End.Add(timeout + finishGrace)))
	defer deadline.Stop()
	watch := time.NewTicker(snapshotEvery)
	defer watch.Stop()
	interrupted := ctx.Done()
	var abort <-chan struct{}
	for c.got < n {
		var err error
		select {
		case <-interrupted:
			interrupted, abort = nil, ws.abort
			if err := c.stopAll(); err != nil {
				return c.kept(), c.lostOr(err, ""), ctx.Err()
			}
			deadline.Reset(stopGrace)
		case <-abort:
			return c.kept(), c.lostOr(ctx.Err(), "the run was aborted"), ctx.Err()
		case <-deadline.C:
			// The first worker without a final record at the deadline fails.
			if err = ctx.Err(); err == nil && slices.Contains(c.finals, nil) {
				err = ws.procs[slices.Index(c.finals, nil)].fail(fmt.Errorf("no final record %s after the window ended", timeout+finishGrace))
			}
		case now := <-watch.C:
			err = c.silent(now)
		case e := <-ws.events:
			err = c.take(ctx, e)
		}
		if err != nil && (c.lost != nil || ctx.Err() != nil) {
			return c.kept(), c.lostOr(err, "no final record after the interrupt"), cmp.Or(c.lostErr, err) // the first loss's error
		}
		if err != nil {
			c.lose(err)
			if c.stopAll() != nil {
				return c.kept(), c.lost, c.lostErr
			}
			deadline.Reset(stopGrace)
		}
	}
	return c.kept(), c.lost, c.lostErr
}

// lostFinal stands for a lost group's final record: not awaited, not kept.
var lostFinal = &results.Group{}

// lose records the worker err names (a *WorkerError) as lost.
func (c *collection) lose(err error) {
	c.lostErr = err
	var we *WorkerError
	if !errors.As(err, &we) {
		return
	}
	c.lost = &results.LostGroup{Group: we.Group, Host: we.Host, Why: cmp.Or(we.Why, we.Err.Error()), Requests: c.lv.requests(we.Group)}
	if c.finals[we.Group] == nil {
		c.finals[we.Group] = lostFinal
		c.got++
	}
}

// lostOr is the lost group, or the first group without a final record
// when none was lost (why: what ended the wait); nil when all sent one.
func (c *collection) lostOr(err error, why string) *results.LostGroup {
	if c.lost != nil {
		return c.lost
	}
	c.lose(err)
	if i := slices.Index(c.finals, nil); c.lost == nil && why != "" && i >= 0 {
		c.lost = &results.LostGroup{Group: i, Host: c.ws.procs[i].hostName(), Why: why, Requests: c.lv.requests(i)}
	}
	return c.lost
}

// stopAll tells every worker still awaited to end its window now.
func (c *collection) stopAll() error {
	for i, p := range c.ws.procs {
		if c.finals[i] != nil {
			continue
		}
		if err := p.send(wire.Stop{Type: wire.TypeStop}); err != nil {
			return err
		}
	}
	return nil
}

// kept are the final records received, in plan order.
func (c *collection) kept() []results.Group {
	var groups []results.Group
	for _, g := range c.finals {
		if g != nil && g != lostFinal {
			groups = append(groups, *g)
		}
	}
	return groups
}

// silent fails a worker silent for silenceLimit that uses no CPU (it
// hangs); one still working is only noted. A remote worker's CPU cannot be
// read: it gets remoteSilence.
func (c *collection) silent(now time.Time) error {
	for i, p := range c.ws.procs {
		if c.finals[i] != nil || now.Sub(c.lastSeen[i]) <= silenceLimit {
			continue
		}
		if p.host != nil {
			if now.Sub(c.lastSeen[i]) <= remoteSilence {
				continue
			}
			p.kill()
			return p.fail(fmt.Errorf("remote worker sent nothing for %s", remoteSilence))
		}
		if busy, err := cpuSeconds(p.pid); err == nil && busy != c.busy[i] {
			c.busy[i], c.lastSeen[i] = busy, now
			if !c.starved[i] {
				c.starved[i] = true
				fmt.Fprintf(c.ws.log, "worker %d (pid %d) sent nothing for %s but is using CPU: its snapshots wait for the CPU (client-bound?)\n", p.index, p.pid, silenceLimit)
			}
			continue
		}
		p.kill()
		return p.fail(fmt.Errorf("worker (pid %d) sent nothing for %s", p.pid, silenceLimit))
	}
	return nil
}

// take handles one event of the load: a snapshot, intervals or a final record.
func (c *collection) take(ctx context.Context, e event) error {
	p := e.w
	if f := c.finals[p.index]; f == lostFinal || f != nil && errors.Is(e.err, io.EOF) {
		return nil // a worker exits after its final record; a lost one is not heard
	}
	if err := eventErr(e); err != nil {
		return cmp.Or(ctx.Err(), err)
	}
	c.lastSeen[p.index] = time.Now()
	switch e.msg.Type {
	case wire.TypeSnapshot:
		var s wire.Snapshot
		if err := p.decode(e.msg, &s); err != nil {
			return err
		}
		c.lv.update(p.index, s, c.lastSeen[p.index])
	case wire.TypeIntervals:
		return c.intervals(e)
	case wire.TypeFinal:
		var f wire.Final
		if err := p.decode(e.msg, &f); err != nil {
			return err
		}
		if c.finals[p.index] != nil || f.Group.Index != p.index {
			return p.fail(fmt.Errorf("protocol: unexpected final record for group %d", f.Group.Index))
		}
		if p.host != nil {
			// The worker's window is in its own clock.
			f.Group.Host, f.Group.ClockOffset = p.host.name, p.offset
			f.Group.Window.Start = f.Group.Window.Start.Add(-p.offset)
			f.Group.Window.End = f.Group.Window.End.Add(-p.offset)
		}
		c.finals[p.index] = &f.Group
		c.got++
	default:
		return p.fail(fmt.Errorf("protocol: unexpected %q message during the load", e.msg.Type))
	}
	return nil
}

// intervals adds a worker's closed intervals to the timeline.
func (c *collection) intervals(e event) error {
	p := e.w
	var m wire.Intervals
	if err := p.decode(e.msg, &m); err != nil {
		return err
	}
	if c.tb == nil {
		return p.fail(fmt.Errorf("protocol: intervals from a worker whose plan records no timeline"))
	}
	for _, iv := range m.Intervals {
		if err := c.tb.Add(p.index, iv); err != nil {
			return p.fail(fmt.Errorf("protocol: %w", err))
		}
		if c.ws.feed != nil {
			c.ws.feed(LiveReading{K: iv.K, Group: p.index, Sample: &iv})
		}
	}
	return nil
}

// eventErr turns a worker's error message, garbage or end of stream into
// a WorkerError; nil for an ordinary message.
func eventErr(e event) error {
	p := e.w
	switch {
	case e.err == nil && e.msg.Type == wire.TypeError:
		var m wire.Error
		if err := p.decode(e.msg, &m); err != nil {
			return err
		}
		p.exitStatus(killAfter) // let its last stderr lines arrive
		we := p.fail(fmt.Errorf("worker failed: %s", m.Message))
		we.Why = "failed: " + m.Message
		return we
	case e.err == nil:
		return nil
	case errors.Is(e.err, io.EOF):
		status := p.exitStatus(killAfter)
		if why := p.ended(); p.host != nil && why != "" {
			status = why // ssh's status alone does not say it
		}
		we := p.gone(status)
		we.Why = p.ended()
		return we
	default:
		p.kill()
		return p.fail(fmt.Errorf("protocol: %w", e.err))
	}
}

// cpuSeconds is the CPU time process pid has used.
func cpuSeconds(pid int) (float64, error) {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return 0, err
	}
	t, err := p.Times()
	if err != nil {
		return 0, err
	}
	return t.User + t.System, nil
}
