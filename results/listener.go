package results

import (
	"slices"
	"time"
)

// ListenQueue is the target's listening socket on the server host, read
// at the timeline's boundaries (sock_diag, or `ss -ltnm` over ssh): the
// listener's own drops and accept queue, which another program's
// listener on the same host does not move, beside the namespace's
// counters (TCPHost), which it does.
type ListenQueue struct {
	// Host is the server host's name (as TCPHost.Name), Port the target's.
	Host string `json:"host"`
	Port int    `json:"port"`
	// Unavailable says why the listener was not read at all (the server
	// in a network namespace kaeload does not enter, ss missing); ""
	// when it was read.
	Unavailable string `json:"unavailable,omitempty"`
	// Backlog is the accept queue's limit (the listen backlog capped at
	// net.core.somaxconn, summed over the port's listening sockets); 0
	// when not read.
	Backlog uint64 `json:"backlog,omitempty"`
	// Drops holds, per point (Timeline.Points), how many SYNs and
	// completed handshakes the listener dropped (its sk_drops: its own
	// share of ListenDrops, which counts its ListenOverflows); null where
	// not read.
	Drops []*uint64 `json:"drops,omitempty"`
	// Queue holds the connections waiting in its accept queue at each
	// point's end; null where not read.
	Queue []*uint64 `json:"queue,omitempty"`
}

// ListenSample is one reading of the listener over interval k, as the
// controller hands it to a TimelineBuilder.
type ListenSample struct {
	// Drops is the growth of its drops over the interval; DropsKnown
	// false when that is unknown.
	Drops      uint64
	DropsKnown bool
	// Queue and Backlog are its accept queue and limit at the end.
	Queue, Backlog uint64
}

// SetListener sets the listener whose readings AddListener records
// (Timeline.Listener); why says why it cannot be read, "" when it can.
func (b *TimelineBuilder) SetListener(host string, port int, why string) {
	b.listener = &ListenQueue{Host: host, Port: port, Unavailable: why}
	b.listen = map[int]ListenSample{}
}

// AddListener records the listener's reading over interval k, which
// begins at start and lasts length.
func (b *TimelineBuilder) AddListener(k int, start, length time.Duration, s ListenSample) {
	if b.listener == nil {
		return
	}
	b.point(k).setSpan(start, length)
	b.listen[k] = s
}

// listenerOver is the listener's record over the points of intervals
// keys; nil when none was set.
func (b *TimelineBuilder) listenerOver(keys []int) *ListenQueue {
	if b.listener == nil {
		return nil
	}
	l := *b.listener
	if l.Unavailable != "" {
		return &l
	}
	l.Drops, l.Queue = make([]*uint64, len(keys)), make([]*uint64, len(keys))
	for i, k := range keys {
		s, ok := b.listen[k]
		if !ok {
			continue
		}
		if s.DropsKnown {
			l.Drops[i] = &s.Drops
		}
		l.Queue[i] = &s.Queue
		l.Backlog = max(l.Backlog, s.Backlog)
	}
	if !slices.ContainsFunc(l.Queue, func(p *uint64) bool { return p != nil }) {
		l.Queue = nil
	}
	if !slices.ContainsFunc(l.Drops, func(p *uint64) bool { return p != nil }) {
		l.Drops = nil
	}
	return &l
}
