//go:build linux

package cpustat

import (
	"math"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/kaeload/kaeload/pinning"
)

// startTree starts sh -c script in its own process group, pinned to cpus,
// and kills the group when the test ends.
func startTree(t *testing.T, script string, cpus pinning.Set) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := pinning.Start(cmd, cpus); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
		}
	})
	return cmd
}

func sampleTree(t *testing.T, pid int) TreeSample {
	t.Helper()
	s, err := SampleTree(pid)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSampleTreeBusyLoop measures a shell busy loop for 500 ms and checks
// the reading against the kernel's own account of the process (its rusage
// after it is killed right after the second sample).
func TestSampleTreeBusyLoop(t *testing.T) {
	cmd := startTree(t, "while :; do :; done", nil)
	pid := cmd.Process.Pid
	a := sampleTree(t, pid)
	start := time.Now()
	time.Sleep(500 * time.Millisecond)
	b := sampleTree(t, pid)
	window := time.Since(start)
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = cmd.Wait()
	u := a.Usage(b, window)
	rusage := (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	t.Logf("usage %+v over %v; rusage of the whole life %.3f s; sample a %.3f s", u, window, rusage, a.Seconds)

	online, _ := pinning.Online()
	if got, want := u.CPUs, online.String(); got != want {
		t.Errorf("CPUs = %q, want the unpinned child's mask %q", got, want)
	}
	if got, want := b.PIDs, []int{pid}; !slices.Equal(got, want) {
		t.Errorf("PIDs = %v, want %v", got, want)
	}
	// A single-threaded loop gets at most the window; on an unloaded
	// machine about all of it (other tests may share the CPUs, so the
	// kernel's own account below is the exact check).
	if u.Seconds < 0.05 || u.Seconds > window.Seconds()+0.02 {
		t.Errorf("seconds = %.3f, want 0.05..%.3f (the window)", u.Seconds, window.Seconds())
	}
	if math.Abs(u.Seconds-0.5) > 0.2 {
		t.Logf("seconds %.3f is not 0.5 ± 0.2: the machine is loaded", u.Seconds)
	}
	// Whole life = before a + the window + the moment between b and the
	// kill; counters in /proc are 10 ms ticks.
	if d := rusage - a.Seconds - u.Seconds; d < -0.03 || d > 0.05 {
		t.Errorf("rusage %.3f − sample a %.3f − window seconds %.3f = %.3f, want about 0", rusage, a.Seconds, u.Seconds, d)
	}
	if want := u.Seconds / (window.Seconds() * float64(len(online))); math.Abs(u.Busy-want) > 1e-9 {
		t.Errorf("busy = %.3f, want seconds / (window × %d CPUs) = %.3f", u.Busy, len(online), want)
	}
}

// gopsutilSeconds sums user + system time of pids as gopsutil reads it: an
// independent reading to check SampleTree against.
func gopsutilSeconds(t *testing.T, pids []int) float64 {
	t.Helper()
	var sum float64
	for _, pid := range pids {
		p, err := process.NewProcess(int32(pid))
		if err != nil {
			t.Fatal(err)
		}
		ts, err := p.Times()
		if err != nil {
			t.Fatal(err)
		}
		sum += ts.User + ts.System
	}
	return sum
}

// TestSampleTreeDescendants runs two busy subshells under one shell, all
// pinned to one CPU: the tree holds three processes, its CPUs are that one
// CPU, it uses at most one CPU-second per second, and its time agrees with
// gopsutil's reading of the same processes.
func TestSampleTreeDescendants(t *testing.T) {
	online, _ := pinning.Online()
	cpu := pinning.Set{online[0]}
	cmd := startTree(t, "(while :; do :; done) & (while :; do :; done) & wait", cpu)
	pid := cmd.Process.Pid
	var a TreeSample
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if a = sampleTree(t, pid); len(a.PIDs) == 3 {
			break
		}
	}
	if got, want := len(a.PIDs), 3; got != want {
		t.Fatalf("tree of %d has %d processes %v, want %d", pid, got, a.PIDs, want)
	}
	_ = syscall.Kill(-pid, syscall.SIGSTOP) // freeze the tree so both readings see the same
	ga := gopsutilSeconds(t, a.PIDs)
	a = sampleTree(t, pid)
	_ = syscall.Kill(-pid, syscall.SIGCONT)
	start := time.Now()
	time.Sleep(500 * time.Millisecond)
	_ = syscall.Kill(-pid, syscall.SIGSTOP)
	window := time.Since(start)
	b := sampleTree(t, pid)
	gb := gopsutilSeconds(t, b.PIDs)
	_ = syscall.Kill(-pid, syscall.SIGCONT)
	u := a.Usage(b, window)
	t.Logf("usage %+v over %v, PIDs %v; gopsutil %.3f s", u, window, b.PIDs, gb-ga)
	if got, want := b.PIDs, a.PIDs; !slices.Equal(got, want) {
		t.Errorf("PIDs at b = %v, want those at a %v", got, want)
	}
	if got, want := u.CPUs, cpu.String(); got != want {
		t.Errorf("CPUs = %q, want %q", got, want)
	}
	if math.Abs(u.Seconds-(gb-ga)) > 0.001 {
		t.Errorf("seconds = %.3f, gopsutil reads %.3f", u.Seconds, gb-ga)
	}
	if u.Seconds < 0.05 || u.Seconds > window.Seconds()+0.02 {
		t.Errorf("seconds = %.3f, want 0.05..%.3f (one CPU for the window)", u.Seconds, window.Seconds())
	}
	if want := u.Seconds / window.Seconds(); math.Abs(u.Busy-min(want, 1)) > 1e-9 {
		t.Errorf("busy = %.3f, want seconds / (window × 1 CPU) = %.3f", u.Busy, want)
	}
}

// pollTree samples pid's tree every 10 ms until ok accepts a sample or 10 s
// pass.
func pollTree(t *testing.T, pid int, what string, ok func(TreeSample) bool) TreeSample {
	t.Helper()
	var s TreeSample
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if s = sampleTree(t, pid); ok(s) {
			return s
		}
	}
	t.Fatalf("tree of %d never reached %s; last %v with %.2f s", pid, what, s.PIDs, s.Seconds)
	return s
}

// TestSampleTreeExitedChildren covers children that exit inside the
// window: time spent before the first sample must not be counted, time
// spent inside the window must be. The child does a fixed amount of work
// (about 0.35 CPU-seconds), so the test does not depend on how loaded the
// machine is; samples are taken on states, not on wall-clock times. The
// reference is the kernel's account of the whole tree's life (the root's
// rusage, which includes every descendant it and they reaped) minus what
// the first sample saw.
func TestSampleTreeExitedChildren(t *testing.T) {
	const work = `sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'`
	for _, tc := range []struct {
		name, script string
		atA          func(TreeSample) bool
	}{
		// a: while the child is running and has used 0.1 s.
		{"running at a, gone at b", work + "; exec sleep 10",
			func(s TreeSample) bool { return len(s.PIDs) == 2 && s.Seconds >= 0.1 }},
		// a: before the child starts.
		{"born and gone inside", "sleep 0.1; " + work + "; exec sleep 10",
			func(s TreeSample) bool { return len(s.PIDs) == 2 && s.Seconds == 0 }},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			cmd := startTree(t, tc.script, nil)
			pid := cmd.Process.Pid
			a := pollTree(t, pid, "the first sample's state", tc.atA)
			start := time.Now()
			// b: the child has been reaped and the root has become sleep.
			b := pollTree(t, pid, "only the root left, after the work", func(s TreeSample) bool {
				return len(s.PIDs) == 1 && s.Seconds >= 0.2
			})
			window := time.Since(start)
			_ = syscall.Kill(pid, syscall.SIGKILL)
			_ = cmd.Wait()
			life := (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
			u := a.Usage(b, window)
			t.Logf("a: %v %.2f s; b: %v %.2f s; usage %+v; whole life %.3f s", a.PIDs, a.Seconds, b.PIDs, b.Seconds, u, life)
			if want := life - a.Seconds; math.Abs(u.Seconds-want) > 0.05 {
				t.Errorf("seconds = %.3f, want whole life %.3f − seen at a %.3f = %.3f", u.Seconds, life, a.Seconds, want)
			}
			// The child worked on after a (a holds at most what it had used
			// then), so some of its time falls inside the window.
			if u.Seconds < 0.05 {
				t.Errorf("seconds = %.3f: the work inside the window was not counted", u.Seconds)
			}
		})
	}
}

func TestSampleTreeMissing(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if _, err := SampleTree(cmd.Process.Pid); err == nil {
		t.Errorf("SampleTree of exited pid %d succeeded", cmd.Process.Pid)
	}
}

func TestParseProcPIDStat(t *testing.T) {
	// A command name with spaces and parentheses, as a process may set it.
	line := "4242 (a) b (c) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 50 1000 200 20 0 1 0 123456 1000 100 18446744073709551615"
	st, err := parseProcPIDStat(4242, []byte(line))
	if err != nil {
		t.Fatal(err)
	}
	want := procStat{key: procKey{pid: 4242, start: 123456}, ppid: 17, seconds: 15}
	if st != want {
		t.Errorf("got %+v, want %+v", st, want)
	}
	for _, bad := range []string{"4242 no parens", "4242 (x) S 17 1 2", "4242 (x) S x 1 1 0 -1 0 0 0 0 0 1 1 1 1 20 0 1 0 5"} {
		if _, err := parseProcPIDStat(4242, []byte(bad)); err == nil {
			t.Errorf("parse %q succeeded", bad)
		}
	}
}
