package command

import "syscall"

// dieWithParent has the kernel kill the command when the program dies,
// kill -9 included, so that a run's evaluation never outlives it.
func dieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
