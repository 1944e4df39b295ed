//go:build !linux

package runner

import "github.com/kaeload/kaeload/pinning"

// widenThread is not supported off Linux.
func widenThread() error { return pinning.ErrUnsupported }
