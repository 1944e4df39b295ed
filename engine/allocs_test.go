//go:build !race

package engine

import (
	"context"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestAllocs holds the request loop to its allocation budget on a kept-alive
// connection, where nothing but the engine's own code runs per request: none
// for http, and for https the one crypto/tls itself makes per record read.
// (A new connection costs what net's dial and the TLS handshake allocate;
// BenchmarkShortConnection reports it.) The servers run in a child process,
// so the count is the client's alone.
func TestAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	for _, tc := range []struct {
		name   string
		kind   string
		target func(addr string) plans.Target
		max    float64
	}{
		{"http", "http", func(addr string) plans.Target {
			return plans.Target{Addr: addr, Request: []byte(keepAliveRequest)}
		}, 0},
		{"https", "https", func(addr string) plans.Target { return httpsTarget(addr, keepAliveRequest) }, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := benchSlot(t, tc.target(externalServer(t, tc.kind)), plans.KeepAlive)
			s.request(t) // opens the connection, sizes the buffers
			got := testing.AllocsPerRun(200, func() { s.request(t) })
			if got > tc.max {
				t.Errorf("allocations per kept-alive request = %v, want at most %v", got, tc.max)
			}
			if s.counts.Connections != 1 {
				t.Errorf("Connections = %d, want 1 (the connection was not kept alive)", s.counts.Connections)
			}
		})
	}
}

// TestAllocsOpenLoop holds the open loop (SetRate) to the same budget as
// the closed one: taking a start from the pacer, waiting for it on the
// slot's timer and recording the latency from the intended start add no
// allocation per request.
func TestAllocsOpenLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	addr := externalServer(t, "http")
	tg := plans.Target{Addr: addr, Request: []byte(keepAliveRequest)}
	e := newEngine(t, tg, load(plans.KeepAlive, 5*time.Second), 1)
	if err := e.SetRate(100_000); err != nil { // a start every 10 µs: the waits are short
		t.Fatal(err)
	}
	s := e.slots[0]
	t.Cleanup(s.closeConn)
	now := time.Now()
	e.begin(results.Window{Start: now, End: now.Add(24 * time.Hour)})
	s.ctx = context.Background()
	s.request(t) // opens the connection, sizes the buffers
	got := testing.AllocsPerRun(200, func() {
		if !s.step() || s.att.failed {
			t.Fatalf("step failed: %s: %v", s.att.class, s.att.err)
		}
	})
	if got > 0 {
		t.Errorf("allocations per paced kept-alive request = %v, want 0", got)
	}
	if s.counts.Scheduled == 0 || s.counts.Requests < 200 {
		t.Errorf("Scheduled %d, Requests %d: the paced steps did not run", s.counts.Scheduled, s.counts.Requests)
	}
}
