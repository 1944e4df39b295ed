package runner

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/runner/internal/wire"
)

// Progress modes for Options.ProgressMode.
const (
	ProgressAuto  = "auto"  // bars on a terminal, plain status lines otherwise
	ProgressOn    = "on"    // always bars
	ProgressPlain = "plain" // a status line every plainEvery
	ProgressOff   = "off"   // nothing
)

const plainEvery = 2 * time.Second

// repInfo describes the repetition being shown.
type repInfo struct {
	label  string    // "variant baseline rep 1/3"
	begin  time.Time // when load (warm-up) began
	window results.Window
	groups []string // "group 0 [0-9]" per group
	// runEnd is when the whole run should end (eta.begin); zero when
	// not known. runAtMost says it is a worst case (a search).
	runEnd    time.Time
	runAtMost bool
}

// live holds the latest snapshot per group and the kernel's TCP trouble
// per host, written by the controller and pulled by the display's ticker.
type live struct {
	mu    sync.Mutex
	snaps []wire.Snapshot
	hist  [][]sample // recent samples per group, for rates
	// tcpHosts are the timeline's TCP hosts; none without a timeline.
	tcpHosts []results.TCPHost
	// tcp sums, per host, the growth of each of kernelEvents so far.
	tcp [][len(kernelEvents)]uint64
}

// kernelEvents are the kernel TCP counters that mean trouble. Resets and
// aborts are not: a healthy short-connection run makes them by the hundred.
var kernelEvents = [...]struct{ counter, words string }{
	{"ListenOverflows", "listen overflows"},
	{"ListenDrops", "listen drops"},
	{"TCPSynRetrans", "SYN retransmits"},
	{"TCPReqQFullDrop", "SYN queue full drops"},
	{"TCPReqQFullDoCookies", "SYN queue full cookies"},
	{"SyncookiesSent", "SYN cookies sent"},
	{"TCPTimeWaitOverflow", "TIME_WAIT overflows"},
	{"TCPAbortOnMemory", "aborts on memory"},
}

type sample struct {
	at       time.Time
	requests uint64
}

// rateSpan is how far back a live rate looks.
const rateSpan = time.Second

func newLive(groups int) *live {
	return &live{snaps: make([]wire.Snapshot, groups), hist: make([][]sample, groups)}
}

func (l *live) update(group int, s wire.Snapshot, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.snaps[group] = s
	h := append(l.hist[group], sample{at, s.Requests})
	for len(h) > 2 && at.Sub(h[1].at) >= rateSpan {
		h = h[1:]
	}
	l.hist[group] = h
}

// requests is group's last reported count of requests in the window.
func (l *live) requests(group int) uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.snaps[group].Requests
}

// setTCPHosts names the hosts whose TCP counters addTCP adds.
func (l *live) setTCPHosts(hosts []results.TCPHost) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tcpHosts = slices.Clone(hosts) // the timeline fills hosts' deltas meanwhile
	l.tcp = make([][len(kernelEvents)]uint64, len(hosts))
}

// addTCP adds host h's counter growth over interval k when k is in the window.
func (l *live) addTCP(h, k int, d cpustat.TCPDelta) {
	if k < 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if h >= len(l.tcp) {
		return
	}
	for i, e := range kernelEvents {
		l.tcp[h][i] += d.Values[e.counter]
	}
}

// hasTCP reports whether the kernel's TCP counters are read live.
func (l *live) hasTCP() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.tcpHosts) > 0
}

// kernel names the kernel's TCP trouble over the window so far, host by
// host ("server: listen overflows 1,234"); "" when there is none.
func (l *live) kernel() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var hosts []string
	for h, th := range l.tcpHosts {
		var words []string
		for i, e := range kernelEvents {
			if n := l.tcp[h][i]; n > 0 {
				words = append(words, e.words+" "+format.Count(n))
			}
		}
		if len(words) > 0 {
			hosts = append(hosts, tcpRole(th)+": "+strings.Join(words, ", "))
		}
	}
	return strings.Join(hosts, "; ")
}

// tcpRole names a TCP host by what runs there: "server", "client" (with
// its name when remote) or "client+server" (one namespace).
func tcpRole(h results.TCPHost) string {
	switch {
	case h.Shared:
		return "client+server"
	case h.Server:
		return "server"
	case h.Name == localHost:
		return "client"
	}
	return "client " + h.Name
}

// kernelWords is "; kernel …" for the live kernel trouble k; "" for none.
func kernelWords(k string) string {
	if k == "" {
		return ""
	}
	return "; kernel " + k
}

// group returns group g's counts and its recent request rate.
func (l *live) group(g int) (wire.Snapshot, float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.snaps[g], rate(l.hist[g])
}

// total returns the summed counts and request rate of all groups.
func (l *live) total() (wire.Snapshot, float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var t wire.Snapshot
	var r float64
	for g, s := range l.snaps {
		t.Requests += s.Requests
		t.Errors += s.Errors
		t.Bytes += s.Bytes
		t.Missed += s.Missed
		r += rate(l.hist[g])
	}
	return t, r
}

func rate(h []sample) float64 {
	if len(h) < 2 {
		return 0
	}
	a, b := h[0], h[len(h)-1]
	dt := b.at.Sub(a.at).Seconds()
	if dt <= 0 {
		return 0
	}
	return float64(b.requests-a.requests) / dt
}

// display shows one repetition's progress from show to done (rep nil:
// failed or cut short), as bars or plain lines, and the wait for a quiet
// machine.
type display struct {
	w     io.Writer
	bars  bool
	log   *logSink // bars: nil, or the log to print above them
	r     repInfo
	l     *live
	said  time.Time // when waiting last printed
	p     *mpb.Progress
	shown []*mpb.Bar
	stopc chan struct{} // nil when no window is shown
	wg    sync.WaitGroup
}

// newDisplay picks the display for mode and w (nil: none); bars on the
// log's writer print its lines above themselves.
func newDisplay(mode string, w io.Writer, log *logSink) (*display, error) {
	switch mode {
	case "", ProgressAuto, ProgressOn, ProgressPlain, ProgressOff:
	default:
		return nil, fmt.Errorf("progress mode %q: want %s, %s, %s or %s", mode, ProgressAuto, ProgressOn, ProgressPlain, ProgressOff)
	}
	if w == nil || mode == ProgressOff {
		return nil, nil
	}
	f, isFile := w.(*os.File)
	d := &display{w: w, bars: mode == ProgressOn || mode != ProgressPlain && isFile && isTerminal(f)}
	if d.bars && log != nil && sameWriter(log.w, w) {
		d.log = log
	}
	return d, nil
}

// sameWriter reports whether a and b are the same writer, without
// panicking on writers whose type is not comparable.
func sameWriter(a, b io.Writer) bool {
	ta := reflect.TypeOf(a)
	return ta != nil && ta == reflect.TypeOf(b) && ta.Comparable() && a == b
}

// show starts showing r: bars advancing with time, whose decorators pull
// l's latest snapshots, or a status line every plainEvery.
func (d *display) show(r repInfo, l *live) {
	d.r, d.l = r, l
	every, tick := plainEvery, func(now time.Time) {
		s, rps := l.total()
		phase := ""
		if now.Before(r.window.Start) {
			phase = " warm-up,"
		}
		fmt.Fprintf(d.w, "%s:%s %.1f s left%s, %.0f req/s, %d errors%s%s\n",
			r.label, phase, timeLeft(r, now).Seconds(), runLeft(r, now), rps, s.Errors, missedWords(s.Missed), kernelWords(l.kernel()))
	}
	if d.bars {
		every, tick = 250*time.Millisecond, d.showBars()
	}
	d.stopc = make(chan struct{})
	d.wg.Go(func() {
		tk := time.NewTicker(every)
		defer tk.Stop()
		for {
			select {
			case <-d.stopc:
				return
			case now := <-tk.C:
				tick(now)
			}
		}
	})
}

// showBars draws a bar per group, one for the total and one for the
// kernel's TCP trouble, and returns what advances them.
func (d *display) showBars() func(time.Time) {
	r, l := d.r, d.l
	d.p = mpb.New(mpb.WithOutput(d.w), mpb.WithWidth(100), mpb.WithRefreshRate(250*time.Millisecond), mpb.WithAutoRefresh())
	span := max(r.window.End.Sub(r.begin).Milliseconds(), 1)
	fmt.Fprintln(d.w, r.label)
	if d.log != nil {
		d.log.setAbove(d.p)
	}
	d.shown = d.shown[:0]
	add := func(style mpb.BarFillerBuilder, name string, text func() string, wc ...decor.WC) {
		d.shown = append(d.shown, d.p.New(span, style, mpb.PrependDecorators(decor.Name(name, decor.WCSyncSpaceR)),
			mpb.AppendDecorators(decor.Any(func(decor.Statistics) string { return text() }, wc...))))
	}
	for g, name := range r.groups {
		add(mpb.BarStyle(), name, func() string {
			s, rps := l.group(g)
			return fmt.Sprintf("%9d req %8.0f req/s %6d err", s.Requests, rps, s.Errors) + missedWords(s.Missed)
		}, decor.WCSyncSpaceR)
	}
	add(mpb.BarStyle(), "total", func() string {
		now := time.Now()
		s, rps := l.total()
		phase := "left"
		if now.Before(r.window.Start) {
			phase = "left (warm-up)"
		}
		// The run's time left goes first, the window's "s left" last but for
		// the missed starts: scripts watch for it.
		run := ""
		if left := runLeft(r, now); left != "" {
			run = " (" + strings.TrimPrefix(left, ", ") + ")"
		}
		return fmt.Sprintf("%9d req %8.0f req/s %6d err%s %5.1f s %s", s.Requests, rps, s.Errors, run, timeLeft(r, now).Seconds(), phase) + missedWords(s.Missed)
	}, decor.WCSyncSpaceR)
	if l.hasTCP() {
		add(mpb.NopStyle(), "kernel", func() string { return cmp.Or(l.kernel(), "no TCP trouble so far") })
	}
	return func(now time.Time) {
		cur := min(now.Sub(r.begin).Milliseconds(), span-1)
		for _, bar := range d.shown {
			bar.SetCurrent(cur)
		}
	}
}

// done stops showing the repetition and prints its closing line, with the
// kernel's TCP trouble over the window.
func (d *display) done(rep *results.Rep) {
	close(d.stopc)
	d.wg.Wait()
	d.stopc = nil
	if d.bars {
		if d.log != nil {
			d.log.setAbove(nil)
		}
		for _, bar := range d.shown {
			if rep != nil {
				bar.SetTotal(-1, true) // complete at the current position
			} else {
				bar.Abort(false)
			}
		}
		d.p.Wait()
	}
	line := summary(d.r.label, rep)
	if rep != nil {
		line += kernelWords(d.l.kernel())
	}
	fmt.Fprintln(d.w, line)
}

// timeLeft is the time until the window ends, never negative.
func timeLeft(r repInfo, now time.Time) time.Duration { return max(r.window.End.Sub(now), 0) }

// missedWords is ", N missed" for missed starts; "" for none.
func missedWords(n uint64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d missed", n)
}

// summary is a repetition's closing line: requests, rate, errors, the open
// loop's missed starts and p99 from the intended start, and client µs/req.
func summary(label string, rep *results.Rep) string {
	if rep == nil {
		return label + ": stopped"
	}
	total := &rep.Total
	secs := total.Window.Length().Seconds()
	var rps float64
	if secs > 0 {
		rps = float64(total.Requests) / secs
	}
	line := fmt.Sprintf("%s: done, %d requests in %.1f s, %.0f req/s, %d errors",
		label, total.Requests, secs, rps, total.Errors.Total())
	if total.Scheduled > 0 {
		line += fmt.Sprintf(", %d of %d starts missed, p99 from intended start %s ms", total.Missed, total.Scheduled,
			format.QuantileMillis(total.Latency.Intended, 99))
	}
	if us, _, ok := analysis.RepClientCPU(rep).PerRequest(total.Requests); ok {
		line += ", client " + format.Micros(us) + " µs/req"
	}
	return line
}

// logSink is Options.Log: its lines go above bars drawn on the same writer.
type logSink struct {
	w     io.Writer
	mu    sync.Mutex
	above io.Writer // the bar container while bars are drawn on w
}

func (l *logSink) Write(b []byte) (int, error) {
	l.mu.Lock()
	above := l.above
	l.mu.Unlock()
	if above != nil {
		if n, err := above.Write(b); err == nil {
			return n, nil
		}
	}
	return l.w.Write(b)
}

func (l *logSink) setAbove(w io.Writer) {
	l.mu.Lock()
	l.above = w
	l.mu.Unlock()
}
