//go:build unix

package command

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts cmd in a process group of its own, makes its
// cancellation kill the whole group (a shell script's children die with it
// rather than keep running after a timeout or an interrupt), and, where the
// system can, makes the command die with the program (dieWithParent).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// killGroup kills what is left of cmd's process group once the command
// has exited: the processes it left behind.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		KillProcessGroup(cmd.Process.Pid)
	}
}

// KillProcessGroup kills process group pgid (ESRCH: nothing is left of it).
func KillProcessGroup(pgid int) { syscall.Kill(-pgid, syscall.SIGKILL) }
