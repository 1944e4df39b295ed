//go:build linux

package pinning

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
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

// Allowed returns the Cpus_allowed_list of a thread or process, read from
// /proc (pid may be "self" or "<pid>/task/<tid>").
func Allowed(pid string) (Set, error) {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return Parse(strings.TrimSpace(v))
		}
	}
	return nil, fmt.Errorf("/proc/%s/status: no Cpus_allowed_list", pid)
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
