//go:build linux

package cpustat

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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

// procState returns the state letter of /proc/PID/stat (field 3, after
// the command name, which may hold spaces and ')').
func procState(t *testing.T, pid int) byte {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		t.Fatalf("/proc/%d/stat: %q has no state", pid, b)
	}
	return b[i+2]
}

// stopTree sends SIGSTOP to the process group of pid and waits until every
// process in pids is stopped, so that readings taken next see counters
// that no longer move, however slowly the signal is delivered.
func stopTree(t *testing.T, pid int, pids []int) {
	t.Helper()
	if err := syscall.Kill(-pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	for _, p := range pids {
		for end := time.Now().Add(30 * time.Second); procState(t, p) != 'T'; time.Sleep(time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("process %d never stopped (state %c)", p, procState(t, p))
			}
		}
	}
}

// pollTree samples pid's tree every 10 ms until ok accepts a sample or 30 s
// pass. The deadline only bounds a broken test: a passing one returns as
// soon as the state is reached, however fast or loaded the machine is.
func pollTree(t *testing.T, pid int, what string, ok func(TreeSample) bool) TreeSample {
	t.Helper()
	var s TreeSample
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if s = sampleTree(t, pid); ok(s) {
			return s
		}
	}
	t.Fatalf("tree of %d never reached %s; last %v with %.2f s", pid, what, s.PIDs, s.Seconds)
	return s
}

// TestSampleTreeBusyLoop measures a shell busy loop until it has used 0.3
// CPU-seconds (the window is sized by CPU time, not by wall-clock time, so
// a fast or a loaded machine reaches the same state), then stops it and
// checks the reading against the kernel's own account of the process (its
// rusage after it is killed). The loop is stopped before the second sample
// and the window's clock runs from before the first sample to after the
// stop, so the window holds all the time the loop could have run.
func TestSampleTreeBusyLoop(t *testing.T) {
	const work = 0.3 // CPU-seconds inside the window
	cmd := startTree(t, "while :; do :; done", nil)
	pid := cmd.Process.Pid
	start := time.Now()
	a := sampleTree(t, pid)
	pollTree(t, pid, fmt.Sprintf("%.1f CPU-seconds after the first sample", work), func(s TreeSample) bool {
		return s.Seconds-a.Seconds >= work
	})
	stopTree(t, pid, []int{pid})
	window := time.Since(start)
	b := sampleTree(t, pid)
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
	// At least the work polled for (counters only grow); a single-threaded
	// loop gets at most the window (ticks are 10 ms: allow two).
	if u.Seconds < work || u.Seconds > window.Seconds()+0.02 {
		t.Errorf("seconds = %.3f, want %.1f..%.3f (the window)", u.Seconds, work, window.Seconds())
	}
	// Whole life = before a + the window (the loop was stopped at b and
	// killed stopped); /proc counts 10 ms ticks, rusage nanoseconds.
	if d := rusage - a.Seconds - u.Seconds; d < -0.01 || d > 0.03 {
		t.Errorf("rusage %.3f − sample a %.3f − window seconds %.3f = %.3f, want 0..0.02", rusage, a.Seconds, u.Seconds, d)
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
// gopsutil's reading of the same processes. The tree is stopped (and seen
// stopped) at both samples, and runs in between until it has used 0.3
// CPU-seconds, so the window is sized by CPU time whatever the machine's
// speed or load.
func TestSampleTreeDescendants(t *testing.T) {
	const work = 0.3 // CPU-seconds inside the window
	online, _ := pinning.Online()
	cpu := pinning.Set{online[0]}
	cmd := startTree(t, "(while :; do :; done) & (while :; do :; done) & wait", cpu)
	pid := cmd.Process.Pid
	a := pollTree(t, pid, "three processes", func(s TreeSample) bool { return len(s.PIDs) == 3 })
	stopTree(t, pid, a.PIDs) // freeze the tree so both readings see the same
	ga := gopsutilSeconds(t, a.PIDs)
	a = sampleTree(t, pid)
	start := time.Now()
	_ = syscall.Kill(-pid, syscall.SIGCONT)
	pollTree(t, pid, fmt.Sprintf("%.1f CPU-seconds after the first sample", work), func(s TreeSample) bool {
		return s.Seconds-a.Seconds >= work
	})
	stopTree(t, pid, a.PIDs)
	window := time.Since(start)
	b := sampleTree(t, pid)
	gb := gopsutilSeconds(t, b.PIDs)
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
	// Two loops pinned to one CPU: at most one CPU-second per second of the
	// window (ticks are 10 ms: allow two), which two unpinned loops would
	// exceed on any idle machine with two CPUs.
	if u.Seconds < work || u.Seconds > window.Seconds()+0.02 {
		t.Errorf("seconds = %.3f, want %.1f..%.3f (one CPU for the window)", u.Seconds, work, window.Seconds())
	}
	if want := u.Seconds / window.Seconds(); math.Abs(u.Busy-min(want, 1)) > 1e-9 {
		t.Errorf("busy = %.3f, want seconds / (window × 1 CPU) = %.3f", u.Busy, want)
	}
}

// burnScript is a shell loop that runs until the shell running it has used
// ticks/100 CPU-seconds by its own account (utime + stime, fields 14 and 15
// of /proc/$$/stat; the command name there is "sh", without spaces): work
// sized by CPU time, the same on a fast machine and a slow or loaded one.
// Run it in its own "sh -c", where $$ is that shell.
func burnScript(ticks int) string {
	return fmt.Sprintf(`while :; do read -r l < /proc/$$/stat; set -- $l; [ $((${14}+${15})) -ge %d ] && break; done`, ticks)
}

// TestSampleTreeExitedChildren covers children that exit inside the
// window: time spent before the first sample must not be counted, time
// spent inside the window must be. The child's work is sized by the CPU
// time it used (burnScript), not by an iteration count, and the test
// releases it through a FIFO once the first sample is taken; the root
// creates FIFO.done once it has reaped the child, when the second sample
// is taken. So every sample sees the state it is meant to on any machine. The reference is
// the kernel's account of the whole tree's life (the root's rusage, which
// includes every descendant it and they reaped) minus what the first
// sample saw.
func TestSampleTreeExitedChildren(t *testing.T) {
	const (
		before = 15 // ticks the child uses before the first sample (case 1)
		total  = 40 // ticks the child uses in all
	)
	for _, tc := range []struct {
		name   string
		script func(fifo string) string
		atA    func(TreeSample) bool
	}{
		// a: while the child is alive and has used 0.15 s; it then waits
		// for the FIFO and works on to 0.4 s.
		{"running at a, gone at b", func(fifo string) string {
			return fmt.Sprintf(`sh -c '%s; read x < %s; %s'; : > %s.done; exec sleep 1000`, burnScript(before), fifo, burnScript(total), fifo)
		}, func(s TreeSample) bool { return len(s.PIDs) == 2 && s.Seconds >= before/100.0 }},
		// a: before the child is born (the root waits for the FIFO first).
		{"born and gone inside", func(fifo string) string {
			return fmt.Sprintf(`read x < %s; sh -c '%s'; : > %s.done; exec sleep 1000`, fifo, burnScript(total), fifo)
		}, func(s TreeSample) bool { return len(s.PIDs) == 1 }},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "go")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			// Held open read-write: the shell's open for reading does not
			// block, its read waits for our line, and the line written
			// stays in the pipe until it is read.
			release, err := os.OpenFile(fifo, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer release.Close()
			start := time.Now()
			cmd := startTree(t, tc.script(fifo), nil)
			pid := cmd.Process.Pid
			a := pollTree(t, pid, "the first sample's state", tc.atA)
			if _, err := release.WriteString("go\n"); err != nil {
				t.Fatal(err)
			}
			// b: the root has waited for the child (so its cutime/cstime
			// holds the child's time) and says so by creating FIFO.done.
			for end := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				if _, err := os.Stat(fifo + ".done"); err == nil {
					break
				}
				if time.Now().After(end) {
					t.Fatalf("the root never finished the work (no %s.done)", fifo)
				}
			}
			b := sampleTree(t, pid)
			window := time.Since(start)
			_ = syscall.Kill(pid, syscall.SIGKILL)
			_ = cmd.Wait()
			life := (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
			u := a.Usage(b, window)
			t.Logf("a: %v %.2f s; b: %v %.2f s; usage %+v; whole life %.3f s", a.PIDs, a.Seconds, b.PIDs, b.Seconds, u, life)
			if got, want := b.PIDs, []int{pid}; !slices.Equal(got, want) {
				t.Errorf("PIDs at b = %v, want only the root %v", got, want)
			}
			if want := life - a.Seconds; math.Abs(u.Seconds-want) > 0.05 {
				t.Errorf("seconds = %.3f, want whole life %.3f − seen at a %.3f = %.3f", u.Seconds, life, a.Seconds, want)
			}
			// The child used at least 0.4 s in all by its own account, of
			// which a saw at most a.Seconds: the rest fell inside the window.
			if want := total/100.0 - a.Seconds - 0.03; u.Seconds < want {
				t.Errorf("seconds = %.3f, want at least the child's %.2f s − seen at a %.3f = %.3f (less ticks): the work inside the window was not counted",
					u.Seconds, total/100.0, a.Seconds, want+0.03)
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
	line := "4242 (a) b (c) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 50 1000 200 15 -5 1 0 123456 1000 100 18446744073709551615"
	st, err := parseProcPIDStat(4242, []byte(line))
	if err != nil {
		t.Fatal(err)
	}
	want := procStat{key: procKey{pid: 4242, start: 123456}, ppid: 17, seconds: 15, own: 3, comm: "a) b (c", nice: -5, state: 'S'}
	if st != want {
		t.Errorf("got %+v, want %+v", st, want)
	}
	for _, bad := range []string{"4242 no parens", "4242 (x) S 17 1 2", "4242 (x) S x 1 1 0 -1 0 0 0 0 0 1 1 1 1 20 0 1 0 5"} {
		if _, err := parseProcPIDStat(4242, []byte(bad)); err == nil {
			t.Errorf("parse %q succeeded", bad)
		}
	}
}
