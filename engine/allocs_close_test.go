//go:build !race

package engine

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/kaeload/kaeload/scenarios/plans"
)

// closeModeBudget is how many allocations one short-connection request of
// the engine may make beyond what net and crypto/tls make for the same
// connection (dial, full handshake, one request and response, close):
// the engine's own per-request cost. It was 0 when written: the engine
// adds nothing to what net and crypto/tls allocate. Raise it only with a
// reason in the commit message.
const closeModeBudget = 0

// TestAllocsCloseMode holds a short-connection request (a new TCP
// connection and a full TLS handshake every time) to its allocation
// budget. In the same test, against the same server process, it counts
// what a bare loop of net.Dialer and crypto/tls allocates for the same
// exchange with the engine's own *tls.Config — a dial bounded by a
// deadline, handshake,
// ConnectionState, write the request, read the response to the end,
// close — and holds the engine to at most closeModeBudget more. The
// floor moves with the Go release; the difference is kaeload's.
func TestAllocsCloseMode(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	addr := externalServer(t, "https")
	s := benchSlot(t, httpsTarget(addr, closeRequest), plans.Close)
	s.request(t) // sizes the pooled read buffer
	cfg := s.cfg
	req := []byte(closeRequest)
	buf := make([]byte, 16<<10)
	var d net.Dialer
	d.KeepAlive = -1
	bare := func() {
		// A bounded dial, as the engine's (the request timeout): net
		// then sets up a deadline context and its timer.
		d.Deadline = time.Now().Add(5 * time.Second)
		c, err := d.DialContext(context.Background(), "tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		raw := c.(*net.TCPConn)
		_ = raw.SetDeadline(time.Now().Add(5 * time.Second))
		tc := tls.Client(raw, cfg)
		if err := tc.HandshakeContext(context.Background()); err != nil {
			t.Fatal(err)
		}
		_ = tc.ConnectionState()
		if _, err := tc.Write(req); err != nil {
			t.Fatal(err)
		}
		for {
			_, err := tc.Read(buf)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		_ = raw.Close()
	}
	bare()
	const runs = 100
	var floor, engine float64
	// Interleave a few rounds and keep each side's least: a stray
	// allocation of the runtime lands in one round, not in all.
	for i := range 3 {
		f := testing.AllocsPerRun(runs, bare)
		e := testing.AllocsPerRun(runs, func() { s.request(t) })
		if i == 0 || f < floor {
			floor = f
		}
		if i == 0 || e < engine {
			engine = e
		}
	}
	t.Logf("allocations per short-connection request: engine %.0f, bare net + crypto/tls %.0f, the engine's own %.0f (budget %d)",
		engine, floor, engine-floor, closeModeBudget)
	if engine-floor > closeModeBudget {
		t.Errorf("the engine allocates %.0f times per short-connection request beyond net and crypto/tls (%.0f against %.0f), budget %d",
			engine-floor, engine, floor, closeModeBudget)
	}
	if s.counts.Handshakes < runs {
		t.Errorf("%d handshakes, want a new one per request", s.counts.Handshakes)
	}
}
