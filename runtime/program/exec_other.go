//go:build !unix

package program

import "os/exec"

// ownProcessGroup leaves cmd as it is: cancelling kills the command itself.
func ownProcessGroup(cmd *exec.Cmd) {}
