package testkit

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Foreign is another program's listener whose accept queue overflows: the
// kernel counts its drops in the namespace's ListenOverflows and
// ListenDrops, which a measurement must not take for its own.
type Foreign struct {
	Port     int // the listener's, on 127.0.0.1
	Connects int // how many connects were sent; set once Wait returns
	done     chan struct{}
}

// Wait waits until the bombardment is over.
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
