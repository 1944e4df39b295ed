//go:build linux

package ports

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestReadLive reads this machine's sysctls and checks them against the
// files read here by hand.
func TestReadLive(t *testing.T) {
	l, err := Read()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v: %d ports, %.0f new connections/s per remote destination", l, l.Ports(), l.MaxRate(false, 0))
	field := func(name string, i int) int {
		t.Helper()
		b, err := os.ReadFile("/proc/sys/net/ipv4/" + name)
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(strings.Fields(string(b))[i])
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if got, want := [2]int{l.Low, l.High}, [2]int{field("ip_local_port_range", 0), field("ip_local_port_range", 1)}; got != want {
		t.Errorf("port range = %v, want %v", got, want)
	}
	if got, want := l.TWReuse, field("tcp_tw_reuse", 0); got != want {
		t.Errorf("TWReuse = %d, want %d", got, want)
	}
	if got, want := l.FinTimeout, time.Duration(field("tcp_fin_timeout", 0))*time.Second; got != want {
		t.Errorf("FinTimeout = %v, want %v", got, want)
	}
	if !l.Known() || l.Ports() < 1 {
		t.Errorf("Known = %v, Ports = %d, want a known range", l.Known(), l.Ports())
	}
}

// listedTimeWait counts the TIME_WAIT sockets (state 06) that
// /proc/net/tcp and tcp6 list, and of those the ones whose remote port is
// port.
func listedTimeWait(t *testing.T, port int) (all, ours int) {
	t.Helper()
	suffix := fmt.Sprintf(":%04X", port)
	for _, name := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 4 || f[3] != "06" {
				continue
			}
			all++
			if strings.HasSuffix(f[2], suffix) {
				ours++
			}
		}
	}
	return all, ours
}

// TestTimeWaitLive closes n loopback connections client side first, over
// IPv4 and then IPv6, which leaves each client socket in TIME_WAIT for
// 60 s. TimeWait must agree with the TIME_WAIT sockets that /proc/net/tcp
// and tcp6 list, read between two calls (other processes may open and
// close connections meanwhile: allow n/2), and these must include ours.
// With ours over IPv6 among them this proves that sockstat's tw counts both
// families, as sockstat6 has no tw.
func TestTimeWaitLive(t *testing.T) {
	const n = 20
	const churn = n / 2
	for _, network := range []struct{ name, addr string }{{"tcp4", "127.0.0.1:0"}, {"tcp6", "[::1]:0"}} {
		ln, err := net.Listen(network.name, network.addr)
		if err != nil {
			if network.name == "tcp6" {
				t.Skipf("no IPv6 loopback: %v", err)
			}
			t.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		for i := 0; i < n; i++ {
			c, err := net.Dial(network.name, ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			s, err := ln.Accept()
			if err != nil {
				t.Fatal(err)
			}
			c.Close() // the client closes first: FIN_WAIT_1, FIN_WAIT_2
			if _, err := s.Read(make([]byte, 1)); err == nil {
				t.Fatal("server read data, want EOF")
			}
			s.Close() // the server's FIN moves the client to TIME_WAIT
		}
		ln.Close()
		// Other processes' connections open and close while we read: take
		// readings until one is quiet enough, up to a generous deadline.
		// Were IPv6 TIME_WAIT not in sockstat's count, ours alone would
		// keep every reading n apart.
		var before, after, all, ours int
		agree := func() bool { return all >= min(before, after)-churn && all <= max(before, after)+churn }
		for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if before, err = TimeWait(); err != nil {
				t.Fatal(err)
			}
			all, ours = listedTimeWait(t, port)
			if after, err = TimeWait(); err != nil {
				t.Fatal(err)
			}
			if (ours >= n && agree()) || time.Now().After(end) {
				break
			}
		}
		t.Logf("after %d client-closed %s connections: TimeWait %d, then %d; listed %d in TIME_WAIT, %d of them ours", n, network.name, before, after, all, ours)
		if ours < n {
			t.Errorf("%s: %d of our %d client-closed connections listed in TIME_WAIT, want all", network.name, ours, n)
		}
		if !agree() {
			t.Errorf("%s: TimeWait read %d and %d around a listing of %d TIME_WAIT sockets (IPv4 and IPv6), want them to agree within %d",
				network.name, before, after, all, churn)
		}
	}
}

// TestExhaustedLive dials from an address this host does not have: the
// kernel answers EADDRNOTAVAIL, the errno of port exhaustion, and Go
// wraps it as it would a failed connect, so Exhausted must see it.
func TestExhaustedLive(t *testing.T) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1)}, Timeout: 5 * time.Second} // TEST-NET-1
	c, err := d.Dial("tcp", "127.0.0.1:9")
	if err == nil {
		c.Close()
		t.Skip("192.0.2.1 is an address of this host")
	}
	if !Exhausted(err) {
		t.Errorf("Exhausted(%v) = false, want true", err)
	}
}
