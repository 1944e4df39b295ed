//go:build linux

package cpustat

import (
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
)

// threadCPU returns the calling thread's CPU time (user + system).
func threadCPU(t *testing.T) float64 {
	t.Helper()
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// burn keeps the calling goroutine's thread busy on cpu for d and returns
// the CPU time the thread got, all of it on cpu.
func burn(t *testing.T, cpu int, d time.Duration) float64 {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var saved, one unix.CPUSet
	if err := unix.SchedGetaffinity(0, &saved); err != nil {
		t.Fatal(err)
	}
	one.Set(cpu)
	if err := unix.SchedSetaffinity(0, &one); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := unix.SchedSetaffinity(0, &saved); err != nil {
			t.Fatal(err)
		}
	}()
	before := threadCPU(t)
	x := 0
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := 0; i < 1000; i++ {
			x += i
		}
	}
	_ = x
	return threadCPU(t) - before
}

// TestSampleCPUsSeesBurn pins a busy loop to one CPU for 500 ms and checks
// that the CPU reads as busy over that window, with at least the CPU time
// the kernel gave the loop's thread, and less busy over a window in which
// this test does nothing.
func TestSampleCPUsSeesBurn(t *testing.T) {
	online, err := pinning.Online()
	if err != nil {
		t.Fatal(err)
	}
	cpu := online[len(online)-1]
	set := pinning.Set{cpu}
	a, err := SampleCPUs(set)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	own := burn(t, cpu, 500*time.Millisecond)
	b, err := SampleCPUs(set)
	if err != nil {
		t.Fatal(err)
	}
	window := time.Since(start)
	u := a.Usage(b, window)
	t.Logf("burn window %v: %+v; the loop's thread got %.3f s", window, u, own)
	if got, want := u.CPUs, set.String(); got != want {
		t.Errorf("CPUs = %q, want %q", got, want)
	}
	// The CPU is busy whether the loop or another process runs on it.
	if u.Busy < 0.8 {
		t.Errorf("busy on CPU %d while burning = %.2f, want >= 0.8", cpu, u.Busy)
	}
	// Ticks are 10 ms: allow two at the window's ends.
	if u.Seconds < own-0.02 || u.Seconds > window.Seconds()+0.02 {
		t.Errorf("busy seconds on CPU %d = %.3f, want between the loop's own %.3f and the window %.3f", cpu, u.Seconds, own, window.Seconds())
	}

	// The machine may be shared with other test processes, so an idle
	// window is not guaranteed: look for one among five.
	var idle []results.CPUUsage
	for i := 0; i < 5; i++ {
		a, _ := SampleCPUs(set)
		start := time.Now()
		time.Sleep(200 * time.Millisecond)
		b, _ := SampleCPUs(set)
		idle = append(idle, a.Usage(b, time.Since(start)))
		if idle[i].Busy < 0.5 {
			t.Logf("idle window: %+v", idle[i])
			return
		}
	}
	t.Logf("CPU %d stayed busy without us (%+v): other processes load this machine; the idle comparison is not checked", cpu, idle)
}
