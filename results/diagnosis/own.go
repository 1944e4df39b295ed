package diagnosis

import (
	"fmt"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
)

// NotTheRun is the words every output gives a counter change that the
// run's own connections do not show.
const NotTheRun = "on this host, not attributable to the run"

// OwnShare is the share of a host's connections (the larger of its
// ActiveOpens and PassiveOpens over the window) that must be the run's
// own connects for a host-wide rule (TIME_WAIT overflow, reset storm) to
// be the run's: a namespace whose traffic is mostly other programs' tells
// nothing of the run.
const OwnShare = 0.5

// HostOnly is a kernel counter's change on one host that the run's own
// connections do not show: "on this host, not attributable to the run".
// Another program's listener overflowing its own queue moves the same
// namespace-wide counters as the target's would. It is neither a
// diagnosis nor counted by a threshold (diagnoses, listen_overflows).
type HostOnly struct {
	// Rule and Title name the rule the change would have made.
	Rule  string `json:"rule"`
	Title string `json:"title"`
	// Variant and Rep name the repetition (Rep is 0-based).
	Variant string `json:"variant"`
	Rep     int    `json:"rep"`
	// Figure says how much, with the counters and the host, as a
	// diagnosis's figure.
	Figure string `json:"figure"`
	// Own says what the run's own connections showed instead.
	Own string `json:"own"`
	// Counters are the counters behind the figure.
	Counters []Counter `json:"counters,omitempty"`
}

// Line words h in one line: "ListenOverflows +493, … on local (…): on
// this host, not attributable to the run: the target's listener … dropped
// nothing; …".
func (h *HostOnly) Line() string {
	return h.Figure + ": " + NotTheRun + ": " + h.Own
}

// Listener is the target's listener over a window (results.ListenQueue).
type Listener struct {
	// Host and Port name it.
	Host string `json:"host"`
	Port int    `json:"port"`
	// Unavailable says why it was not read; "" when it was.
	Unavailable string `json:"unavailable,omitempty"`
	// Drops is its drops over the window's intervals that read them
	// (Read of them; a lower bound when Unread > 0).
	Drops  uint64 `json:"drops"`
	Read   int    `json:"read"`
	Unread int    `json:"unread,omitempty"`
	// Backlog is its accept queue's limit; MaxQueue the longest queue a
	// boundary found, Full how many boundaries found it full.
	Backlog  uint64 `json:"backlog,omitempty"`
	MaxQueue uint64 `json:"max_queue"`
	Full     int    `json:"full,omitempty"`
}

// Measured says whether its drops were read in some window interval.
func (l *Listener) Measured() bool { return l != nil && l.Unavailable == "" && l.Read > 0 }

// Words words it: "port 8443 on local: dropped nothing, its accept
// queue at most 3 of 511", or why it was not read.
func (l *Listener) Words() string {
	where := fmt.Sprintf("port %d on %s", l.Port, l.Host)
	switch {
	case l.Unavailable != "":
		return where + ": not read (" + l.Unavailable + ")"
	case l.Read == 0:
		return where + ": not read in any interval of the window (the run's log says why)"
	}
	s := where + ": dropped nothing"
	if l.Drops > 0 {
		s = where + ": dropped " + format.Count(l.Drops)
	}
	if l.Unread > 0 {
		s += fmt.Sprintf(" (at least: %s not read)", plural(l.Unread, "interval"))
	}
	s += fmt.Sprintf(", its accept queue at most %s of %s at the boundaries", format.Count(l.MaxQueue), format.Count(l.Backlog))
	if l.Full > 0 {
		s += fmt.Sprintf(", full at %s", plural(l.Full, "boundary"))
	}
	return s
}

// windowListener sums t's listener over the window; nil when the
// timeline has none.
func windowListener(t *results.Timeline) *Listener {
	q := t.Listener
	if q == nil {
		return nil
	}
	l := &Listener{Host: q.Host, Port: q.Port, Unavailable: q.Unavailable, Backlog: q.Backlog}
	if l.Unavailable != "" {
		return l
	}
	for i := range t.Points {
		if t.Points[i].Start < 0 {
			continue
		}
		if i < len(q.Drops) && q.Drops[i] != nil {
			l.Drops += *q.Drops[i]
			l.Read++
		} else {
			l.Unread++
		}
		if i < len(q.Queue) && q.Queue[i] != nil {
			l.MaxQueue = max(l.MaxQueue, *q.Queue[i])
			if q.Backlog > 0 && *q.Queue[i] >= q.Backlog {
				l.Full++
			}
		}
	}
	return l
}

// Traffic is the cross-check of a host's connections over the window
// against the run's own connects: the kernel counts every program's.
type Traffic struct {
	// Host names the namespace; Counter is the counter compared
	// (ActiveOpens where clients run, else PassiveOpens) and Opens its
	// growth.
	Host    string `json:"host"`
	Counter string `json:"counter"`
	Opens   uint64 `json:"opens"`
	// Own is the run's connects: connections opened, and connects that
	// failed.
	Own uint64 `json:"own"`
	// Other is the opens beyond Own; Shared is true when they exceed
	// what the window's edges explain (the connections in flight at its
	// start and end, at least 2 % of Own): other traffic shared the
	// namespace.
	Other  uint64 `json:"other"`
	Shared bool   `json:"shared"`
}

// Words words it: "ActiveOpens +2,057 on local, kaeload's connects
// 1,802: other traffic shared this network namespace (255 more)".
func (t *Traffic) Words() string {
	s := fmt.Sprintf("%s +%s on %s, kaeload's connects %s", t.Counter, format.Count(t.Opens), t.Host, format.Count(t.Own))
	if t.Shared {
		return s + fmt.Sprintf(": other traffic shared this network namespace (%s more)", format.Count(t.Other))
	}
	return s + ": no other traffic beyond the window's edges"
}

// own is what the run's own connections showed over a window.
type own struct {
	connects   uint64 // connections opened and connects failed
	failed     uint64 // requests that failed in the window (errors)
	slots      int    // the connections in flight at once, planned
	slow, all  uint64 // connects of 1 s or more, of all timed
	timed      bool
	sockets    results.Sockets
	listener   *Listener
	hostOpens  map[string]uint64 // by host: the larger of ActiveOpens and PassiveOpens
	hostOpened map[string]bool   // the host has both
}

// newOwn gathers rep's own evidence and the hosts' opens.
func newOwn(rep *results.Rep, hosts []HostCounts) *own {
	t := &rep.Total
	o := &own{connects: t.Connections + t.Errors[results.ErrConnect].Count, failed: t.Errors.Total(), sockets: t.Sockets,
		listener: windowListener(rep.Timeline), hostOpens: map[string]uint64{}, hostOpened: map[string]bool{}}
	for i := range rep.Groups {
		o.slots += rep.Groups[i].Slots
	}
	o.slow, o.all, o.timed = slowConnects(t.Latency.Connect)
	for i := range hosts {
		a, _, okA := hosts[i].Get("ActiveOpens")
		p, _, okP := hosts[i].Get("PassiveOpens")
		o.hostOpens[hosts[i].Name], o.hostOpened[hosts[i].Name] = max(a, p), okA && okP
	}
	return o
}

// queueTrouble says whether the run's own connections show a full queue
// at the target: the listener's drops or a full accept queue where it was
// read (which then decides), else connects of 1 s or more (a dropped
// SYN's retransmit) or connections that retransmitted (a dropped final
// ACK or first data). why words what they showed.
func (o *own) queueTrouble() (yes bool, why string) {
	var parts []string
	l := o.listener
	if l != nil {
		parts = append(parts, "the target's listener, "+l.Words())
	}
	if l.Measured() && (l.Full > 0 || l.Drops == 0) {
		return l.Full > 0, strings.Join(parts, "; ")
	}
	// A queue of Backlog overflows only with more than Backlog
	// connections waiting in it. The run's own are at most its slots
	// (plus those it gave up on, which may linger there), and whatever
	// else the namespace opened over the window and the longest queue a
	// boundary found bound the rest: when all of that is under the
	// backlog, nothing could fill it, and its drops were discards of
	// another kind (a loaded machine's retransmits then say nothing).
	if in, ok := o.atMost(l); ok && in < l.Backlog {
		parts = append(parts, fmt.Sprintf("at most %s connections could wait in its queue of %s (kaeload's %s in flight and %s failed, %s others opened, %s queued at a boundary): too few to fill it, so its drops were not overflows",
			format.Count(in), format.Count(l.Backlog), format.Count(uint64(o.slots)), format.Count(o.failed), format.Count(o.others(l.Host)), format.Count(l.MaxQueue)))
		return false, strings.Join(parts, "; ")
	}
	// A listener's drop counter (sk_drops) also counts packets the kernel
	// discarded for its pending connections for other reasons (a
	// duplicate of a final ACK it was already processing), which cost no
	// connection anything: seen on a loaded machine, one such drop in
	// 1,072 connects. A drop by a full queue forces a retransmit, so the
	// listener's drops are an overflow where the run's own connections
	// show one, or where nothing of them was recorded to tell.
	if o.timed {
		parts = append(parts, fmt.Sprintf("%s of %s connects took 1 s or more", format.Count(o.slow), format.Count(o.all)))
	}
	if s := o.sockets; s.Read > 0 {
		parts = append(parts, fmt.Sprintf("%s of %s connections retransmitted", format.Count(s.Retransmitted), format.Count(s.Read)))
	}
	if !o.timed && o.sockets.Read == 0 {
		if l.Measured() {
			return true, strings.Join(parts, "; ")
		}
		parts = append(parts, "nothing of the run's own connections was recorded")
	}
	return o.slow > 0 || o.sockets.Retransmitted > 0, strings.Join(parts, "; ")
}

// atMost bounds the connections that could wait in listener l's accept
// queue over the window: the run's slots and failed requests, the other
// connections l's host opened, and the longest queue a boundary found;
// false when l's backlog or its host's opens were not read.
func (o *own) atMost(l *Listener) (uint64, bool) {
	if !l.Measured() || l.Backlog == 0 || !o.hostOpened[l.Host] {
		return 0, false
	}
	return uint64(o.slots) + o.failed + o.others(l.Host) + l.MaxQueue, true
}

// others is how many more connections host opened than the run's
// connects (the larger of its ActiveOpens and PassiveOpens: in a shared
// namespace each connection counts once a side).
func (o *own) others(host string) uint64 {
	if opens := o.hostOpens[host]; opens > o.connects {
		return opens - o.connects
	}
	return 0
}

// mostly says whether the run's connects are at least OwnShare of host
// h's opens, with words.
func (o *own) mostly(h *HostCounts) (yes bool, why string) {
	opens := o.hostOpens[h.Name]
	if !o.hostOpened[h.Name] {
		return false, "the host's opens were not read: whose connections these are is unknown"
	}
	share := 1.0
	if opens > 0 {
		share = float64(o.connects) / float64(opens)
	}
	why = fmt.Sprintf("kaeload's %s connects were %s of the host's %s", format.Count(o.connects), percent(min(share, 1)), format.Count(opens))
	if o.sockets.Read > 0 {
		why += fmt.Sprintf("; %s of its %s connections were reset by the peer", format.Count(o.sockets.Reset), format.Count(o.sockets.Read))
	}
	return share >= OwnShare, why
}

// traffic cross-checks each host's opens with the run's connects.
func (o *own) traffic(hosts []HostCounts) []Traffic {
	var out []Traffic
	for i := range hosts {
		h := &hosts[i]
		name := "PassiveOpens"
		if h.Client {
			name = "ActiveOpens"
		}
		v, _, ok := h.Get(name)
		if !ok || (!h.Client && !h.Server) {
			continue
		}
		t := Traffic{Host: h.Name, Counter: name, Opens: v, Own: o.connects}
		if v > o.connects {
			t.Other = v - o.connects
		}
		t.Shared = t.Other > max(uint64(o.slots), o.connects/50, 10)
		out = append(out, t)
	}
	return out
}

// split moves the diagnoses of ds that the run's own connections do not
// show to host-only changes (see the package documentation).
func (k *kernel) split(ds []Diagnosis) (kept []Diagnosis, hostOnly []HostOnly) {
	for _, d := range ds {
		ok, why := k.attributable(&d)
		if ok {
			kept = append(kept, d)
			continue
		}
		hostOnly = append(hostOnly, HostOnly{Rule: d.Rule, Title: d.Title, Variant: d.Variant, Rep: d.Rep, Figure: d.Figure, Own: why, Counters: d.Counters})
	}
	return kept, hostOnly
}

// attributable says whether diagnosis d is the run's own, and what the
// run's own connections showed.
func (k *kernel) attributable(d *Diagnosis) (bool, string) {
	switch d.Rule {
	case RuleAcceptQueue, RuleSYNCookies:
		return k.own.queueTrouble()
	case RuleTimeWait, RuleResets:
		for i := range k.hosts {
			if k.hosts[i].Name == d.host {
				return k.own.mostly(&k.hosts[i])
			}
		}
	}
	return true, ""
}
