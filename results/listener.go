package results

import (
	"slices"
	"time"
)

// ListenQueue is the target's listening socket, read at the timeline's
// boundaries: its own drops and accept queue, which another program's
// listener does not move (the namespace's counters it does).
type ListenQueue struct {
	Host string `json:"host"` // as TCPHost.Name
	Port int    `json:"port"`
	// Unavailable says why the listener was not read at all.
	Unavailable string `json:"unavailable,omitempty"`
	// Backlog is the accept queue's limit, over the port's sockets.
	Backlog uint64 `json:"backlog,omitempty"`
	// Drops (sk_drops growth) and Queue (accepting, at the end) are per
	// point, nil where not read.
	Drops []*uint64 `json:"drops,omitempty"`
	Queue []*uint64 `json:"queue,omitempty"`
}

// ListenSample is one reading of the listener over an interval.
type ListenSample struct {
	Drops          uint64
	DropsKnown     bool
	Queue, Backlog uint64
}

// SetListener sets the listener AddListener records; why says why it
// cannot be read, "" when it can.
func (b *TimelineBuilder) SetListener(host string, port int, why string) {
	b.listener = &ListenQueue{Host: host, Port: port, Unavailable: why}
	b.listen = map[int]ListenSample{}
}

// AddListener records the listener's reading over interval k.
func (b *TimelineBuilder) AddListener(k int, start, length time.Duration, s ListenSample) {
	if b.listener == nil {
		return
	}
	b.point(k).setSpan(start, length)
	b.listen[k] = s
}

// listenerOver is the listener's record over the intervals keys.
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
