//go:build !linux

package runner

import (
	"os"
	"os/exec"

	"github.com/kaeload/kaeload/pinning"
)

// setProcAttr does nothing off Linux; workers still exit when input closes.
func setProcAttr(cmd *exec.Cmd) {}

// raiseNoFile does not know the limit off Linux; 0 means unknown.
func raiseNoFile() (uint64, error) { return 0, nil }

// verifyAffinity fails off Linux: pinned groups are not supported there.
func verifyAffinity(want pinning.Set) error { return pinning.ErrUnsupported }

// isTerminal reports whether f is a character device (a terminal, usually).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// peakRSS and anonRSS are unknown off Linux.
func peakRSS() uint64 { return 0 }
func anonRSS() uint64 { return 0 }
