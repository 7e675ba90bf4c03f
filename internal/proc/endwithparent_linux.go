package proc

import (
	"os/exec"
	"syscall"
)

// EndWithParent asks the kernel to send cmd SIGTERM when boc dies, even by
// SIGKILL, so that no program outlives the boc command that started it.
// Call it before cmd.Start.
func EndWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
