//go:build unix && !linux

package command

// ProcessAlive reports whether process pid exists. A zombie counts as
// alive here: its trials wait until its parent reaps it.
func ProcessAlive(pid int) bool { return signalAlive(pid) }
