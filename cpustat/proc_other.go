//go:build !linux

package cpustat

import (
	"net/netip"
	"time"
)

// The /proc and sock_diag readers need Linux: elsewhere they return ErrUnsupported.

// SampleTree is unsupported here.
func SampleTree(pid int) (TreeSample, error) { return TreeSample{}, ErrUnsupported }

// SampleProcs is unsupported here.
func SampleProcs() (ProcsSample, error) { return ProcsSample{}, ErrUnsupported }

// RunDelay is unsupported here.
func RunDelay(pid int) (time.Duration, error) { return 0, ErrUnsupported }

func readProcStat(pid int) (procStat, error) { return procStat{}, ErrUnsupported }

// ReadListenQueue is unsupported here.
func ReadListenQueue(port int) (ListenQueue, error) { return ListenQueue{}, ErrUnsupported }

// CountTimeWait is unsupported here.
func CountTimeWait(dst netip.AddrPort) (int, error) { return 0, ErrUnsupported }

// diagListening fails, and Listener falls back to /proc/net/tcp, which fails too.
func diagListening(port int, buf []byte) ([]uint64, ListenQueue, error) {
	return nil, ListenQueue{}, ErrUnsupported
}
