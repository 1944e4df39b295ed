package analysis

import (
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/diagnosis"
)

// KernelEvent is one kernel event on a repetition's timeline: a TCP
// trouble counter that grew on one host over one interval. The HTML
// report marks each where it happened.
type KernelEvent struct {
	// Start and Length are the interval's (results.Point), relative to
	// the window's start: negative in the warm-up.
	Start, Length time.Duration
	// Host names the network namespace with its role: "server (server)",
	// "local (clients and server)", …
	Host string
	// Counter is the counter's name in the kernel's terms.
	Counter string
	// Count is its growth over the interval.
	Count uint64
}

// TroubleCounters are the kernel TCP counters whose every growth is an
// event: a connection refused or lost, a handshake's SYN retransmitted, a
// full queue, an overflowing TIME_WAIT table, an abort for want of
// memory. They are the live display's.
var TroubleCounters = []string{
	"ListenOverflows", "ListenDrops", "TCPSynRetrans", "TCPReqQFullDrop", "TCPReqQFullDoCookies",
	"SyncookiesSent", "TCPTimeWaitOverflow", "TCPAbortOnMemory",
}

// ResetCounters are the reset and abort counters. A healthy TLS run grows
// them every interval, so they are events only in an interval with a
// reset storm (diagnosis.StormResets over IntervalResetShare of the
// connections opened, and MinIntervalResets or more).
var ResetCounters = []string{"OutRsts", "EstabResets", "TCPAbortOnData", "TCPAbortOnClose"}

// The reset storm of one interval (see ResetCounters).
const (
	IntervalResetShare = 0.5
	MinIntervalResets  = 100
)

// KernelEvents lists the kernel events of timeline t (nil: none), in time
// order; within an interval by host in the timeline's order, then by
// counter, TroubleCounters first. A counter not read in an interval (not
// available there) has no event in it.
func KernelEvents(t *results.Timeline) []KernelEvent {
	if t == nil {
		return nil
	}
	var out []KernelEvent
	for p, pt := range t.Points {
		for h := range t.Hosts {
			host := hostRole(&t.Hosts[h])
			add := func(name string) {
				if n, ok := t.TCP(p, h, name); ok && n > 0 {
					out = append(out, KernelEvent{Start: pt.Start, Length: pt.Length, Host: host, Counter: name, Count: n})
				}
			}
			for _, name := range TroubleCounters {
				add(name)
			}
			if resetStorm(t, p, h) {
				for _, name := range ResetCounters {
					add(name)
				}
			}
		}
	}
	return out
}

// resetStorm reports whether host h reset, in point p, at least
// IntervalResetShare of the connections it opened and at least
// MinIntervalResets connections (its resets as diagnosis.StormResets
// counts them).
func resetStorm(t *results.Timeline, p, h int) bool {
	rsts, ok := t.TCP(p, h, "OutRsts")
	onData, _ := t.TCP(p, h, "TCPAbortOnData")
	onClose, _ := t.TCP(p, h, "TCPAbortOnClose")
	e := &t.Points[p].Errors
	rsts = diagnosis.StormResets(rsts, onData+onClose, e[results.ErrConnect]+e[results.ErrTLS]+e[results.ErrRead]+e[results.ErrWrite])
	if !ok || rsts < MinIntervalResets {
		return false
	}
	active, _ := t.TCP(p, h, "ActiveOpens")
	passive, _ := t.TCP(p, h, "PassiveOpens")
	return float64(rsts) >= IntervalResetShare*float64(max(active, passive))
}

// hostRole names a host with its role: "NAME (clients and server)" for a
// namespace both share, "NAME (server)", "NAME (clients)".
func hostRole(h *results.TCPHost) string {
	switch {
	case h.Shared || (h.Client && h.Server):
		return h.Name + " (clients and server)"
	case h.Server:
		return h.Name + " (server)"
	case h.Client:
		return h.Name + " (clients)"
	}
	return h.Name
}
