//go:build unix && !linux

package command

import "syscall"

// dieWithParent does nothing: only Linux kills a child with its parent, and
// a run killed elsewhere leaves its evaluation running until it ends.
func dieWithParent(*syscall.SysProcAttr) {}
