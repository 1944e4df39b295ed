package analysis

import (
	"slices"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/diagnosis"
)

// KernelEvent is a TCP trouble counter's growth (Count) on one host over
// one interval, relative to the window's start (negative in the warm-up).
// Host carries its role: "local (clients and server)".
type KernelEvent struct {
	Start, Length time.Duration
	Host, Counter string
	Count         uint64
}

var (
	// TroubleCounters are the kernel TCP counters whose every growth is an
	// event: a connection refused or lost, a SYN retransmitted, a full
	// queue, TIME_WAIT overflow, an abort for want of memory.
	TroubleCounters = []string{
		"ListenOverflows", "ListenDrops", "TCPSynRetrans", "TCPReqQFullDrop", "TCPReqQFullDoCookies",
		"SyncookiesSent", "TCPTimeWaitOverflow", "TCPAbortOnMemory",
	}
	// ResetCounters grow every interval of a healthy TLS run: they are
	// events only in an interval with a reset storm (diagnosis.Storm).
	ResetCounters = []string{"OutRsts", "EstabResets", "TCPAbortOnData", "TCPAbortOnClose"}
)

// KernelEvents lists timeline t's kernel events in time order, then by
// host, then by counter (TroubleCounters first); an unread counter has none.
func KernelEvents(t *results.Timeline) []KernelEvent {
	if t == nil {
		return nil
	}
	var out []KernelEvent
	for p, pt := range t.Points {
		for h := range t.Hosts {
			names := TroubleCounters
			if resetStorm(t, p, h) {
				names = slices.Concat(TroubleCounters, ResetCounters)
			}
			for _, name := range names {
				if n, ok := t.TCP(p, h, name); ok && n > 0 {
					out = append(out, KernelEvent{Start: pt.Start, Length: pt.Length, Host: hostRole(&t.Hosts[h]),
						Counter: name, Count: n})
				}
			}
		}
	}
	return out
}

// resetStorm reports whether host h's resets in point p are a storm.
func resetStorm(t *results.Timeline, p, h int) bool {
	rsts, ok := t.TCP(p, h, "OutRsts")
	onData, _ := t.TCP(p, h, "TCPAbortOnData")
	onClose, _ := t.TCP(p, h, "TCPAbortOnClose")
	active, _ := t.TCP(p, h, "ActiveOpens")
	passive, _ := t.TCP(p, h, "PassiveOpens")
	e := &t.Points[p].Errors
	failed := e[results.ErrConnect] + e[results.ErrTLS] + e[results.ErrRead] + e[results.ErrWrite]
	return ok && diagnosis.Storm(rsts, onData+onClose, failed, max(active, passive))
}

// hostRole names a host with its role: "NAME (clients and server)",
// "NAME (server)", "NAME (clients)".
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
