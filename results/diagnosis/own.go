package diagnosis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
)

// NotTheRun words a counter change the run's own connections do not show.
const NotTheRun = "on this host, not attributable to the run"

// OwnShare of a host's opens must be the run's connects for TIME_WAIT or resets to be the run's.
const OwnShare = 0.5

// HostOnly is a counter change the run does not show (another program's listener moves the same
// counters): in no threshold, though it reads as a diagnosis; Own says what the run showed.
type HostOnly = Diagnosis

// Line words a HostOnly: figure, NotTheRun, what the run showed.
func (h *HostOnly) Line() string {
	return h.Figure + ": " + NotTheRun + ": " + h.Own
}

// Listener is the target's listener over a window (results.ListenQueue).
type Listener struct {
	Host        string `json:"host"`
	Port        int    `json:"port"`
	Unavailable string `json:"unavailable,omitempty"` // why it was not read
	Drops       uint64 `json:"drops"`                 // over Read intervals; a lower bound when Unread > 0
	Read        int    `json:"read"`
	Unread      int    `json:"unread,omitempty"`
	Backlog     uint64 `json:"backlog,omitempty"` // the accept queue's limit
	MaxQueue    uint64 `json:"max_queue"`         // the longest queue a boundary found
	Full        int    `json:"full,omitempty"`    // the boundaries that found it at Backlog
}

// Measured says whether its drops were read in some window interval.
func (l *Listener) Measured() bool { return l != nil && l.Unavailable == "" && l.Read > 0 }

// Words is l in words, "port 8443 on local: dropped nothing, its accept queue at most 3 of 511", or why
// it was not read.
func (l *Listener) Words() string {
	return notes.New(notes.ListenerWords, "port", l.Port, "host", l.Host, "unavailable", l.Unavailable, "read", l.Read,
		"drops", l.Drops, "unread", l.Unread, "max_queue", l.MaxQueue, "backlog", l.Backlog, "full", l.Full).String()
}

func windowListener(t *results.Timeline) *Listener {
	q := t.Listener
	if q == nil {
		return nil
	}
	l := &Listener{Host: q.Host, Port: q.Port, Unavailable: q.Unavailable, Backlog: q.Backlog}
	if l.Unavailable != "" {
		return l
	}
	for i := len(t.Points) - len(t.Window()); i < len(t.Points); i++ {
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

// Traffic cross-checks a host's opens with the run's connects.
type Traffic struct {
	Host    string `json:"host"`
	Counter string `json:"counter"` // ActiveOpens where clients run, else PassiveOpens
	Opens   uint64 `json:"opens"`
	Own     uint64 `json:"own"`    // the run's connects
	Other   uint64 `json:"other"`  // the opens beyond Own
	Shared  bool   `json:"shared"` // Other exceeds the window's edges (slots, 2 % of Own): other traffic
}

// Words is t in words: "ActiveOpens +2,057 on local, kaeload's connects 1,802: other traffic shared …".
func (t *Traffic) Words() string {
	return notes.New(notes.TrafficWords, "counter", t.Counter, "opens", t.Opens, "host", t.Host, "own", t.Own,
		"shared", t.Shared, "other", t.Other).String()
}

// judge is what the rules read of a repetition: its window, hosts' counters and the run's connections.
type judge struct {
	window
	opts     Options
	hosts    []HostCounts
	failedIO uint64 // connect, TLS, read and write errors
	connects uint64 // connections opened and connects failed
	failed   uint64 // requests that failed in the window (errors)
	slots    int    // the connections in flight at once, planned
	slow     uint64 // connects of 1 s or more, of all timed
	all      uint64 // connects timed; 0: none timed
	sockets  results.Sockets
	listener *Listener
}

func newJudge(rep *results.Rep, hosts []HostCounts, opts Options) *judge {
	t := &rep.Total
	j := &judge{window: newWindow(rep.Timeline), opts: opts, hosts: hosts, failed: t.Errors.Total(), sockets: t.Sockets,
		connects: t.Connections + t.Errors[results.ErrConnect].Count, listener: windowListener(rep.Timeline)}
	for _, c := range []results.ErrorClass{results.ErrConnect, results.ErrTLS, results.ErrRead, results.ErrWrite} {
		j.failedIO += t.Errors[c].Count
	}
	for i := range rep.Groups {
		j.slots += rep.Groups[i].Slots
	}
	// The connect histogram's bucket holding 1 s counts as slow.
	if h := t.Latency.Connect; !results.EmptyHistogram(h) {
		for _, b := range h.Distribution() {
			if b.Count > 0 && b.To >= slowConnectMicro {
				j.slow += uint64(b.Count)
			}
		}
		j.all = uint64(h.TotalCount())
	}
	return j
}

// queueTrouble: the run shows a full queue at the target, by the listener where read, else by
// connects of 1 s or more (a dropped SYN) or retransmits (a dropped ACK).
func (j *judge) queueTrouble() (yes bool, why string) {
	var parts []string
	l := j.listener
	if l != nil {
		parts = append(parts, "the target's listener, "+l.Words())
	}
	if l.Measured() && (l.Full > 0 || l.Drops == 0) {
		return l.Full > 0, strings.Join(parts, "; ")
	}
	// A queue overflows only with more than Backlog waiting: else the drops were other discards (and a
	// loaded machine's retransmits say nothing).
	if in, others, ok := j.atMost(l); ok && in < l.Backlog {
		parts = append(parts, fmt.Sprintf("at most %s connections could wait in its queue of %s (kaeload's %s in flight and "+
			"%s failed, %s others opened, %s queued at a boundary): too few to fill it, so its drops were not overflows",
			format.Count(in), format.Count(l.Backlog), format.Count(uint64(j.slots)), format.Count(j.failed),
			format.Count(others), format.Count(l.MaxQueue)))
		return false, strings.Join(parts, "; ")
	}
	// sk_drops also counts harmless discards (a duplicate final ACK: one in 1,072 connects loaded);
	// a full queue's drop forces a retransmit: an overflow where the run shows one, or records nothing.
	if j.all > 0 {
		parts = append(parts, fmt.Sprintf("%s of %s connects took 1 s or more", format.Count(j.slow), format.Count(j.all)))
	}
	if s := j.sockets; s.Read > 0 {
		parts = append(parts, fmt.Sprintf("%s of %s connections retransmitted", format.Count(s.Retransmitted), format.Count(s.Read)))
	}
	if j.all == 0 && j.sockets.Read == 0 {
		if l.Measured() {
			return true, strings.Join(parts, "; ")
		}
		parts = append(parts, "nothing of the run's own connections was recorded")
	}
	return j.slow > 0 || j.sockets.Retransmitted > 0, strings.Join(parts, "; ")
}

// atMost bounds the connections that could wait in l's queue (the run's slots and failures, the host's
// other opens, the longest queue seen); false when l's backlog or the opens were not read.
func (j *judge) atMost(l *Listener) (in, others uint64, ok bool) {
	if !l.Measured() || l.Backlog == 0 {
		return 0, 0, false
	}
	var opens uint64
	if i := slices.IndexFunc(j.hosts, func(h HostCounts) bool { return h.Name == l.Host }); i >= 0 {
		opens, ok = j.hosts[i].opens()
	}
	others = opens - min(opens, j.connects)
	return uint64(j.slots) + j.failed + others + l.MaxQueue, others, ok
}

// mostly: the run's connects are at least OwnShare of h's opens.
func (j *judge) mostly(h *HostCounts) (yes bool, why string) {
	opens, ok := h.opens()
	if !ok {
		return false, "the host's opens were not read: whose connections these are is unknown"
	}
	share := 1.0
	if opens > 0 {
		share = float64(j.connects) / float64(opens)
	}
	why = fmt.Sprintf("kaeload's %s connects were %s of the host's %s", format.Count(j.connects),
		notes.Percent(min(share, 1)), format.Count(opens))
	if j.sockets.Read > 0 {
		why += fmt.Sprintf("; %s of its %s connections were reset by the peer", format.Count(j.sockets.Reset),
			format.Count(j.sockets.Read))
	}
	return share >= OwnShare, why
}

func (j *judge) traffic() []Traffic {
	var out []Traffic
	for i := range j.hosts {
		h := &j.hosts[i]
		name := "PassiveOpens"
		if h.Client {
			name = "ActiveOpens"
		}
		v, _, ok := h.Get(name)
		if !ok || (!h.Client && !h.Server) {
			continue
		}
		t := Traffic{Host: h.Name, Counter: name, Opens: v, Own: j.connects, Other: v - min(v, j.connects)}
		t.Shared = t.Other > max(uint64(j.slots), j.connects/50, 10)
		out = append(out, t)
	}
	return out
}
