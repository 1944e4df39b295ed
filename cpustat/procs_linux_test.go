//go:build linux

package cpustat

import (
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
)

// needTwoCPUs skips a test that pins to CPUs 0 and 1 where they are not
// both online.
func needTwoCPUs(t *testing.T) {
	t.Helper()
	on, err := pinning.Online()
	if err != nil || !on.Contains(0) || !on.Contains(1) {
		t.Skipf("needs CPUs 0 and 1, have %s", on)
	}
}

// TestProcsTop runs a busy loop at nice 19 pinned to CPU 1 until it has
// used 0.2 CPU-seconds between two samples of every process (sized by CPU
// time, not by the clock). Top, asked about CPU 1, names it with its pid,
// command name, nice value, affinity and at least that time; asked about
// CPU 0, whose processes it may not run on, it leaves it out, as it does
// a PID in exclude.
func TestProcsTop(t *testing.T) {
	needTwoCPUs(t)
	const work = 0.2
	cmd := startTree(t, "while :; do :; done", pinning.Set{1})
	pid := cmd.Process.Pid
	if err := syscall.Setpriority(syscall.PRIO_PROCESS, pid, 19); err != nil {
		t.Fatal(err)
	}
	a, err := SampleProcs()
	if err != nil {
		t.Fatal(err)
	}
	pollTree(t, pid, "0.2 CPU-seconds", func(s TreeSample) bool { return s.Seconds-a.procs[keyOf(t, a, pid)].own >= work })
	b, err := SampleProcs()
	if err != nil {
		t.Fatal(err)
	}
	// Top lists at most OthersListed; the loop keeps CPU 1 busy, but on a
	// loaded machine other processes pinned there may outrank it, so ask
	// for all of them.
	top := a.Top(b, pinning.Set{1}, nil, 1<<20)
	i := slices.IndexFunc(top, func(p results.ProcessCPU) bool { return p.PID == pid })
	if i < 0 {
		t.Fatalf("the loop (pid %d) is not among the processes that used CPU 1: %+v", pid, top)
	}
	got := top[i]
	t.Logf("%+v (rank %d of %d)", got, i+1, len(top))
	if got.Comm != "sh" || got.Nice != 19 || got.CPUs != "1" || got.Seconds < work {
		t.Errorf("got %+v, want comm sh, nice 19, CPUs 1, at least %.1f s", got, work)
	}
	// Busiest on CPU 1 first: a process that may also run on other CPUs
	// counts for the share of its CPUs that CPU 1 is.
	onCPU1 := func(p results.ProcessCPU) float64 {
		set, err := pinning.Parse(p.CPUs)
		if err != nil || !set.Contains(1) {
			t.Fatalf("%+v: affinity %q does not include CPU 1 (%v)", p, p.CPUs, err)
		}
		return p.Seconds / float64(len(set))
	}
	for j := 1; j < len(top); j++ {
		if onCPU1(top[j]) > onCPU1(top[j-1]) {
			t.Errorf("not busiest on CPU 1 first: %+v before %+v", top[j-1], top[j])
		}
	}
	if slices.ContainsFunc(a.Top(b, pinning.Set{0}, nil, 1<<20), func(p results.ProcessCPU) bool { return p.PID == pid }) {
		t.Errorf("the loop, pinned to CPU 1, is named among the processes that may run on CPU 0")
	}
	if slices.ContainsFunc(a.Top(b, pinning.Set{1}, []int{pid}, 1<<20), func(p results.ProcessCPU) bool { return p.PID == pid }) {
		t.Errorf("the loop is named although its pid was excluded")
	}
	if n := len(a.Top(b, nil, nil, 2)); n > 2 {
		t.Errorf("Top(…, 2) returned %d processes", n)
	}
}

// keyOf is the procKey of pid in s.
func keyOf(t *testing.T, s ProcsSample, pid int) procKey {
	t.Helper()
	for k := range s.procs {
		if k.pid == pid {
			return k
		}
	}
	t.Fatalf("pid %d is not in the sample", pid)
	return procKey{}
}

// TestRunDelay pins three busy loops to CPU 1. A loop that never sleeps
// is always ready to run, so whenever another one runs on its CPU it
// waits: the waiter's run delay grows by at least the other two's CPU
// time over the same interval, however loaded the machine (more load only
// adds wait), about twice its own run time (so reading that instead would
// fail). The kernel adds a wait when the thread gets the CPU again, so
// the one in progress at the second reading is missing: at equal nice
// values that is one time slice, a few ms. The interval is sized by the
// others' CPU time.
func TestRunDelay(t *testing.T) {
	needTwoCPUs(t)
	const work = 0.2
	waiter := startTree(t, "while :; do :; done", pinning.Set{1}).Process.Pid
	others := startTree(t, "while :; do :; done & while :; do :; done", pinning.Set{1}).Process.Pid
	w0, err := RunDelay(waiter)
	if err != nil {
		t.Fatal(err)
	}
	o0 := sampleTree(t, others)
	o1 := pollTree(t, others, "0.2 CPU-seconds", func(s TreeSample) bool { return s.Seconds-o0.Seconds >= work })
	w1, err := RunDelay(waiter)
	if err != nil {
		t.Fatal(err)
	}
	ran, waited := o1.Seconds-o0.Seconds, (w1 - w0).Seconds()
	t.Logf("the other loops ran %.3f s, the waiter waited %.3f s", ran, waited)
	// /proc/PID/stat counts 10 ms ticks and the samples are a few ms
	// apart; the wait in progress is missing: allow 30 ms.
	if waited < ran-0.03 {
		t.Errorf("waited %.3f s while the other loops on its CPU ran %.3f s", waited, ran)
	}
	if _, err := RunDelay(1 << 30); err == nil {
		t.Errorf("RunDelay of a pid that does not exist succeeded")
	}
}

func TestParseSchedstat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"318659550 4436886 7\n", 4436886, true},
		{"1 0 0", 0, true},
		{"1", 0, false},
		{"1 x 2", 0, false},
		{"1 -5 2", 0, false},
	} {
		got, err := parseSchedstat([]byte(tc.in))
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseSchedstat(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
