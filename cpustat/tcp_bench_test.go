//go:build linux

package cpustat

import (
	"net"
	"os"
	"testing"

	gnet "github.com/shirou/gopsutil/v4/net"
)

// The benchmarks below measure what kaeload reads from a host at every
// interval boundary on this machine as it is; bench/tcpcounters.sh
// measures them with 2,000 and 250,000 sockets in TIME_WAIT.

func BenchmarkParseTCPCounters(b *testing.B) {
	netstat, snmp := readFixture(b, "proc-net-netstat-6.18.txt"), readFixture(b, "proc-net-snmp-6.18.txt")
	b.Run("local", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if s := ParseTCPCounters(netstat, snmp); len(s.Unavailable) != 0 {
				b.Fatal(s.Unavailable)
			}
		}
	})
	b.Run("remote", func(b *testing.B) {
		out := tcpMarkNS + "\nnet:[4026531840]\nb\n" + tcpMarkNetstat + "\n" + netstat + tcpMarkSNMP + "\n" + snmp
		b.ReportAllocs()
		for b.Loop() {
			if s := ParseRemoteTCPCounters(out); len(s.Unavailable) != 0 {
				b.Fatal(s.Unavailable)
			}
		}
	})
}

func BenchmarkReadTCPCounters(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ReadTCPCounters()
	}
}

// benchListener listens on loopback for the length of a benchmark.
func benchListener(b *testing.B) int {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ln.Close() })
	return ln.Addr().(*net.TCPAddr).Port
}

// BenchmarkListening lists a port's listening sockets both ways:
// sock_diag, and the head of /proc/net/tcp and tcp6 (whose cost grows
// with the IPv4 sockets in any state: see diagListening).
func BenchmarkListening(b *testing.B) {
	p := benchListener(b)
	b.Run("sock_diag", func(b *testing.B) {
		buf := make([]byte, diagReceiveSize)
		b.ReportAllocs()
		for b.Loop() {
			if in, _, err := diagListening(p, buf); err != nil || len(in) != 1 {
				b.Fatal(in, err)
			}
		}
	})
	b.Run("procfs", func(b *testing.B) {
		l := &Listener{Port: p, netDir: "/proc/net", buf: make([]byte, diagReceiveSize)}
		b.ReportAllocs()
		for b.Loop() {
			if in, err := l.procListening(); err != nil || len(in) != 1 {
				b.Fatal(in, err)
			}
		}
	})
}

// BenchmarkFindListener: the lookup remembered from the previous call
// (each interval's), one that walks every process's descriptors (each
// session's first), and the gopsutil lookup it replaced.
func BenchmarkFindListener(b *testing.B) {
	p := benchListener(b)
	b.Run("remembered", func(b *testing.B) {
		l := &Listener{Port: p}
		b.ReportAllocs()
		for b.Loop() {
			if pid, err := l.Find(); err != nil || pid != os.Getpid() {
				b.Fatal(pid, err)
			}
		}
	})
	b.Run("walk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if pid, err := FindListener(p); err != nil || pid != os.Getpid() {
				b.Fatal(pid, err)
			}
		}
	})
	b.Run("gopsutil", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			conns, err := gnet.Connections("tcp")
			if err != nil {
				b.Fatal(err)
			}
			found := false
			for _, c := range conns {
				found = found || c.Status == "LISTEN" && c.Laddr.Port == uint32(p)
			}
			if !found {
				b.Fatal("gopsutil found no listener")
			}
		}
	})
}

// BenchmarkReading is one interval's reading of the server's host: the
// TCP counters, the machine's CPUs, the server's process tree and the
// remembered listener lookup.
func BenchmarkReading(b *testing.B) {
	l := &Listener{Port: benchListener(b)}
	b.ReportAllocs()
	for b.Loop() {
		ReadTCPCounters()
		if _, err := SampleCPUs(nil); err != nil {
			b.Fatal(err)
		}
		pid, err := l.Find()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := SampleTree(pid); err != nil {
			b.Fatal(err)
		}
	}
}
