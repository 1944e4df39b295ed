//go:build linux

package cpustat

import (
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/testkit"
	"golang.org/x/sys/unix"
)

// TestReadListenQueue reads a real listener's queue: a listen(1) socket
// that never accepts, sent 30 connects (testkit.ForeignListener). Its
// accept queue holds backlog + 1 = 2, and every further handshake is
// dropped: the listener's own drops (sk_drops) grow, as the namespace's
// ListenDrops do. A port nothing listens on reads as no socket.
func TestReadListenQueue(t *testing.T) {
	f := testkit.ForeignListener(t, 1000, 30*time.Millisecond)
	f.Wait()
	var q ListenQueue
	deadline := time.Now().Add(10 * time.Second)
	for {
		var err error
		if q, err = ReadListenQueue(f.Port); err != nil {
			skipNoSockDiag(t, err)
			t.Fatal(err)
		}
		if q.Drops > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("%d connects: %+v", f.Connects, q)
	if got, want := q.Sockets, 1; got != want {
		t.Errorf("sockets = %d, want %d", got, want)
	}
	if got, want := q.Backlog, uint64(1); got != want {
		t.Errorf("backlog = %d, want %d", got, want)
	}
	if got, want := q.Queue, uint64(2); got != want {
		t.Errorf("queue = %d, want %d (backlog + 1)", got, want)
	}
	if !q.Full() {
		t.Errorf("Full() = false for %+v", q)
	}
	if !q.DropsKnown || q.Drops == 0 {
		t.Errorf("drops = %d (known %v), want some: %d connects to a queue of 2", q.Drops, q.DropsKnown, f.Connects)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	if q, err := ReadListenQueue(port); err != nil || q.Sockets != 0 {
		t.Errorf("a port nothing listens on: %+v, %v; want no socket, no error", q, err)
	}
}

// TestCountTimeWait counts the TIME_WAIT sockets of connections the
// client closed first, to one listener and not another's.
func TestCountTimeWait(t *testing.T) {
	listen := func() (net.Listener, netip.AddrPort) {
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
				go func() { b := make([]byte, 1); c.Read(b); c.Close() }() // closes after the client
			}
		}()
		return ln, netip.MustParseAddrPort(ln.Addr().String())
	}
	_, a := listen()
	_, b := listen()
	const n = 5
	for i := range n {
		// Each from its own source address: loopback reuses a TIME_WAIT
		// socket of the same four-tuple (tcp_tw_reuse 2) when the
		// ephemeral ports are crowded, as after the load tests.
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(10+i))}}
		c, err := d.Dial("tcp", a.String())
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
	}
	var got int
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var err error
		if got, err = CountTimeWait(a); err != nil {
			skipNoSockDiag(t, err)
			t.Fatal(err)
		}
		if got >= n || time.Now().After(deadline) {
			break
		}
	}
	if got != n {
		t.Errorf("TIME_WAIT to %s = %d, want %d", a, got, n)
	}
	if other, err := CountTimeWait(b); err != nil || other != 0 {
		t.Errorf("TIME_WAIT to %s = %d, %v; want 0", b, other, err)
	}
}

// TestParseListenQueue reads ss's output: one socket, two (IPv4 and
// IPv6, skmem on a line of its own as older ss prints it), none, and an
// error.
func TestParseListenQueue(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		want      ListenQueue
		err       bool
	}{
		{"one", "LISTEN 3      511          0.0.0.0:443       0.0.0.0:*    skmem:(r0,rb131072,t0,tb16384,f0,w0,o0,bl0,d17)\n",
			ListenQueue{Sockets: 1, Queue: 3, Backlog: 511, Drops: 17, DropsKnown: true}, false},
		{"two", "LISTEN 0 128 0.0.0.0:443 0.0.0.0:*\n\t skmem:(r0,rb131072,t0,tb16384,f0,w0,o0,bl0,d2)\nLISTEN 1 128 [::]:443 [::]:*\n\t skmem:(r0,rb131072,t0,tb16384,f0,w0,o0,bl0,d3)\n",
			ListenQueue{Sockets: 2, Queue: 1, Backlog: 256, Drops: 5, DropsKnown: true}, false},
		{"no skmem", "LISTEN 0 128 0.0.0.0:443 0.0.0.0:*\n", ListenQueue{Sockets: 1, Backlog: 128}, false},
		{"none", "", ListenQueue{}, false},
		{"error", "sh: ss: not found\n", ListenQueue{}, true},
	} {
		got, err := ParseListenQueue(tc.out)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("%s: got %+v, %v; want %+v, error %v", tc.name, got, err, tc.want, tc.err)
		}
	}
}

// skipNoSockDiag skips a test where the kernel (or an emulator: CI runs
// these tests for arm64 under qemu-aarch64, whose user mode has no
// NETLINK_SOCK_DIAG) cannot answer sock_diag: the run then records the
// listener as not read, with this error as why.
func skipNoSockDiag(t *testing.T, err error) {
	t.Helper()
	if errors.Is(err, unix.EPROTONOSUPPORT) {
		t.Skipf("sock_diag not available here: %v", err)
	}
}
