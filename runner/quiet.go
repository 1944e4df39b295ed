package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
)

// quietStep is how often the wait for a quiet machine reads the CPUs.
const quietStep = 500 * time.Millisecond

// quietSample is othersStep; tests replace it.
var quietSample = othersStep

// waitQuiet waits before window label until other processes take less than
// Quiet.MaxOther of this machine's client and server CPUs for Quiet.For, at
// most Quiet.Timeout (TimedOut set); nil when there is nothing to wait for.
func (c *controller) waitQuiet(ctx context.Context, label string) (*results.QuietWait, error) {
	q := c.plan.Quiet
	if q == nil {
		return nil, nil
	}
	client, srv := c.quietCPUs()
	if len(client)+len(srv) == 0 {
		fmt.Fprintf(c.opts.Log, "%s: not waiting for a quiet machine: neither the client nor the server runs here\n", label)
		return nil, nil
	}
	w := &results.QuietWait{MaxOther: q.MaxOther}
	start := time.Now()
	var since time.Time // when the quiet stretch began; zero: not quiet
	for {
		at := time.Now()
		share, top, err := quietSample(ctx, client, srv)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			fmt.Fprintf(c.opts.Log, "%s: not waiting for a quiet machine: %v\n", label, err)
			return nil, nil
		}
		if share >= q.MaxOther {
			since, w.Others, w.Busiest = time.Time{}, share, top
		} else if since.IsZero() {
			since = at
		}
		w.Waited = time.Since(start)
		if !since.IsZero() && time.Since(since) >= q.For {
			break
		}
		if w.TimedOut = w.Waited >= q.Timeout; w.TimedOut {
			break
		}
		line := fmt.Sprintf("%s: waiting for a quiet machine: others %.0f %% of the CPUs (under %.0f %% wanted), %s left",
			label, 100*share, 100*w.MaxOther, (q.Timeout - w.Waited).Round(time.Second))
		if p := w.Busiest; p != nil {
			line += fmt.Sprintf("; busiest %s (pid %d)", p.Comm, p.PID)
		}
		c.publish(Event{Kind: eventQuiet, Text: line})
	}
	fmt.Fprintf(c.opts.Log, "%s: waited %s for a quiet machine (timed out: %t)\n", label, w.Waited.Round(time.Millisecond), w.TimedOut)
	return w, nil
}

// quietCPUs are the CPU sets the wait watches here: the local groups' and
// the server's (none when it is remote or was not found).
func (c *controller) quietCPUs() (client, srv pinning.Set) {
	for _, g := range c.plan.Load.Groups {
		if g.Host == nil {
			client = union(client, orOnline(g.CPUs))
		}
	}
	switch remote := c.serverHost() != nil; {
	case c.builtin:
		srv, _ = pinning.Allowed(strconv.Itoa(os.Getpid()))
	case c.serverPID > 0 && !remote:
		if t, err := cpustat.SampleTree(c.serverPID); err == nil {
			srv = t.CPUs
		}
	}
	return client, srv
}

// othersStep reads client's and srv's CPUs over one quietStep and returns
// the larger share that other processes took (busy, less interrupts and
// this process's own time), and the busiest of them.
func othersStep(ctx context.Context, client, srv pinning.Set) (float64, *results.ProcessCPU, error) {
	all := union(client, srv)
	cpusA, errC := cpustat.SampleCPUs(all)
	procsA, errP := cpustat.SampleProcs()
	self, errS := selfMeter(nil)()
	if err := errors.Join(errC, errP, errS); err != nil {
		return 0, nil, err
	}
	start := time.Now()
	if !sleepUntil(ctx, start.Add(quietStep)) {
		return 0, nil, ctx.Err()
	}
	cpusB, errC := cpustat.SampleCPUs(all)
	procsB, errP := cpustat.SampleProcs()
	step := time.Since(start)
	own, errS := self(step)
	if err := errors.Join(errC, errP, errS); err != nil {
		return 0, nil, err
	}
	var share float64
	for _, s := range []pinning.Set{client, srv} {
		a, errA := cpusA.Select(s)
		b, errB := cpusB.Select(s)
		if len(s) > 0 && errA == nil && errB == nil {
			u := a.Usage(b, step)
			share = max(share, min((u.Seconds-u.IRQ-own.Seconds)/(step.Seconds()*float64(len(s))), 1))
		}
	}
	var top *results.ProcessCPU
	if t := procsA.Top(procsB, all, []int{os.Getpid()}, 1); len(t) > 0 {
		top = &t[0]
	}
	return share, top, nil
}
