//go:build !linux

package pinning

import (
	"errors"
	"os/exec"
	"runtime"
)

// Supported reports whether this OS can pin processes.
const Supported = false

// ErrUnsupported is returned by every pinning operation off Linux.
var ErrUnsupported = errors.New("pinning not supported on this OS (" + runtime.GOOS + "); leave cpus empty to run unpinned")

// Start starts cmd; pinning to a non-empty set fails with ErrUnsupported.
func Start(cmd *exec.Cmd, cpus Set) error {
	if len(cpus) > 0 {
		return ErrUnsupported
	}
	return cmd.Start()
}

// Online returns 0..NumCPU-1.
func Online() (Set, error) {
	s := make(Set, runtime.NumCPU())
	for i := range s {
		s[i] = i
	}
	return s, nil
}

// Allowed is not supported off Linux.
func Allowed(pid string) (Set, error) { return nil, ErrUnsupported }

// NUMANode is unknown (-1) off Linux.
func NUMANode(cpu int) int { return -1 }
