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
