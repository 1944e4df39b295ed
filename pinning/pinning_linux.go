//go:build linux

package pinning

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Supported reports whether this OS can pin processes.
const Supported = true

// Start starts cmd pinned to cpus (unpinned when empty) from its first
// instruction: a locked thread narrows its mask, starts the child, which
// inherits it, and restores the mask.
func Start(cmd *exec.Cmd, cpus Set) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	var want unix.CPUSet
	for _, c := range cpus {
		want.Set(c)
	}
	runtime.LockOSThread()
	var saved unix.CPUSet
	if err := unix.SchedGetaffinity(0, &saved); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("read CPU affinity: %w", err)
	}
	if err := unix.SchedSetaffinity(0, &want); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("set CPU affinity to %s: %w", cpus, err)
	}
	startErr := cmd.Start()
	if err := unix.SchedSetaffinity(0, &saved); err != nil {
		// The thread stays locked (no unlock) so the narrowed mask cannot
		// leak into other goroutines: the runtime retires a thread whose
		// goroutine exits while locked.
		return fmt.Errorf("restore CPU affinity: %w", err)
	}
	runtime.UnlockOSThread()
	return startErr
}

// Online returns the CPUs this process may run on: every online CPU on a
// plain machine.
func Online() (Set, error) {
	var cur unix.CPUSet
	if err := unix.SchedGetaffinity(0, &cur); err != nil {
		return nil, fmt.Errorf("read CPU affinity: %w", err)
	}
	return FromCPUSet(&cur), nil
}

// FromCPUSet returns the CPUs in m.
func FromCPUSet(m *unix.CPUSet) Set {
	var s Set
	for c := 0; c < len(m)*64 && len(s) < m.Count(); c++ {
		if m.IsSet(c) {
			s = append(s, c)
		}
	}
	return s
}

// Allowed returns the CPU affinity of a process or thread: pid is "self",
// "PID" or "PID/task/TID" as under /proc.
func Allowed(pid string) (Set, error) {
	tid := 0 // self
	if last := pid[strings.LastIndexByte(pid, '/')+1:]; last != "self" {
		n, err := strconv.Atoi(last)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("CPU affinity of %q: not a process", pid)
		}
		tid = n
	}
	var m unix.CPUSet
	if err := unix.SchedGetaffinity(tid, &m); err != nil {
		return nil, fmt.Errorf("CPU affinity of %s: %w", pid, err)
	}
	return FromCPUSet(&m), nil
}

// NUMANode returns the NUMA node of cpu as the kernel reports it under
// /sys/devices/system/cpu, or -1 when the system does not say.
func NUMANode(cpu int) int {
	entries, err := os.ReadDir(fmt.Sprintf("/sys/devices/system/cpu/cpu%d", cpu))
	if err != nil {
		return -1
	}
	for _, e := range entries {
		if n, ok := strings.CutPrefix(e.Name(), "node"); ok {
			var node int
			if _, err := fmt.Sscanf(n, "%d", &node); err == nil {
				return node
			}
		}
	}
	return -1
}
