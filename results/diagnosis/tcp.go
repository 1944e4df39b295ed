package diagnosis

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
)

// HostCounts is a host's TCP counters' growth over a window, each Counter in exactly one of Values, Unavailable.
type HostCounts struct {
	Name     string            `json:"-"` // the JSON summary keys a host by it
	Client   bool              `json:"client,omitempty"`
	Server   bool              `json:"server,omitempty"`
	Shared   bool              `json:"shared,omitempty"` // counts each connection once a side
	Counters []string          `json:"-"`                // in the kernel's order
	Values   map[string]uint64 `json:"deltas"`
	Unread   map[string]int    `json:"intervals_not_read,omitempty"` // intervals not read: Values is a lower bound
	// Unavailable says why a counter has no value: never a zero.
	Unavailable map[string]string `json:"not_available,omitempty"`
}

// Get returns counter name's growth, the intervals it was not read in, and whether it has a value.
func (h *HostCounts) Get(name string) (v uint64, unread int, ok bool) {
	v, ok = h.Values[name]
	return v, h.Unread[name], ok
}

// Gone is counters without a value for one reason.
type Gone struct {
	Why   string
	Names []string
}

// Missing groups those of names without a value by why they have none, in order of first use.
func (h *HostCounts) Missing(names []string) []Gone {
	var out []Gone
	for _, n := range names {
		if _, ok := h.Values[n]; ok {
			continue
		}
		why := cmp.Or(h.Unavailable[n], "not read on this host")
		i := slices.IndexFunc(out, func(g Gone) bool { return g.Why == why })
		if i < 0 {
			i, out = len(out), append(out, Gone{Why: why})
		}
		out[i].Names = append(out[i].Names, n)
	}
	return out
}

// opens is the larger of ActiveOpens and PassiveOpens (a shared host counts both); ok when both read.
func (h *HostCounts) opens() (uint64, bool) {
	a, _, okA := h.Get("ActiveOpens")
	p, _, okP := h.Get("PassiveOpens")
	return max(a, p), okA && okP
}

// Role says whose namespace the host is, for people.
func (h *HostCounts) Role() string {
	return notes.New(notes.HostRole, "shared", h.Shared, "client", h.Client, "server", h.Server).String()
}

func windowCounts(t *results.Timeline) []HostCounts {
	first := len(t.Points) - len(t.Window())
	out := make([]HostCounts, len(t.Hosts))
	for h := range t.Hosts {
		th := &t.Hosts[h]
		hc := HostCounts{Name: th.Name, Client: th.Client, Server: th.Server, Shared: th.Shared, Counters: th.Counters,
			Values: map[string]uint64{}, Unread: map[string]int{}, Unavailable: map[string]string{}}
		for _, name := range th.Counters {
			why, gone := th.Unavailable[name]
			var sum uint64
			unread := 0
			for p := first; p < len(t.Points); p++ {
				v, ok := t.TCP(p, h, name)
				if !ok {
					unread++
				}
				sum += v
			}
			switch {
			case gone:
			case first == len(t.Points):
				why = "the window has no interval"
			case unread == len(t.Points)-first:
				why = "not read in any interval of the window (the run's log says why)"
			default:
				hc.Values[name] = sum
				if unread > 0 {
					hc.Unread[name] = unread
				}
				continue
			}
			hc.Unavailable[name] = why
		}
		out[h] = hc
	}
	return out
}

// on words h's counters, "ListenOverflows +1,295, … on local (the server)", those missing for one reason
// sharing it, and lists those with a value.
func on(h *HostCounts, names ...string) (string, []Counter) {
	var parts []string
	var cs []Counter
	for _, n := range names {
		if v, unread, ok := h.Get(n); ok {
			parts = append(parts, notes.New(notes.CounterGrew, "name", n, "value", v, "unread", unread).String())
			cs = append(cs, Counter{Host: h.Name, Name: n, Value: v, Unread: unread})
		}
	}
	for _, g := range h.Missing(names) {
		parts = append(parts, strings.Join(g.Names, ", ")+" not available ("+g.Why+")")
	}
	return strings.Join(parts, ", ") + " on " + h.Name + " (" + h.Role() + ")", cs
}

func grew(h *HostCounts, names ...string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return h.Values[n] > 0 })
}

var (
	listenNames = []string{"ListenOverflows", "ListenDrops"}
	synNames    = []string{"SyncookiesSent", "TCPReqQFullDoCookies", "TCPReqQFullDrop"}
)

func (j *judge) acceptQueue() ([]Diagnosis, string) {
	var d Diagnosis
	var figs []string
	overflowed, unknown, servers := false, false, 0
	var retrans uint64
	for i := range j.hosts {
		h := &j.hosts[i]
		var names []string
		if h.Server {
			servers++
			names = append(names, listenNames...)
			overflowed = overflowed || grew(h, listenNames...)
			_, ok := h.Values["ListenOverflows"]
			unknown = unknown || !ok
		}
		if h.Client {
			names, retrans = append(names, "TCPSynRetrans"), retrans+h.Values["TCPSynRetrans"]
		}
		if len(names) > 0 {
			fig, cs := on(h, names...)
			figs, d.Counters = append(figs, fig), append(d.Counters, cs...)
		}
	}
	if servers == 0 {
		figs, unknown = append(figs, "the server's counters were not read"), true
	}
	if j.all > 0 {
		figs = append(figs, fmt.Sprintf("%s of %s connects (%s) took 1 s or more", format.Count(j.slow), format.Count(j.all),
			notes.Percent(float64(j.slow)/float64(j.all))))
	} else {
		figs = append(figs, "no connect times recorded")
	}
	probable := !overflowed && unknown && retrans > 0 && j.slow > 0
	if !overflowed && !probable {
		return nil, ""
	}
	d.Figure, d.Cause = strings.Join(figs, "; "), notes.New(notes.AcceptQueueCause, "probable", probable)
	d.Consequence, d.Fix = notes.New(notes.AcceptQueueConsequence), notes.New(notes.AcceptQueueFix)
	if j.slow > 0 {
		d.Consequence.Args["slow"] = j.slow
	}
	d.Own = hostOnly(j.queueTrouble())
	return []Diagnosis{d}, ""
}

// counterRule fires on a host whose counters show it; names are the counters its figure names, says
// returns the cause, consequence and fix. A perHost rule is the run's where its connects are mostly the
// host's opens; the others give one diagnosis over the hosts, the run's where it shows a full queue.
type counterRule struct {
	perHost bool
	fires   func(j *judge, h *HostCounts) bool
	names   func(h *HostCounts) []string
	says    func(j *judge, h *HostCounts) (cause, consequence, fix notes.Note)
}

var (
	synQueue = counterRule{
		fires: func(_ *judge, h *HostCounts) bool { return h.Server && grew(h, synNames...) },
		names: func(*HostCounts) []string { return synNames },
		says: func(*judge, *HostCounts) (_, _, _ notes.Note) {
			return notes.New(notes.SYNQueueCause), notes.New(notes.SYNQueueConsequence), notes.New(notes.SYNQueueFix)
		}}
	timeWait = counterRule{perHost: true,
		fires: func(_ *judge, h *HostCounts) bool { return grew(h, "TCPTimeWaitOverflow") },
		names: func(*HostCounts) []string { return []string{"TCPTimeWaitOverflow"} },
		says: func(j *judge, h *HostCounts) (_, _, _ notes.Note) {
			fix := notes.New(notes.TimeWaitFix, "host", h.Name)
			if opens, ok := h.opens(); ok && j.length > 0 {
				perS := float64(opens) / j.length.Seconds()
				fix.Args["per_s"], fix.Args["per_min"] = perS, perS*60+0.5
			}
			return notes.New(notes.TimeWaitCause, "host", h.Name),
				notes.New(notes.TimeWaitConsequence, "skipped", h.Values["TCPTimeWaitOverflow"]), fix
		}}
	resets = counterRule{perHost: true,
		fires: func(j *judge, h *HostCounts) bool {
			rst, ok := h.Values["OutRsts"]
			conns, opened := h.opens()
			return ok && opened && Storm(rst, h.Values["TCPAbortOnData"]+h.Values["TCPAbortOnClose"], j.failedIO, conns)
		},
		names: func(h *HostCounts) []string { // the aborts that grew too
			aborts := []string{"TCPAbortOnData", "TCPAbortOnClose", "TCPAbortOnMemory"}
			aborts = slices.DeleteFunc(aborts, func(n string) bool { return !grew(h, n) })
			return append([]string{"OutRsts", "ActiveOpens", "PassiveOpens", "EstabResets"}, aborts...)
		},
		says: func(j *judge, h *HostCounts) (_, _, _ notes.Note) {
			cause := notes.New(notes.ResetsCause, "host", h.Name)
			if conns, _ := h.opens(); conns > 0 && h.Values["OutRsts"] <= conns {
				cause.Args["share"] = float64(h.Values["OutRsts"]) / float64(conns)
			}
			return cause, notes.New(notes.ResetsConsequence, "failed", j.failedIO),
				notes.New(notes.ResetsFix, "memory", grew(h, "TCPAbortOnMemory"))
		}}
)

func (r counterRule) judge(j *judge) ([]Diagnosis, string) {
	var out []Diagnosis
	for i := range j.hosts {
		h := &j.hosts[i]
		if !r.fires(j, h) {
			continue
		}
		var d Diagnosis
		d.Figure, d.Counters = on(h, r.names(h)...)
		d.Cause, d.Consequence, d.Fix = r.says(j, h)
		switch {
		case r.perHost:
			d.Own = hostOnly(j.mostly(h))
		case len(out) > 0: // one over the hosts
			out[0].Figure += "; " + d.Figure
			out[0].Counters = append(out[0].Counters, d.Counters...)
			continue
		default:
			d.Own = hostOnly(j.queueTrouble())
		}
		out = append(out, d)
	}
	return out, ""
}

// Storm reports whether resets are a storm: at least MinResets and ResetShare of the opens; without
// failed requests only those beyond the aborts at close count (Connection: close's race, docs/diagnoses.md).
func Storm(resets, aborts, failed, opens uint64) bool {
	if failed == 0 {
		resets -= min(resets, aborts)
	}
	return resets >= MinResets && float64(resets) >= ResetShare*float64(opens)
}

// listenOverflows is Repetition.ListenOverflows; run: an accept-queue overflow is the run's.
func (j *judge) listenOverflows(run bool) *uint64 {
	var sum uint64 // the server hosts' ListenOverflows, where read in every interval
	read, servers := true, 0
	for i := range j.hosts {
		if h := &j.hosts[i]; h.Server {
			v, unread, ok := h.Get("ListenOverflows")
			read, sum, servers = read && ok && unread == 0, sum+v, servers+1
		}
	}
	if !run {
		sum = 0 // the overflows were not the run's (HostOnly)
	}
	if l := j.listener; l.Measured() {
		if own, _ := j.queueTrouble(); !own {
			return new(uint64) // its drops were not overflows (queueTrouble)
		}
		// Its drops include a few SYNs dropped for other reasons: the namespace's count bounds them.
		v := l.Drops
		if read && servers > 0 && sum > 0 {
			v = min(v, sum)
		}
		return &v
	}
	if !read || servers == 0 {
		return nil
	}
	return &sum
}
