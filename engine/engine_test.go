package engine

import (
	"context"
	"crypto/tls"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/target"
)

const (
	closeRequest     = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
	keepAliveRequest = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
)

// httpsTarget is a target at addr offering TLS 1.2 and 1.3, X25519 and P-256.
func httpsTarget(addr, request string) plans.Target {
	return plans.Target{
		Addr:    addr,
		Method:  "GET",
		Request: []byte(request),
		TLS: &plans.TLS{
			MinVersion: tls.VersionTLS12,
			MaxVersion: tls.VersionTLS13,
			Curves:     []uint16{uint16(tls.X25519), uint16(tls.CurveP256)},
		},
	}
}

// load is a Load with the compiled default's timeline interval: the
// timeline is on in every test, as it is in every run.
func load(mode plans.Connection, timeout time.Duration) plans.Load {
	return plans.Load{Connection: mode, Timeout: timeout, Interval: results.DefaultInterval}
}

// startTarget starts the built-in target on a free loopback port until the test ends.
func startTarget(t testing.TB, resumption bool) *target.Server {
	t.Helper()
	s, err := target.Listen(target.Options{Addr: "127.0.0.1:0", Cert: "ecdsa-p256", Resumption: resumption})
	if err != nil {
		t.Fatalf("target.Listen: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("target Serve: %v", err)
		}
	})
	return s
}

// newEngine is New that fails the test on error.
func newEngine(t testing.TB, tg plans.Target, l plans.Load, conns int) *Engine {
	t.Helper()
	e, err := New(tg, l, conns)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return e
}

// window is [now+warmup, now+warmup+d).
func window(warmup, d time.Duration) results.Window {
	start := time.Now().Add(warmup)
	return results.Window{Start: start, End: start.Add(d)}
}

// shortWindow is the window of the tests that ask only for some
// requests, handshakes or errors of a kind (they run under -race too):
// loopback gives several of each in it, of 100 ms timeouts too.
const shortWindow = 300 * time.Millisecond

// maxLate is how long after the window end (or the cancel) Run may return
// in a test, beyond what the server makes in-flight requests wait and
// what the machine's load delays any wake-up by (loadDelay). Run aims at
// ~100 ms; maxLate is still far below the 5 s request timeout.
const maxLate = time.Second

// loadDelay starts a probe that sleeps until at, as Run's own timers do,
// and returns a function that waits for it and says how late it woke:
// what the machine's load alone adds to a deadline at that moment, so a
// check of Run's promptness can allow it and still fail a Run that waits
// for something it should not.
func loadDelay(at time.Time) func() time.Duration {
	late := make(chan time.Duration, 1)
	go func() {
		time.Sleep(time.Until(at))
		late <- time.Since(at)
	}()
	return func() time.Duration { return <-late }
}

// run runs e over w and checks that Run returned promptly after w.End,
// and that the timeline's intervals add up to the window's and the
// warm-up's counts (checkTimeline).
func run(t *testing.T, e *Engine, w results.Window) results.Group {
	t.Helper()
	delay := loadDelay(w.End.Add(100 * time.Millisecond))
	g := e.Run(context.Background(), w)
	if late, d := time.Since(w.End), delay(); late > maxLate+d {
		t.Errorf("Run returned %v after the window end (a timer %v late then), want within ~100ms", late, d)
	}
	if got, want := g.Window, w; !got.Start.Equal(want.Start) || !got.End.Equal(want.End) {
		t.Errorf("Window = %v, want %v", got, want)
	}
	checkTimeline(t, g, e.TakeIntervals(true))
	return g
}

// dials is the number of TCP connections the engine established in its
// last Run, counted or not.
func (e *Engine) dials() uint64 {
	var n uint64
	for _, s := range e.slots {
		n += s.dials
	}
	return n
}

// checkHistograms checks that every histogram holds one value per counted event.
func checkHistograms(t *testing.T, g results.Group) {
	t.Helper()
	for _, h := range []struct {
		name string
		got  int64
		want uint64
	}{
		{"Connect", g.Latency.Connect.TotalCount(), g.Counts.Connections},
		{"Handshake", g.Latency.Handshake.TotalCount(), g.Handshakes},
		{"TTFB", g.Latency.TTFB.TotalCount(), g.Requests},
		{"Total", g.Latency.Total.TotalCount(), g.Requests},
	} {
		if uint64(h.got) != h.want {
			t.Errorf("%s histogram holds %d values, want %d", h.name, h.got, h.want)
		}
	}
}

// waitFor polls cond for up to 2 s.
func waitFor(cond func() bool) bool {
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// TestCloseMode runs short connections against the built-in target and
// checks the client's counts against the server's.
//
// The server-side assertion: the server accepts every TCP connection the
// client established — warm-up ones, counted ones and ones abandoned at the
// window end alike — so once its accept loop has caught up, its Connections
// is at least the client's successful dials over the whole run. It can be
// higher by at most one per slot: a connect in flight at the window end
// that the kernels complete while the client, past its deadline, gives up.
// The client's counted Connections are fewer (warm-up and abandoned ones
// are not counted), and in close mode without errors each counted
// connection carries exactly one counted handshake and one counted request.
func TestCloseMode(t *testing.T) {
	srv := startTarget(t, false)
	const conns = 4
	e := newEngine(t, httpsTarget(srv.Addr(), closeRequest), load(plans.Close, 5*time.Second), conns)

	// Snapshot while running: never decreasing, race-free.
	stop := make(chan struct{})
	var snapErr atomic.Value
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var last Snapshot
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
			s := e.Snapshot()
			if s.Requests < last.Requests || s.Bytes < last.Bytes {
				snapErr.Store(fmt.Sprintf("snapshot went back: %+v after %+v", s, last))
			}
			last = s
		}
	}()
	g := run(t, e, window(200*time.Millisecond, 800*time.Millisecond))
	close(stop)
	wg.Wait()
	if msg := snapErr.Load(); msg != nil {
		t.Error(msg)
	}

	if g.Requests == 0 {
		t.Fatalf("no requests counted: %+v; %d dials", g.Counts, e.dials())
	}
	if got := g.Errors.Total(); got != 0 {
		t.Errorf("errors = %d (%+v), want 0", got, g.Errors)
	}
	if g.Counts.Connections != g.Requests || g.Handshakes != g.Requests {
		t.Errorf("Connections, Handshakes = %d, %d; want both = Requests = %d", g.Counts.Connections, g.Handshakes, g.Requests)
	}
	if got, want := g.Status[2], g.Requests; got != want {
		t.Errorf("Status[2] = %d, want %d", got, want)
	}
	// Every response of the built-in target has the same length.
	if g.Bytes == 0 || g.Bytes%g.Requests != 0 {
		t.Errorf("Bytes = %d, want a positive multiple of Requests = %d", g.Bytes, g.Requests)
	}
	if g.Resumed != 0 {
		t.Errorf("Resumed = %d, want 0", g.Resumed)
	}
	wantKey := "TLS1.3 TLS_AES_128_GCM_SHA256 X25519, ECDSA P-256, ecdsa_secp256r1_sha256"
	if got, want := g.Negotiated, map[string]uint64{wantKey: g.Handshakes}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Negotiated = %v, want %v", got, want)
	}
	checkHistograms(t, g)
	if got, want := e.Snapshot(), (Snapshot{Requests: g.Requests, Bytes: g.Bytes}); got != want {
		t.Errorf("Snapshot after Run = %+v, want %+v", got, want)
	}

	dials := e.dials()
	if dials <= g.Counts.Connections {
		t.Errorf("dials = %d, want more than the %d counted connections (warm-up traffic)", dials, g.Counts.Connections)
	}
	if !waitFor(func() bool { return srv.Stats().Connections >= dials }) || srv.Stats().Connections > dials+conns {
		t.Errorf("server accepted %d connections, want from the %d the client established to %d", srv.Stats().Connections, dials, dials+conns)
	}
	st := srv.Stats()
	if st.Requests < g.Requests || st.Requests > dials {
		t.Errorf("server answered %d requests, want between the %d counted and the %d connections", st.Requests, g.Requests, dials)
	}
	if st.Resumed != 0 {
		t.Errorf("server saw %d resumed handshakes, want 0", st.Resumed)
	}
	t.Logf("counted %d requests in 0.8 s; %d dials; server %+v", g.Requests, dials, st)
}

// TestKeepAlive checks that keep-alive slots reuse their connections.
func TestKeepAlive(t *testing.T) {
	srv := startTarget(t, false)
	const conns = 2
	e := newEngine(t, httpsTarget(srv.Addr(), keepAliveRequest), load(plans.KeepAlive, 5*time.Second), conns)
	// No warm-up: each slot's first request, which opens its connection,
	// completes inside the window.
	g := run(t, e, window(0, shortWindow))
	if got := g.Errors.Total(); got != 0 {
		t.Errorf("errors = %d (%+v), want 0", got, g.Errors)
	}
	if got, want := g.Counts.Connections, uint64(conns); got != want {
		t.Errorf("Connections = %d, want %d", got, want)
	}
	if g.Requests < 5*g.Counts.Connections {
		t.Errorf("Requests = %d, want at least 5 per connection (%d)", g.Requests, g.Counts.Connections)
	}
	checkHistograms(t, g)
	if !waitFor(func() bool { return srv.Stats().Connections == conns }) {
		t.Errorf("server accepted %d connections, want %d", srv.Stats().Connections, conns)
	}
}

// resumableServer is an httptest TLS server that allows resumption (Go
// servers issue session tickets by default) and counts connections and
// resumed handshakes.
func resumableServer(t *testing.T, maxVersion uint16, h http.HandlerFunc) (srv *httptest.Server, conns, resumed *atomic.Uint64) {
	t.Helper()
	conns, resumed = new(atomic.Uint64), new(atomic.Uint64)
	srv = httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // abandoned handshakes are expected
	srv.TLS = &tls.Config{
		MaxVersion: maxVersion,
		VerifyConnection: func(cs tls.ConnectionState) error {
			if cs.DidResume {
				resumed.Add(1)
			}
			return nil
		},
	}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, conns, resumed
}

func ok(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }

func TestResumption(t *testing.T) {
	for _, tc := range []struct {
		name       string
		version    uint16
		resumption bool
	}{
		{"TLS1.2/off", tls.VersionTLS12, false},
		{"TLS1.3/off", tls.VersionTLS13, false},
		{"TLS1.2/on", tls.VersionTLS12, true},
		{"TLS1.3/on", tls.VersionTLS13, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _, serverResumed := resumableServer(t, tc.version, ok)
			tg := httpsTarget(srv.Listener.Addr().String(), closeRequest)
			tg.TLS.Resumption = tc.resumption
			const conns = 2
			e := newEngine(t, tg, load(plans.Close, 5*time.Second), conns)
			g := run(t, e, window(0, shortWindow))
			if got := g.Errors.Total(); got != 0 {
				t.Errorf("errors = %d (%+v), want 0", got, g.Errors)
			}
			if g.Handshakes <= 2*conns {
				t.Fatalf("Handshakes = %d, want more than %d", g.Handshakes, 2*conns)
			}
			// With resumption each slot's first handshake is full and
			// every later one resumes the session its one-entry cache holds.
			var want uint64
			if tc.resumption {
				want = g.Handshakes - conns
			}
			if got := g.Resumed; got != want {
				t.Errorf("Resumed = %d, want %d (of %d handshakes)", got, want, g.Handshakes)
			}
			if got := serverResumed.Load(); (got == 0) == tc.resumption {
				t.Errorf("server saw %d resumed handshakes, want %v", got, map[bool]string{true: "> 0", false: "0"}[tc.resumption])
			}
			var n uint64
			for k, v := range g.Negotiated {
				if want := strings.ReplaceAll(tls.VersionName(tc.version), " ", "") + " "; !strings.HasPrefix(k, want) {
					t.Errorf("Negotiated key %q, want prefix %q", k, want)
				}
				n += v
			}
			if n != g.Handshakes {
				t.Errorf("Negotiated sums to %d, want Handshakes = %d", n, g.Handshakes)
			}
		})
	}
}

// TestWindow checks that only requests whose responses complete inside the
// window count, with a server that decides when each response completes.
// The window is [500 ms, 1500 ms) after Run starts; 3 slots, close mode.
// The server answers the first 3 requests at once (warm-up: they complete
// long before the window starts), holds the next 3 until 500 ms into the
// window (counted), and holds the rest until 200 ms after the window end
// (in flight at the end: they drain, uncounted, as Outside.Late). Which
// slot sends which request does not matter: exactly 3 responses complete in
// the window, and no request starts after it.
func TestWindow(t *testing.T) {
	const conns = 3
	w := window(500*time.Millisecond, time.Second)
	var arrivals atomic.Int64
	srv, _, _ := resumableServer(t, tls.VersionTLS13, func(rw http.ResponseWriter, r *http.Request) {
		hold := w.End.Add(200 * time.Millisecond)
		switch n := arrivals.Add(1); {
		case n <= conns:
			hold = time.Time{}
		case n <= 2*conns:
			hold = w.Start.Add(500 * time.Millisecond)
		}
		select {
		case <-time.After(time.Until(hold)):
		case <-r.Context().Done():
			return
		}
		io.WriteString(rw, "ok")
	})
	e := newEngine(t, httpsTarget(srv.Listener.Addr().String(), closeRequest), load(plans.Close, 5*time.Second), conns)
	g := run(t, e, w)
	if got, want := g.Requests, uint64(conns); got != want {
		t.Errorf("Requests = %d, want %d", got, want)
	}
	if got := g.Errors.Total(); got != 0 {
		t.Errorf("errors = %d (%+v), want 0: requests draining after the window must not count", got, g.Errors)
	}
	if got, want := g.Outside, (results.Outside{Warmup: conns, WarmupStatus: [6]uint64{2: conns}, Late: conns, LateStatus: [6]uint64{2: conns}}); got != want {
		t.Errorf("Outside = %+v, want %+v", got, want)
	}
	if got, want := e.dials(), uint64(3*conns); got != want {
		t.Errorf("dials = %d, want %d (warm-up, counted, late per slot)", got, want)
	}
	if got, want := arrivals.Load(), int64(3*conns); got != want {
		t.Errorf("server saw %d requests, want %d: none may start after the window", got, want)
	}
	// A counted request waited in the server from before the window start
	// until 500 ms into it.
	if got := time.Duration(g.Latency.Total.Min()) * time.Microsecond; got < 500*time.Millisecond {
		t.Errorf("shortest Total = %v, want at least 500ms", got)
	}
	checkHistograms(t, g)
}

// TestDrainLimit checks that requests in flight at the window end are cut
// off after min(timeout, 1 s): with a server that never answers and a
// 200 ms timeout, each slot's first request times out inside the 300 ms
// window (an error) and its second, started at ~200 ms, is still in flight
// at the end and is abandoned at ~400 ms.
func TestDrainLimit(t *testing.T) {
	const conns = 2
	srv, _, _ := resumableServer(t, tls.VersionTLS13, func(rw http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	e := newEngine(t, httpsTarget(srv.Listener.Addr().String(), closeRequest), load(plans.Close, 200*time.Millisecond), conns)
	w := window(0, 300*time.Millisecond)
	delay := loadDelay(w.End.Add(100 * time.Millisecond))
	g := e.Run(context.Background(), w)
	if late, d := time.Since(w.End), delay(); late < 50*time.Millisecond || late > maxLate+d {
		t.Errorf("Run returned %v after the window end (a timer %v late then), want about 100ms (the drain limit)", late, d)
	}
	if got, want := g.Errors[results.ErrTimeout].Count, uint64(conns); got != want {
		t.Errorf("timeouts = %d, want %d", got, want)
	}
	// Cut off after the window, they are counted by the class of their
	// failure there: timeout.
	if got, want := g.Outside, (results.Outside{Abandoned: conns, AfterClasses: results.ErrorCounts{results.ErrTimeout: conns}, Unanswered: results.Stages{Response: conns}}); got != want {
		t.Errorf("Outside = %+v, want %+v", got, want)
	}
}

// TestUnanswered checks that requests a server accepts and never answers
// are visible as what they are. Against a listener that accepts TCP and
// then stays silent, every slot's request is still waiting for the
// handshake when the window ends; against one whose accept queue is full
// (listen backlog 0, never accepted), connects stay pending too. Nothing
// completes, nothing fails inside the window (the timeout is longer than
// it), and every slot's attempt is counted as unanswered, by stage.
func TestUnanswered(t *testing.T) {
	const conns = 6
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held []net.Conn
	var mu sync.Mutex
	t.Cleanup(func() {
		silent.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	e := newEngine(t, httpsTarget(silent.Addr().String(), closeRequest), load(plans.Close, 10*time.Second), conns)
	g := e.Run(context.Background(), window(0, 300*time.Millisecond))
	if g.Requests != 0 || g.Errors.Total() != 0 {
		t.Errorf("requests %d, errors %d (%+v), want 0 and 0", g.Requests, g.Errors.Total(), g.Errors)
	}
	if got, want := g.Outside.Unanswered, (results.Stages{Handshake: conns}); got != want {
		t.Errorf("silent listener: Unanswered = %+v, want %+v", got, want)
	}
	if got, want := g.Outside.Abandoned, uint64(conns); got != want {
		t.Errorf("silent listener: Abandoned = %d, want %d", got, want)
	}

	// backlog 0: the kernel completes at most a connection or two into the
	// accept queue; further SYNs are dropped and those connects hang.
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
	e = newEngine(t, httpsTarget(addr, closeRequest), load(plans.Close, 10*time.Second), conns)
	g = e.Run(context.Background(), window(0, 300*time.Millisecond))
	u := g.Outside.Unanswered
	if u.Connect == 0 || u.Total() != conns || u.Response != 0 {
		t.Errorf("full accept queue: Unanswered = %+v, want %d in all, some of them in connect", u, conns)
	}
	if g.Requests != 0 || g.Errors.Total() != 0 {
		t.Errorf("full accept queue: requests %d, errors %d, want 0 and 0", g.Requests, g.Errors.Total())
	}
	t.Logf("full accept queue: %+v", u)
}

// TestCancel checks that cancelling the context stops Run early, at the
// cancel time, counting nothing after it.
func TestCancel(t *testing.T) {
	srv := startTarget(t, false)
	e := newEngine(t, httpsTarget(srv.Addr(), closeRequest), load(plans.Close, 5*time.Second), 4)
	ctx, cancel := context.WithCancel(context.Background())
	w := window(0, 10*time.Second)
	var cancelled time.Time
	var delay func() time.Duration
	go func() {
		time.Sleep(300 * time.Millisecond)
		cancelled = time.Now()
		delay = loadDelay(cancelled.Add(100 * time.Millisecond))
		cancel()
	}()
	g := e.Run(ctx, w)
	returned := time.Now()
	if late, d := returned.Sub(cancelled), delay(); late > maxLate+d {
		t.Errorf("Run returned %v after cancel (a timer %v late then), want within ~100ms", late, d)
	}
	if g.Window.End.Before(cancelled) || g.Window.End.After(returned) {
		t.Errorf("Window.End = %v, want between the cancel (%v) and Run's return (%v)", g.Window.End, cancelled, returned)
	}
	if !g.Window.Start.Equal(w.Start) {
		t.Errorf("Window.Start = %v, want %v", g.Window.Start, w.Start)
	}
	if g.Requests == 0 {
		t.Errorf("no requests counted before the cancel")
	}
	if got := g.Errors.Total(); got != 0 {
		t.Errorf("errors = %d (%+v), want 0: requests aborted by the cancel must not count", got, g.Errors)
	}
	checkHistograms(t, g)
}

// TestErrorClasses provokes each error class against a real server.
func TestErrorClasses(t *testing.T) {
	// A free port with nothing listening.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := ln.Addr().String()
	ln.Close()

	// A plain TCP server that answers the ClientHello with junk and closes.
	junk, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { junk.Close() })
	go func() {
		for {
			c, err := junk.Accept()
			if err != nil {
				return
			}
			io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n")
			c.Close()
		}
	}()

	status, _, _ := resumableServer(t, tls.VersionTLS13, func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "broken", http.StatusInternalServerError)
	})
	slow, _, _ := resumableServer(t, tls.VersionTLS13, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(time.Second):
		case <-r.Context().Done():
		}
	})
	hangup, _, _ := resumableServer(t, tls.VersionTLS13, func(w http.ResponseWriter, _ *http.Request) {
		c, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			c.Close()
		}
	})
	// Closes mid-response: the headers promise 100 bytes, 10 come.
	truncated, _, _ := resumableServer(t, tls.VersionTLS13, func(w http.ResponseWriter, _ *http.Request) {
		c, buf, err := w.(http.Hijacker).Hijack()
		if err == nil {
			buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n0123456789")
			buf.Flush()
			c.Close()
		}
	})

	for _, tc := range []struct {
		name      string
		addr      string
		timeout   time.Duration
		class     results.ErrorClass
		completed bool // the failures are complete responses
	}{
		{"connect", closedAddr, time.Second, results.ErrConnect, false},
		{"tls", junk.Addr().String(), time.Second, results.ErrTLS, false},
		{"status", status.Listener.Addr().String(), time.Second, results.ErrStatus, true},
		{"timeout", slow.Listener.Addr().String(), 100 * time.Millisecond, results.ErrTimeout, false},
		{"read", hangup.Listener.Addr().String(), time.Second, results.ErrRead, false},
		{"truncated", truncated.Listener.Addr().String(), time.Second, results.ErrRead, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngine(t, httpsTarget(tc.addr, closeRequest), load(plans.Close, tc.timeout), 2)
			g := run(t, e, window(0, shortWindow))
			for c := range results.NumErrorClasses {
				got := g.Errors[c].Count
				if c == tc.class && got == 0 {
					t.Errorf("%s errors = 0, want > 0", c)
				}
				if c != tc.class && got != 0 {
					t.Errorf("%s errors = %d (first: %s), want 0", c, got, g.Errors[c].First)
				}
			}
			if g.Errors[tc.class].First == "" {
				t.Errorf("%s errors: no first message", tc.class)
			}
			var wantRequests uint64
			if tc.completed {
				wantRequests = g.Errors[tc.class].Count
			}
			if got, want := g.Requests, wantRequests; got != want {
				t.Errorf("Requests = %d, want %d", got, want)
			}
			// A failure is never a success, a 5xx response included.
			if got := g.Succeeded(); got != 0 {
				t.Errorf("Succeeded = %d, want 0", got)
			}
			if got := g.Rate(); got != 0 {
				t.Errorf("Rate = %v, want 0", got)
			}
			if got, want := g.ErrorShare(), 1.0; got != want {
				t.Errorf("ErrorShare = %v, want %v", got, want)
			}
			if tc.completed {
				if got, want := g.Status[5], g.Requests; got != want {
					t.Errorf("Status[5] = %d, want %d", got, want)
				}
			}
			if got, want := e.Snapshot().Errors, g.Errors.Total(); got != want {
				t.Errorf("Snapshot().Errors = %d, want %d", got, want)
			}
			checkHistograms(t, g)
			t.Logf("%s: %d errors, first %q", tc.class, g.Errors[tc.class].Count, g.Errors[tc.class].First)
		})
	}
}

// TestPlainHTTP checks http:// targets: no handshake at all; and that a
// HEAD response, whose Content-Length announces a body that never comes, is
// read without waiting for that body.
func TestPlainHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(ok))
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		name    string
		mode    plans.Connection
		request string
	}{
		{"close", plans.Close, closeRequest},
		{"keep-alive", plans.KeepAlive, keepAliveRequest},
		{"head", plans.KeepAlive, "HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := plans.Target{Addr: srv.Listener.Addr().String(), Method: "GET", Request: []byte(tc.request)}
			e := newEngine(t, tg, load(tc.mode, time.Second), 2)
			g := run(t, e, window(0, shortWindow))
			if g.Requests == 0 || g.Errors.Total() != 0 {
				t.Errorf("Requests, errors = %d, %d (%+v); want > 0, 0", g.Requests, g.Errors.Total(), g.Errors)
			}
			if g.Handshakes != 0 || g.Negotiated != nil {
				t.Errorf("Handshakes = %d, Negotiated = %v; want none for http", g.Handshakes, g.Negotiated)
			}
			if tc.mode == plans.Close && g.Counts.Connections != g.Requests {
				t.Errorf("Connections = %d, want Requests = %d", g.Counts.Connections, g.Requests)
			}
			if tc.mode == plans.KeepAlive && g.Counts.Connections != 2 {
				t.Errorf("Connections = %d, want 2", g.Counts.Connections)
			}
			checkHistograms(t, g)
		})
	}
}

func TestNewErrors(t *testing.T) {
	good := httpsTarget("127.0.0.1:443", closeRequest)
	for _, tc := range []struct {
		name  string
		edit  func(*plans.Target, *plans.Load)
		conns int
		want  string
	}{
		{"no port", func(tg *plans.Target, _ *plans.Load) { tg.Addr = "127.0.0.1" }, 1, `target address "127.0.0.1"`},
		{"empty host", func(tg *plans.Target, _ *plans.Load) { tg.Addr = ":443" }, 1, "want host:port"},
		{"no request", func(tg *plans.Target, _ *plans.Load) { tg.Request = nil }, 1, "empty request"},
		{"no connections", func(*plans.Target, *plans.Load) {}, 0, "connections must be at least 1"},
		{"bad mode", func(_ *plans.Target, l *plans.Load) { l.Connection = "pipeline" }, 1, `unknown connection mode "pipeline"`},
		{"no timeout", func(_ *plans.Target, l *plans.Load) { l.Timeout = 0 }, 1, "request timeout 0s, want > 0"},
		{"bad CA", func(tg *plans.Target, _ *plans.Load) {
			tg.TLS.Verify, tg.TLS.CAPEM = true, []byte("not PEM")
		}, 1, "CA bundle"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg, l := good, load(plans.Close, time.Second)
			tlsCopy := *good.TLS
			tg.TLS = &tlsCopy
			tc.edit(&tg, &l)
			_, err := New(tg, l, tc.conns)
			if err == nil {
				t.Fatalf("New succeeded, want error containing %q", tc.want)
			}
			if got := err.Error(); !strings.Contains(got, tc.want) {
				t.Errorf("New error = %q, want it to contain %q", got, tc.want)
			}
		})
	}
}

// TestVerify checks certificate verification against the target's own CA.
func TestVerify(t *testing.T) {
	srv, _, _ := resumableServer(t, tls.VersionTLS13, ok)
	certPEM := pemCert(srv.Certificate().Raw)
	for _, tc := range []struct {
		name  string
		ca    []byte
		class results.ErrorClass
	}{
		{"trusted", certPEM, results.NumErrorClasses},
		{"untrusted", nil, results.ErrTLS}, // system pool does not know httptest's cert
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := httpsTarget(srv.Listener.Addr().String(), closeRequest)
			tg.TLS.Verify, tg.TLS.CAPEM = true, tc.ca
			e := newEngine(t, tg, load(plans.Close, time.Second), 1)
			g := run(t, e, window(0, shortWindow))
			if tc.class == results.NumErrorClasses {
				if g.Requests == 0 || g.Errors.Total() != 0 {
					t.Errorf("Requests, errors = %d, %+v; want > 0, none", g.Requests, g.Errors)
				}
				return
			}
			if g.Requests != 0 || g.Errors[tc.class].Count == 0 {
				t.Errorf("Requests, %s errors = %d, %d; want 0, > 0", tc.class, g.Requests, g.Errors[tc.class].Count)
			}
		})
	}
}

func pemCert(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// TestRunTwice checks that a second Run counts only its own window: the
// connections it counts are those the server accepted during it, less at
// most one abandoned (or aborted connect) per slot at the window end.
func TestRunTwice(t *testing.T) {
	var accepted atomic.Uint64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(ok))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			accepted.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	const conns = 2
	tg := plans.Target{Addr: srv.Listener.Addr().String(), Request: []byte(closeRequest)}
	e := newEngine(t, tg, load(plans.Close, time.Second), conns)
	before := uint64(0)
	for i := range 2 {
		g := run(t, e, window(0, 300*time.Millisecond))
		dials := e.dials()
		waitFor(func() bool { return accepted.Load()-before >= dials })
		during := accepted.Load() - before
		before = accepted.Load()
		if g.Requests == 0 || g.Counts.Connections != g.Requests {
			t.Errorf("run %d: Requests, Connections = %d, %d; want equal and > 0", i+1, g.Requests, g.Counts.Connections)
		}
		if g.Counts.Connections > during || g.Counts.Connections+2*conns < during {
			t.Errorf("run %d: counted %d connections, the server accepted %d during the run", i+1, g.Counts.Connections, during)
		}
		checkHistograms(t, g)
		if got, want := e.Snapshot().Requests, g.Requests; got != want {
			t.Errorf("run %d: Snapshot().Requests = %d, want %d", i+1, got, want)
		}
	}
}
