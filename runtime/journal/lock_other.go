//go:build !unix

package journal

import "fmt"

// locked refuses: file journals are serialised with flock, which this
// system lacks.
func (j *Journal) locked(func() error) error {
	return fmt.Errorf("journal %s: file journals need flock, which this system lacks", j.path)
}
