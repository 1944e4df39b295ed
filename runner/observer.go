package runner

import (
	"context"
	"slices"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// Observer watches a run live: package metrics serves it to Prometheus.
// The controller calls it, never a worker, and only at the timeline's
// boundaries and around windows: from the same interval readings that
// fill the timeline and run.json. Without one (Options.Observer nil)
// nothing of it runs. IntervalClosed may be called from several
// goroutines at once; it must not block.
type Observer interface {
	// Begin gets the run's header before any load (it may add to it:
	// Run.Metrics) and the plan it runs.
	Begin(r *results.Run, p *plans.Plan)
	// Planned announces windows before their load: at the start the
	// plan's fixed windows, later each window of a search or capacity
	// step when its driver picks it.
	Planned(ws []WindowID)
	// BeforeLoad is called before w's workers start: it may wait (for a
	// scrape of w's zeros), and its error fails the run before w's load.
	BeforeLoad(ctx context.Context, w LiveWindow) error
	// IntervalClosed hands over one reading of one interval of w.
	IntervalClosed(w WindowID, r LiveReading)
	// WindowEnded gives w's repetition as recorded (nil when it did not
	// complete: failed or interrupted).
	WindowEnded(w WindowID, rep *results.Rep)
	// End is called once every window has ended; it may wait (for a
	// scrape of the final values) and returns the run's metrics record.
	End(ctx context.Context) *results.Metrics
}

// WindowID names a window: the variant's name and the repetition's index
// in run.json (a capacity step's, a search window's).
type WindowID struct {
	Variant string
	Rep     int
}

// LiveWindow is a window about to be measured and what its timeline will
// read: its groups, the host whose server CPU is read ("" when it is
// not) and the hosts whose TCP counters are (named as tcpSources names
// them, merged by name).
type LiveWindow struct {
	WindowID
	Groups     int
	ServerHost string
	TCPHosts   []results.TCPHost
}

// LiveReading is one reading of interval K of a window: a group's sample
// (Sample set), the server's CPU (ServerCPU set) or a host's TCP counters'
// growth (TCPHost set).
type LiveReading struct {
	K         int
	Group     int
	Sample    *results.IntervalSample
	ServerCPU *results.CPUUsage
	TCPHost   string
	TCP       map[string]uint64
}

// plannedWindows are the plan's windows known before the run: every step
// that is neither a search's (its driver picks them) nor a capacity
// step, less those a resumed run measured already.
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

// liveWindow describes window w for the observer before its load.
func (c *controller) liveWindow(w WindowID) LiveWindow {
	lw := LiveWindow{WindowID: w, Groups: len(c.plan.Load.Groups)}
	if c.plan.Load.Interval <= 0 {
		return lw
	}
	if c.server != nil {
		lw.ServerHost = localHost
		if s := c.plan.Server; s != nil && s.SSH != nil {
			lw.ServerHost = s.SSH.Name
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

// beforeLoad plans window w (a search's or capacity step's is planned
// only now) and lets the observer wait before its load; nothing without
// an observer.
func (c *controller) beforeLoad(ctx context.Context, w WindowID) error {
	o := c.opts.Observer
	if o == nil {
		return nil
	}
	o.Planned([]WindowID{w})
	return o.BeforeLoad(ctx, c.liveWindow(w))
}

// liveFeed is what a repetition's readings are handed to as they are
// taken: the observer's IntervalClosed for window w; nil funcs without
// an observer.
type liveFeed struct {
	group  func(group int, iv results.IntervalSample)
	server func(k int, u *results.CPUUsage)
	tcp    func(host string, k int, grew map[string]uint64)
}

// feed is the liveFeed of window w, with the test hook on intervals.
func (c *controller) feed(w WindowID) liveFeed {
	o := c.opts.Observer
	hook := c.opts.hooks.interval
	if o == nil {
		return liveFeed{group: hook}
	}
	return liveFeed{
		group: func(g int, iv results.IntervalSample) {
			if hook != nil {
				hook(g, iv)
			}
			o.IntervalClosed(w, LiveReading{K: iv.K, Group: g, Sample: &iv})
		},
		server: func(k int, u *results.CPUUsage) {
			if u != nil {
				o.IntervalClosed(w, LiveReading{K: k, Group: -1, ServerCPU: u})
			}
		},
		tcp: func(host string, k int, grew map[string]uint64) {
			o.IntervalClosed(w, LiveReading{K: k, Group: -1, TCPHost: host, TCP: grew})
		},
	}
}

// windowEnded tells the observer that window w ended with rep (nil: it
// did not complete).
func (c *controller) windowEnded(w WindowID, rep *results.Rep) {
	if o := c.opts.Observer; o != nil {
		if rep != nil {
			r := *rep
			r.Index = w.Rep
			rep = &r
		}
		o.WindowEnded(w, rep)
	}
}

// endObserver lets the observer hold the final values (for at most its
// linger; a second Ctrl-C cuts it short) and records what it served.
func (c *controller) endObserver(ctx context.Context) {
	o := c.opts.Observer
	if o == nil {
		return
	}
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	if c.opts.Abort != nil {
		go func() {
			select {
			case <-c.opts.Abort:
				cancel()
			case <-wctx.Done():
			}
		}()
	}
	c.run.Metrics = o.End(wctx)
}
