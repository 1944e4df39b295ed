package results

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"time"
)

// The timeline's interval (load.interval) and its bounds.
const (
	DefaultInterval = time.Second
	MinInterval     = 100 * time.Millisecond
	MaxInterval     = 10 * time.Second
)

// IntervalProblem says what is wrong with d as a timeline interval, or "".
func IntervalProblem(d time.Duration) string {
	if d < MinInterval || d > MaxInterval {
		return fmt.Sprintf("%s is outside %s to %s (shorter intervals cost every worker a CPU reading each; longer ones hide what happens inside the window)", d, MinInterval, MaxInterval)
	}
	return ""
}

// Timeline is a repetition in intervals, the groups' sum with the controller's readings. Interval k
// covers [k·Interval, (k+1)·Interval) from the window's start, cut at the load's start and the
// window's end: the warm-up is negative, and the window's intervals add up to its counts.
type Timeline struct {
	Interval time.Duration `json:"interval"`
	Points   []Point       `json:"points"` // time order, warm-up first
	Hosts    []TCPHost     `json:"tcp_hosts,omitempty"`
	Listener *ListenQueue  `json:"listener,omitempty"`
}

// Interval is one group's interval, or the groups' sum (Point), counted by the window's rules.
type Interval struct {
	Start        time.Duration `json:"start"`  // from the window's start
	Length       time.Duration `json:"length"` // shorter at either end
	Requests     uint64        `json:"requests"`
	Errors       ErrorCounts   `json:"errors,omitzero"`
	Started      uint64        `json:"started"` // whenever they ended
	HandshakeP50 time.Duration `json:"handshake_p50,omitempty"`
	HandshakeP99 time.Duration `json:"handshake_p99,omitempty"`
	TotalP50     time.Duration `json:"total_p50,omitempty"`
	TotalP99     time.Duration `json:"total_p99,omitempty"`
	ProcessBusy  *float64      `json:"process_busy,omitempty"` // the workers' CPU time over Length × their CPUs
	CPUsBusy     *float64      `json:"cpus_busy,omitempty"`    // those CPUs' use by anything
}

// End is when the interval ends, relative to the window's start.
func (iv *Interval) End() time.Duration { return iv.Start + iv.Length }

// Rate is the interval's successful responses per second.
func (iv *Interval) Rate() float64 {
	return ratio(float64(iv.Requests-min(iv.Errors[ErrStatus], iv.Requests)), iv.Length.Seconds())
}

// Point is the groups' sum over one interval, with the server's CPU.
type Point struct {
	Interval
	ServerBusy *float64 `json:"server_busy,omitempty"` // as Rep.ServerCPU.Busy
}

func quantiles(h *Histogram) (p50, p99 time.Duration) {
	if EmptyHistogram(h) {
		return 0, 0
	}
	return time.Duration(h.ValueAtQuantile(50)) * time.Microsecond, time.Duration(h.ValueAtQuantile(99)) * time.Microsecond
}

// share is a busy share within 0..1 to four decimals (below what CPU accounting resolves).
func share(v float64) *float64 {
	v = math.Round(min(max(v, 0), 1)*1e4) / 1e4
	return &v
}

// ErrorCounts counts errors by class; JSON is {"connect": 3, …}.
type ErrorCounts [NumErrorClasses]uint64

// Total is the number of errors of every class.
func (e *ErrorCounts) Total() uint64 {
	var n uint64
	for _, c := range e {
		n += c
	}
	return n
}

// IsZero reports whether no error was counted.
func (e ErrorCounts) IsZero() bool { return e == ErrorCounts{} }

// MarshalJSON writes the classes that occurred.
func (e ErrorCounts) MarshalJSON() ([]byte, error) {
	return marshalClasses(e[:], func(n uint64) bool { return n > 0 })
}

// UnmarshalJSON reads what MarshalJSON wrote; unknown class names are errors.
func (e *ErrorCounts) UnmarshalJSON(data []byte) error { return unmarshalClasses(data, e[:]) }

// TCPHost is a network namespace whose TCP counters a timeline holds. Deltas[name][i] is a
// counter's growth over Points[i], nil where not read, kept for counters that grew or went missing.
type TCPHost struct {
	Name        string               `json:"name"` // "local" or the ssh host
	Client      bool                 `json:"client,omitempty"`
	Server      bool                 `json:"server,omitempty"`
	Shared      bool                 `json:"shared,omitempty"`
	Namespace   string               `json:"namespace,omitempty"`   // "net:[inode]@boot-id"; "" when unreadable
	Counters    []string             `json:"counters"`              // kernel names
	Unavailable map[string]string    `json:"unavailable,omitempty"` // why a counter has no value anywhere
	Deltas      map[string][]*uint64 `json:"deltas,omitempty"`
}

// TCPCounts is one host's counter growth over one interval.
type TCPCounts struct {
	Grew    map[string]uint64
	Missing []string
}

// TCP returns how much counter name grew on host over point p, if known.
func (t *Timeline) TCP(p, host int, name string) (uint64, bool) {
	if host < 0 || host >= len(t.Hosts) || p < 0 || p >= len(t.Points) {
		return 0, false
	}
	h := &t.Hosts[host]
	if _, gone := h.Unavailable[name]; gone || !slices.Contains(h.Counters, name) {
		return 0, false
	}
	d, ok := h.Deltas[name]
	switch {
	case !ok:
		return 0, true
	case p >= len(d) || d[p] == nil:
		return 0, false
	}
	return *d[p], true
}

// Window returns the timeline's points inside the window (Start >= 0).
func (t *Timeline) Window() []Point {
	return t.Points[sort.Search(len(t.Points), func(i int) bool { return t.Points[i].Start >= 0 }):]
}

// ListenQueue is the target's listening socket at the timeline's boundaries: its own drops and
// accept queue, which another program's listener does not move (the namespace's counters it does).
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

// IntervalSample is a worker's report of interval K of its group.
type IntervalSample struct {
	K         int           `json:"k"`
	Start     time.Duration `json:"start"`
	Length    time.Duration `json:"length"`
	Requests  uint64        `json:"requests"`
	Errors    ErrorCounts   `json:"errors,omitzero"`
	Started   uint64        `json:"started"`
	Handshake *Histogram    `json:"handshake,omitempty"`
	Total     *Histogram    `json:"total,omitempty"`
	Process   *CPUUsage     `json:"process_cpu,omitempty"`
	CPUs      *CPUUsage     `json:"cpus,omitempty"`
}

// Interval is the sample as a timeline keeps it.
func (s *IntervalSample) Interval() Interval {
	iv := Interval{Start: s.Start, Length: s.Length, Requests: s.Requests, Errors: s.Errors, Started: s.Started}
	iv.HandshakeP50, iv.HandshakeP99 = quantiles(s.Handshake)
	iv.TotalP50, iv.TotalP99 = quantiles(s.Total)
	if s.Process != nil {
		iv.ProcessBusy = share(s.Process.Busy)
	}
	if s.CPUs != nil {
		iv.CPUsBusy = share(s.CPUs.Busy)
	}
	return iv
}

// TimelineBuilder assembles a repetition's Timeline from the workers' samples and the controller's readings.
type TimelineBuilder struct {
	interval   time.Duration
	groupHosts []string // group i's ssh host, "" here
	points     map[int]*pointAcc
	hosts      []TCPHost
	listener   *ListenQueue
}

// pointAcc is one interval of the total while it is being assembled.
type pointAcc struct {
	p         Point
	groups    []*Interval // each group's, nil until it sent it
	handshake *Histogram
	total     *Histogram
	process   float64
	processOK bool
	cpus      map[hostCPU]float64 // busy seconds by CPU
	unpinned  bool                // a group's CPUs were not measured
	tcp       map[int]TCPCounts   // by host
	listen    *ListenSample       // the listener's last reading, nil when not read
}

type hostCPU struct {
	host string
	cpu  int
}

// NewTimelineBuilder returns a builder; hosts[i] is group i's ssh host ("" here).
func NewTimelineBuilder(interval time.Duration, hosts []string) *TimelineBuilder {
	return &TimelineBuilder{interval: interval, groupHosts: hosts, points: map[int]*pointAcc{}}
}

// at is interval k's point, its span widened to cover [start, start+length).
func (b *TimelineBuilder) at(k int, start, length time.Duration) *pointAcc {
	a := b.points[k]
	if a == nil {
		a = &pointAcc{p: Point{Interval: Interval{Start: start, Length: length}},
			groups: make([]*Interval, len(b.groupHosts)), cpus: map[hostCPU]float64{}, tcp: map[int]TCPCounts{}}
		b.points[k] = a
	}
	end := max(a.p.End(), start+length)
	a.p.Start = min(a.p.Start, start)
	a.p.Length = end - a.p.Start
	return a
}

// Add adds group g's sample; a duplicate or a bad group is an error.
func (b *TimelineBuilder) Add(g int, s IntervalSample) error {
	if g < 0 || g >= len(b.groupHosts) {
		return fmt.Errorf("timeline: group %d of %d", g, len(b.groupHosts))
	}
	if a := b.points[s.K]; a != nil && a.groups[g] != nil {
		return fmt.Errorf("timeline: group %d sent interval %d twice", g, s.K)
	}
	a := b.at(s.K, s.Start, s.Length)
	a.groups[g] = new(s.Interval())
	a.p.Requests += s.Requests
	a.p.Started += s.Started
	for c, n := range s.Errors {
		a.p.Errors[c] += n
	}
	a.handshake = mergeHistogram(a.handshake, s.Handshake)
	a.total = mergeHistogram(a.total, s.Total)
	if s.Process != nil {
		a.process, a.processOK = a.process+s.Process.Seconds, true
	}
	if s.CPUs != nil {
		for _, c := range s.CPUs.PerCPU {
			// Groups that share a CPU read the same CPU: once.
			cpu := hostCPU{b.groupHosts[g], c.CPU}
			a.cpus[cpu] = max(a.cpus[cpu], c.Seconds)
		}
	} else {
		a.unpinned = true
	}
	if !slices.Contains(a.groups, nil) {
		a.settle()
	}
	return nil
}

func mergeHistogram(acc, h *Histogram) *Histogram {
	if EmptyHistogram(h) {
		return acc
	}
	if acc == nil {
		acc = NewHistogram()
	}
	acc.Merge(h.Histogram)
	return acc
}

// settle takes the percentiles once (the last group reported, or at Build) and drops the histograms.
func (a *pointAcc) settle() {
	// A pair whose histogram is nil (none sent, or settled already) keeps its percentiles.
	if a.handshake != nil {
		a.p.HandshakeP50, a.p.HandshakeP99 = quantiles(a.handshake)
	}
	if a.total != nil {
		a.p.TotalP50, a.p.TotalP99 = quantiles(a.total)
	}
	a.handshake, a.total = nil, nil
}

// AddServer records the server's CPU over interval k.
func (b *TimelineBuilder) AddServer(k int, start, length time.Duration, u *CPUUsage) {
	if u != nil {
		b.at(k, start, length).p.ServerBusy = share(u.Busy)
	}
}

// SetHosts sets the namespaces AddTCP indexes.
func (b *TimelineBuilder) SetHosts(hosts []TCPHost) { b.hosts = hosts }

// AddTCP records host h's counter growth over interval k.
func (b *TimelineBuilder) AddTCP(k, h int, start, length time.Duration, c TCPCounts) {
	if h >= 0 && h < len(b.hosts) {
		b.at(k, start, length).tcp[h] = c
	}
}

// Build returns the timeline and each group's intervals (none with one group).
func (b *TimelineBuilder) Build() (*Timeline, [][]Interval) {
	t := &Timeline{Interval: b.interval, Hosts: b.hosts}
	keys := slices.Sorted(maps.Keys(b.points))
	groups := make([][]Interval, len(b.groupHosts)) // none with one group, whose are the points
	for _, k := range keys {
		a := b.points[k]
		a.settle() // a point some group never sent; a no-op on one settled already
		for g, iv := range a.groups {
			if iv != nil && len(a.groups) > 1 {
				groups[g] = append(groups[g], *iv)
			}
		}
		if len(a.cpus) > 0 && !a.unpinned {
			var s float64
			for _, v := range slices.Sorted(maps.Values(a.cpus)) { // in one order: the same bits every time
				s += v
			}
			cpuSeconds := a.p.Length.Seconds() * float64(len(a.cpus))
			a.p.CPUsBusy = share(ratio(s, cpuSeconds))
			if a.processOK {
				a.p.ProcessBusy = share(ratio(a.process, cpuSeconds))
			}
		}
		t.Points = append(t.Points, a.p)
	}
	for h := range t.Hosts {
		t.Hosts[h].Deltas = b.deltas(h, keys)
	}
	t.Listener = b.listenerOver(keys)
	return t, groups
}

// GroupTimeline returns group i's intervals (with one group, the timeline's points).
func (r *Rep) GroupTimeline(i int) []Interval {
	if i < 0 || i >= len(r.Groups) {
		return nil
	}
	if len(r.Groups) > 1 || r.Timeline == nil {
		return r.Groups[i].Timeline
	}
	out := make([]Interval, len(r.Timeline.Points))
	for j, p := range r.Timeline.Points {
		out[j] = p.Interval
	}
	return out
}

func someRead(s []*uint64) []*uint64 {
	if !slices.ContainsFunc(s, func(p *uint64) bool { return p != nil }) {
		return nil
	}
	return s
}

// deltas keeps the counters that grew or went unread: the others are zero throughout.
func (b *TimelineBuilder) deltas(h int, keys []int) map[string][]*uint64 {
	host := &b.hosts[h]
	out := map[string][]*uint64{}
	for _, name := range host.Counters {
		if _, gone := host.Unavailable[name]; gone {
			continue
		}
		s := make([]*uint64, len(keys)) // nil where not read
		for i, k := range keys {
			if c, read := b.points[k].tcp[h]; read && !slices.Contains(c.Missing, name) {
				s[i] = new(c.Grew[name])
			}
		}
		if slices.ContainsFunc(s, func(p *uint64) bool { return p == nil || *p > 0 }) {
			out[name] = s
		}
	}
	if len(out) == 0 {
		return nil // as JSON reads it back
	}
	return out
}

// SetListener sets the listener AddListener records; why says why it cannot be read.
func (b *TimelineBuilder) SetListener(host string, port int, why string) {
	b.listener = &ListenQueue{Host: host, Port: port, Unavailable: why}
}

// AddListener records the listener's reading over interval k.
func (b *TimelineBuilder) AddListener(k int, start, length time.Duration, s ListenSample) {
	if b.listener != nil && b.listener.Unavailable == "" {
		b.at(k, start, length).listen = &s
	}
}

// listenerOver is a copy of the listener with its series over the intervals keys.
func (b *TimelineBuilder) listenerOver(keys []int) *ListenQueue {
	if b.listener == nil {
		return nil
	}
	l := *b.listener
	if l.Unavailable != "" { // no reading then
		return &l
	}
	drops, queue := make([]*uint64, len(keys)), make([]*uint64, len(keys))
	for i, k := range keys {
		if s := b.points[k].listen; s != nil {
			queue[i], l.Backlog = &s.Queue, max(l.Backlog, s.Backlog)
			if s.DropsKnown {
				drops[i] = &s.Drops
			}
		}
	}
	l.Drops, l.Queue = someRead(drops), someRead(queue)
	return &l
}
