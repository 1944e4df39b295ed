//go:build linux

package cpustat

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// between fails unless every counter of mid lies between a and b, the
// counters being read before and after it (other traffic moves them).
func between(t *testing.T, what string, a, mid, b TCPSnapshot) {
	t.Helper()
	checkPartition(t, mid.Values, mid.Unavailable)
	for _, name := range TCPCounterNames {
		va, okA := a.Values[name]
		vm, okM := mid.Values[name]
		vb, okB := b.Values[name]
		if okA != okM || okM != okB {
			t.Errorf("%s: %s available %v, before %v, after %v", what, name, okM, okA, okB)
			continue
		}
		if okM && (vm < va || vm > vb) {
			t.Errorf("%s: %s = %d, not between %d and %d", what, name, vm, va, vb)
		}
	}
}

// TestReadTCPCountersLocal reads this machine's files three ways (this
// process, its PID, and the remote command run through sh) between two
// reads; each agrees with the test's own parse of the text and names this
// process's namespace.
func TestReadTCPCountersLocal(t *testing.T) {
	ns, err := LocalNetNS()
	if err != nil {
		t.Fatal(err)
	}
	if pns, err := ProcessNetNS(os.Getpid()); err != nil || pns != ns {
		t.Fatalf("ProcessNetNS(self) = %+v, %v; LocalNetNS %+v", pns, err, ns)
	}
	a := ReadTCPCounters()
	netstat, err := os.ReadFile("/proc/net/netstat")
	if err != nil {
		t.Fatal(err)
	}
	snmp, err := os.ReadFile("/proc/net/snmp")
	if err != nil {
		t.Fatal(err)
	}
	text := ParseTCPCounters(string(netstat), string(snmp))
	ext, tcp := naiveCounters(t, string(netstat), "TcpExt:"), naiveCounters(t, string(snmp), "Tcp:")
	for i, name := range TCPCounterNames {
		want, ok := ext[name]
		if i >= NumTCPExt {
			want, ok = tcp[name]
		}
		if _, read := text.Values[name]; read != ok {
			t.Errorf("%s: read %v, in the file %v (%q)", name, read, ok, want)
		}
	}
	own := ReadTCPCountersOf(os.Getpid())
	out, err := exec.Command("sh", "-c", RemoteTCPCountersCommand(0)).Output()
	if err != nil {
		t.Fatal(err)
	}
	remote := ParseRemoteTCPCounters(string(out))
	out, err = exec.Command("sh", "-c", RemoteTCPCountersCommand(os.Getpid())).Output()
	if err != nil {
		t.Fatal(err)
	}
	remotePID := ParseRemoteTCPCounters(string(out))
	b := ReadTCPCounters()
	between(t, "file text", a, text, b)
	between(t, "ReadTCPCountersOf(self)", a, own, b)
	between(t, "over sh", a, remote, b)
	between(t, "over sh, by pid", a, remotePID, b)
	for what, s := range map[string]TCPSnapshot{"ReadTCPCounters": a, "ReadTCPCountersOf": own, "over sh": remote, "over sh, by pid": remotePID} {
		if !s.Namespace.Same(ns) {
			t.Errorf("%s: namespace %v, want this process's %v", what, s.Namespace, ns)
		}
	}
}

// TestTCPDeltaListenOverflow fills an accept queue: a listener with
// backlog 1 that never accepts, and 20 connects. The queue holds backlog
// + 1 = 2 connections; each other connect's SYN is dropped, counted once
// in ListenOverflows and ListenDrops, and so is each SYN a connect
// retransmits (after 1 s, counted in TCPSynRetrans). In a namespace of
// its own the test owns every counter, and the figures are exact.
func TestTCPDeltaListenOverflow(t *testing.T) {
	private := privateNetns(t)
	proc := "/proc/self"
	if private {
		proc = "/proc/thread-self"
	}
	ln, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(ln)
	if err := unix.Bind(ln, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := unix.Listen(ln, 1); err != nil {
		t.Fatal(err)
	}
	addr, err := unix.Getsockname(ln)
	if err != nil {
		t.Fatal(err)
	}
	a := readTCPCounters(proc)
	const connects, queued = 20, 2
	for range connects {
		c, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer unix.Close(c)
		if err := unix.Connect(c, addr); err != nil && err != unix.EINPROGRESS {
			t.Fatal(err)
		}
	}
	// Loopback delivers at once, but poll: the machine may be busy.
	var d TCPDelta
	for deadline := time.Now().Add(5 * time.Second); ; {
		d = a.Delta(readTCPCounters(proc))
		if d.Values["ListenOverflows"] >= connects-queued || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	checkPartition(t, d.Values, d.Unavailable)
	over, drops, retrans := d.Values["ListenOverflows"], d.Values["ListenDrops"], d.Values["TCPSynRetrans"]
	t.Logf("private namespace %v: %v", private, d.Values)
	if !private {
		// Other traffic shares the counters: only lower bounds hold.
		if over < connects-queued || drops < over {
			t.Errorf("ListenOverflows +%d, ListenDrops +%d: want at least %d, and drops at least the overflows", over, drops, connects-queued)
		}
		return
	}
	if want := uint64(connects-queued) + retrans; over != want {
		t.Errorf("ListenOverflows +%d, want %d (%d connects, %d queued, %d SYN retransmits)", over, want, connects, queued, retrans)
	}
	if drops != over {
		t.Errorf("ListenDrops +%d, ListenOverflows +%d: want equal", drops, over)
	}
	if got := d.Values["ActiveOpens"]; got != connects {
		t.Errorf("ActiveOpens +%d, want %d", got, connects)
	}
	if got := d.Values["PassiveOpens"]; got != queued {
		t.Errorf("PassiveOpens +%d, want %d (the accept queue of backlog 1)", got, queued)
	}
	own, _ := LocalNetNS()
	if d.Namespace.Same(own) || d.Namespace.BootID != own.BootID {
		t.Errorf("private namespace %v, the process's %v: want another namespace of the same kernel", d.Namespace, own)
	}
}
