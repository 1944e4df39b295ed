//go:build !race

package engine

import (
	"testing"

	"github.com/kaeload/kaeload/scenarios"
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
		target func(addr string) scenarios.Target
		max    float64
	}{
		{"http", "http", func(addr string) scenarios.Target {
			return scenarios.Target{Addr: addr, Request: []byte(keepAliveRequest)}
		}, 0},
		{"https", "https", func(addr string) scenarios.Target { return httpsTarget(addr, keepAliveRequest) }, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := benchSlot(t, tc.target(externalServer(t, tc.kind)), scenarios.KeepAlive)
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
