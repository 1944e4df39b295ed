package results

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"
)

// The timeline's interval: a repetition's warm-up and window are divided
// into intervals of load.interval, DefaultInterval unless the scenario
// says otherwise, from MinInterval to MaxInterval.
const (
	DefaultInterval = time.Second
	MinInterval     = 100 * time.Millisecond
	MaxInterval     = 10 * time.Second
)

// IntervalProblem says what is wrong with d as a timeline interval, or ""
// when it is within [MinInterval, MaxInterval].
func IntervalProblem(d time.Duration) string {
	if d < MinInterval || d > MaxInterval {
		return fmt.Sprintf("%s is outside %s to %s (shorter intervals cost every worker a CPU reading each; longer ones hide what happens inside the window)", d, MinInterval, MaxInterval)
	}
	return ""
}

// Timeline is a repetition in intervals: the groups' sum per interval with
// the controller's readings at the same boundaries (server CPU, every host's
// TCP counters). Each group's own intervals are Group.Timeline, or with one
// group the points (Rep.GroupTimeline).
//
// Interval k covers [k·Interval, (k+1)·Interval) from the window's start,
// cut at the load's start and the window's end: the warm-up has negative
// times, and the window's intervals add up exactly to its counts (a request
// counts in the interval it completes in, by the window's rule).
type Timeline struct {
	// Interval is the intervals' nominal length.
	Interval time.Duration `json:"interval"`
	// Points are the intervals in time order, warm-up first.
	Points []Point `json:"points"`
	// Hosts are the network namespaces whose TCP counters were read,
	// each with its counters' growth per point; empty when none was read.
	Hosts []TCPHost `json:"tcp_hosts,omitempty"`
	// Listener is the target's listening socket read at the same
	// boundaries; nil when the server host was not read (see ListenQueue).
	Listener *ListenQueue `json:"listener,omitempty"`
}

// Interval is one interval of a timeline: one group's, or the sum of
// every group's (Point).
type Interval struct {
	// Start is when the interval begins, relative to the window's start:
	// negative in the warm-up.
	Start time.Duration `json:"start"`
	// Length is how long it lasts: the timeline's interval, less for the
	// first (the load began inside it) and the last (the window ended
	// inside it).
	Length time.Duration `json:"length"`
	// Requests is the number of responses completed in the interval (any
	// status), counted as Counts.Requests is.
	Requests uint64 `json:"requests"`
	// Errors counts the requests that failed in the interval, and the
	// responses with a status >= 400, by class, as Counts.Errors does.
	Errors ErrorCounts `json:"errors,omitzero"`
	// Started is the number of requests started in the interval (each
	// opening a connection in close mode), whenever they ended.
	Started uint64 `json:"started"`
	// HandshakeP50 and HandshakeP99 are percentiles of the TLS handshake
	// time of the requests that completed, or failed after their
	// handshake, in the interval; TotalP50 and TotalP99 of the total time
	// of those that completed. 0 when there was none.
	HandshakeP50 time.Duration `json:"handshake_p50,omitempty"`
	HandshakeP99 time.Duration `json:"handshake_p99,omitempty"`
	TotalP50     time.Duration `json:"total_p50,omitempty"`
	TotalP99     time.Duration `json:"total_p99,omitempty"`
	// ProcessBusy is the CPU time the worker processes themselves used
	// (all their threads) over the interval's length times their groups'
	// CPUs (the machine's, unpinned); nil when not measured.
	ProcessBusy *float64 `json:"process_busy,omitempty"`
	// CPUsBusy is how busy the groups' CPUs were, with anything (each CPU
	// once, also when groups share it), 0..1; nil when not measured (an
	// unpinned group).
	CPUsBusy *float64 `json:"cpus_busy,omitempty"`
}

// End is when the interval ends, relative to the window's start.
func (iv *Interval) End() time.Duration { return iv.Start + iv.Length }

// Rate is the interval's successful responses per second (Requests less
// status errors, over Length); 0 for an empty interval.
func (iv *Interval) Rate() float64 {
	if iv.Length <= 0 {
		return 0
	}
	ok := iv.Requests - min(iv.Errors[ErrStatus], iv.Requests)
	return float64(ok) / iv.Length.Seconds()
}

// Point is one interval of a repetition: the groups' sum and the server's
// CPU over the same interval (the hosts' TCP counters are in
// Timeline.Hosts, point by point).
type Point struct {
	Interval
	// ServerBusy is the server's CPU (its process tree, or its whole
	// host) over the interval, as Rep.ServerCPU.Busy over the window;
	// nil when not measured.
	ServerBusy *float64 `json:"server_busy,omitempty"`
}

// quantiles returns h's p50 and p99; 0, 0 for an empty or nil h.
func quantiles(h *Histogram) (p50, p99 time.Duration) {
	if h == nil || h.Histogram == nil || h.TotalCount() == 0 {
		return 0, 0
	}
	return time.Duration(h.ValueAtQuantile(50)) * time.Microsecond, time.Duration(h.ValueAtQuantile(99)) * time.Microsecond
}

// share is a busy share as the timeline keeps it: within 0..1, to four
// decimals (a hundredth of a per cent is below what CPU accounting
// resolves, and the record stays small).
func share(v float64) *float64 {
	v = math.Round(min(max(v, 0), 1)*1e4) / 1e4
	return &v
}

// ErrorCounts counts errors by class, indexed by ErrorClass. It encodes
// to JSON as an object of the classes that occurred, keyed by class name.
type ErrorCounts [NumErrorClasses]uint64

// Total is the number of errors of every class.
func (e *ErrorCounts) Total() uint64 {
	var n uint64
	for _, c := range e {
		n += c
	}
	return n
}

// IsZero reports whether no error was counted (for omitzero).
func (e ErrorCounts) IsZero() bool { return e == ErrorCounts{} }

// MarshalJSON writes the classes that occurred as {"connect": 3, …}.
func (e ErrorCounts) MarshalJSON() ([]byte, error) {
	m := make(map[string]uint64)
	for c, n := range e {
		if n > 0 {
			m[ErrorClass(c).String()] = n
		}
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads what MarshalJSON wrote; unknown class names are errors.
func (e *ErrorCounts) UnmarshalJSON(data []byte) error {
	var m map[string]uint64
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	*e = ErrorCounts{}
	for name, n := range m {
		i := slices.Index(errorClassNames[:], name)
		if i < 0 {
			return fmt.Errorf("unknown error class %q", name)
		}
		e[i] = n
	}
	return nil
}

// TCPHost is one network namespace whose kernel TCP counters a timeline
// holds: a client host's, the server's, or one both share (Shared: read and
// recorded once, nothing counted twice).
type TCPHost struct {
	// Name is the host: "local" for the controller's machine, else the
	// ssh host's name as the scenario writes it.
	Name string `json:"name"`
	// Client and Server say whose namespace it is: the worker groups'
	// on that host, the server's, or (Shared) both.
	Client bool `json:"client,omitempty"`
	Server bool `json:"server,omitempty"`
	// Shared is true when the clients and the server are in this one
	// namespace: its counters are both sides' (see TCPHost).
	Shared bool `json:"shared,omitempty"`
	// Namespace identifies the namespace ("net:[4026531840]@1c2d3e4f":
	// its inode and its kernel's boot ID); "" when it could not be read.
	Namespace string `json:"namespace,omitempty"`
	// Counters are the counter names read there, in the kernel's terms
	// (ListenOverflows, …, RetransSegs).
	Counters []string `json:"counters"`
	// Unavailable holds, by name, the counters this host has no value for
	// in any interval, and why (not in this kernel, file unreadable, the
	// server not reachable): not available, never a zero.
	Unavailable map[string]string `json:"unavailable,omitempty"`
	// Deltas holds, by name, a counter's growth in each of the timeline's
	// points (Deltas[name][i] over Points[i]); null (nil) where it has no
	// value: a reading failed or the interval was not read (the run's log
	// says why). A counter of Counters that is neither Unavailable nor
	// here grew by 0 in every point: only those that grew or went missing
	// are kept, one series each, which keeps a long timeline small.
	Deltas map[string][]*uint64 `json:"deltas,omitempty"`
}

// TCPCounts is one host's TCP counter growth over one interval, as the
// controller hands it to a TimelineBuilder.
type TCPCounts struct {
	// Grew holds the counters that grew, by name, with their growth.
	Grew map[string]uint64
	// Missing names the counters of the host (beyond its Unavailable)
	// that have no value for this interval.
	Missing []string
}

// TCP returns how much counter name grew on host over point p, and whether
// that is known (false: not available there, or never read).
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
	i, _ := slices.BinarySearchFunc(t.Points, time.Duration(0), func(p Point, s time.Duration) int {
		return cmpDuration(p.Start, s)
	})
	return t.Points[i:]
}

func cmpDuration(a, b time.Duration) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// IntervalSample is a worker's report of one interval of its group: counts
// and histograms, merged across groups by TimelineBuilder; the record keeps
// only what Interval holds.
type IntervalSample struct {
	// K is the interval's index: it covers [K·interval, (K+1)·interval)
	// relative to the window's start, cut to Start and Length.
	K int `json:"k"`
	// Start and Length are Interval's.
	Start  time.Duration `json:"start"`
	Length time.Duration `json:"length"`
	// Requests, Errors and Started are Interval's.
	Requests uint64      `json:"requests"`
	Errors   ErrorCounts `json:"errors,omitzero"`
	Started  uint64      `json:"started"`
	// Handshake and Total hold the interval's handshake and total times;
	// nil when empty.
	Handshake *Histogram `json:"handshake,omitempty"`
	Total     *Histogram `json:"total,omitempty"`
	// Process is the worker's own CPU time over the interval, Busy
	// relative to its group's CPUs; nil when not measured.
	Process *CPUUsage `json:"process_cpu,omitempty"`
	// CPUs is how busy the group's CPUs were, CPU by CPU (PerCPU); nil
	// when not measured.
	CPUs *CPUUsage `json:"cpus,omitempty"`
}

// Interval is the group's interval as its timeline keeps it: the
// counts, the percentiles of its histograms and its CPU shares (what
// TimelineBuilder.Add stores, and the live metrics show).
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

// TimelineBuilder assembles a repetition's Timeline from the workers'
// interval samples and the controller's readings. An interval's histograms
// are merged and its percentiles taken once every group reported it (or at
// Build), so a long window keeps few histograms. Not safe for concurrent
// use.
type TimelineBuilder struct {
	interval time.Duration
	groups   []groupLine
	points   map[int]*pointAcc
	hosts    []TCPHost
	tcp      []map[int]TCPCounts // per host, by interval
	listener *ListenQueue
	listen   map[int]ListenSample // by interval
}

// groupLine is one group's intervals so far.
type groupLine struct {
	host      string
	intervals map[int]*Interval
	cpus      []int // the group's CPUs, from its CPUs samples
}

// pointAcc is one interval of the total while it is being assembled.
type pointAcc struct {
	p         Point
	known     bool // p.Start and p.Length are set
	reported  int  // groups that sent this interval
	handshake *Histogram
	total     *Histogram
	process   float64
	processOK bool
	cpus      map[hostCPU]float64 // busy seconds by CPU
	unpinned  bool                // a group's CPUs were not measured
}

type hostCPU struct {
	host string
	cpu  int
}

// NewTimelineBuilder returns a builder for groups groups with the given
// interval; hosts[i] is group i's ssh host ("" for the controller's
// machine), which tells CPUs of different machines apart.
func NewTimelineBuilder(interval time.Duration, hosts []string) *TimelineBuilder {
	b := &TimelineBuilder{interval: interval, points: map[int]*pointAcc{}}
	for _, h := range hosts {
		b.groups = append(b.groups, groupLine{host: h, intervals: map[int]*Interval{}})
	}
	return b
}

// point returns the accumulator of interval k, creating it.
func (b *TimelineBuilder) point(k int) *pointAcc {
	a := b.points[k]
	if a == nil {
		a = &pointAcc{}
		b.points[k] = a
	}
	return a
}

// setSpan widens the point's span to cover [start, start+length).
func (a *pointAcc) setSpan(start, length time.Duration) {
	if !a.known {
		a.p.Start, a.p.Length, a.known = start, length, true
		return
	}
	end := max(a.p.End(), start+length)
	a.p.Start = min(a.p.Start, start)
	a.p.Length = end - a.p.Start
}

// Add adds group g's sample. A second sample of the same interval from
// the same group is an error, as is a group out of range.
func (b *TimelineBuilder) Add(g int, s IntervalSample) error {
	if g < 0 || g >= len(b.groups) {
		return fmt.Errorf("timeline: group %d of %d", g, len(b.groups))
	}
	gl := &b.groups[g]
	if _, dup := gl.intervals[s.K]; dup {
		return fmt.Errorf("timeline: group %d sent interval %d twice", g, s.K)
	}
	iv := s.Interval()
	if s.CPUs != nil {
		if gl.cpus == nil {
			for _, c := range s.CPUs.PerCPU {
				gl.cpus = append(gl.cpus, c.CPU)
			}
		}
	}
	gl.intervals[s.K] = &iv

	a := b.point(s.K)
	a.setSpan(s.Start, s.Length)
	a.reported++
	a.p.Requests += s.Requests
	a.p.Started += s.Started
	for c, n := range s.Errors {
		a.p.Errors[c] += n
	}
	a.handshake = mergeHistogram(a.handshake, s.Handshake)
	a.total = mergeHistogram(a.total, s.Total)
	if s.Process != nil {
		a.process += s.Process.Seconds
		a.processOK = true
	}
	if s.CPUs != nil {
		if a.cpus == nil {
			a.cpus = map[hostCPU]float64{}
		}
		for _, c := range s.CPUs.PerCPU {
			// Groups that share a CPU read the same CPU: once.
			a.cpus[hostCPU{gl.host, c.CPU}] = max(a.cpus[hostCPU{gl.host, c.CPU}], c.Seconds)
		}
	} else {
		a.unpinned = true
	}
	if a.reported == len(b.groups) {
		a.settle()
	}
	return nil
}

// mergeHistogram merges h into acc (a fresh histogram when acc is nil) and
// returns acc; nil when both are empty.
func mergeHistogram(acc, h *Histogram) *Histogram {
	if h == nil || h.Histogram == nil || h.TotalCount() == 0 {
		return acc
	}
	if acc == nil {
		acc = NewHistogram()
	}
	acc.Merge(h.Histogram)
	return acc
}

// settle takes the point's percentiles and drops its histograms.
func (a *pointAcc) settle() {
	if a.handshake != nil {
		a.p.HandshakeP50, a.p.HandshakeP99 = quantiles(a.handshake)
	}
	if a.total != nil {
		a.p.TotalP50, a.p.TotalP99 = quantiles(a.total)
	}
	a.handshake, a.total = nil, nil
}

// AddServer records the server's CPU over interval k of the controller's
// readings, which begin at start and last length.
func (b *TimelineBuilder) AddServer(k int, start, length time.Duration, u *CPUUsage) {
	if u == nil {
		return
	}
	a := b.point(k)
	a.setSpan(start, length)
	a.p.ServerBusy = share(u.Busy)
}

// SetHosts sets the network namespaces whose TCP counters AddTCP records,
// in the order AddTCP indexes them.
func (b *TimelineBuilder) SetHosts(hosts []TCPHost) {
	b.hosts = hosts
	b.tcp = make([]map[int]TCPCounts, len(hosts))
	for i := range b.tcp {
		b.tcp[i] = map[int]TCPCounts{}
	}
}

// AddTCP records host h's counter growth over interval k (see
// TCPCounts), which begins at start and lasts length.
func (b *TimelineBuilder) AddTCP(k, h int, start, length time.Duration, c TCPCounts) {
	if h < 0 || h >= len(b.hosts) {
		return
	}
	b.point(k).setSpan(start, length)
	b.tcp[h][k] = c
}

// Build returns the timeline and each group's intervals in plan order (with
// one group, none of its own: see Rep.GroupTimeline).
func (b *TimelineBuilder) Build() (*Timeline, [][]Interval) {
	t := &Timeline{Interval: b.interval, Hosts: b.hosts}
	keys := slices.Sorted(maps.Keys(b.points))
	for _, k := range keys {
		a := b.points[k]
		a.settle()
		if len(a.cpus) > 0 && !a.unpinned {
			// Relative to the groups' CPUs, each once; unknown when a
			// group is unpinned.
			var s float64
			for _, v := range a.cpus {
				s += v
			}
			a.p.CPUsBusy = share(busy(s, a.p.Length, len(a.cpus)))
			if a.processOK {
				a.p.ProcessBusy = share(busy(a.process, a.p.Length, len(a.cpus)))
			}
		}
		t.Points = append(t.Points, a.p)
	}
	for h := range t.Hosts {
		t.Hosts[h].Deltas = b.deltas(h, keys)
	}
	t.Listener = b.listenerOver(keys)
	groups := make([][]Interval, len(b.groups))
	if len(b.groups) == 1 {
		return t, groups // the points are the group's (Rep.GroupTimeline)
	}
	for i, gl := range b.groups {
		for _, k := range slices.Sorted(maps.Keys(gl.intervals)) {
			groups[i] = append(groups[i], *gl.intervals[k])
		}
	}
	return t, groups
}

// GroupTimeline returns group i's intervals: its Timeline or, with one
// group, the timeline's points; nil when there are none.
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

// busy is seconds over length × cpus, within 0..1; 0 when unknown.
func busy(seconds float64, length time.Duration, cpus int) float64 {
	if length <= 0 || cpus <= 0 {
		return 0
	}
	return min(max(seconds/(length.Seconds()*float64(cpus)), 0), 1)
}

// deltas is host h's TCPHost.Deltas over the points of intervals keys:
// the series of every available counter that grew or went missing in
// some interval, null where it went missing or the interval was not read.
func (b *TimelineBuilder) deltas(h int, keys []int) map[string][]*uint64 {
	host := &b.hosts[h]
	var out map[string][]*uint64
	for _, name := range host.Counters {
		if _, gone := host.Unavailable[name]; gone {
			continue
		}
		kept := false
		series := make([]*uint64, len(keys))
		for i, k := range keys {
			c, read := b.tcp[h][k]
			switch v, grew := c.Grew[name]; {
			case !read || slices.Contains(c.Missing, name):
				kept = true
			case grew:
				series[i], kept = &v, kept || v > 0
			default:
				series[i] = new(uint64)
			}
		}
		if kept {
			if out == nil {
				out = map[string][]*uint64{}
			}
			out[name] = series
		}
	}
	return out
}
