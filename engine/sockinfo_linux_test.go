//go:build linux

package engine

import (
	"net"
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestSockets reads the client's own sockets' TCP_INFO: against the
// built-in target every connection is read and none was reset; against a
// server that resets each connection after reading its request
// (SO_LINGER 0), every one is read as reset, and its request fails.
func TestSockets(t *testing.T) {
	const n = 20
	t.Run("target", func(t *testing.T) {
		s := benchSlot(t, httpsTarget(startTarget(t, false).Addr(), closeRequest), plans.Close)
		for range n {
			s.request(t)
		}
		if got, want := s.counts.Sockets.Read, uint64(n); got != want {
			t.Errorf("Sockets.Read = %d, want %d", got, want)
		}
		if got := s.counts.Sockets.Reset; got != 0 {
			t.Errorf("Sockets.Reset = %d, want 0", got)
		}
	})
	t.Run("reset", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				buf := make([]byte, 512)
				_, _ = c.Read(buf)
				_ = c.(*net.TCPConn).SetLinger(0)
				c.Close() // a reset
			}
		}()
		s := benchSlot(t, plans.Target{Addr: ln.Addr().String(), Request: []byte(closeRequest)}, plans.Close)
		for range n {
			s.do(t.Context())
			s.account()
		}
		c := &s.counts
		if got, want := c.Sockets.Read, uint64(n); got != want {
			t.Errorf("Sockets.Read = %d, want %d", got, want)
		}
		if got, want := c.Sockets.Reset, uint64(n); got != want {
			t.Errorf("Sockets.Reset = %d, want %d (errors %+v)", got, want, c.Errors)
		}
		if got, want := c.Errors[results.ErrRead].Count, uint64(n); got != want {
			t.Errorf("read errors = %d, want %d", got, want)
		}
	})
}

// BenchmarkSockInfo is the cost of reading one connection's TCP_INFO
// (noteSocket), to set beside BenchmarkShortConnection/close: the
// share of a short-connection request it adds.
func BenchmarkSockInfo(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	s := benchSlot(b, plans.Target{Addr: ln.Addr().String(), Request: []byte(closeRequest)}, plans.Close)
	s.raw = c.(*net.TCPConn)
	defer func() { s.raw = nil }()
	b.ReportAllocs()
	for b.Loop() {
		s.noteSocket()
	}
	if !s.att.sockRead {
		b.Fatal("TCP_INFO not read")
	}
}
