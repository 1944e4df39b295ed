package results

import (
	"encoding/json"
	"fmt"
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"time"
)

// EmptyHistogram reports whether h holds no value.
func EmptyHistogram(h *Histogram) bool { return h == nil || h.Histogram == nil || h.TotalCount() == 0 }

// Histogram bounds: latencies are recorded in microseconds from 1 µs to
// HistogramMax with HistogramDigits significant decimal digits. Two digits
// keep one histogram near 20 KB, so a worker can afford four per connection
// slot (hundreds of slots) and still merge them exactly at the end.
const (
	HistogramMin    = 1
	HistogramMax    = int64(120 * time.Second / time.Microsecond)
	HistogramDigits = 2
)

// Histogram is an HDR latency histogram in microseconds. It encodes to JSON
// as the compressed HdrHistogram V2 format (base64), so histograms cross the
// worker pipe and land in run.json losslessly and merge exactly.
type Histogram struct {
	*hdrhistogram.Histogram
}

// NewHistogram returns an empty histogram with the package bounds.
func NewHistogram() *Histogram {
	return &Histogram{hdrhistogram.New(HistogramMin, HistogramMax, HistogramDigits)}
}

// Record adds one duration, clamped to the histogram's bounds.
func (h *Histogram) Record(d time.Duration) {
	_ = h.RecordValue(clampMicros(d)) // cannot fail: within bounds
}

// RecordN adds n times the duration d, clamped to the histogram's bounds.
func (h *Histogram) RecordN(d time.Duration, n uint64) {
	_ = h.RecordValues(clampMicros(d), int64(n)) // cannot fail: within bounds
}

// clampMicros is d in microseconds within [HistogramMin, HistogramMax].
func clampMicros(d time.Duration) int64 {
	return min(max(int64(d/time.Microsecond), HistogramMin), HistogramMax)
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
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("histogram: %w", err)
	}
	d, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		return fmt.Errorf("histogram: %w", err)
	}
	h.Histogram = d
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
	// ErrPorts is a connect that failed because the client had no free
	// ephemeral port for the destination (EADDRNOTAVAIL): the load
	// generator ran out of ports, the server is not at fault.
	ErrPorts
	NumErrorClasses
)

var errorClassNames = [NumErrorClasses]string{"connect", "tls", "timeout", "write", "read", "status", "ports"}

// PortsHint is what a user can do when requests fail with ErrPorts.
const PortsHint = "client ports exhausted: every ephemeral port to this destination is in use or in TIME_WAIT; " +
	"let the kernel reuse them (sysctl -w net.ipv4.tcp_tw_reuse=1), widen the range " +
	"(sysctl -w net.ipv4.ip_local_port_range='1024 65535'), or spread the load over more client or server addresses"

// String returns the class name used in output and JSON.
func (c ErrorClass) String() string {
	if c < NumErrorClasses {
		return errorClassNames[c]
	}
	return fmt.Sprintf("class(%d)", uint8(c))
}

// ErrorCount is how often one class of error happened, with the first message seen.
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

// Total is the number of errors of every class.
func (e *Errors) Total() uint64 {
	var n uint64
	for _, ec := range e {
		n += ec.Count
	}
	return n
}

// MarshalJSON writes the classes that occurred as an object keyed by class name.
func (e Errors) MarshalJSON() ([]byte, error) {
	m := make(map[string]ErrorCount)
	for c, ec := range e {
		if ec.Count > 0 {
			m[ErrorClass(c).String()] = ec
		}
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads what MarshalJSON wrote; unknown class names are errors.
func (e *Errors) UnmarshalJSON(data []byte) error {
	var m map[string]ErrorCount
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	*e = Errors{}
outer:
	for name, ec := range m {
		for c, n := range errorClassNames {
			if n == name {
				e[c] = ec
				continue outer
			}
		}
		return fmt.Errorf("unknown error class %q", name)
	}
	return nil
}

// Counts are the counters of one slot, group or run. A request counts when
// its response completes inside the measured window; every field here obeys
// that rule, so counts from different groups add up exactly.
type Counts struct {
	// Requests is the number of complete responses (any status).
	Requests uint64 `json:"requests"`
	// Bytes is the number of response bytes read (headers and body).
	Bytes uint64 `json:"bytes"`
	// Status counts responses by class: Status[1] = 1xx … Status[5] = 5xx,
	// Status[0] = anything else.
	Status [6]uint64 `json:"status"`
	// Connections is the number of TCP connections opened (JSON
	// "connections_opened", to tell it from a group's planned Slots).
	Connections uint64 `json:"connections_opened"`
	// Handshakes is the number of TLS handshakes completed.
	Handshakes uint64 `json:"handshakes"`
	// Resumed is how many of those handshakes resumed a session.
	Resumed uint64 `json:"resumed"`
	// Negotiated counts handshakes by "version cipher curve", e.g.
	// "TLS1.3 TLS_AES_128_GCM_SHA256 X25519".
	Negotiated map[string]uint64 `json:"negotiated,omitempty"`
	// Errors counts failed requests by class.
	Errors Errors `json:"errors"`
	// Scheduled is, in open-loop mode (a rate), the number of starts
	// due inside the window: those run and those Missed. 0 in a closed
	// loop.
	Scheduled uint64 `json:"scheduled,omitempty"`
	// Missed is, in open-loop mode, the number of starts due inside the
	// window that did not run because every connection slot was busy
	// when they came due (or the client too slow to start them). A missed
	// start is never run late; see MissedShare.
	Missed uint64 `json:"missed,omitempty"`
	// Backoffs is the number of times a connection slot waited before its
	// next try because its connects had failed several times in a row
	// (engine: 1 ms, doubling up to 100 ms, reset by a connect that
	// succeeds), counted when the wait began inside the window. The
	// failures themselves are counted in Errors as usual; the waits keep
	// a dead or refusing server from turning every slot into a busy loop.
	Backoffs uint64 `json:"backoffs,omitempty"`
	// Sockets is what the client's own sockets said of themselves when
	// they closed (TCP_INFO); zero where not read (off Linux, a run
	// stored before it).
	Sockets Sockets `json:"sockets,omitzero"`
	// Outside counts what happened outside the window. It is part of no
	// figure; it makes kaeload's accounting checkable against the server's
	// own log: every response the client read is in exactly one of
	// Requests, Outside.Warmup and Outside.Late.
	Outside Outside `json:"outside"`
}

// Sockets counts what the client's own connections said of themselves
// (TCP_INFO, read once before close): the run's own evidence of loss or
// resets, beside the namespace's counters that every program moves.
type Sockets struct {
	// Read is the connections whose TCP_INFO was read.
	Read uint64 `json:"read"`
	// Retransmitted is how many of them retransmitted a segment
	// (tcpi_total_retrans > 0: their handshake's final ACK or first data
	// lost, as a full accept queue drops them), Retransmits their
	// retransmitted segments in all. A retransmitted SYN shows as a
	// connect of 1 s or more (the connect histogram) instead: the SYN's
	// first retransmit waits 1 s.
	Retransmitted uint64 `json:"retransmitted,omitempty"`
	Retransmits   uint64 `json:"retransmits,omitempty"`
	// Reset is how many were reset by the peer before the client closed
	// them (their state CLOSE when read).
	Reset uint64 `json:"reset,omitempty"`
}

// Add adds o into s.
func (s *Sockets) Add(o Sockets) {
	s.Read += o.Read
	s.Retransmitted += o.Retransmitted
	s.Retransmits += o.Retransmits
	s.Reset += o.Reset
}

// Outside counts the requests that ended outside the measured window.
type Outside struct {
	// Warmup is the number of responses completed before the window.
	Warmup uint64 `json:"warmup"`
	// WarmupErrors is the number of requests failed before the window.
	WarmupErrors uint64 `json:"warmup_errors"`
	// WarmupStatus counts the warm-up's responses by status class, as
	// Counts.Status counts the window's.
	WarmupStatus [6]uint64 `json:"warmup_status,omitzero"`
	// WarmupClasses counts by class the warm-up's failed requests and its
	// responses with a status >= 400, as Counts.Errors counts the
	// window's: a server that answers 503 during the warm-up shows here.
	WarmupClasses ErrorCounts `json:"warmup_errors_by_class,omitzero"`
	// Late is the number of responses in flight at the window's end that
	// completed during the drain after it.
	Late uint64 `json:"late"`
	// LateStatus counts the Late responses by status class.
	LateStatus [6]uint64 `json:"late_status,omitzero"`
	// AfterClasses counts by class what failed after the window: the Late
	// responses with a status >= 400 and the Abandoned requests, each by
	// the class of its failure.
	AfterClasses ErrorCounts `json:"after_errors_by_class,omitzero"`
	// Abandoned is the number of requests in flight at the window's end
	// that failed or were cut off by the drain limit or a cancellation.
	Abandoned uint64 `json:"abandoned"`
	// Unanswered splits Abandoned by the stage each of those requests was
	// in when the window ended. A server that accepts connections and
	// never answers shows up here, not as a quiet window with no errors.
	Unanswered Stages `json:"unanswered"`
}

// WarmupErrorTotal is the number of the warm-up's errors of every class:
// its failed requests and its responses with a status >= 400 (for a
// record made before the warm-up counted classes, its failed requests).
func (o *Outside) WarmupErrorTotal() uint64 {
	if o.WarmupClasses.IsZero() {
		return o.WarmupErrors
	}
	return o.WarmupClasses.Total()
}

// Responses is every response completed in the window, in the warm-up
// before it and during the drain after it: what the server's access log
// holds for these connections, line for line.
func (c Counts) Responses() uint64 {
	return c.Requests + c.Outside.Warmup + c.Outside.Late
}

// Stages counts requests by the stage they were in: waiting for the TCP
// connect, for the TLS handshake, or for the response (request written or
// being written, response not complete).
type Stages struct {
	Connect   uint64 `json:"connect"`
	Handshake uint64 `json:"handshake"`
	Response  uint64 `json:"response"`
}

// Total is the sum over the stages.
func (s Stages) Total() uint64 { return s.Connect + s.Handshake + s.Response }

// Add adds o into c.
func (c *Counts) Add(o *Counts) {
	c.Requests += o.Requests
	c.Bytes += o.Bytes
	for i := range c.Status {
		c.Status[i] += o.Status[i]
	}
	c.Connections += o.Connections
	c.Handshakes += o.Handshakes
	c.Resumed += o.Resumed
	c.Scheduled += o.Scheduled
	c.Missed += o.Missed
	c.Backoffs += o.Backoffs
	c.Sockets.Add(o.Sockets)
	for k, v := range o.Negotiated {
		if c.Negotiated == nil {
			c.Negotiated = make(map[string]uint64)
		}
		c.Negotiated[k] += v
	}
	for i := range c.Errors {
		if c.Errors[i].Count == 0 {
			c.Errors[i].First = o.Errors[i].First
		}
		c.Errors[i].Count += o.Errors[i].Count
	}
	c.Outside.Warmup += o.Outside.Warmup
	c.Outside.WarmupErrors += o.Outside.WarmupErrors
	c.Outside.Late += o.Outside.Late
	for i := range c.Outside.WarmupStatus {
		c.Outside.WarmupStatus[i] += o.Outside.WarmupStatus[i]
		c.Outside.LateStatus[i] += o.Outside.LateStatus[i]
	}
	for i := range c.Outside.WarmupClasses {
		c.Outside.WarmupClasses[i] += o.Outside.WarmupClasses[i]
		c.Outside.AfterClasses[i] += o.Outside.AfterClasses[i]
	}
	c.Outside.Abandoned += o.Outside.Abandoned
	c.Outside.Unanswered.Connect += o.Outside.Unanswered.Connect
	c.Outside.Unanswered.Handshake += o.Outside.Unanswered.Handshake
	c.Outside.Unanswered.Response += o.Outside.Unanswered.Response
}

// Succeeded is the number of responses in the window with a status below
// 400: the requests the rate counts. A 4xx or 5xx response is a complete
// response (it is in Requests, and in the server's log) but an error of
// class ErrStatus, never a success.
func (c *Counts) Succeeded() uint64 {
	return c.Requests - min(c.Errors[ErrStatus].Count, c.Requests)
}

// Attempts is the number of requests that ended in the window: every
// response and every failure before a response.
func (c *Counts) Attempts() uint64 {
	return c.Succeeded() + c.Errors.Total()
}

// ErrorShare is the fraction of the window's attempts that failed
// (Errors.Total / Attempts); 0 when there were none.
func (c *Counts) ErrorShare() float64 {
	n := c.Attempts()
	if n == 0 {
		return 0
	}
	return float64(c.Errors.Total()) / float64(n)
}

// MissedShare is the fraction of the window's scheduled starts that were
// missed (Missed / Scheduled); 0 in a closed loop.
func (c *Counts) MissedShare() float64 {
	if c.Scheduled == 0 {
		return 0
	}
	return float64(c.Missed) / float64(c.Scheduled)
}

// MaxMissedShare is the missed share above which an open-loop result did
// not run at the rate asked: it is flagged (see analysis.OpenLoopLimit).
const MaxMissedShare = 0.01

// Latency holds the per-request timing histograms (microseconds).
type Latency struct {
	// Connect is TCP connect time (new connections only).
	Connect *Histogram `json:"connect"`
	// Handshake is TLS handshake time (new connections only).
	Handshake *Histogram `json:"handshake"`
	// TTFB is from the start of the request (before connect, for a new
	// connection) to the first response byte.
	TTFB *Histogram `json:"ttfb"`
	// Total is from the start of the request (before connect, for a new
	// connection) to the last response byte.
	Total *Histogram `json:"total"`
	// Intended is, in open-loop mode, from the request's intended start
	// (its time in the schedule) to the last response byte: Total plus the
	// client's lag in starting it, so a client that falls behind its
	// schedule shows in the percentiles. A missed start (Counts.Missed) is
	// in it at the request timeout: it got no answer within the timeout.
	// So it holds Requests + Missed values, and a server that cannot keep
	// up with the rate shows in its percentiles even though no start is
	// ever run late. nil in a closed loop.
	Intended *Histogram `json:"intended,omitempty"`
}

// NewLatency returns a Latency with four empty histograms.
func NewLatency() Latency {
	return Latency{Connect: NewHistogram(), Handshake: NewHistogram(), TTFB: NewHistogram(), Total: NewHistogram()}
}

// Merge adds every histogram of o into l exactly.
func (l *Latency) Merge(o *Latency) {
	l.Connect.Merge(o.Connect.Histogram)
	l.Handshake.Merge(o.Handshake.Histogram)
	l.TTFB.Merge(o.TTFB.Histogram)
	l.Total.Merge(o.Total.Histogram)
	l.mergeIntended(o)
}

// mergeIntended merges o.Intended into l.Intended, creating it when o has
// one and l has not.
func (l *Latency) mergeIntended(o *Latency) {
	if o.Intended == nil || o.Intended.Histogram == nil {
		return
	}
	if l.Intended == nil || l.Intended.Histogram == nil {
		l.Intended = NewHistogram()
	}
	l.Intended.Merge(o.Intended.Histogram)
}

// Window is a measured wall-clock interval.
type Window struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// Length is the window's duration.
func (w Window) Length() time.Duration { return w.End.Sub(w.Start) }

// Group is what one worker group measured in one window.
type Group struct {
	// Index is the group's position in the plan.
	Index int `json:"index"`
	// CPUs is the group's CPU list in taskset form ("0-9"; "" = unpinned).
	CPUs string `json:"cpus,omitempty"`
	// Threads is the group's planned number of threads.
	Threads int `json:"threads"`
	// Slots is the group's planned number of concurrent connection slots.
	Slots int `json:"slots"`
	// Window is the interval the counts cover.
	Window Window `json:"window"`
	// GroupsRate, on a total whose groups' windows differ, is the sum of
	// their own rates (Rep.RecordSpread); 0 otherwise.
	GroupsRate float64 `json:"groups_rate,omitempty"`
	Counts
	// Latency holds the merged histograms of the group.
	Latency Latency `json:"latency"`
	// CPU is how busy the group's CPUs were during the window (measured by
	// the worker on the CPUs it is pinned to); nil when not measured.
	CPU *CPUUsage `json:"cpu,omitempty"`
	// Process is the worker process's own CPU time over the window
	// (user + system of all its threads, from getrusage): what kaeload
	// itself cost, whoever else used the group's CPUs. Groups run in
	// distinct processes, so these add up across groups even when the
	// groups share CPUs. nil when not measured (runs before it existed).
	Process *CPUUsage `json:"process_cpu,omitempty"`
	// Wait is how long the worker's threads were ready to run but waited
	// for a CPU during the window (the kernel's run delay, summed over the
	// threads): CPU time kaeload wanted and did not get, because other
	// processes held the group's CPUs. Busy is that time over the group's
	// CPU time (window × CPUs). nil when not measured.
	Wait *CPUUsage `json:"wait,omitempty"`
	// Others lists the processes other than the run's workers that used
	// the most CPU during the window among those allowed to run on the
	// group's CPUs, busiest first (at most OthersListed); empty when none
	// did or it was not measured (an unpinned group, a run before it
	// existed).
	Others []ProcessCPU `json:"others,omitempty"`
	// PeakRSS is the worker process's peak resident memory in bytes over
	// its life (one repetition), the kaeload binary's shared pages
	// included; 0 when not measured. Merge sums it.
	PeakRSS uint64 `json:"peak_rss,omitempty"`
	// MemoryReady is the worker's private (anonymous) resident memory in
	// bytes when it was ready, before it opened a connection, and
	// MemoryPeak the highest it reached while the load ran; 0 when not
	// measured. Their difference is what the group's connection slots
	// cost (Group.SlotMemory). Merge sums both.
	MemoryReady uint64 `json:"memory_ready,omitempty"`
	MemoryPeak  uint64 `json:"memory_peak,omitempty"`
	// Host is the ssh host the group ran on ("" = the controller's machine).
	Host string `json:"host,omitempty"`
	// ClockOffset is that host's clock minus the controller's, measured
	// right before the window (Window is in the controller's clock).
	ClockOffset time.Duration `json:"clock_offset,omitempty"`
	// Timeline is the group's warm-up and window divided into intervals
	// (see results.Timeline), in time order; empty in a total made by
	// Merge (Rep.Timeline holds the total), in a repetition of one group
	// (Rep.Timeline's points are its intervals: read it through
	// Rep.GroupTimeline) and in runs stored before it existed.
	Timeline []Interval `json:"timeline,omitempty"`
}

// ClientBoundBusy is the share of a group's CPU time that kaeload itself
// must use (GroupCPU.Kaeload) for the result to measure the load
// generator rather than the server.
const ClientBoundBusy = 0.90

// CPUUsage is CPU time used over a window.
type CPUUsage struct {
	// CPUs is the CPU list measured, taskset form ("" = the whole machine or a process tree).
	CPUs string `json:"cpus,omitempty"`
	// Seconds is the CPU time used (user + system + irq + softirq + steal …, not idle or iowait).
	Seconds float64 `json:"seconds"`
	// Busy is Seconds divided by (window length × number of CPUs measured), 0..1.
	Busy float64 `json:"busy"`
	// IRQ is the part of Seconds the CPUs spent handling interrupts (irq
	// + softirq): the kernel's network work for the connections on them,
	// which no process's time includes. 0 for a process's time, or when
	// not recorded.
	IRQ float64 `json:"irq,omitempty"`
	// PerCPU is Seconds split by CPU, ascending by CPU (a CPU list
	// measured CPU by CPU); empty for a process's time. It lets groups that
	// share CPUs be counted once (Rep.ClientCPU).
	PerCPU []CPUTime `json:"per_cpu,omitempty"`
}

// OthersListed is how many other processes a group's record names
// (Group.Others).
const OthersListed = 3

// ProcessCPU is one process's CPU time over a window.
type ProcessCPU struct {
	// PID is the process id on the group's host.
	PID int `json:"pid"`
	// Comm is its command name (/proc/PID/comm).
	Comm string `json:"comm"`
	// Nice is its nice value: at 19 it yields the CPU to anything else.
	Nice int `json:"nice"`
	// Seconds is its own user + system time over the window, on whichever
	// CPUs it ran.
	Seconds float64 `json:"seconds"`
	// CPUs is its CPU affinity in taskset form, the CPUs it may run on.
	CPUs string `json:"cpus,omitempty"`
}

// CPUTime is the busy time of one CPU over a window.
type CPUTime struct {
	// CPU is the CPU number.
	CPU int `json:"cpu"`
	// Seconds is its busy time.
	Seconds float64 `json:"seconds"`
}
