package diagnosis

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
)

// HostCounts is one host's kernel TCP counters' growth over a window. Every
// counter the host lists is in exactly one of Values and Unavailable.
type HostCounts struct {
	// Name, Client, Server and Shared are results.TCPHost's: a shared host
	// counts each connection once on each side.
	// The JSON summary keys a host by Name.
	Name   string `json:"-"`
	Client bool   `json:"client,omitempty"`
	Server bool   `json:"server,omitempty"`
	Shared bool   `json:"shared,omitempty"`
	// Counters are the host's counters, in the kernel's order.
	Counters []string          `json:"-"`
	Values   map[string]uint64 `json:"deltas"`
	// Unread counts the intervals a counter of Values was not read in
	// (its value is then a lower bound).
	Unread map[string]int `json:"intervals_not_read,omitempty"`
	// Unavailable says why a counter has no value: never a zero.
	Unavailable map[string]string `json:"not_available,omitempty"`
}

// Get returns counter name's growth, the intervals it was not read in,
// and whether it has a value.
func (h *HostCounts) Get(name string) (v uint64, unread int, ok bool) {
	v, ok = h.Values[name]
	return v, h.Unread[name], ok
}

// Why says why counter name has no value ("" when it has one).
func (h *HostCounts) Why(name string) string {
	if _, ok := h.Values[name]; ok {
		return ""
	}
	if why := h.Unavailable[name]; why != "" {
		return why
	}
	return "not read on this host"
}

// opens is the larger of the host's ActiveOpens and PassiveOpens (a shared
// namespace counts each connection once a side); ok when both were read.
func (h *HostCounts) opens() (uint64, bool) {
	a, _, okA := h.Get("ActiveOpens")
	p, _, okP := h.Get("PassiveOpens")
	return max(a, p), okA && okP
}

// Role says whose namespace the host is, for people.
func (h *HostCounts) Role() string {
	switch {
	case h.Shared:
		return "clients and server in one network namespace, counted once"
	case h.Client && h.Server:
		return "clients and server"
	case h.Server:
		return "the server"
	case h.Client:
		return "the clients"
	}
	return "neither clients nor server"
}

// windowPoints indexes t's window points (Start >= 0).
func windowPoints(t *results.Timeline) []int {
	var win []int
	for i := range t.Points {
		if t.Points[i].Start >= 0 {
			win = append(win, i)
		}
	}
	return win
}

// windowCounts sums each host's counters of t over the window.
func windowCounts(t *results.Timeline) []HostCounts {
	win := windowPoints(t)
	out := make([]HostCounts, len(t.Hosts))
	for h := range t.Hosts {
		th := &t.Hosts[h]
		hc := HostCounts{Name: th.Name, Client: th.Client, Server: th.Server, Shared: th.Shared, Counters: th.Counters, Values: map[string]uint64{}}
		for _, name := range th.Counters {
			why, gone := th.Unavailable[name]
			var sum uint64
			unread := 0
			for _, p := range win {
				v, ok := t.TCP(p, h, name)
				if !ok {
					unread++
				}
				sum += v
			}
			switch {
			case gone:
			case len(win) == 0:
				why = "the window has no interval"
			case unread == len(win):
				why = "not read in any interval of the window (the run's log says why)"
			default:
				hc.Values[name] = sum
				if unread > 0 {
					hc.Unread = setKey(hc.Unread, name, unread)
				}
				continue
			}
			hc.Unavailable = setKey(hc.Unavailable, name, why)
		}
		out[h] = hc
	}
	return out
}

// setKey sets m[k] = v, making m when nil (absent from JSON until set).
func setKey[V any](m map[string]V, k string, v V) map[string]V {
	if m == nil {
		m = map[string]V{}
	}
	m[k] = v
	return m
}

// kernel holds what the counter rules read.
type kernel struct {
	hosts   []HostCounts
	connect *results.Histogram // the window's connect times
	errs    *results.Errors    // the window's errors
	window  time.Duration      // the window's length
	own     *own               // what the run's own connections showed
}

// figure writes counter name of h: "ListenOverflows +1,295", "… at least
// +1,295 (1 interval not read)" or "… not available (why)".
func figure(h *HostCounts, name string) string {
	v, unread, ok := h.Get(name)
	switch {
	case !ok:
		return name + " not available (" + h.Why(name) + ")"
	case unread > 0:
		return fmt.Sprintf("%s at least +%s (%s not read)", name, format.Count(v), plural(unread, "interval"))
	}
	return name + " +" + format.Count(v)
}

// plural writes "1 interval", "2 intervals".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// on writes the named counters of h and where: "ListenOverflows +1,295, …
// on local (the server)"; those missing for one reason share it.
func on(h *HostCounts, names ...string) string {
	var parts []string
	var gone []string // names not available, in order, grouped by reason below
	for _, n := range names {
		if _, _, ok := h.Get(n); ok {
			parts = append(parts, figure(h, n))
		} else {
			gone = append(gone, n)
		}
	}
	for len(gone) > 0 {
		why := h.Why(gone[0])
		var same, rest []string
		for _, n := range gone {
			if h.Why(n) == why {
				same = append(same, n)
			} else {
				rest = append(rest, n)
			}
		}
		parts = append(parts, strings.Join(same, ", ")+" not available ("+why+")")
		gone = rest
	}
	return strings.Join(parts, ", ") + " on " + h.Name + " (" + h.Role() + ")"
}

// counters lists the named counters of h that have a value.
func counters(h *HostCounts, names ...string) []Counter {
	var out []Counter
	for _, n := range names {
		if v, unread, ok := h.Get(n); ok {
			out = append(out, Counter{Host: h.Name, Name: n, Value: v, Unread: unread})
		}
	}
	return out
}

// grew reports whether any of the named counters of h grew.
func grew(h *HostCounts, names ...string) bool {
	for _, n := range names {
		if v, _, _ := h.Get(n); v > 0 {
			return true
		}
	}
	return false
}

// slowConnects counts the connects of h that took slowConnect or more (the
// bucket holding 1 s counts), of all; false when h holds none.
func slowConnects(h *results.Histogram) (slow, all uint64, ok bool) {
	if h == nil || h.Histogram == nil || h.TotalCount() == 0 {
		return 0, 0, false
	}
	for _, b := range h.Distribution() {
		if b.Count > 0 && b.To >= slowConnectMicro {
			slow += uint64(b.Count)
		}
	}
	return slow, uint64(h.TotalCount()), true
}

var (
	listenNames = []string{"ListenOverflows", "ListenDrops"}
	synNames    = []string{"SyncookiesSent", "TCPReqQFullDoCookies", "TCPReqQFullDrop"}
	abortNames  = []string{"TCPAbortOnData", "TCPAbortOnClose", "TCPAbortOnMemory"}
)

// acceptQueue is RuleAcceptQueue (docs/diagnoses.md).
func (k *kernel) acceptQueue() *Diagnosis {
	var d Diagnosis
	var figs []string
	overflowed, unknown, servers := false, false, 0
	var retrans uint64
	for i := range k.hosts {
		h := &k.hosts[i]
		var names []string
		if h.Server {
			servers++
			names = append(names, listenNames...)
			overflowed = overflowed || grew(h, listenNames...)
			_, _, ok := h.Get("ListenOverflows")
			unknown = unknown || !ok
		}
		if h.Client {
			names = append(names, "TCPSynRetrans")
			v, _, _ := h.Get("TCPSynRetrans")
			retrans += v
		}
		if len(names) > 0 {
			figs = append(figs, on(h, names...))
			d.Counters = append(d.Counters, counters(h, names...)...)
		}
	}
	if servers == 0 {
		figs, unknown = append(figs, "the server's counters were not read"), true
	}
	slow, all, timed := slowConnects(k.connect)
	if timed {
		figs = append(figs, fmt.Sprintf("%s of %s connects (%s) took 1 s or more", format.Count(slow), format.Count(all), percent(float64(slow)/float64(all))))
	} else {
		figs = append(figs, "no connect times recorded")
	}
	probable := !overflowed && unknown && retrans > 0 && slow > 0
	if !overflowed && !probable {
		return nil
	}
	d.Rule, d.Figure = RuleAcceptQueue, strings.Join(figs, "; ")
	d.Cause = notes.New(notes.AcceptQueueCause, "probable", probable)
	d.Consequence, d.Fix = notes.New(notes.AcceptQueueConsequence), notes.New(notes.AcceptQueueFix)
	if timed && slow > 0 {
		d.Consequence.Args["slow"] = slow
	}
	return &d
}

// synQueue is RuleSYNCookies.
func (k *kernel) synQueue() *Diagnosis {
	var d Diagnosis
	var figs []string
	for i := range k.hosts {
		h := &k.hosts[i]
		if !h.Server || !grew(h, synNames...) {
			continue
		}
		figs = append(figs, on(h, synNames...))
		d.Counters = append(d.Counters, counters(h, synNames...)...)
	}
	if len(figs) == 0 {
		return nil
	}
	d.Rule, d.Cause, d.Figure = RuleSYNCookies, notes.New(notes.SYNQueueCause), strings.Join(figs, "; ")
	d.Consequence, d.Fix = notes.New(notes.SYNQueueConsequence), notes.New(notes.SYNQueueFix)
	return &d
}

// timeWait is RuleTimeWait: one per host that overflowed.
func (k *kernel) timeWait() []Diagnosis {
	var out []Diagnosis
	for i := range k.hosts {
		h := &k.hosts[i]
		v, _, _ := h.Get("TCPTimeWaitOverflow")
		if v == 0 {
			continue
		}
		d := Diagnosis{Rule: RuleTimeWait, Counters: counters(h, "TCPTimeWaitOverflow"), host: h.Name, Figure: on(h, "TCPTimeWaitOverflow"),
			Cause: notes.New(notes.TimeWaitCause, "host", h.Name), Consequence: notes.New(notes.TimeWaitConsequence, "skipped", v),
			Fix: notes.New(notes.TimeWaitFix, "host", h.Name)}
		if opens, ok := h.opens(); ok && k.window > 0 {
			d.Fix.Args["per_s"] = float64(opens) / k.window.Seconds()
		}
		out = append(out, d)
	}
	return out
}

// Storm: a host's resets are a storm, at least MinResets and ResetShare of
// its opens; without failed requests only resets beyond its aborts at
// close count (Connection: close's race, docs/diagnoses.md).
func Storm(resets, aborts, failed, opens uint64) bool {
	if failed == 0 {
		resets -= min(resets, aborts)
	}
	return resets >= MinResets && float64(resets) >= ResetShare*float64(opens)
}

// resets is RuleResets: one per host with a Storm.
func (k *kernel) resets() []Diagnosis {
	var out []Diagnosis
	for i := range k.hosts {
		h := &k.hosts[i]
		rst, _, ok := h.Get("OutRsts")
		conns, opened := h.opens()
		failed := k.errs[results.ErrConnect].Count + k.errs[results.ErrTLS].Count + k.errs[results.ErrRead].Count + k.errs[results.ErrWrite].Count
		onData, _, _ := h.Get("TCPAbortOnData")
		onClose, _, _ := h.Get("TCPAbortOnClose")
		if !ok || !opened || !Storm(rst, onData+onClose, failed, conns) {
			continue
		}
		d := Diagnosis{Rule: RuleResets, host: h.Name}
		names := []string{"OutRsts", "ActiveOpens", "PassiveOpens", "EstabResets"}
		for _, n := range abortNames {
			if v, _, _ := h.Get(n); v > 0 {
				names = append(names, n)
			}
		}
		d.Counters = counters(h, names...)
		d.Cause = notes.New(notes.ResetsCause, "host", h.Name, "resets", rst, "conns", conns)
		d.Figure = on(h, names...)
		d.Consequence = notes.New(notes.ResetsConsequence, "failed", failed)
		memory, _, _ := h.Get("TCPAbortOnMemory")
		d.Fix = notes.New(notes.ResetsFix, "memory", memory > 0)
		out = append(out, d)
	}
	return out
}

// listenOverflows is Repetition.ListenOverflows from the run's diagnoses
// ds (see its doc).
func (k *kernel) listenOverflows(ds []Diagnosis) *uint64 {
	host := k.hostOverflows(ds)
	if l := k.own.listener; l.Measured() {
		if own, _ := k.own.queueTrouble(); !own {
			var zero uint64 // its drops were not overflows (queueTrouble)
			return &zero
		}
		// Its drops include a few SYNs dropped for other reasons: the
		// namespace's count bounds them.
		v := l.Drops
		if host != nil && *host > 0 {
			v = min(v, *host)
		}
		return &v
	}
	return host
}

// hostOverflows is the server hosts' ListenOverflows when an accept-queue
// overflow is among ds, else 0; nil when not available.
func (k *kernel) hostOverflows(ds []Diagnosis) *uint64 {
	var sum uint64
	servers := 0
	for i := range k.hosts {
		h := &k.hosts[i]
		if !h.Server {
			continue
		}
		v, unread, ok := h.Get("ListenOverflows")
		if !ok || unread > 0 {
			return nil
		}
		sum += v
		servers++
	}
	if servers == 0 {
		return nil
	}
	if !slices.ContainsFunc(ds, func(d Diagnosis) bool { return d.Rule == RuleAcceptQueue }) {
		sum = 0 // the overflows were not the run's (HostOnly)
	}
	return &sum
}
