//go:build !unix

package command

import "os/exec"

// ownProcessGroup leaves cmd as it is: cancelling kills the command itself.
func ownProcessGroup(cmd *exec.Cmd) {}

// killGroup does nothing: without process groups, what the command left
// behind is not known.
func killGroup(cmd *exec.Cmd) {}

// KillProcessGroup does nothing, for the same reason.
func KillProcessGroup(pgid int) {}
