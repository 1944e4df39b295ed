package results

import (
	"slices"
	"time"
)

// ListenQueue is the target's listening socket, read at the timeline's
// boundaries: its own drops and accept queue, which another program's
// listener does not move (the namespace's counters it does).
type ListenQueue struct {
	Host        string    `json:"host"` // as TCPHost.Name
	Port        int       `json:"port"`
	Unavailable string    `json:"unavailable,omitempty"` // why it was not read at all
	Backlog     uint64    `json:"backlog,omitempty"`     // the accept queue's limit, over the port's sockets
	Drops       []*uint64 `json:"drops,omitempty"`       // sk_drops growth per point, nil where not read
	Queue       []*uint64 `json:"queue,omitempty"`       // accepting at each point's end, likewise
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
}

// AddListener records the listener's reading over interval k.
func (b *TimelineBuilder) AddListener(k int, start, length time.Duration, s ListenSample) {
	if b.listener == nil {
		return
	}
	a := b.point(k)
	a.setSpan(start, length)
	a.listen = &s
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
		s := b.points[k].listen
		if s == nil {
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
