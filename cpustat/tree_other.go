//go:build !linux

package cpustat

// SampleTree is not supported off Linux; it returns ErrUnsupported.
func SampleTree(pid int) (TreeSample, error) {
	return TreeSample{}, ErrUnsupported
}
