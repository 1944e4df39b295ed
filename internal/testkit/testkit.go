// Package testkit holds the helpers kaeload's tests share: a buffer, free
// ports, waits, process checks, network namespaces, busy-machine skips and
// the check of counts against a server's log. It imports only results.
package testkit

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/kaeload/kaeload/results"
)

// LockedBuffer is a bytes.Buffer that a run's goroutines (log, progress)
// may write while the test reads it.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns what was written so far.
func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Missing skips a test that lacks a part it needs (a command, a kernel
// feature), but fails it under CI=true, where .ci/run installs every part:
// a broken install step cannot hide as skips.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true, and .ci/run installs it: "+format, args...)
	}
	t.Skipf(format, args...)
}

// BusySkips names the file, set by .ci/run, where SkipBusy appends a line
// per skip so that CI can count them.
const BusySkips = "KAELOAD_BUSY_SKIPS"

// SkipBusy skips a test whose measurement the machine's load spoiled, in
// the one form CI counts: "BUSY-SKIP:", and a line in $KAELOAD_BUSY_SKIPS.
// Counting tests (SameResponses) never call it.
func SkipBusy(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := "BUSY-SKIP: " + t.Name() + ": " + fmt.Sprintf(format, args...)
	if path := os.Getenv(BusySkips); path != "" {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatalf("%s: %v", BusySkips, err)
		}
		_, err = fmt.Fprintln(f, strings.ReplaceAll(msg, "\n", " "))
		if err = errors.Join(err, f.Close()); err != nil {
			t.Fatalf("%s: %v", BusySkips, err)
		}
	}
	t.Skip(msg)
}

// NeedCommand returns the path of the command name, or ends the test as
// Missing does, with install saying how to get it (a Debian package).
func NeedCommand(t testing.TB, name, install string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Missing(t, "%s not found (%s): %v", name, install, err)
	}
	return path
}

// FreePort returns a loopback port nothing listens on right now (the
// kernel's pick for port 0). Another process may take it before the
// caller binds it; servers that start on it retry on "in use".
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// FreeAddr returns 127.0.0.1:port for a FreePort, failing the test when
// there is none.
func FreeAddr(t testing.TB) string {
	t.Helper()
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("127.0.0.1:%d", port)
}

// WaitListening polls addr until it accepts a TCP connection, the process
// that should listen there exits (a value on exited), or timeout passes.
func WaitListening(addr string, exited <-chan error, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("exited: %v", err)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("nothing listening on %s after %v", addr, timeout)
}

// Alive reports whether pid is a process that has not exited. A zombie
// counts as gone: in a container its reaper, init, may take seconds.
func Alive(pid int) bool {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return false
	}
	status, err := p.Status()
	return err == nil && !slices.Contains(status, process.Zombie)
}

// SameResponses checks kaeload's counts against a server's own: it served
// every response the client read. Requests that timed out, failed in the
// warm-up or were cut off widen the range; other failures fail the test.
func SameResponses(t testing.TB, server string, served uint64, c results.Counts) {
	t.Helper()
	var failed []string
	for class, e := range c.Errors {
		if e.Count != 0 && results.ErrorClass(class) != results.ErrStatus && results.ErrorClass(class) != results.ErrTimeout {
			failed = append(failed, fmt.Sprintf("%s %d (first: %s)", results.ErrorClass(class), e.Count, e.First))
		}
	}
	if len(failed) != 0 {
		t.Fatalf("requests failed: %s; the exact check of %s's count needs every request answered", strings.Join(failed, ", "), server)
	}
	want := c.Responses()
	unknown := c.Errors[results.ErrTimeout].Count + c.Outside.WarmupErrors + c.Outside.Abandoned
	if served < want || served > want+unknown {
		t.Errorf("%s served %d requests; kaeload read %d in the window + %d in the warm-up + %d late = %d, and %d timed out, %d failed in the warm-up and %d were cut off (unanswered %+v)",
			server, served, c.Requests, c.Outside.Warmup, c.Outside.Late, want,
			c.Errors[results.ErrTimeout].Count, c.Outside.WarmupErrors, c.Outside.Abandoned, c.Outside.Unanswered)
	}
}
