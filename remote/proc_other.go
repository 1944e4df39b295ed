//go:build !linux

package remote

import (
	"os/exec"
	"syscall"
)

// setProcAttr keeps the master out of the terminal's process group.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
