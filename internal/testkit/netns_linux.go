package testkit

import (
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// envNetns names the test a binary rerun by InPrivateNetns runs.
const envNetns = "KAELOAD_TEST_NETNS"

// InPrivateNetns gives test t a network namespace of its own, so the TCP
// counters move only with t: it reruns t under `unshare -n` and returns
// false; in the rerun it brings the loopback up and returns true.
func InPrivateNetns(t *testing.T) bool {
	t.Helper()
	if os.Getenv(envNetns) == t.Name() {
		loopbackUp(t)
		return true
	}
	parts := strings.Split(t.Name(), "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	cmd := exec.Command("unshare", "-n", "--", os.Args[0], "-test.run="+strings.Join(parts, "/"), "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), envNetns+"="+t.Name())
	out, err := cmd.CombinedOutput()
	switch {
	case err == nil && strings.Contains(string(out), "--- SKIP: "+t.Name()+" ("):
		t.Skipf("skipped inside its network namespace:\n%s", string(out))
	case err == nil:
		t.Logf("inside its network namespace:\n%s", string(out))
	case errors.Is(err, exec.ErrNotFound), strings.Contains(string(out), "unshare failed"):
		Missing(t, "network namespaces are not available here (unshare -n): %v\n%s", err, string(out))
	default:
		t.Fatalf("inside its network namespace: %v\n%s", err, string(out))
	}
	return false
}

// loopbackUp brings up the loopback, down in a new network namespace.
func loopbackUp(t *testing.T) {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		t.Fatalf("loopback flags: %v", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		t.Fatalf("loopback up: %v", err)
	}
}

// Foreign is another program's listener whose accept queue overflows: the
// kernel counts its drops in the namespace's ListenOverflows and
// ListenDrops, which a measurement must not take for its own.
type Foreign struct {
	Port     int // the listener's, on 127.0.0.1
	Connects int // how many connects were sent; set once Wait returns
	done     chan struct{}
}

// Wait returns once the connects are sent.
func (f *Foreign) Wait() { <-f.done }

// ForeignListener starts a listen(1) socket on 127.0.0.1 that never
// accepts and sends it about rate non-blocking connects a second for d;
// the first fill its queue, the rest overflow it. Sockets close when t ends.
func ForeignListener(t *testing.T, rate int, d time.Duration) *Foreign {
	t.Helper()
	lfd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatalf("foreign listener: %v", err)
	}
	t.Cleanup(func() { unix.Close(lfd) })
	if err := unix.Bind(lfd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatalf("foreign listener: bind: %v", err)
	}
	if err := unix.Listen(lfd, 1); err != nil {
		t.Fatalf("foreign listener: listen: %v", err)
	}
	sa, err := unix.Getsockname(lfd)
	if err != nil {
		t.Fatalf("foreign listener: %v", err)
	}
	f := &Foreign{Port: sa.(*unix.SockaddrInet4).Port, done: make(chan struct{})}
	to := &unix.SockaddrInet4{Port: f.Port, Addr: [4]byte{127, 0, 0, 1}}
	var fds []int // the goroutine's until done closes, then the cleanup's
	t.Cleanup(func() {
		f.Wait()
		for _, fd := range fds {
			unix.Close(fd)
		}
	})
	go func() {
		defer close(f.done)
		tick := time.NewTicker(time.Second / time.Duration(max(rate, 1)))
		defer tick.Stop()
		for end := time.Now().Add(d); time.Now().Before(end); <-tick.C {
			fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
			if err != nil {
				return
			}
			_ = unix.Connect(fd, to) // EINPROGRESS: the kernel goes on alone
			fds = append(fds, fd)
			f.Connects++
		}
	}()
	return f
}
