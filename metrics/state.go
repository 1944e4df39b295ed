package metrics

import (
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/runner"
)

// Phase indexes.
const (
	pWarmup = iota
	pWindow
	pAfter
	nPhases
)

// counts are one group's requests in one phase.
type counts struct {
	ok        uint64
	errs      results.ErrorCounts
	abandoned uint64 // cut off at the window's end, in a record that does not class them
}

// series writes c as the requests and errors series, with the labels after phase and group.
func (c *counts) series(write func(f *family, v float64, labels ...string)) {
	write(famRequests, float64(c.ok), "ok")
	write(famRequests, float64(c.errs.Total()+c.abandoned), "error")
	for k, n := range c.errs {
		write(famErrors, float64(n), results.ErrorClass(k).String())
	}
}

// add counts an interval's requests and errors: ok those not in errors.
func (c *counts) add(requests uint64, errs results.ErrorCounts) {
	c.ok += requests - min(errs[results.ErrStatus], requests)
	for k, n := range errs {
		c.errs[k] += n
	}
}

// final sets a group's window and after counts from its record: those completed after the
// window, and the cut-off requests as errors by class (abandoned in records before AfterClasses).
func final(c *[nPhases]counts, g *results.Group) {
	c[pWindow].ok = g.Succeeded()
	for k := range c[pWindow].errs {
		c[pWindow].errs[k] = g.Errors[k].Count
	}
	if o := &g.Outside; o.AfterClasses.IsZero() {
		c[pAfter] = counts{ok: o.Late, abandoned: o.Abandoned}
	} else {
		c[pAfter] = counts{ok: o.Late - min(o.AfterClasses[results.ErrStatus], o.Late), errs: o.AfterClasses}
	}
}

// diagnosed is 1 for each rule the record's diagnosis of window rep shows.
func diagnosed(variant string, rep *results.Rep, margin float64) map[string]float64 {
	active := map[string]float64{}
	for _, d := range diagnosis.Rep(variant, rep, diagnosis.Options{Margin: margin}).Diagnoses {
		active[d.Rule] = 1
	}
	return active
}

// groupState is one group of a window as published.
type groupState struct {
	phases   [nPhases]counts
	cpu      float64
	rate     float64       // the last interval's
	p50, p99 time.Duration // the last interval's handshake percentiles
	hs       hist          // every handshake so far: the summary's count and sum
}

// hostState is a host's TCP counters' growth over a window.
type hostState struct {
	name, side string
	counters   map[string]uint64
}

// pending is what arrived for one interval and is not published yet.
type pending struct {
	groups   map[int]bool
	readings []runner.LiveReading
}

// window is one window's series.
type window struct {
	id         runner.WindowID
	groups     []groupState
	handshake  [pAfter]hist // warm-up and window
	request    [pAfter]hist
	connect    hist // the window's
	serverHost string
	server     float64
	hosts      []hostState
	rate       float64
	start      time.Time
	diag       map[string]float64
	ended      bool
	pending    map[int]*pending
	cached     []prometheus.Metric // the window's metrics as last built
	dirty      bool                // they changed since (an ended window's never do)
}

// newWindow returns window id at 0, with groups groups.
func newWindow(id runner.WindowID, groups int) *window {
	return &window{id: id, groups: make([]groupState, groups), pending: map[int]*pending{}, dirty: true}
}

// describe completes the window with what its load will read (LiveWindow), each series at 0.
func (w *window) describe(lw runner.LiveWindow) {
	if lw.Groups > len(w.groups) {
		w.groups = append(w.groups, make([]groupState, lw.Groups-len(w.groups))...)
	}
	w.serverHost = lw.ServerHost
	w.dirty = true
	for _, h := range lw.TCPHosts {
		w.host(h.Name, side(h))
	}
}

// side is the side label of a TCP host.
func side(h results.TCPHost) string {
	switch {
	case h.Shared || h.Client && h.Server:
		return "shared"
	case h.Server:
		return "server"
	}
	return "client"
}

// host returns the window's host named name, adding it with every counter at 0.
func (w *window) host(name, side string) *hostState {
	if i := slices.IndexFunc(w.hosts, func(h hostState) bool { return h.name == name }); i >= 0 {
		return &w.hosts[i]
	}
	h := hostState{name: name, side: side, counters: map[string]uint64{}}
	for _, c := range allCounters {
		h.counters[c] = 0
	}
	w.hosts = append(w.hosts, h)
	return &w.hosts[len(w.hosts)-1]
}

// add takes reading r; it reports whether an interval became complete
// (every group reported it), after which publish applies what is due.
func (w *window) add(r runner.LiveReading) bool {
	p := w.pending[r.K]
	if p == nil {
		p = &pending{groups: map[int]bool{}}
		w.pending[r.K] = p
	}
	p.readings = append(p.readings, r)
	if r.Sample == nil {
		return false
	}
	p.groups[r.Group] = true
	return len(p.groups) >= len(w.groups)
}

// applyDue applies, in order, the pending intervals up to the last complete one (all: each).
func (w *window) applyDue(all bool) {
	keys := slices.Sorted(maps.Keys(w.pending))
	last := -1
	for i, k := range keys {
		if all || len(w.pending[k].groups) >= len(w.groups) {
			last = i
		}
	}
	for _, k := range keys[:last+1] {
		w.dirty = true
		for _, r := range w.pending[k].readings {
			w.apply(r)
		}
		delete(w.pending, k)
	}
}

// apply adds one reading to the window's series.
func (w *window) apply(r runner.LiveReading) {
	switch {
	case r.Sample != nil:
		if r.Group < 0 || r.Group >= len(w.groups) {
			return
		}
		s := r.Sample
		g := &w.groups[r.Group]
		ph := pWarmup
		if s.Start >= 0 {
			ph = pWindow
			if w.start.IsZero() {
				w.start = time.Now().Add(-s.Start - s.Length)
			}
		}
		g.phases[ph].add(s.Requests, s.Errors)
		w.handshake[ph].add(s.Handshake)
		w.request[ph].add(s.Total)
		if s.Process != nil {
			g.cpu += s.Process.Seconds
		}
		iv := s.Interval()
		g.rate, g.p50, g.p99 = iv.Rate(), iv.HandshakeP50, iv.HandshakeP99
		g.hs.add(s.Handshake)
	case r.ServerCPU != nil:
		w.server += r.ServerCPU.Seconds
	case r.TCPHost != "":
		h := w.host(r.TCPHost, "client")
		for name, v := range r.TCP {
			h.counters[name] += v
		}
	}
}

// end sets the window's final values from its record: its counts, what completed after it, the
// connect times, the rate and the diagnoses.
func (w *window) end(rep *results.Rep, margin float64) {
	w.applyDue(true)
	w.ended, w.dirty = true, true
	if rep == nil {
		return
	}
	for i := range min(len(rep.Groups), len(w.groups)) {
		final(&w.groups[i].phases, &rep.Groups[i])
	}
	w.connect = hist{}
	w.connect.add(rep.Total.Latency.Connect)
	w.rate = windowRate.Rep(&measure.Rep{Rep: rep}).F
	w.start = rep.Total.Window.Start
	w.diag = diagnosed(w.id.Variant, rep, margin)
}

// metrics are the window's series, labelled with run.
func (w *window) metrics(run string) []prometheus.Metric {
	if !w.dirty {
		return w.cached
	}
	rep := strconv.Itoa(w.id.Rep)
	lv := func(more ...string) []string { return append([]string{run, w.id.Variant, rep}, more...) }
	var out []prometheus.Metric
	add := func(f *family, v float64, labels ...string) {
		out = append(out, prometheus.MustNewConstMetric(f.desc, valueTypes[f.typ], v, lv(labels...)...))
	}
	for gi := range w.groups {
		g := &w.groups[gi]
		group := strconv.Itoa(gi)
		for p := range nPhases {
			g.phases[p].series(func(f *family, v float64, labels ...string) {
				add(f, v, append([]string{Phases[p], group}, labels...)...)
			})
		}
		add(famClientCPU, g.cpu, group)
		add(famIntervalRate, g.rate, group)
		out = append(out, prometheus.MustNewConstSummary(famIntervalHandshake.desc, g.hs.count, g.hs.sum,
			map[float64]float64{0.5: g.p50.Seconds(), 0.99: g.p99.Seconds()}, lv(group)...))
	}
	for p := range pAfter { // warm-up and window
		out = append(out, w.handshake[p].metric(famHandshake.desc, lv(Phases[p])...),
			w.request[p].metric(famRequest.desc, lv(Phases[p])...))
	}
	out = append(out, w.connect.metric(famConnect.desc, lv(Phases[pWindow])...))
	if w.serverHost != "" {
		add(famServerCPU, w.server, w.serverHost)
	}
	for _, h := range w.hosts {
		for _, c := range slices.Sorted(maps.Keys(h.counters)) {
			add(netstatFamily(c), float64(h.counters[c]), h.side, h.name)
		}
	}
	for _, rule := range Rules {
		add(famDiagnosis, w.diag[rule], rule)
	}
	add(famWindowRate, w.rate)
	start := 0.0
	if !w.start.IsZero() {
		start = float64(w.start.UnixNano()) / 1e9
	}
	add(famWindowStart, start)
	w.cached, w.dirty = out, false
	return out
}
