package cli

import (
	"os/exec"
	"syscall"
)

// endWithParent asks the kernel to send cmd SIGTERM when boc dies, even by
// SIGKILL, so that no program outlives the boc run that started it.
func endWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
