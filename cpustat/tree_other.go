//go:build !linux

package cpustat

import "time"

// SampleTree is not supported off Linux; it returns ErrUnsupported.
func SampleTree(pid int) (TreeSample, error) {
	return TreeSample{}, ErrUnsupported
}

// SampleProcs is not supported off Linux; it returns ErrUnsupported.
func SampleProcs() (ProcsSample, error) {
	return ProcsSample{}, ErrUnsupported
}

// RunDelay is not supported off Linux; it returns ErrUnsupported.
func RunDelay(pid int) (time.Duration, error) {
	return 0, ErrUnsupported
}

// readProcStat is not supported off Linux; it returns ErrUnsupported.
func readProcStat(pid int) (procStat, error) {
	return procStat{}, ErrUnsupported
}
