package cpustat

import (
	"context"
	"net"
	"os"
	"syscall"
	"testing"
)

// TestPortHolders: two SO_REUSEPORT listeners of this process on one port
// are one holder, this process; a free port has none.
func TestPortHolders(t *testing.T) {
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, 0xf /* SO_REUSEPORT */, 1) })
		if err != nil {
			return err
		}
		return serr
	}}
	a, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	port := a.Addr().(*net.TCPAddr).Port
	b, err := lc.Listen(context.Background(), "tcp", a.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	hs, err := PortHolders(port)
	if err != nil {
		t.Skipf("cannot read listening sockets here: %v", err)
	}
	if len(hs) != 1 || hs[0].PID != os.Getpid() || hs[0].Name == "?" {
		t.Errorf("PortHolders(%d) = %+v, want this process (pid %d) once", port, hs, os.Getpid())
	}
	a.Close()
	b.Close()
	if hs, err := PortHolders(port); err != nil || len(hs) != 0 {
		t.Errorf("PortHolders of a closed port = %+v, %v", hs, err)
	}
}
