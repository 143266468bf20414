package results

import (
	"fmt"
	"path/filepath"
)

// LockFile is the lock file of a results directory: the process that
// holds it (sieve run, record or reproduce) is the directory's one writer,
// and its PID is written in it.
const LockFile = "sieve.lock"

// Lock returns the lock file of the results directory.
func (l Layout) Lock() string { return filepath.Join(l.Root, LockFile) }

// LockedError says that another process holds a results directory.
type LockedError struct {
	Dir string
	// PID is the holder's process ID (0 if its lock file does not say).
	PID int
}

func (e *LockedError) Error() string {
	holder := "another process"
	if e.PID > 0 {
		holder = fmt.Sprintf("process %d", e.PID)
	}
	return fmt.Sprintf("%s: in use by %s (a sieve run, record or reproduce writing there; wait for it to end or choose another results directory)", e.Dir, holder)
}
