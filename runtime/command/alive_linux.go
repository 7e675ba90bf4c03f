package command

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strconv"
)

// ProcessAlive reports whether process pid is running: it exists and is
// not a zombie, a process killed but not yet reaped by its parent, which
// runs nothing any more (its run is dead, and its trials can be taken over
// at once). Without /proc it falls back on signalAlive.
func ProcessAlive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, err := os.Stat("/proc/self/stat"); err == nil {
			return false // procfs is there and knows no such process
		}
		return signalAlive(pid)
	case err != nil:
		return signalAlive(pid)
	}
	// The state follows the command name, which is in parentheses and may
	// hold any character but is the last field to close one.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return signalAlive(pid)
	}
	state := stat[i+2]
	return state != 'Z' && state != 'X'
}
