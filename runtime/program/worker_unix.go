//go:build unix

package program

import "syscall"

// processAlive reports whether a process pid exists (signal 0 checks
// without sending anything; EPERM means it exists under another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
