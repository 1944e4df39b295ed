//go:build linux

package cpustat

import (
	"math"
	"runtime"
	"strconv"
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

// burn keeps the calling goroutine's thread busy on cpu until the thread
// has used work CPU-seconds (its own rusage: the work is sized by CPU time,
// so it is the same on a fast, slow or loaded machine). It returns the CPU
// time the thread got, all of it on cpu, and the wall-clock time it spent
// on cpu (from the affinity change to the end of the loop), during which
// the thread was always runnable there.
func burn(t *testing.T, cpu int, work float64) (own float64, onCPU time.Duration) {
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
	start := time.Now() // sched_setaffinity returns once the thread runs on cpu
	before := threadCPU(t)
	x := 0
	for threadCPU(t)-before < work {
		for i := 0; i < 100000; i++ {
			x += i
		}
	}
	_ = x
	return threadCPU(t) - before, time.Since(start)
}

// TestSampleCPUsSeesBurn pins a busy loop to one CPU (the last, X) until it
// has used 0.5 CPU-seconds, sampling X and a CPU this test leaves alone (the
// first, Y) together before and after. The machine may be shared: other
// processes may keep X, Y or both busy, so "Y reads idle" (or "X reads less
// busy once the loop stops") cannot be asserted. What holds on any machine,
// and is checked:
//   - X's busy seconds are at least what the kernel gave the loop's thread
//     there, and at most the window;
//   - X cannot be idle while the loop is runnable on it: its idle time fits
//     in the part of the window outside the loop (sampling, pinning);
//   - every CPU accounts for the window: busy + idle ≈ window on X and Y;
//   - X's busy seconds exceed Y's by at least Y's idle seconds, both
//     measured in the same window: X had no time to spare, so the margin
//     is whatever Y had (0 when other processes saturate Y, and X is then
//     still at least as busy).
//
// Each can fail for a real fault: reading another CPU's counters for X
// fails the idle bound (and the burn bound) whenever that CPU had time to
// spare; dropping idle time fails the accounting; counting idle as busy
// fails the accounting and the margin.
func TestSampleCPUsSeesBurn(t *testing.T) {
	const work = 0.5 // CPU-seconds the loop uses
	online, err := pinning.Online()
	if err != nil {
		t.Fatal(err)
	}
	x := online[len(online)-1]
	set := pinning.Set{x}
	if len(online) > 1 {
		set = pinning.Set{online[0], x}
	}
	start := time.Now()
	a, err := SampleCPUs(set)
	if err != nil {
		t.Fatal(err)
	}
	own, onCPU := burn(t, x, work)
	b, err := SampleCPUs(set)
	if err != nil {
		t.Fatal(err)
	}
	window := time.Since(start)
	W := window.Seconds()
	// Per CPU: the usage and the idle seconds over the window.
	cpu := func(c int) (results.CPUUsage, float64) {
		t.Helper()
		sa, err := a.Select(pinning.Set{c})
		if err != nil {
			t.Fatal(err)
		}
		sb, err := b.Select(pinning.Set{c})
		if err != nil {
			t.Fatal(err)
		}
		return sa.Usage(sb, window), sb.Times[0].Idle - sa.Times[0].Idle
	}
	ux, idleX := cpu(x)
	t.Logf("window %v (loop on CPU %d for %v): CPU %d %+v, idle %.3f s; the loop's thread got %.3f s", window, x, onCPU, x, ux, idleX, own)
	if got, want := ux.CPUs, strconv.Itoa(x); got != want {
		t.Errorf("CPUs = %q, want %q", got, want)
	}
	// Counters are cut to 10 ms ticks: allow two at the window's ends.
	const tick2 = 0.02
	if ux.Seconds < own-tick2 || ux.Seconds > W+tick2 {
		t.Errorf("busy seconds on CPU %d = %.3f, want between the loop's own %.3f and the window %.3f", x, ux.Seconds, own, W)
	}
	// Outside the loop X may idle; inside it only while the Go runtime
	// hands the locked thread its goroutine back after a preemption
	// (microseconds each): allow 5 % of the loop.
	if limit := W - onCPU.Seconds() + tick2 + 0.05*onCPU.Seconds(); idleX > limit {
		t.Errorf("CPU %d idle %.3f s while the loop was runnable on it for %v of the %v window, want at most %.3f s", x, idleX, onCPU, window, limit)
	}
	// Busy time is sampled: the kernel charges a whole timer tick (4 ms at
	// HZ=250) to whatever runs when the tick fires, so a CPU running short
	// tasks reads several ticks off the truth either way, while idle time
	// is measured exactly. Allow ten 10 ms ticks for that and the cuts.
	const sampled = 0.1
	if d := ux.Seconds + idleX - W; math.Abs(d) > sampled {
		t.Errorf("CPU %d busy %.3f + idle %.3f s = %.3f s, want the window %.3f s ± %.2f", x, ux.Seconds, idleX, ux.Seconds+idleX, W, sampled)
	}
	if len(online) == 1 {
		t.Logf("one CPU: no CPU left alone to compare with")
		return
	}
	y := online[0]
	uy, idleY := cpu(y)
	t.Logf("CPU %d, left alone: %+v, idle %.3f s", y, uy, idleY)
	if d := uy.Seconds + idleY - W; math.Abs(d) > sampled {
		t.Errorf("CPU %d busy %.3f + idle %.3f s = %.3f s, want the window %.3f s ± %.2f", y, uy.Seconds, idleY, uy.Seconds+idleY, W, sampled)
	}
	// In seconds: busy X − busy Y ≥ idle Y − idle X, less the sampling.
	if got, want := ux.Seconds-uy.Seconds, idleY-idleX-sampled; got < want {
		t.Errorf("busy seconds on CPU %d (loop) %.3f − on CPU %d (left alone) %.3f = %.3f, want at least CPU %d's idle %.3f − CPU %d's %.3f − %.2f = %.3f",
			x, ux.Seconds, y, uy.Seconds, got, y, idleY, x, idleX, sampled, want)
	}
}
