//go:build unix

package journal

import (
	"fmt"
	"syscall"
)

// locked runs fn holding an exclusive flock on the file. The kernel drops
// the lock when the file is closed or the process dies.
func (j *Journal) locked(fn func() error) error {
	if err := flock(int(j.f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("journal %s: locking: %w", j.path, err)
	}
	defer flock(int(j.f.Fd()), syscall.LOCK_UN)
	return fn()
}

// flock is syscall.Flock, retried when a signal interrupts the wait.
func flock(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if err != syscall.EINTR {
			return err
		}
	}
}
