//go:build linux

package cpustat

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
)

func port(t *testing.T, addr string) int {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestFindListenerNginx starts a real nginx (master + worker share the
// listening socket) and checks FindListener returns the master, whose tree
// holds the workers.
func TestFindListenerNginx(t *testing.T) {
	s := nginxtest.Start(t, nginxtest.Config{})
	master := s.Cmd.Process.Pid
	got, err := FindListener(port(t, s.Addr))
	if err != nil {
		t.Fatal(err)
	}
	if got != master {
		t.Errorf("FindListener(%s) = %d, want the nginx master %d (processes %v)", s.Addr, got, master, s.PIDs())
	}
	tree, err := SampleTree(got)
	if err != nil {
		t.Fatal(err)
	}
	pids := s.PIDs()
	if len(pids) < 2 {
		t.Fatalf("nginx has no workers: %v", pids)
	}
	for _, p := range pids {
		if !slices.Contains(tree.PIDs, p) {
			t.Errorf("tree of master %d = %v lacks nginx process %d", master, tree.PIDs, p)
		}
		// Whichever process the socket scan meets first, the climb ends at
		// the master: a worker's parent runs the same executable, the
		// master's parent (this test) does not.
		if got := familyRoot(p); got != master {
			t.Errorf("familyRoot(%d) = %d, want the master %d", p, got, master)
		}
	}
}

// TestFindListenerSelf listens in this test process, whose parent (go test)
// runs a different executable, so the answer is this process.
func TestFindListenerSelf(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := port(t, ln.Addr().String())
	got, err := FindListener(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := os.Getpid(); got != want {
		t.Errorf("FindListener(%d) = %d, want this process %d", p, got, want)
	}
	ln.Close()
	if _, err := FindListener(p); err == nil || !strings.Contains(err.Error(), "nothing listens") {
		t.Errorf("FindListener on a closed port: error = %v, want \"nothing listens\"", err)
	}
	if _, err := FindListener(70000); err == nil {
		t.Error("FindListener(70000) succeeded")
	}
}

// timeWaitOn counts the sockets in TIME_WAIT (state 06) whose local port
// is port in the tcp file under dir: the test's own full read.
func timeWaitOn(t *testing.T, dir string, port int) int {
	t.Helper()
	b, err := os.ReadFile(dir + "/tcp")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(":%04X", port)
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) > 3 && f[3] == "06" && strings.HasSuffix(f[1], want) {
			n++
		}
	}
	return n
}

// TestListenerTimeWait: with 2,000 sockets in TIME_WAIT on the server's
// side (it closes first, as nginx does), the listener is found, also one
// opened after them (the kernel lists listeners first whatever their
// age) and one on IPv6; once the listener is closed, the TIME_WAIT
// sockets left on its port are not taken for one. In a namespace of its
// own when root, so the sockets trouble nobody.
func TestListenerTimeWait(t *testing.T) {
	privateNetns(t)
	const dir = "/proc/thread-self/net" // this thread's namespace, private or not
	a, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	go func(ln net.Listener) {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close() // the server closes first: TIME_WAIT lands here
		}
	}(a)
	const timeWait = 2000
	buf := make([]byte, 1)
	for range timeWait {
		c, err := net.Dial("tcp4", a.Addr().String()) // on this goroutine: in its namespace
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Read(buf); err != io.EOF {
			t.Fatalf("read from a closed server connection: %v, want EOF", err)
		}
		c.Close()
	}
	// A connect may reuse a port whose earlier connection still is in
	// TIME_WAIT on the server: the kernel then recycles that socket. So
	// some may be missing: about 1 % in a private namespace, 10 % in a
	// shared one whose ephemeral ports other tests hold (CI's qemu pass).
	// The claim needs the listener among many TIME_WAIT sockets, not an
	// exact count: half of them will do.
	pa := port(t, a.Addr().String())
	const enough = timeWait / 2
	for deadline := time.Now().Add(10 * time.Second); timeWaitOn(t, dir, pa) < enough && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := timeWaitOn(t, dir, pa); n < enough {
		t.Fatalf("%d sockets in TIME_WAIT on port %d after %d connections, want at least %d", n, pa, timeWait, enough)
	}

	b, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	listeners := []net.Listener{a, b}
	if c, err := net.Listen("tcp6", "[::1]:0"); err == nil {
		defer c.Close()
		listeners = append(listeners, c)
	} else {
		t.Logf("no IPv6 listener: %v", err)
	}
	// Both ways of listing the listening sockets: sock_diag (netDir "")
	// and the head of /proc/net/tcp{,6}. They must agree. Where sock_diag
	// is missing (qemu-user runs the arm64 tests), Find's netDir ""
	// falls back to /proc/net, the namespace of the process's first
	// thread, not this thread's private one: only netDir dir is checked.
	ways := []string{"", dir}
	if _, _, err := diagListening(1, make([]byte, diagReceiveSize)); errors.Is(err, syscall.EPROTONOSUPPORT) {
		t.Logf("sock_diag not available here (%v): only the /proc way is checked", err)
		ways = []string{dir}
	}
	for _, ln := range listeners {
		p := port(t, ln.Addr().String())
		viaDiag, _, err := diagListening(p, make([]byte, diagReceiveSize))
		diagOK := len(ways) == 2
		if err != nil && diagOK {
			t.Fatal(err)
		}
		viaProc, err := (&Listener{Port: p, netDir: dir, buf: make([]byte, 8<<10)}).procListening()
		if err != nil {
			t.Fatal(err)
		}
		if diagOK && (len(viaDiag) != 1 || !slices.Equal(viaDiag, viaProc)) {
			t.Errorf("listening sockets of %s: sock_diag %v, /proc %v; want one, the same", ln.Addr(), viaDiag, viaProc)
		}
		for _, netDir := range ways {
			l := &Listener{Port: p, netDir: netDir}
			for range 2 { // walking /proc, then from what it remembers
				got, err := l.Find()
				if err != nil || got != os.Getpid() {
					t.Errorf("Find %s (netDir %q) = %d, %v; want this process %d", ln.Addr(), netDir, got, err, os.Getpid())
				}
			}
			if h := l.Holders(); !slices.Equal(h, []int{os.Getpid()}) {
				t.Errorf("holders of %s: %v, want this process %d", ln.Addr(), h, os.Getpid())
			}
		}
	}
	for _, netDir := range ways {
		la := &Listener{Port: pa, netDir: netDir}
		if _, err := la.Find(); err != nil {
			t.Fatal(err)
		}
		a.Close()
		got, err := la.Find()
		if err == nil || !strings.Contains(err.Error(), "nothing listens") {
			t.Errorf("Find (netDir %q) after the listener closed = %d, %v; want \"nothing listens\"", netDir, got, err)
		}
		a, err = net.Listen("tcp4", a.Addr().String()) // again, for the other way
		if err != nil {
			t.Fatal(err)
		}
	}
	a.Close()
	if n := timeWaitOn(t, dir, pa); n < enough {
		t.Errorf("only %d sockets left in TIME_WAIT on port %d: the check above proved nothing", n, pa)
	}
}

// TestListenerOwnerChanges hands listening sockets to child processes
// and closes this process's copies. Two unrelated holders are an error. A
// family (sh and its sh child) is found by its root; when that root dies
// (a zombie, not yet reaped) while its child keeps the socket, Find must
// not answer from memory: it names the child, now a root of its own.
func TestListenerOwnerChanges(t *testing.T) {
	// handOver starts each script with the listening socket as fd 3 and
	// closes this process's copy.
	handOver := func(scripts ...string) (int, []*exec.Cmd) {
		ln, err := net.Listen("tcp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		f, err := ln.(*net.TCPListener).File()
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		defer ln.Close()
		var cmds []*exec.Cmd
		for _, script := range scripts {
			cmd := exec.Command("sh", "-c", script)
			cmd.ExtraFiles = []*os.File{f}
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // its whole group
				cmd.Wait()
			})
			cmds = append(cmds, cmd)
		}
		return port(t, ln.Addr().String()), cmds
	}

	p, cmds := handOver("exec sleep 100", "exec sleep 100")
	want := []int{cmds[0].Process.Pid, cmds[1].Process.Pid}
	slices.Sort(want)
	if got, err := FindListener(p); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("unrelated processes %v", want)) {
		t.Errorf("FindListener with two unrelated holders = %d, %v; want an error naming %v", got, err, want)
	}

	// The inner sh outlives "sleep; :" only if not exec'd, and its sleep
	// closes fd 3: the two shells alone hold the socket.
	p, cmds = handOver(`sh -c "sleep 100 3>&-; :" & wait`)
	outer := cmds[0].Process.Pid
	l := &Listener{Port: p}
	var holders []int
	// Until the inner shell has started, and its sleep has closed fd 3
	// (between its fork and the redirection, the sleep holds it too: a
	// third holder, seen under qemu).
	for deadline := time.Now().Add(10 * time.Second); len(holders) != 2 && time.Now().Before(deadline); holders = l.Holders() {
		l.forget() // walk /proc each time
		if got, err := l.Find(); err != nil || got != outer {
			t.Fatalf("Find = %d, %v; want the outer sh %d (holders %v)", got, err, outer, l.Holders())
		}
	}
	if len(holders) != 2 || !slices.Contains(holders, outer) {
		t.Fatalf("holders %v, want the outer sh %d and its sh child", holders, outer)
	}
	inner := holders[0] + holders[1] - outer
	if got, err := l.Find(); err != nil || got != outer {
		t.Fatalf("Find again = %d, %v; want %d", got, err, outer)
	}
	if err := syscall.Kill(outer, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Not reaped: the outer sh stays a zombie until cmd.Wait.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if st, err := readProcStat(outer); err != nil || st.state == 'Z' {
			break
		}
	}
	if got, err := l.Find(); err != nil || got != inner {
		t.Errorf("Find after the root died = %d, %v; want its orphaned child %d", got, err, inner)
	}
}
