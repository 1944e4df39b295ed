//go:build linux

package remote

import (
	"os/exec"
	"syscall"
)

// setProcAttr makes the master die with kaeload (SIGKILL from the kernel
// when its parent thread ends) and keeps it out of the terminal's process
// group, so that a Ctrl-C reaches kaeload, which then tears down in order.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}
