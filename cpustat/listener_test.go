//go:build linux

package cpustat

import (
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

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
