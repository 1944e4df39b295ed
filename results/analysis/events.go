package analysis

import (
	"slices"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/diagnosis"
)

// KernelEvent is a TCP trouble counter's growth on one host over one interval, from the window's
// start (negative in the warm-up); Host carries its role: "local (clients and server)".
type KernelEvent struct {
	Start, Length time.Duration
	Host, Counter string
	Count         uint64
}

var (
	// TroubleCounters are the kernel TCP counters whose every growth is an event.
	TroubleCounters = []string{
		"ListenOverflows", "ListenDrops", "TCPSynRetrans", "TCPReqQFullDrop", "TCPReqQFullDoCookies",
		"SyncookiesSent", "TCPTimeWaitOverflow", "TCPAbortOnMemory",
	}
	// ResetCounters grow in a healthy TLS run: events only in a reset storm (diagnosis.Storm).
	ResetCounters = []string{"OutRsts", "EstabResets", "TCPAbortOnData", "TCPAbortOnClose"}
)

// KernelEvents lists timeline t's kernel events in time order, then by host, then by counter.
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

// hostRole names a host with its role: "NAME (clients and server)".
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
