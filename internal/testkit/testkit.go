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
	"syscall"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/process"

	"github.com/kaeload/kaeload/results"
)

// LockedBuffer is a bytes.Buffer that a run's goroutines (log, progress)
// may write while the test reads it.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

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

// BusySkips names the file, set by .ci/run, where SkipBusy counts skips.
const BusySkips = "KAELOAD_BUSY_SKIPS"

// SkipBusy skips a test whose measurement the machine's load spoiled, in
// the one form CI counts: "BUSY-SKIP:", and a line in $KAELOAD_BUSY_SKIPS.
// Counting tests (SameResponses) never call it.
func SkipBusy(t testing.TB, format string, args ...any) {
	t.Helper()
	t.Skip(busy(t, format, args...))
}

// WaiveBusy is SkipBusy for one check of a test that goes on with its
// others: the waived check is logged, and counted as a skip.
func WaiveBusy(t testing.TB, format string, args ...any) {
	t.Helper()
	t.Log(busy(t, format, args...))
}

// busy counts a busy-machine skip in $KAELOAD_BUSY_SKIPS and returns its line.
func busy(t testing.TB, format string, args ...any) string {
	t.Helper()
	msg := "BUSY-SKIP: " + t.Name() + ": " + fmt.Sprintf(format, args...)
	if path := os.Getenv(BusySkips); path != "" {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			_, err = fmt.Fprintln(f, strings.ReplaceAll(msg, "\n", " "))
			err = errors.Join(err, f.Close())
		}
		if err != nil {
			t.Fatalf("%s: %v", BusySkips, err)
		}
	}
	return msg
}

// HostSteal is the time the hypervisor has stolen from this machine's CPUs
// since boot, in seconds: perf's cpu-clock counts it, the kernel's CPU
// seconds do not, and the reports can only estimate the server's part.
func HostSteal(t testing.TB) float64 {
	t.Helper()
	all, err := cpu.Times(false)
	if err != nil || len(all) != 1 {
		t.Fatalf("CPU times: %v (%d rows)", err, len(all))
	}
	return all[0].Steal
}

// NeedCommand returns the path of command name, on PATH or at one of paths,
// or ends the test as Missing does, install saying how to get it.
func NeedCommand(t testing.TB, name, install string, paths ...string) string {
	t.Helper()
	for _, p := range append([]string{name}, paths...) {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	Missing(t, "%s not found (%s)", name, install)
	return ""
}

// FreeAddr returns 127.0.0.1:port, a port nothing listens on right now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	return fmt.Sprintf("127.0.0.1:%d", freePorts(t, 1)[0])
}

// freePorts returns n loopback ports nothing listens on now (the kernel's picks).
func freePorts(t testing.TB, n int) []int {
	ports := make([]int, n)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports
}

// WithFreePorts calls launch with n free loopback ports. One may be taken
// before launch binds it: an error saying "in use" earns 4 more tries.
func WithFreePorts(t testing.TB, n int, launch func(ports []int) error) {
	t.Helper()
	var err error
	for range 5 {
		if err = launch(freePorts(t, n)); err == nil || !strings.Contains(err.Error(), "in use") {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}

// StartServer starts cmd in a process group of its own (through start, or
// cmd.Start) and polls ready until timeout; it kills the group if cmd exits
// first or never gets ready. The test's cleanup stops the group.
func StartServer(t testing.TB, cmd *exec.Cmd, start func(*exec.Cmd) error, timeout time.Duration, ready func() bool) error {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if start == nil {
		start = (*exec.Cmd).Start
	}
	if err := start(cmd); err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	group := -cmd.Process.Pid
	for deadline := time.Now().Add(timeout); !ready(); time.Sleep(20 * time.Millisecond) {
		err := fmt.Errorf("%s not ready after %v", cmd.Path, timeout)
		select {
		case exit := <-exited:
			err = fmt.Errorf("%s exited: %v", cmd.Path, exit)
		default:
			if time.Now().Before(deadline) {
				continue
			}
		}
		_ = syscall.Kill(group, syscall.SIGKILL)
		return err
	}
	t.Cleanup(func() {
		_ = syscall.Kill(group, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			t.Errorf("%s (pid %d) did not stop within 10 s of SIGTERM; killing its group", cmd.Path, -group)
			_ = syscall.Kill(group, syscall.SIGKILL)
			<-exited
		}
	})
	return nil
}

// ReadFile returns path's contents, failing the test when it cannot.
func ReadFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Accepting is StartServer's ready for TCP servers: every addr accepts.
func Accepting(addrs ...string) func() bool {
	return func() bool {
		for _, addr := range addrs {
			c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
			if err != nil {
				return false
			}
			c.Close()
		}
		return true
	}
}

// WriteFile writes data to path, failing the test when it cannot.
func WriteFile[T string | []byte](t testing.TB, path string, data T) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
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
	want := c.Requests + c.Outside.Warmup + c.Outside.Late // the server logs every response, line for line
	unknown := c.Errors[results.ErrTimeout].Count + c.Outside.WarmupErrors + c.Outside.Abandoned
	if served < want || served > want+unknown {
		t.Errorf("%s served %d requests; kaeload read %d in the window + %d in the warm-up + %d late = %d, and %d timed out, %d failed in the warm-up and %d were cut off (unanswered %+v)",
			server, served, c.Requests, c.Outside.Warmup, c.Outside.Late, want,
			c.Errors[results.ErrTimeout].Count, c.Outside.WarmupErrors, c.Outside.Abandoned, c.Outside.Unanswered)
	}
}
