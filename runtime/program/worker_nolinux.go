//go:build unix && !linux

package program

// processAlive reports whether process pid exists. A zombie counts as
// alive here: its trials wait until its parent reaps it.
func processAlive(pid int) bool { return signalAlive(pid) }
