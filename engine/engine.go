package engine

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kaeload/kaeload/pacer"
	"github.com/kaeload/kaeload/ports"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/valyala/fasthttp"
)

// readBufferSize is the response read buffer; headers must fit. Close-mode
// slots borrow one from a pool for the read only, saving 16 KiB a slot.
const readBufferSize = 16 << 10

// Snapshot is a point-in-time view of a running engine for progress display.
// Every field follows the counting rule: only what happened inside the window.
type Snapshot struct {
	Requests uint64 // responses completed
	Errors   uint64 // every class, status included
	Bytes    uint64 // of the counted responses
	Missed   uint64 // open loop: starts due and missed (Counts.Missed)
}

// Engine runs the request loop of one worker group: a fixed number of
// connection slots, one goroutine each. New prepares it once; it Runs
// windows one at a time, and Snapshot may be called during Run.
type Engine struct {
	addr      string // host:port dialled, host resolved to an IP by New
	request   []byte
	head      bool // the request is a HEAD: responses have no body
	keepAlive bool
	timeout   time.Duration
	slots     []*slot
	lanes     []*lane      // latency histograms, each shared by some slots
	readers   sync.Pool    // *bufio.Reader for close mode's response reads
	pacer     *pacer.Pacer // open loop: the schedule of starts; nil for a closed loop
	ivl       int64        // the timeline's interval in nanoseconds; 0: no timeline

	// The timeline's collector (TakeIntervals, timeline.go): tlMu orders
	// it with begin.
	tlMu   sync.Mutex
	tlNext int64 // the first interval not yet taken
	tlLive bool  // begin ran: the fields below are set

	// Set by Run before the slots start; read-only while they run except endNs.
	base    time.Time     // monotonic origin of every *Ns value
	startNs int64         // window start, nanoseconds after base
	endNs   atomic.Int64  // window end; lowered to the cancel time on ctx cancellation
	stopNs  atomic.Int64  // end of the drain: no request outlives it; lowered with endNs on cancellation
	aborted chan struct{} // closed by abort: wakes slots waiting for their start
}

// maxDrain bounds the drain after the window: requests in flight complete,
// uncounted (Outside.Late), so the totals match the server's log.
const maxDrain = time.Second

// New prepares an engine of connections slots sending t's request, shaped
// by l. It checks t.Addr and resolves its host once, so no request pays
// for a name lookup.
func New(t plans.Target, l plans.Load, connections int) (*Engine, error) {
	if connections < 1 {
		return nil, fmt.Errorf("engine: connections must be at least 1, got %d", connections)
	}
	if len(t.Request) == 0 {
		return nil, errors.New("engine: empty request")
	}
	host, port, err := net.SplitHostPort(t.Addr)
	if err != nil {
		return nil, fmt.Errorf("engine: target address %q: %w", t.Addr, err)
	}
	if host == "" || port == "" {
		return nil, fmt.Errorf("engine: target address %q: want host:port", t.Addr)
	}
	addr := t.Addr
	if net.ParseIP(host) == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ips, err := net.DefaultResolver.LookupHost(ctx, host)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("engine: resolve %q: %w", host, err)
		}
		addr = net.JoinHostPort(ips[0], port)
	}
	var cfg *tls.Config
	if t.TLS != nil {
		if cfg, err = tlsConfig(t.TLS, host); err != nil {
			return nil, err
		}
	}
	switch l.Connection {
	case plans.Close, plans.KeepAlive, "":
	default:
		return nil, fmt.Errorf("engine: unknown connection mode %q", l.Connection)
	}
	if l.Timeout <= 0 {
		// The compiler is the one place for defaults (scenarios.DefaultTimeout).
		return nil, fmt.Errorf("engine: request timeout %s, want > 0", l.Timeout)
	}
	if l.Interval != 0 {
		if msg := results.IntervalProblem(l.Interval); msg != "" {
			return nil, fmt.Errorf("engine: timeline interval %s", msg)
		}
	}
	e := &Engine{
		addr:      addr,
		request:   t.Request,
		head:      bytes.HasPrefix(t.Request, []byte("HEAD ")),
		keepAlive: l.Connection == plans.KeepAlive,
		timeout:   l.Timeout,
		ivl:       int64(l.Interval),
	}
	e.readers.New = func() any { return bufio.NewReaderSize(nil, readBufferSize) }
	e.lanes = make([]*lane, min(connections, lanesPerThread*runtime.GOMAXPROCS(0)))
	for i := range e.lanes {
		e.lanes[i] = &lane{lat: results.NewLatency()}
		if e.ivl > 0 {
			e.lanes[i].ivals = make([]*laneInterval, 0, lanesSpare)
			e.lanes[i].spare = make([]*laneInterval, 0, lanesSpare)
		}
	}
	e.slots = make([]*slot, connections)
	for i := range e.slots {
		e.slots[i] = newSlot(e, cfg, t.TLS != nil && t.TLS.Resumption)
		e.slots[i].lane = e.lanes[i%len(e.lanes)]
	}
	return e, nil
}

// SetRate makes the engine an open loop from the next Run on: a start due
// while every slot is busy is missed (Counts.Missed), never run late. Rate
// 0 makes it a closed loop again. Not while Run runs.
func (e *Engine) SetRate(rate float64) error {
	if rate == 0 {
		e.pacer = nil
		for _, l := range e.lanes {
			l.lat.Intended = nil
		}
		return nil
	}
	s, err := pacer.NewSchedule(rate)
	if err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	e.pacer = pacer.New(s, 0)
	for _, l := range e.lanes {
		if l.lat.Intended == nil {
			l.lat.Intended = results.NewHistogram()
		}
	}
	return nil
}

// tlsConfig builds t's client configuration with what is the engine's to
// decide: no session tickets unless Resumption, and host as the
// verification name when Verify is set without ServerName.
func tlsConfig(t *plans.TLS, host string) (*tls.Config, error) {
	cfg, err := t.Config()
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	cfg.SessionTicketsDisabled = !t.Resumption
	if t.Verify && cfg.ServerName == "" {
		cfg.ServerName = host
	}
	return cfg, nil
}

// Run sends requests on every slot until w.End and returns what was counted
// inside w. In-flight requests drain for up to min(timeout, 1 s),
// uncounted. Cancelling ctx ends the window at the cancel time.
func (e *Engine) Run(ctx context.Context, w results.Window) results.Group {
	endNs := e.begin(w)
	if ctx.Err() != nil {
		e.endNs.Store(0)
		e.stopNs.Store(0)
	}
	// Each slot dials under its own context, cancelled only by abort after
	// the window's end, so a dial failed by the cancellation never counts.
	for _, s := range e.slots {
		s.ctx, s.cancel = context.WithCancel(context.Background())
	}
	aborted := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(aborted)
		e.abort()
	})
	var wg sync.WaitGroup
	for _, s := range e.slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.loop()
		}()
	}
	wg.Wait()
	if !stop() {
		<-aborted
	}
	for _, s := range e.slots {
		s.cancel()
	}

	g := results.Group{Window: w, Latency: results.NewLatency()}
	if end := e.endNs.Load(); end < endNs {
		g.Window.End = e.base.Add(time.Duration(max(end, e.startNs))).Round(0)
	}
	for _, s := range e.slots {
		g.Counts.Add(&s.counts)
		s.flush()
	}
	for _, l := range e.lanes {
		g.Latency.Merge(&l.lat)
	}
	return g
}

// begin prepares the slots for window w from now, and returns the window's
// end in nanoseconds after the origin.
func (e *Engine) begin(w results.Window) int64 {
	e.tlMu.Lock()
	defer e.tlMu.Unlock()
	e.base = time.Now()
	e.startNs = int64(w.Start.Sub(e.base))
	endNs := int64(w.End.Sub(e.base))
	e.endNs.Store(endNs)
	e.stopNs.Store(endNs + int64(min(e.timeout, maxDrain)))
	e.aborted = make(chan struct{})
	if e.pacer != nil {
		e.pacer.Reset(time.Duration(endNs))
	}
	for _, s := range e.slots {
		s.reset()
	}
	for _, l := range e.lanes {
		l.lat.Connect.Reset()
		l.lat.Handshake.Reset()
		l.lat.TTFB.Reset()
		l.lat.Total.Reset()
		if l.lat.Intended != nil {
			l.lat.Intended.Reset()
		}
	}
	e.beginTimeline()
	return endNs
}

// abort ends the window now: it lowers endNs, then cancels the dials and
// pulls every connection's deadline into the past, so whatever a slot is
// blocked in fails at once, after the new end.
func (e *Engine) abort() {
	now := e.since()
	for _, v := range []*atomic.Int64{&e.endNs, &e.stopNs} {
		for {
			end := v.Load()
			if now >= end || v.CompareAndSwap(end, now) {
				break
			}
		}
	}
	close(e.aborted)
	past := time.Unix(1, 0)
	for _, s := range e.slots {
		s.cancel()
		if c := s.cur.Load(); c != nil {
			_ = c.SetDeadline(past)
		}
	}
}

// Snapshot sums the slots' published counters. It is safe to call while Run
// runs; the figures are those of the current (or last) window.
func (e *Engine) Snapshot() Snapshot {
	var sn Snapshot
	for _, s := range e.slots {
		sn.Requests += s.pub.requests.Load()
		sn.Errors += s.pub.errors.Load()
		sn.Bytes += s.pub.bytes.Load()
		sn.Missed += s.pub.missed.Load()
	}
	return sn
}

// since is the monotonic time since base in nanoseconds.
func (e *Engine) since() int64 { return int64(time.Since(e.base)) }

// counted reports whether something that ended at t (nanoseconds after base)
// lies inside the window.
func (e *Engine) counted(t int64) bool { return t >= e.startNs && t < e.endNs.Load() }

// slot is one connection slot, owned by its goroutine; others touch only
// cur (abort) and pub (Snapshot).
type slot struct {
	e      *Engine
	cfg    *tls.Config // nil for plain http; a private clone per slot
	dialer net.Dialer
	raw    *net.TCPConn // open connection or nil
	conn   net.Conn     // raw, or the tls.Conn over it
	rd     firstByteReader
	br     *bufio.Reader
	resp   fasthttp.Response
	att    attempt
	counts results.Counts
	lane   *lane  // where the slot's timings go
	batch  batch  // timings not yet in the lane
	dials  uint64 // successful dials in every phase (warm-up, window, abandoned)
	negKey string // Negotiated key of the last handshake, with its negID
	negID  negotiatedID

	connFails int           // closed loop: connects failed in a row
	backoff   time.Duration // closed loop: the last back-off; 0 after a connect succeeded

	timer  *time.Timer        // the wait for the slot's next start (open loop) or the end of its back-off
	free   int64              // open loop: when the slot's last request ended (0: since Run began)
	ctx    context.Context    // the slot's dial context in Run
	cancel context.CancelFunc // cancels ctx; called by abort and when Run ends

	cur atomic.Pointer[net.TCPConn] // published open connection, for abort
	pub published
	si  sockInfo // the TCP_INFO buffer (sockinfo_linux.go)

	// The timeline (timeline.go): tmu is held from reading the clock for
	// an event until the event is in tl.
	tmu sync.Mutex
	tl  slotInterval
}

// published holds a slot's progress counters on their own cache lines, so
// that slots storing them do not slow each other down.
type published struct {
	_        [64]byte
	requests atomic.Uint64
	errors   atomic.Uint64
	bytes    atomic.Uint64
	missed   atomic.Uint64
	_        [64]byte
}

// attempt is the outcome of one request, accounted by slot.account.
type attempt struct {
	start     int64 // nanoseconds after base
	intended  int64 // open loop: when the schedule wanted it started; start in a closed loop
	end       int64 // when the response completed or the request failed
	newConn   bool  // the attempt needed a new connection
	dialed    bool  // and the TCP connect succeeded
	handshake bool  // and the TLS handshake completed
	resumed   bool
	connect   time.Duration
	tlsTime   time.Duration
	ttfb      time.Duration
	failed    bool
	class     results.ErrorClass
	err       error
	status    int
	bytes     uint64
	sockRead  bool   // the connection's TCP_INFO was read when it closed
	retrans   uint32 // and it had retransmitted so many segments
	reset     bool   // and the peer had reset it
}

func newSlot(e *Engine, cfg *tls.Config, resumption bool) *slot {
	s := &slot{
		e:      e,
		dialer: net.Dialer{KeepAlive: -1},
	}
	if cfg != nil {
		s.cfg = cfg.Clone()
		if resumption {
			s.cfg.ClientSessionCache = tls.NewLRUClientSessionCache(1)
		}
	}
	if e.keepAlive {
		s.br = bufio.NewReaderSize(&s.rd, readBufferSize)
	}
	s.rd.e = e
	s.si.init()
	s.timer = time.NewTimer(time.Hour)
	s.timer.Stop()
	return s
}

// reset clears the counters and histograms before a window.
func (s *slot) reset() {
	s.counts = results.Counts{}
	s.free = 0
	s.connFails, s.backoff = 0, 0
	s.batch.n = [numTimings]int{}
	s.dials = 0
	s.pub.requests.Store(0)
	s.pub.errors.Store(0)
	s.pub.bytes.Store(0)
	s.pub.missed.Store(0)
}

// loop sends requests until the window ends: back to back in a closed
// loop, at the pacer's starts in an open one.
func (s *slot) loop() {
	defer s.closeConn()
	if s.e.pacer != nil {
		s.paced()
		return
	}
	for s.e.since() < s.e.endNs.Load() {
		s.do(s.ctx)
		s.account()
		if a := &s.att; a.failed && a.newConn && !a.dialed {
			s.connectFailed(a.class)
		} else if s.connFails != 0 {
			s.connFails, s.backoff = 0, 0
		}
	}
}

// Back-off of a closed-loop slot whose connects keep failing at once:
// after backoffAfter in a row it waits backoffMin, doubling up to
// backoffMax, so a dead server costs about ten tries a second per slot.
const (
	backoffAfter = 3
	backoffMin   = time.Millisecond
	backoffMax   = 100 * time.Millisecond
)

// connectFailed notes a failed connect and, after backoffAfter in a row,
// waits (Counts.Backoffs), never past the window's end or an abort.
func (s *slot) connectFailed(class results.ErrorClass) {
	if class != results.ErrConnect && class != results.ErrPorts {
		return // a timeout: the slot waited already
	}
	if s.connFails++; s.connFails < backoffAfter {
		return
	}
	s.backoff = min(max(2*s.backoff, backoffMin), backoffMax)
	now := s.e.since()
	if s.e.counted(now) {
		s.counts.Backoffs++
	}
	s.waitUntil(min(now+int64(s.backoff), s.e.endNs.Load()))
}

// paced is the open loop: a free slot takes the next start from the pacer
// and waits until it is due. Starts due while every slot was busy count as
// missed, never run late.
func (s *slot) paced() {
	for s.step() {
	}
}

// step takes the slot's next start, waits until it is due and runs it. It
// reports false when there is none left before the window's end.
func (s *slot) step() bool {
	e := s.e
	st, ok := e.pacer.Take(time.Duration(s.free))
	s.noteMissed(st)
	if !ok || !s.waitUntil(int64(st.At)) {
		return false
	}
	at := int64(st.At)
	if at >= e.endNs.Load() { // the window was cut short while we waited
		return false
	}
	if e.counted(at) {
		s.counts.Scheduled++
	}
	s.do(s.ctx)
	s.att.intended = at
	s.free = s.att.end
	s.account()
	return true
}

// noteMissed counts the starts st skipped that were due inside the window.
func (s *slot) noteMissed(st pacer.Start) {
	if st.Missed() == 0 {
		return
	}
	sch := s.e.pacer.Schedule()
	lo := max(st.MissedFrom, sch.Index(time.Duration(s.e.startNs)))
	hi := min(st.K, sch.Index(time.Duration(s.e.endNs.Load())))
	if hi > lo {
		n := uint64(hi - lo)
		s.counts.Missed += n
		s.counts.Scheduled += n
		s.pub.missed.Store(s.counts.Missed)
		// A start that never ran got no answer within the timeout: that
		// is its latency from the intended start.
		s.lane.mu.Lock()
		s.lane.lat.Intended.RecordN(s.e.timeout, n)
		s.lane.mu.Unlock()
	}
}

// waitUntil waits until at (nanoseconds after base). It reports false when
// the run was aborted meanwhile.
func (s *slot) waitUntil(at int64) bool {
	d := at - s.e.since()
	if d <= 0 {
		return true
	}
	s.timer.Reset(time.Duration(d))
	select {
	case <-s.timer.C:
		return true
	case <-s.e.aborted:
		s.timer.Stop()
		return false
	}
}

// do sends one request, opening a connection if the slot has none, and
// leaves the outcome in s.att. It closes a connection it cannot reuse.
func (s *slot) do(ctx context.Context) {
	e := s.e
	a := &s.att
	s.lockTimeline()
	*a = attempt{start: e.since()}
	if e.ivl > 0 {
		s.noteStart()
	}
	s.unlockTimeline()
	deadlineNs := min(a.start+int64(e.timeout), e.stopNs.Load())
	deadline := e.base.Add(time.Duration(deadlineNs))

	if s.raw == nil {
		if !s.open(ctx, a, deadline, deadlineNs) {
			return
		}
	} else if err := s.raw.SetDeadline(deadline); err != nil {
		s.fail(a, results.ErrWrite, err, deadlineNs)
		return
	}

	s.rd.first, s.rd.n = 0, 0
	if _, err := s.conn.Write(e.request); err != nil {
		s.fail(a, results.ErrWrite, err, deadlineNs)
		return
	}
	s.resp.Reset()
	s.resp.SkipBody = e.head
	br := s.br
	if br == nil { // close mode: borrow a buffer for this response
		br = e.readers.Get().(*bufio.Reader)
		br.Reset(&s.rd)
	}
	err := s.resp.Read(br)
	if br != s.br {
		br.Reset(nil)
		e.readers.Put(br)
	}
	s.lockTimeline() // held until account counts the attempt
	a.end = e.since()
	a.bytes = s.rd.n
	if err != nil {
		s.fail(a, results.ErrRead, err, deadlineNs)
		return
	}
	a.ttfb = time.Duration(s.rd.first - a.start)
	a.status = s.resp.StatusCode()
	if !e.keepAlive || s.resp.ConnectionClose() {
		s.closeConn()
	}
}

// open dials and, for https, handshakes a new connection for attempt a.
// It reports false (with a failed) when the connection could not be set up.
func (s *slot) open(ctx context.Context, a *attempt, deadline time.Time, deadlineNs int64) bool {
	e := s.e
	a.newConn = true
	s.dialer.Deadline = deadline
	c, err := s.dialer.DialContext(ctx, "tcp", e.addr)
	if err != nil {
		class := results.ErrConnect
		if ports.Exhausted(err) {
			class = results.ErrPorts // the client's fault, not the server's
		}
		s.fail(a, class, err, deadlineNs)
		return false
	}
	t := e.since()
	s.dials++
	a.dialed = true
	a.connect = time.Duration(t - a.start)
	raw := c.(*net.TCPConn)
	s.raw, s.conn = raw, raw
	// Publish the connection, then look at the drain's end: abort lowers it
	// before it reads cur, so one of the two always sees the other.
	s.cur.Store(raw)
	if e.since() >= e.stopNs.Load() {
		_ = raw.SetDeadline(time.Unix(1, 0))
	} else if err := raw.SetDeadline(deadline); err != nil {
		s.fail(a, results.ErrConnect, err, deadlineNs)
		return false
	}
	if s.cfg != nil {
		tc := tls.Client(raw, s.cfg)
		// Deadlines (request timeout, window end, abort) bound the handshake;
		// a cancellable context here would cost every handshake a registration.
		if err := tc.HandshakeContext(context.Background()); err != nil {
			s.fail(a, results.ErrTLS, err, deadlineNs)
			return false
		}
		a.tlsTime = time.Duration(e.since() - t)
		a.handshake = true
		st := tc.ConnectionState()
		a.resumed = st.DidResume
		s.noteNegotiated(&st)
		s.conn = tc
	}
	s.rd.c = s.conn
	if s.br != nil {
		s.br.Reset(&s.rd)
	}
	return true
}

// noteNegotiated remembers the handshake's parameters, building the
// Negotiated key only when they differ from the previous handshake's.
func (s *slot) noteNegotiated(st *tls.ConnectionState) {
	id := negotiatedID{ver: st.Version, suite: st.CipherSuite, curve: st.CurveID}
	if len(st.PeerCertificates) > 0 {
		c := st.PeerCertificates[0]
		id.keyAlg = c.PublicKeyAlgorithm
		switch k := c.PublicKey.(type) {
		case *rsa.PublicKey:
			id.keyBits = k.N.BitLen()
		case *ecdsa.PublicKey:
			id.keyBits = k.Curve.Params().BitSize
		}
	}
	if s.negKey != "" && id == s.negID {
		return
	}
	s.negID, s.negKey = id, results.NewHandshake(st).String()
}

// negotiatedID tells handshakes with different Negotiated keys apart
// without building the key.
type negotiatedID struct {
	ver, suite uint16
	curve      tls.CurveID
	keyAlg     x509.PublicKeyAlgorithm
	keyBits    int
}

// fail records a failed attempt, closing the connection. A failure at or
// after the request's deadline is a timeout whatever error reported it.
func (s *slot) fail(a *attempt, class results.ErrorClass, err error, deadlineNs int64) {
	if a.end == 0 {
		s.lockTimeline() // held until account counts the attempt
		a.end = s.e.since()
	}
	if a.end >= deadlineNs || isTimeout(err) {
		class = results.ErrTimeout
	}
	a.failed, a.class, a.err = true, class, err
	s.closeConn()
}

func isTimeout(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// closeConn closes the slot's TCP socket, if any: the response is complete,
// so a TLS close_notify would only add work on both sides.
func (s *slot) closeConn() {
	if s.raw == nil {
		return
	}
	s.cur.Store(nil)
	s.noteSocket()
	_ = s.raw.Close()
	s.raw, s.conn, s.rd.c = nil, nil, nil
}

// account counts s.att if it ended inside the window, and in its end's
// interval with a timeline; it releases the timeline lock do or fail took.
func (s *slot) account() {
	a := &s.att
	in := s.e.counted(a.end)
	if s.e.ivl > 0 && (in || a.end < s.e.startNs) {
		s.noteEnd()
	}
	s.unlockTimeline()
	if !in {
		s.accountOutside(a)
		return
	}
	c := &s.counts
	s.accountConnection(a)
	if a.failed {
		c.Errors.Add(a.class, a.err)
		s.pub.errors.Store(c.Errors.Total())
		return
	}
	c.Requests++
	c.Bytes += a.bytes
	c.Status[statusClass(a.status)]++
	if a.status >= 400 {
		var err error
		if c.Errors[results.ErrStatus].Count == 0 {
			err = fmt.Errorf("status %d", a.status)
		}
		c.Errors.Add(results.ErrStatus, err)
		s.pub.errors.Store(c.Errors.Total())
	}
	s.record(timingTTFB, a.ttfb)
	s.record(timingTotal, time.Duration(a.end-a.start))
	if s.e.pacer != nil {
		s.record(timingIntended, time.Duration(a.end-a.intended))
	}
	s.pub.requests.Store(c.Requests)
	s.pub.bytes.Store(c.Bytes)
}

// accountOutside counts an attempt that ended outside the window: every
// response by its status class, every failure and error status by its class.
func (s *slot) accountOutside(a *attempt) {
	o := &s.counts.Outside
	switch {
	case a.end < s.e.startNs && a.failed:
		o.WarmupErrors++
		o.WarmupClasses[a.class]++
	case a.end < s.e.startNs:
		o.Warmup++
		o.WarmupStatus[statusClass(a.status)]++
		if a.status >= 400 {
			o.WarmupClasses[results.ErrStatus]++
		}
	case a.failed:
		o.Abandoned++
		o.AfterClasses[a.class]++
		s.noteUnanswered(a, &o.Unanswered)
	default:
		o.Late++
		o.LateStatus[statusClass(a.status)]++
		if a.status >= 400 {
			o.AfterClasses[results.ErrStatus]++
		}
	}
}

// accountConnection counts what an attempt inside the window did to its
// connection: a dial, the socket's state, a handshake.
func (s *slot) accountConnection(a *attempt) {
	c := &s.counts
	if a.dialed {
		c.Connections++
		s.record(timingConnect, a.connect)
	}
	if a.sockRead {
		c.Sockets.Read++
		if a.retrans > 0 {
			c.Sockets.Retransmitted++
			c.Sockets.Retransmits += uint64(a.retrans)
		}
		if a.reset {
			c.Sockets.Reset++
		}
	}
	if a.handshake {
		c.Handshakes++
		if a.resumed {
			c.Resumed++
		}
		if c.Negotiated == nil {
			c.Negotiated = make(map[string]uint64, 1)
		}
		c.Negotiated[s.negKey]++
		s.record(timingHandshake, a.tlsTime)
	}
}

// statusClass is the index of status in Counts.Status: 1 for 1xx … 5 for
// 5xx, 0 for anything else.
func statusClass(status int) int {
	if class := status / 100; class >= 1 && class <= 5 {
		return class
	}
	return 0
}

// noteUnanswered counts an attempt in flight at the window's end that got
// no answer, by its stage then: connect, handshake or response.
func (s *slot) noteUnanswered(a *attempt, st *results.Stages) {
	end := s.e.endNs.Load()
	connected := a.start + int64(a.connect)
	switch {
	case a.newConn && (!a.dialed || connected >= end):
		st.Connect++
	case a.newConn && s.cfg != nil && (!a.handshake || connected+int64(a.tlsTime) >= end):
		st.Handshake++
	default:
		st.Response++
	}
}

// Latency histograms are shared: four HDR histograms take about 86 KB, so
// slots share them in lanes and hand over timings in batches, one lock per
// batch. Every timing still reaches a histogram: the merge is exact.
const (
	lanesPerThread = 4
	batchSize      = 32
)

// The timings a request records.
const (
	timingConnect = iota
	timingHandshake
	timingTTFB
	timingTotal
	timingIntended // open loop only
	numTimings
)

// lane is a set of latency histograms shared by some slots.
type lane struct {
	mu  sync.Mutex
	lat results.Latency
	// The timeline's intervals the slots handed over (timeline.go), and
	// emptied ones for reuse.
	ivals []*laneInterval
	spare []*laneInterval
}

func (l *lane) hist(k int) *results.Histogram {
	switch k {
	case timingConnect:
		return l.lat.Connect
	case timingHandshake:
		return l.lat.Handshake
	case timingTTFB:
		return l.lat.TTFB
	case timingIntended:
		return l.lat.Intended
	default:
		return l.lat.Total
	}
}

// batch is a slot's timings not yet recorded in its lane.
type batch struct {
	v [numTimings][batchSize]time.Duration
	n [numTimings]int
}

// record notes one timing of kind k, handing the batch to the lane when
// it is full.
func (s *slot) record(k int, d time.Duration) {
	b := &s.batch
	b.v[k][b.n[k]] = d
	if b.n[k]++; b.n[k] == batchSize {
		s.lane.mu.Lock()
		s.drain(k)
		s.lane.mu.Unlock()
	}
}

func (s *slot) flush() {
	s.lane.mu.Lock()
	defer s.lane.mu.Unlock()
	for k := range numTimings {
		s.drain(k)
	}
}

// drain records the pending timings of kind k; the lane's lock is held.
func (s *slot) drain(k int) {
	h := s.lane.hist(k)
	b := &s.batch
	for _, d := range b.v[k][:b.n[k]] {
		h.Record(d)
	}
	b.n[k] = 0
}

// firstByteReader is the slot's reader over its connection: it counts the
// bytes read and notes when the first byte of the current response arrived.
type firstByteReader struct {
	e     *Engine
	c     net.Conn
	first int64 // nanoseconds after base; 0 until the first byte
	n     uint64
}

// Read reads from the connection, recording the first byte's arrival.
func (r *firstByteReader) Read(p []byte) (int, error) {
	n, err := r.c.Read(p)
	if n > 0 {
		if r.first == 0 {
			r.first = r.e.since()
		}
		r.n += uint64(n)
	}
	return n, err
}
