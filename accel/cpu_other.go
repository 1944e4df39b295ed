//go:build !linux

package accel

import "time"

// threadCPU falls back to wall time where no thread CPU clock is read:
// a busy machine then shortens the spins.
func threadCPU() time.Duration { return time.Duration(time.Now().UnixNano()) }
