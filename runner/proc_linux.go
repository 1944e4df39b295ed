//go:build linux

package runner

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"

	"github.com/kaeload/kaeload/pinning"
)

// setProcAttr has the kernel SIGKILL the worker when the controller dies
// (pinning.Start keeps the starting thread alive), and gives the worker its
// own process group, so a terminal's Ctrl-C reaches only the controller.
func setProcAttr(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	cmd.SysProcAttr.Setpgid = true
}

// raiseNoFile lifts the soft RLIMIT_NOFILE to the hard limit (children
// inherit it) and returns the resulting soft limit.
func raiseNoFile() (uint64, error) {
	var r unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &r); err != nil {
		return 0, fmt.Errorf("read open-file limit: %w", err)
	}
	if r.Cur < r.Max {
		raised := r
		raised.Cur = r.Max
		if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &raised); err == nil {
			r = raised
		}
	}
	return r.Cur, nil
}

// verifyAffinity checks that every thread may run on exactly the CPUs want.
func verifyAffinity(want pinning.Set) error {
	tids, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return fmt.Errorf("check CPU affinity: %w", err)
	}
	for _, t := range tids {
		have, err := pinning.Allowed("self/task/" + t.Name())
		if err != nil {
			if os.IsNotExist(err) {
				continue // the thread exited meanwhile
			}
			return fmt.Errorf("check CPU affinity: %w", err)
		}
		if have.String() != want.String() {
			return fmt.Errorf("worker thread %s may run on CPUs %q, want exactly %q: it was not started pinned (start it with pinning.Start or taskset -c %s)",
				t.Name(), have.String(), want.String(), want.String())
		}
	}
	return nil
}

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// peakRSS is this process's peak resident set size in bytes (getrusage's
// ru_maxrss, which Linux gives in KiB); 0 when unknown.
func peakRSS() uint64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil || ru.Maxrss < 0 {
		return 0
	}
	return uint64(ru.Maxrss) << 10
}

// anonRSS is this process's private resident memory (RssAnon): heap,
// stacks and buffers, without the shared executable; 0 when unknown.
func anonRSS() uint64 {
	p, err := process.NewProcess(int32(os.Getpid()))
	if err != nil {
		return 0
	}
	m, err := p.MemoryInfoEx() // Linux: /proc/self/statm, whose shared pages are the file and shmem ones
	if err != nil || m.Shared > m.RSS {
		return 0
	}
	return m.RSS - m.Shared
}
