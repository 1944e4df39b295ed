package engine

import (
	"context"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// benchSlot returns the single slot of an engine for tg, ready for do and
// account calls outside Run, with a window that has begun and never ends.
func benchSlot(tb testing.TB, tg plans.Target, mode plans.Connection) *slot {
	tb.Helper()
	e := newEngine(tb, tg, load(mode, 5*time.Second), 1)
	now := time.Now()
	e.begin(results.Window{Start: now, End: now.Add(24 * time.Hour)})
	s := e.slots[0]
	tb.Cleanup(s.closeConn)
	return s
}

// request runs one request on s and fails tb if it failed.
func (s *slot) request(tb testing.TB) {
	s.do(context.Background())
	if s.att.failed {
		tb.Fatalf("request failed: %s: %v", s.att.class, s.att.err)
	}
	s.account()
}

// BenchmarkShortConnection measures one request of a slot against the
// built-in target: with a new TCP connection and full TLS 1.3 handshake
// (close) and on a kept-alive connection. The server runs in a child
// process, so B/op and allocs/op are the client's alone; ns/op still
// includes waiting for the server, which shares the machine.
func BenchmarkShortConnection(b *testing.B) {
	addr := externalServer(b, "https")
	for _, bc := range []struct {
		name    string
		mode    plans.Connection
		request string
	}{
		{"close", plans.Close, closeRequest},
		{"keep-alive", plans.KeepAlive, keepAliveRequest},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := benchSlot(b, httpsTarget(addr, bc.request), bc.mode)
			s.request(b) // warm the slot's buffers
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				s.request(b)
			}
		})
	}
}

// BenchmarkPlainHTTP is BenchmarkShortConnection for an http:// target,
// where the engine's own costs are not hidden behind TLS.
func BenchmarkPlainHTTP(b *testing.B) {
	addr := externalServer(b, "http")
	for _, bc := range []struct {
		name    string
		mode    plans.Connection
		request string
	}{
		{"close", plans.Close, closeRequest},
		{"keep-alive", plans.KeepAlive, keepAliveRequest},
	} {
		b.Run(bc.name, func(b *testing.B) {
			tg := plans.Target{Addr: addr, Request: []byte(bc.request)}
			s := benchSlot(b, tg, bc.mode)
			s.request(b)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				s.request(b)
			}
		})
	}
}

// BenchmarkTimeline measures the timeline's cost per close-mode request:
// two engines against the same server process, one without a timeline
// (Load.Interval 0) and one with the default interval and a collector
// taking its intervals four times a second as a worker does, their
// requests interleaved so that both see the same machine. It reports each
// one's time per request (ns/req-off, ns/req-on) and their ratio
// (on/off), side by side; ns/op is one request of each.
func BenchmarkTimeline(b *testing.B) {
	for _, bc := range []struct {
		name   string
		kind   string
		target func(addr string) plans.Target
	}{
		{"https", "https", func(addr string) plans.Target { return httpsTarget(addr, closeRequest) }},
		{"http", "http", func(addr string) plans.Target {
			return plans.Target{Addr: addr, Request: []byte(closeRequest)}
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			tg := bc.target(externalServer(b, bc.kind))
			off := benchSlotLoad(b, tg, plans.Load{Connection: plans.Close, Timeout: 5 * time.Second})
			on := benchSlotLoad(b, tg, load(plans.Close, 5*time.Second))
			stop := make(chan struct{})
			done := make(chan struct{})
			go func() {
				defer close(done)
				t := time.NewTicker(250 * time.Millisecond)
				defer t.Stop()
				for {
					select {
					case <-stop:
						return
					case <-t.C:
						on.e.TakeIntervals(false)
					}
				}
			}()
			defer func() { close(stop); <-done }()
			off.request(b)
			on.request(b)
			var tOff, tOn time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				// Alternate which goes first, so neither always follows the other.
				first, second, d1, d2 := off, on, &tOff, &tOn
				if i%2 == 1 {
					first, second, d1, d2 = on, off, &tOn, &tOff
				}
				t0 := time.Now()
				first.request(b)
				t1 := time.Now()
				second.request(b)
				*d1 += t1.Sub(t0)
				*d2 += time.Since(t1)
			}
			b.ReportMetric(float64(tOff.Nanoseconds())/float64(b.N), "ns/req-off")
			b.ReportMetric(float64(tOn.Nanoseconds())/float64(b.N), "ns/req-on")
			b.ReportMetric(float64(tOn)/float64(tOff), "on/off")
		})
	}
}

// benchSlotLoad is benchSlot with the load l.
func benchSlotLoad(tb testing.TB, tg plans.Target, l plans.Load) *slot {
	tb.Helper()
	e := newEngine(tb, tg, l, 1)
	now := time.Now()
	e.begin(results.Window{Start: now, End: now.Add(24 * time.Hour)})
	s := e.slots[0]
	tb.Cleanup(s.closeConn)
	return s
}

// BenchmarkTimelineEvents measures what the timeline adds to one request
// without the network: reading the clock under the slot's timeline lock
// and counting the start, then the end (a response with its handshake and
// total times), as do and account do, with the interval rolling over
// every interval; and, for comparison, the two clock readings alone (off).
func BenchmarkTimelineEvents(b *testing.B) {
	for _, bc := range []struct {
		name     string
		interval time.Duration
	}{{"off", 0}, {"on", results.MinInterval}} {
		b.Run(bc.name, func(b *testing.B) {
			l := load(plans.Close, 5*time.Second)
			l.Interval = bc.interval
			s := benchSlotLoad(b, plans.Target{Addr: "127.0.0.1:1", Request: []byte(closeRequest)}, l)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				s.lockTimeline()
				s.att = attempt{start: s.e.since()}
				if s.e.ivl > 0 {
					s.noteStart()
				}
				s.unlockTimeline()
				s.lockTimeline()
				s.att.end = s.e.since()
				s.att.handshake, s.att.tlsTime, s.att.status = true, time.Millisecond, 200
				if s.e.ivl > 0 {
					s.noteEnd()
				}
				s.unlockTimeline()
			}
		})
	}
}
