package runner

import (
	"context"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/results"
)

// A repetition's timeline: each worker closes its group's intervals
// (engine counts, its own CPU); the controller reads the server's CPU and
// every host's TCP counters at the same boundaries and assembles them.

// grid is the timeline of one repetition: intervals of ivl anchored at
// the window's start, up to its end.
type grid struct {
	start, end time.Time
	ivl        time.Duration
}

// index is the interval that holds t.
func (g grid) index(t time.Time) int {
	d := t.Sub(g.start)
	k := d / g.ivl
	if d < 0 && d%g.ivl != 0 {
		k--
	}
	return int(k)
}

// boundary is the start of interval k, or the window's end if later.
func (g grid) boundary(k int) time.Time {
	b := g.start.Add(time.Duration(k) * g.ivl)
	if b.After(g.end) {
		return g.end
	}
	return b
}

// seriesValue is one value of a series: over interval k, from start for
// length (relative to the window's start).
type seriesValue[T any] struct {
	start, length time.Duration
	v             T
}

// series reads a meter at every boundary of a grid up to the window's end.
// Readings of intervals before through are final; done closes at the end.
type series[T any] struct {
	mu      sync.Mutex
	vals    map[int]seriesValue[T]
	through int
	done    chan struct{}
}

// firstSample is a meter's first sample, taken at from.
type firstSample[T any] struct {
	from   time.Time
	finish func(time.Duration) (T, error) // nil: nothing to measure
	err    error
}

// sampleNow takes m's first sample now; a nil m measures nothing.
func sampleNow[T any](m meterOf[T]) firstSample[T] {
	f := firstSample[T]{from: time.Now()}
	if m != nil {
		f.finish, f.err = m()
	}
	return f
}

// seriesTo reads the meter at every boundary of g up to the window's end,
// each reading the interval it closes, and hands it to notify (nil: none).
// A failed sample leaves its interval without a reading (logged once).
func (f firstSample[T]) seriesTo(ctx context.Context, g grid, logf func(string, ...any), notify func(k int, v T)) *series[T] {
	s := &series[T]{vals: map[int]seriesValue[T]{}, done: make(chan struct{})}
	if f.err != nil {
		logf("not measured: %v", f.err)
	}
	if f.finish == nil || f.err != nil || !f.from.Before(g.end) {
		close(s.done)
		return s
	}
	go func() {
		defer close(s.done)
		prev, warned := f.from, false
		for k := g.index(f.from); ; k++ {
			b := g.boundary(k + 1)
			if !sleepUntil(ctx, b) {
				return
			}
			at := time.Now()
			v, err := f.finish(at.Sub(prev))
			if err != nil && !warned {
				warned = true
				logf("not measured at %s: %v (the intervals it fails are left without)", b.Sub(g.start), err)
			}
			start := g.boundary(k)
			if start.Before(f.from) {
				start = f.from
			}
			s.mu.Lock()
			if err == nil {
				s.vals[k] = seriesValue[T]{start: start.Sub(g.start), length: b.Sub(start), v: v}
			}
			s.through = k + 1
			s.mu.Unlock()
			if err == nil && notify != nil {
				notify(k, v)
			}
			prev = at
			if !b.Before(g.end) {
				return
			}
		}
	}()
	return s
}

// get returns interval k's reading (the zero T when there is none) and
// whether it is final (or will never come).
func (s *series[T]) get(k int) (T, bool) {
	if s == nil {
		var zero T
		return zero, true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.done:
		return s.vals[k].v, true
	default:
		return s.vals[k].v, k < s.through
	}
}

// wait waits until the series is done or ctx ends.
func (s *series[T]) wait(ctx context.Context) {
	if s == nil {
		return
	}
	select {
	case <-s.done:
	case <-ctx.Done():
	}
}

// all returns the readings by interval; call it after wait.
func (s *series[T]) all() map[int]seriesValue[T] {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vals
}

// workerTimeline is a worker's side of the timeline: the engine's
// intervals held until the CPU readings of the same intervals are in.
type workerTimeline struct {
	proc, cpus *series[*results.CPUUsage]
	pending    []results.IntervalSample
}

// take adds the engine's newly ended intervals and returns, in order, those
// whose CPU readings are in (final: every one).
func (wt *workerTimeline) take(taken []results.IntervalSample, final bool) []results.IntervalSample {
	wt.pending = append(wt.pending, taken...)
	n := 0
	for ; n < len(wt.pending); n++ {
		iv := &wt.pending[n]
		proc, procIn := wt.proc.get(iv.K)
		cpus, cpusIn := wt.cpus.get(iv.K)
		if !final && !(procIn && cpusIn) {
			break
		}
		iv.Process, iv.CPUs = proc, cpus
	}
	out := slices.Clone(wt.pending[:n])
	wt.pending = slices.Delete(wt.pending, 0, n)
	return out
}

// tcpSource is where one host's kernel TCP counters are read: this
// network namespace, a local server's, or an ssh host's.
type tcpSource struct {
	name           string // "local", or the ssh host's name
	client, server bool
	// read takes a snapshot; nil when the counters cannot be read there (why).
	read func(ctx context.Context) cpustat.TCPSnapshot
	why  string
}

// localHost names the controller's machine among the TCP hosts.
const localHost = "local"

// tcpSources lists the hosts whose TCP counters the timeline reads: this
// machine's when a group runs here, each ssh host with groups, and the
// server's; a server kaeload does not reach gets why.
func (c *controller) tcpSources() []tcpSource {
	local := func(context.Context) cpustat.TCPSnapshot { return cpustat.ReadTCPCounters() }
	remoteRead := func(hc *hostConn, pid int) func(context.Context) cpustat.TCPSnapshot {
		return func(ctx context.Context) cpustat.TCPSnapshot {
			out, err := hc.read(ctx, "read TCP counters", cpustat.RemoteTCPCountersCommand(pid))
			if err != nil {
				return cpustat.ParseRemoteTCPCounters(err.Error()) // every counter not available, with why
			}
			return cpustat.ParseRemoteTCPCounters(out)
		}
	}
	var out []tcpSource
	add := func(src tcpSource) {
		if read, see := src.read, c.opts.hooks.tcpRead; read != nil && see != nil {
			src.read = func(ctx context.Context) cpustat.TCPSnapshot {
				s := read(ctx)
				see(src.name, s)
				return s
			}
		}
		out = append(out, src)
	}
	seen := map[string]bool{}
	for _, g := range c.plan.Load.Groups {
		name, read := localHost, local
		if g.Host != nil {
			name, read = g.Host.Name, remoteRead(c.hosts[g.Host.Name], 0)
		}
		if !seen[name] {
			seen[name] = true
			add(tcpSource{name: name, client: true, read: read})
		}
	}
	srv := tcpSource{name: localHost, server: true, read: local}
	switch hc := c.serverHost(); {
	case c.builtin:
	case hc != nil:
		srv.name, srv.read = hc.name, remoteRead(hc, c.serverPID)
	case c.serverPID > 0:
		pid := c.serverPID
		srv.read = func(context.Context) cpustat.TCPSnapshot { return cpustat.ReadTCPCountersOf(pid) }
	default:
		host, _, _ := net.SplitHostPort(c.plan.Target.Addr)
		if !isLocal(net.ParseIP(host)) {
			// A loopback or local address is served in this namespace;
			// another machine's is out of reach.
			srv.name, srv.read = host, nil
			srv.why = fmt.Sprintf("the server (%s) is on a machine kaeload does not reach: give server.host an ssh:// URL to read its counters", c.plan.Target.Addr)
		}
	}
	add(srv)
	return out
}

// tcpReadings are the TCP counters of a repetition's hosts, one per network
// namespace: each host's read and first snapshot, then its series.
type tcpReadings struct {
	hosts  []results.TCPHost
	from   time.Time
	reads  []func(context.Context) cpustat.TCPSnapshot // per host; nil: not read
	firsts []cpustat.TCPSnapshot
	series []*series[cpustat.TCPDelta] // per host, once run
	logf   func(string, ...any)
	warned map[int]bool // hosts whose missing counters were logged
}

// firstTCP takes every source's first snapshot and merges sources that
// share a network namespace into one host, read once.
func firstTCP(ctx context.Context, srcs []tcpSource, logf func(string, ...any)) *tcpReadings {
	tr := &tcpReadings{from: time.Now(), logf: logf, warned: map[int]bool{}}
	first := make([]cpustat.TCPSnapshot, len(srcs))
	var wg sync.WaitGroup
	for i, src := range srcs {
		if src.read != nil {
			wg.Go(func() { first[i] = src.read(ctx) })
		}
	}
	wg.Wait()
	for i, src := range srcs {
		h := -1
		if src.read != nil {
			h = slices.IndexFunc(tr.firsts, func(s cpustat.TCPSnapshot) bool { return s.Namespace.Same(first[i].Namespace) })
		}
		if h >= 0 && tr.reads[h] != nil {
			th := &tr.hosts[h]
			if !slices.Contains(strings.Split(th.Name, " = "), src.name) {
				th.Name += " = " + src.name
			}
			th.Client, th.Server = th.Client || src.client, th.Server || src.server
			th.Shared = th.Client && th.Server
			continue
		}
		th := results.TCPHost{Name: src.name, Client: src.client, Server: src.server, Counters: cpustat.TCPCounterNames[:]}
		if src.read == nil {
			th.Unavailable = map[string]string{}
			for _, n := range cpustat.TCPCounterNames {
				th.Unavailable[n] = src.why
			}
		} else {
			if ns := first[i].Namespace; ns.Known() {
				th.Namespace = ns.String()
			}
			if len(first[i].Unavailable) > 0 {
				th.Unavailable = first[i].Unavailable
			}
		}
		tr.hosts = append(tr.hosts, th)
		tr.reads = append(tr.reads, src.read)
		tr.firsts = append(tr.firsts, first[i])
	}
	return tr
}

// run reads every host at every boundary of g, handing notify (nil: none)
// host h's delta over interval k.
func (tr *tcpReadings) run(ctx context.Context, g grid, notify func(h, k int, d cpustat.TCPDelta)) {
	for h, read := range tr.reads {
		f := firstSample[cpustat.TCPDelta]{from: tr.from}
		if read != nil {
			f.finish = readingsFrom(tr.firsts[h], func() (cpustat.TCPSnapshot, error) { return read(ctx), nil },
				func(a, b cpustat.TCPSnapshot, _ time.Duration) cpustat.TCPDelta { return a.Delta(b) })
		}
		to := func(k int, d cpustat.TCPDelta) {
			if notify != nil {
				notify(h, k, d)
			}
		}
		tr.series = append(tr.series, f.seriesTo(ctx, g, withPrefix(tr.logf, "TCP counters of "+tr.hosts[h].Name+": "), to))
	}
}

// counts is what a timeline point keeps of host h's delta: the counters
// that grew, and those the host has that this delta lacks.
func (tr *tcpReadings) counts(h int, d cpustat.TCPDelta) results.TCPCounts {
	var c results.TCPCounts
	for name, v := range d.Values {
		if v == 0 {
			continue
		}
		if c.Grew == nil {
			c.Grew = map[string]uint64{}
		}
		c.Grew[name] = v
	}
	for _, name := range slices.Sorted(maps.Keys(d.Unavailable)) {
		if _, always := tr.hosts[h].Unavailable[name]; always {
			continue
		}
		c.Missing = append(c.Missing, name)
		if !tr.warned[h] {
			tr.warned[h] = true
			tr.logf("TCP counters of %s: %s not available for an interval: %s (such intervals hold null for it)", tr.hosts[h].Name, name, d.Unavailable[name])
		}
	}
	return c
}

// repTimeline is the controller's side of one repetition's timeline: its
// first readings, taken before the load so the first interval holds all of
// it, then the series read at the window's boundaries.
type repTimeline struct {
	ivl         time.Duration
	hosts       []string // each group's ssh host, "" for this machine
	logf        func(string, ...any)
	serverFirst firstSample[*results.CPUUsage]
	listenFirst firstSample[cpustat.ListenQueueDelta]
	tcp         *tcpReadings
	lsrc        listenSource
	builder     *results.TimelineBuilder
	server      *series[*results.CPUUsage]
	listen      *series[cpustat.ListenQueueDelta]
}

// beginTimeline takes the first readings for a repetition about to start;
// nil without a timeline.
func (c *controller) beginTimeline(ctx context.Context, label string) *repTimeline {
	ivl := c.plan.Load.Interval
	if ivl <= 0 {
		return nil
	}
	ts := &repTimeline{ivl: ivl, hosts: make([]string, len(c.plan.Load.Groups))}
	ts.logf = logTo(c.opts.Log, label+": timeline: ")
	for i, gr := range c.plan.Load.Groups {
		if gr.Host != nil {
			ts.hosts[i] = gr.Host.Name
		}
	}
	ts.serverFirst = sampleNow(c.server)
	ts.tcp = firstTCP(ctx, c.tcpSources(), ts.logf)
	ts.lsrc = c.listenSource()
	ts.listenFirst = firstListen(ctx, ts.lsrc)
	return ts
}

// start reads on at every boundary of win, showing the TCP counters on lv
// and handing the readings to feed.
func (rt *repTimeline) start(ctx context.Context, win results.Window, lv *live, feed func(LiveReading)) {
	if rt == nil {
		return
	}
	g := grid{start: win.Start, end: win.End, ivl: rt.ivl}
	rt.builder = results.NewTimelineBuilder(rt.ivl, rt.hosts)
	if rt.listenFirst.err != nil && rt.lsrc.why == "" {
		rt.lsrc.why = rt.listenFirst.err.Error()
	}
	rt.server = rt.serverFirst.seriesTo(ctx, g, withPrefix(rt.logf, "server CPU "), func(k int, u *results.CPUUsage) {
		if u != nil {
			feed(LiveReading{K: k, Group: -1, ServerCPU: u})
		}
	})
	rt.listen = rt.listenFirst.seriesTo(ctx, g, withPrefix(rt.logf, "listen queue "), nil)
	lv.setTCPHosts(rt.tcp.hosts)
	rt.tcp.run(ctx, g, func(h, k int, d cpustat.TCPDelta) {
		lv.addTCP(h, k, d)
		feed(LiveReading{K: k, Group: -1, TCPHost: rt.tcp.hosts[h].Name, TCP: d.Values})
	})
}

// builderOrNil is where the workers' intervals go; nil without a timeline.
func (rt *repTimeline) builderOrNil() *results.TimelineBuilder {
	if rt == nil {
		return nil
	}
	return rt.builder
}

// finish waits for the controller's readings (or ctx) and returns the
// timeline, setting the groups' own.
func (rt *repTimeline) finish(ctx context.Context, groups []results.Group) *results.Timeline {
	if rt == nil {
		return nil
	}
	rt.server.wait(ctx)
	for k, r := range rt.server.all() {
		rt.builder.AddServer(k, r.start, r.length, r.v)
	}
	rt.builder.SetHosts(rt.tcp.hosts)
	for h, s := range rt.tcp.series {
		s.wait(ctx)
		for k, r := range s.all() {
			rt.builder.AddTCP(k, h, r.start, r.length, rt.tcp.counts(h, r.v))
		}
	}
	rt.builder.SetListener(rt.lsrc.host, rt.lsrc.port, rt.lsrc.why)
	rt.listen.wait(ctx)
	for k, r := range rt.listen.all() {
		d := r.v
		rt.builder.AddListener(k, r.start, r.length, results.ListenSample{Drops: d.Drops, DropsKnown: d.DropsKnown, Queue: d.Queue, Backlog: d.Backlog})
	}
	t, per := rt.builder.Build()
	for i := range groups {
		if k := groups[i].Index; k >= 0 && k < len(per) {
			groups[i].Timeline = per[k] // a lost group's are missing
		}
	}
	return t
}
