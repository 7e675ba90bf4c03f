//go:build unix

package command

import "syscall"

// signalAlive reports whether a process pid exists (signal 0 checks
// without sending anything; EPERM means it exists under another user). A
// zombie, dead but not yet reaped by its parent, exists too.
func signalAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
