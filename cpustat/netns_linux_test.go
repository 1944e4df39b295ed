//go:build linux

package cpustat

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// init keeps the main goroutine on the main thread for the whole run
// (Go does so when an init function locks it), so that no test's
// goroutine runs there. A test that moves its thread into a network
// namespace of its own therefore never moves the main thread, whose
// namespace /proc/self (and /proc/net) shows for the whole process.
func init() { runtime.LockOSThread() }

// privateNetns moves the calling test's goroutine, locked to its thread,
// into a new network namespace with its loopback up, so that the test's
// sockets and the TCP counters it reads ("/proc/thread-self") are its
// own, whatever else runs on the machine. The thread is never unlocked:
// it exits with the test's goroutine, and the namespace with it. Sockets
// must be created on this goroutine (a Dial in another goroutine lands in
// the shared namespace). It returns false, and leaves the test in the
// shared namespace, when this process may not create one (not root).
func privateNetns(t *testing.T) bool {
	t.Helper()
	runtime.LockOSThread()
	if unix.Gettid() == unix.Getpid() {
		t.Fatal("the test runs on the main thread: init did not keep it")
	}
	if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
		t.Logf("no private network namespace (%v): the machine's shared one is used", err)
		return false
	}
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
	return true
}
