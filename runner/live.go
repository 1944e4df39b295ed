package runner

import (
	"context"
	"slices"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// WindowID names a window: the variant and the repetition's index in run.json.
type WindowID struct {
	Variant string
	Rep     int
}

// LiveWindow is a window about to be measured: its groups, the host whose
// server CPU it reads ("": none) and the hosts whose TCP counters it reads.
type LiveWindow struct {
	WindowID
	Groups     int
	ServerHost string
	TCPHosts   []results.TCPHost
}

// LiveReading is one reading of interval K: a group's Sample, the
// ServerCPU, or TCPHost's TCP counters' growth.
type LiveReading struct {
	K         int
	Group     int
	Sample    *results.IntervalSample
	ServerCPU *results.CPUUsage
	TCPHost   string
	TCP       map[string]uint64
}

// plannedWindows are the windows known before the run (no search's or
// capacity step's), less those a resumed run measured.
func plannedWindows(p *plans.Plan, run *results.Run) []WindowID {
	if p.Load.Capacity != nil {
		return nil
	}
	var out []WindowID
	for _, st := range p.Steps() {
		if p.Searched(st.Variant) {
			continue
		}
		v := &run.Variants[st.Variant]
		if slices.ContainsFunc(v.Reps, func(r results.Rep) bool { return r.Index == st.Rep }) {
			continue
		}
		out = append(out, WindowID{Variant: v.Name, Rep: st.Rep})
	}
	return out
}

// liveWindow describes window w for the outputs before its load.
func (c *controller) liveWindow(w WindowID) LiveWindow {
	lw := LiveWindow{WindowID: w, Groups: len(c.plan.Load.Groups)}
	if c.plan.Load.Interval <= 0 {
		return lw
	}
	if c.server != nil {
		lw.ServerHost = localHost
		if hc := c.serverHost(); hc != nil {
			lw.ServerHost = hc.name
		}
	}
	for _, src := range c.tcpSources() {
		if src.read == nil {
			continue
		}
		i := slices.IndexFunc(lw.TCPHosts, func(h results.TCPHost) bool { return h.Name == src.name })
		if i < 0 {
			lw.TCPHosts = append(lw.TCPHosts, results.TCPHost{Name: src.name})
			i = len(lw.TCPHosts) - 1
		}
		h := &lw.TCPHosts[i]
		h.Client, h.Server = h.Client || src.client, h.Server || src.server
		h.Shared = h.Client && h.Server
	}
	return lw
}

// beforeLoad plans window w (a search's or capacity step's only now),
// waits for a quiet machine and lets the outputs hold the load.
func (c *controller) beforeLoad(ctx context.Context, w WindowID, label string) (*results.QuietWait, error) {
	c.publish(Event{Kind: EventPlanned, Windows: []WindowID{w}})
	quiet, err := c.waitQuiet(ctx, label)
	if err != nil {
		return nil, err
	}
	lw := c.liveWindow(w)
	return quiet, c.emit(ctx, Event{Kind: EventLoad, Window: w, Live: &lw})
}

// feed hands window w's readings to the outputs as they are taken, and a
// group's intervals to the test hook.
func (c *controller) feed(w WindowID) func(LiveReading) {
	return func(r LiveReading) {
		if hook := c.opts.hooks.interval; hook != nil && r.Sample != nil {
			hook(r.Group, *r.Sample)
		}
		c.publish(Event{Kind: EventReading, Window: w, Reading: &r})
	}
}

// cancelWhen calls cancel when ch closes, unless ctx ends first.
func cancelWhen(ctx context.Context, ch <-chan struct{}, cancel func()) {
	go func() {
		select {
		case <-ch:
			cancel()
		case <-ctx.Done():
		}
	}()
}
