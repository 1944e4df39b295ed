package results

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// EmptyHistogram reports whether h holds no value.
func EmptyHistogram(h *Histogram) bool { return h == nil || h.Histogram == nil || h.TotalCount() == 0 }

// Histogram bounds in µs: two significant digits keep one near 20 KB, four per connection slot.
const (
	HistogramMin    = 1
	HistogramMax    = int64(120 * time.Second / time.Microsecond)
	HistogramDigits = 2
)

// Histogram is an HDR latency histogram in µs; its JSON is lossless compressed HdrHistogram V2.
type Histogram struct {
	*hdrhistogram.Histogram
}

// NewHistogram returns an empty histogram with the package bounds.
func NewHistogram() *Histogram {
	return &Histogram{hdrhistogram.New(HistogramMin, HistogramMax, HistogramDigits)}
}

// Record adds one duration, clamped to the histogram's bounds.
func (h *Histogram) Record(d time.Duration) { h.RecordN(d, 1) }

// RecordN adds d n times, clamped likewise (so it cannot fail).
func (h *Histogram) RecordN(d time.Duration, n uint64) {
	_ = h.RecordValues(min(max(int64(d/time.Microsecond), HistogramMin), HistogramMax), int64(n))
}

// MarshalJSON encodes the histogram as compressed HdrHistogram V2.
func (h *Histogram) MarshalJSON() ([]byte, error) {
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return nil, err
	}
	return json.Marshal(string(b))
}

// UnmarshalJSON decodes a histogram written by MarshalJSON.
func (h *Histogram) UnmarshalJSON(data []byte) error {
	var s string
	err := json.Unmarshal(data, &s)
	if err == nil {
		h.Histogram, err = hdrhistogram.Decode([]byte(s))
	}
	if err != nil {
		return fmt.Errorf("histogram: %w", err)
	}
	return nil
}

// ErrorClass is the kind of failure of one request.
type ErrorClass uint8

// The error classes, in the order a request meets them.
const (
	ErrConnect ErrorClass = iota // TCP connect failed
	ErrTLS                       // TLS handshake failed
	ErrTimeout                   // any step ran past the request timeout
	ErrWrite                     // writing the request failed
	ErrRead                      // reading or parsing the response failed
	ErrStatus                    // a response arrived with status >= 400
	ErrPorts                     // no free ephemeral port (EADDRNOTAVAIL): the client's fault
	NumErrorClasses
)

var errorClassNames = [NumErrorClasses]string{"connect", "tls", "timeout", "write", "read", "status", "ports"}

// PortsHint is what a user can do when requests fail with ErrPorts.
const PortsHint = "client ports exhausted: every ephemeral port to this destination is in use or in TIME_WAIT; " +
	"let the kernel reuse them (sysctl -w net.ipv4.tcp_tw_reuse=1), widen the range " +
	"(sysctl -w net.ipv4.ip_local_port_range='1024 65535'), or spread the load over more client or server addresses"

// String is the class name used in output and JSON.
func (c ErrorClass) String() string {
	if c < NumErrorClasses {
		return errorClassNames[c]
	}
	return fmt.Sprintf("class(%d)", uint8(c))
}

// ErrorCount is how often one class of error happened, with its first message.
type ErrorCount struct {
	Count uint64 `json:"count"`
	First string `json:"first,omitempty"`
}

// Errors holds one ErrorCount per class, indexed by ErrorClass.
type Errors [NumErrorClasses]ErrorCount

// Add counts one error of class c, keeping the first message.
func (e *Errors) Add(c ErrorClass, err error) {
	ec := &e[c]
	if ec.Count == 0 && err != nil {
		ec.First = err.Error()
	}
	ec.Count++
}

// Total is the errors of every class.
func (e *Errors) Total() uint64 {
	var n uint64
	for _, ec := range e {
		n += ec.Count
	}
	return n
}

// MarshalJSON writes the classes that occurred, keyed by class name.
func (e Errors) MarshalJSON() ([]byte, error) {
	return marshalClasses(e[:], func(ec ErrorCount) bool { return ec.Count > 0 }) // a message needs a count
}

// UnmarshalJSON reads what MarshalJSON wrote; unknown class names are errors.
func (e *Errors) UnmarshalJSON(data []byte) error { return unmarshalClasses(data, e[:]) }

func marshalClasses[T any](byClass []T, occurred func(T) bool) ([]byte, error) {
	m := make(map[string]T)
	for c, v := range byClass {
		if occurred(v) {
			m[ErrorClass(c).String()] = v
		}
	}
	return json.Marshal(m)
}

func unmarshalClasses[T any](data []byte, byClass []T) error {
	clear(byClass)
	var m map[string]T
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	for name, v := range m {
		i := slices.Index(errorClassNames[:], name)
		if i < 0 {
			return fmt.Errorf("unknown error class %q", name)
		}
		byClass[i] = v
	}
	return nil
}

// Counts are one slot's, group's or run's counters, every field a sum. A request counts when its response
// completes inside the window, so groups add up exactly; Outside (in no figure) checks them against the server's log.
type Counts struct {
	Requests    uint64            `json:"requests"` // complete responses, any status
	Bytes       uint64            `json:"bytes"`    // response bytes, headers included
	Status      [6]uint64         `json:"status"`   // [1] = 1xx … [5] = 5xx, [0] = other
	Connections uint64            `json:"connections_opened"`
	Handshakes  uint64            `json:"handshakes"`
	Resumed     uint64            `json:"resumed"`              // handshakes that resumed a session
	Negotiated  map[string]uint64 `json:"negotiated,omitempty"` // handshakes by Handshake.String
	Errors      Errors            `json:"errors"`
	Scheduled   uint64            `json:"scheduled,omitempty"`
	Missed      uint64            `json:"missed,omitempty"`   // open-loop starts due that never ran, no slot being free
	Backoffs    uint64            `json:"backoffs,omitempty"` // 1 ms doubling to 100 ms: no busy loop
	Sockets     Sockets           `json:"sockets,omitzero"`
	Outside     Outside           `json:"outside"`
}

// Sockets is the client's connections' TCP_INFO before close, its own evidence of loss or resets: a full
// accept queue drops the final ACK, seen as a retransmitted segment (a SYN as a connect of >= 1 s).
type Sockets struct {
	Read          uint64 `json:"read"`                    // connections whose TCP_INFO was read
	Retransmitted uint64 `json:"retransmitted,omitempty"` // connections
	Retransmits   uint64 `json:"retransmits,omitempty"`   // segments
	Reset         uint64 `json:"reset,omitempty"`         // by the peer before close
}

// Outside counts the requests that ended outside the window: the warm-up's (counted as the window's),
// the Late completed in the drain, and the Abandoned (in flight at its end, failed or cut off, by stage).
type Outside struct {
	Warmup        uint64      `json:"warmup"`
	WarmupErrors  uint64      `json:"warmup_errors"`
	WarmupStatus  [6]uint64   `json:"warmup_status,omitzero"`
	WarmupClasses ErrorCounts `json:"warmup_errors_by_class,omitzero"`
	Late          uint64      `json:"late"`
	LateStatus    [6]uint64   `json:"late_status,omitzero"`
	AfterClasses  ErrorCounts `json:"after_errors_by_class,omitzero"` // the Late errors and the Abandoned
	Abandoned     uint64      `json:"abandoned"`
	Unanswered    Stages      `json:"unanswered"`
}

// WarmupErrorTotal is the warm-up's errors of every class (WarmupErrors in a record from before classes).
func (o *Outside) WarmupErrorTotal() uint64 {
	if o.WarmupClasses.IsZero() {
		return o.WarmupErrors
	}
	return o.WarmupClasses.Total()
}

// Stages counts requests by the stage they were waiting in.
type Stages struct {
	Connect   uint64 `json:"connect"`
	Handshake uint64 `json:"handshake"`
	Response  uint64 `json:"response"`
}

// Total is the sum over the stages.
func (s Stages) Total() uint64 { return s.Connect + s.Handshake + s.Response }

// Add adds o into c by reflection, so that no counter can be left out of a merge.
func (c *Counts) Add(o *Counts) { addSums(reflect.ValueOf(c).Elem(), reflect.ValueOf(o).Elem()) }

// addSums adds src into dst; an ErrorCount keeps the first message.
func addSums(dst, src reflect.Value) {
	switch d := dst.Addr().Interface().(type) {
	case *map[string]uint64: // Negotiated
		for k, n := range src.Interface().(map[string]uint64) {
			if *d == nil {
				*d = map[string]uint64{}
			}
			(*d)[k] += n
		}
	case *ErrorCount:
		o := src.Interface().(ErrorCount)
		if d.Count == 0 {
			d.First = o.First
		}
		d.Count += o.Count
	default:
		switch dst.Kind() {
		case reflect.Uint64: // any uint64 type
			dst.SetUint(dst.Uint() + src.Uint())
		case reflect.Array:
			for i := range dst.Len() {
				addSums(dst.Index(i), src.Index(i))
			}
		case reflect.Struct:
			for i := range dst.NumField() {
				addSums(dst.Field(i), src.Field(i))
			}
		default:
			panic("results: Counts holds a " + dst.Type().String() + ", which is no sum")
		}
	}
}

// Succeeded is the window's responses with a status below 400, what the rate counts (a 4xx or 5xx is an ErrStatus).
func (c *Counts) Succeeded() uint64 { return c.Requests - min(c.Errors[ErrStatus].Count, c.Requests) }

// Attempts is the requests that ended in the window, failed or not.
func (c *Counts) Attempts() uint64 { return c.Succeeded() + c.Errors.Total() }

// ErrorShare is Errors.Total / Attempts; 0 without attempts.
func (c *Counts) ErrorShare() float64 { return ratio(float64(c.Errors.Total()), float64(c.Attempts())) }

// MissedShare is Missed / Scheduled; 0 in a closed loop.
func (c *Counts) MissedShare() float64 { return ratio(float64(c.Missed), float64(c.Scheduled)) }

func ratio(n, d float64) float64 {
	if d <= 0 {
		return 0
	}
	return n / d
}

// MaxMissedShare is the missed share above which an open loop did not run at the rate asked.
const MaxMissedShare = 0.01

// Why an open-loop group missed over MaxMissedShare of its starts: kaeload used ClientBoundBusy of the CPUs;
// others kept them that busy; or every slot was busy (the server too slow for the rate and connections).
const (
	ClientBound    = "CLIENT-BOUND"
	CPUsTaken      = "CPUS-TAKEN"
	SlotsExhausted = "SLOTS-EXHAUSTED"
)

// Latency holds the per-request timings, a new connection's from before connect.
type Latency struct {
	Connect   *Histogram `json:"connect"`
	Handshake *Histogram `json:"handshake"`
	TTFB      *Histogram `json:"ttfb"`               // to the first response byte
	Total     *Histogram `json:"total"`              // to the last response byte
	Intended  *Histogram `json:"intended,omitempty"` // open loop: from the scheduled start (a missed one: the timeout)
}

// NewLatency returns a Latency with four empty histograms.
func NewLatency() Latency {
	return Latency{Connect: NewHistogram(), Handshake: NewHistogram(), TTFB: NewHistogram(), Total: NewHistogram()}
}

// Merge adds o's histograms into l exactly, skipping nil ones; l.Intended is made when o has one.
func (l *Latency) Merge(o *Latency) {
	if o.Intended != nil && o.Intended.Histogram != nil && EmptyHistogram(l.Intended) {
		l.Intended = NewHistogram()
	}
	src := [...]*Histogram{o.Connect, o.Handshake, o.TTFB, o.Total, o.Intended}
	for i, h := range [...]*Histogram{l.Connect, l.Handshake, l.TTFB, l.Total, l.Intended} {
		if h != nil && h.Histogram != nil && !EmptyHistogram(src[i]) {
			h.Merge(src[i].Histogram)
		}
	}
}

// Window is a measured wall-clock interval.
type Window struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// Length is the window's duration.
func (w Window) Length() time.Duration { return w.End.Sub(w.Start) }

// Group is what one worker group measured in one window; nil and zero mean not measured. Window is in
// the controller's clock.
type Group struct {
	Index      int     `json:"index"`          // position in the plan
	CPUs       string  `json:"cpus,omitempty"` // taskset list; "" = unpinned
	Threads    int     `json:"threads"`
	Slots      int     `json:"slots"` // planned concurrent connection slots
	Window     Window  `json:"window"`
	GroupsRate float64 `json:"groups_rate,omitempty"` // Rep.RecordSpread
	Counts
	Latency     Latency       `json:"latency"`
	CPU         *CPUUsage     `json:"cpu,omitempty"`         // its CPUs' use by anything
	Process     *CPUUsage     `json:"process_cpu,omitempty"` // the worker's own (adds up across groups sharing CPUs)
	Wait        *CPUUsage     `json:"wait,omitempty"`        // CPU time its threads wanted while others held the CPUs
	Others      []ProcessCPU  `json:"others,omitempty"`      // the busiest on its CPUs
	PeakRSS     uint64        `json:"peak_rss,omitempty"`
	MemoryReady uint64        `json:"memory_ready,omitempty"`
	MemoryPeak  uint64        `json:"memory_peak,omitempty"`
	Host        string        `json:"host,omitempty"`         // ssh; "" = here
	ClockOffset time.Duration `json:"clock_offset,omitempty"` // the host's clock minus the controller's
	Timeline    []Interval    `json:"timeline,omitempty"`     // none in a Merge or one group: Rep.GroupTimeline
}

// TotalIndex is the Group.Index of a group produced by Merge.
const TotalIndex = -1

// Merge is the groups' exact total, sharing no memory; its Window is their hull (Rate never overstated).
func Merge(groups []Group) Group {
	t := Group{Index: TotalIndex, Latency: NewLatency()}
	for i := range groups {
		g := &groups[i]
		t.Counts.Add(&g.Counts)
		t.Latency.Merge(&g.Latency)
		t.Threads += g.Threads
		t.Slots += g.Slots
		t.PeakRSS += g.PeakRSS
		t.MemoryReady += g.MemoryReady
		t.MemoryPeak += g.MemoryPeak
		if w := g.Window; !w.Start.IsZero() && (t.Window.Start.IsZero() || w.Start.Before(t.Window.Start)) {
			t.Window.Start = w.Start
		}
		if w := g.Window; w.End.After(t.Window.End) { // the zero time is before any
			t.Window.End = w.End
		}
	}
	return t
}

// Rate is the group's successful requests per second over its Window, or GroupsRate when set.
func (g *Group) Rate() float64 {
	if g.GroupsRate > 0 {
		return g.GroupsRate
	}
	return ratio(float64(g.Succeeded()), g.Window.Length().Seconds())
}

// ClientBoundBusy is the share of a group's CPU time kaeload must use itself to have measured itself, not the server.
const ClientBoundBusy = 0.90

// CPUUsage is CPU time used over a window; IRQ (irq + softirq) is in no process's time.
type CPUUsage struct {
	CPUs    string    `json:"cpus,omitempty"` // taskset list; "" = machine or process tree
	Seconds float64   `json:"seconds"`        // busy time, not idle or iowait
	Busy    float64   `json:"busy"`           // Seconds / (window × CPUs), 0..1
	IRQ     float64   `json:"irq,omitempty"`
	PerCPU  []CPUTime `json:"per_cpu,omitempty"` // ascending: groups sharing CPUs count them once
}

// OthersListed is how many other processes Group.Others names.
const OthersListed = 3

// ProcessCPU is one process's user + system time over a window.
type ProcessCPU struct {
	PID     int     `json:"pid"`
	Comm    string  `json:"comm"`
	Nice    int     `json:"nice"`
	Seconds float64 `json:"seconds"`
	CPUs    string  `json:"cpus,omitempty"` // its affinity, taskset form
}

// CPUTime is the busy time of one CPU over a window.
type CPUTime struct {
	CPU     int     `json:"cpu"`
	Seconds float64 `json:"seconds"`
}

// SlotMemoryBase is how much a loaded worker's private memory grows whatever its slots: the heap's
// first 4 MiB and 1.5 MiB of state (measured: 5.5 MiB with one slot, 39 MiB with 1,024).
const SlotMemoryBase = 6 << 20

// SlotMemory is what a repetition's connection slots cost the client in bytes. PerSlot is the
// growth less SlotMemoryBase per worker, over Slots: Known when the slots make most of the growth.
type SlotMemory struct {
	Workers, Slots int
	Ready, Peak    uint64
	PerSlot        float64
	Known          bool // the growth is at least twice the base
}

// SlotMemory is the memory per connection slot of r's groups; false when none measured it.
func (r *Rep) SlotMemory() (SlotMemory, bool) {
	var m SlotMemory
	for i := range r.Groups {
		g := &r.Groups[i]
		if g.MemoryReady == 0 || g.MemoryPeak == 0 {
			continue
		}
		m.Workers++
		m.Slots += g.Slots
		m.Ready += g.MemoryReady
		m.Peak += max(g.MemoryPeak, g.MemoryReady)
	}
	if m.Workers == 0 {
		return m, false
	}
	growth := float64(m.Peak - m.Ready)
	base := float64(SlotMemoryBase) * float64(m.Workers)
	if m.Slots > 0 && growth >= 2*base {
		m.PerSlot, m.Known = (growth-base)/float64(m.Slots), true
	}
	return m, true
}
