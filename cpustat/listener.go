package cpustat

import (
	"fmt"
	"slices"

	"github.com/shirou/gopsutil/v4/net"
	"github.com/shirou/gopsutil/v4/process"
)

// FindListener returns the PID of the local server listening on TCP port
// (on any local address: 127.0.0.1, 0.0.0.0, ::, or a specific one). A
// listening socket is often shared by a family of processes, as nginx's
// master opens it and its workers inherit it; FindListener returns the root
// of that family: it climbs from the process holding the socket to its
// parent while the parent runs the same executable and is not PID 1. For
// nginx that is the master, whose tree (SampleTree) holds every worker.
// It is an error when nothing listens on port, when the owner cannot be
// seen (not root and not the server's user), or when unrelated processes
// (different roots) listen on it.
func FindListener(port int) (int, error) {
	if port <= 0 || port > 65535 {
		return 0, fmt.Errorf("find listener on port %d: not a TCP port", port)
	}
	conns, err := net.Connections("tcp")
	if err != nil {
		return 0, fmt.Errorf("find listener on port %d: %w", port, err)
	}
	var roots []int
	listening := false
	for _, c := range conns {
		if c.Status != "LISTEN" || c.Laddr.Port != uint32(port) {
			continue
		}
		listening = true
		if c.Pid <= 0 {
			continue
		}
		root := familyRoot(int(c.Pid))
		if !slices.Contains(roots, root) {
			roots = append(roots, root)
		}
	}
	switch {
	case !listening:
		return 0, fmt.Errorf("find listener on port %d: nothing listens on it", port)
	case len(roots) == 0:
		return 0, fmt.Errorf("find listener on port %d: its process is not visible (run as root or as the server's user)", port)
	case len(roots) > 1:
		slices.Sort(roots)
		return 0, fmt.Errorf("find listener on port %d: unrelated processes %v listen on it", port, roots)
	}
	return roots[0], nil
}

// familyRoot climbs from pid through parents that run the same executable,
// stopping below PID 1.
func familyRoot(pid int) int {
	for {
		p, err := process.NewProcess(int32(pid))
		if err != nil {
			return pid
		}
		ppid, err := p.Ppid()
		if err != nil || ppid <= 1 {
			return pid
		}
		parent, err := process.NewProcess(ppid)
		if err != nil {
			return pid
		}
		if !sameExecutable(p, parent) {
			return pid
		}
		pid = int(ppid)
	}
}

// sameExecutable compares executable paths, or the process names when a
// path cannot be read.
func sameExecutable(a, b *process.Process) bool {
	ea, errA := a.Exe()
	eb, errB := b.Exe()
	if errA == nil && errB == nil {
		return ea == eb
	}
	na, errA := a.Name()
	nb, errB := b.Name()
	return errA == nil && errB == nil && na == nb
}
