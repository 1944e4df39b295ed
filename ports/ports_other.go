//go:build !linux

package ports

// Read returns the zero (unknown) Limits and ErrUnsupported off Linux.
func Read() (Limits, error) { return Limits{}, ErrUnsupported }

// TimeWait returns ErrUnsupported off Linux.
func TimeWait() (int, error) { return 0, ErrUnsupported }
