//go:build unix

package results

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/sievetool/sieve/interp/internal/nofollow"
)

// Lock makes the calling process the one writer of the results directory
// l.Root, creating it: it takes an exclusive flock on ROOT/sieve.lock and
// writes its PID there. A directory another process holds gives a
// *LockedError at once, without waiting. unlock releases the lock; the
// kernel releases it too when the process dies, however it dies. The file
// stays (removing it would let two processes lock two different files).
func Lock(l Layout) (unlock func(), err error) {
	if err := os.MkdirAll(l.Root, nofollow.DirMode); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	f, err := nofollow.OpenFile(l.Lock(), os.O_CREATE|os.O_RDWR)
	if err != nil {
		return nil, fmt.Errorf("report: lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{Dir: l.Root, PID: holder(f)}
		}
		return nil, fmt.Errorf("report: lock %s: %w", l.Lock(), err)
	}
	if err := writePID(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("report: lock %s: %w", l.Lock(), err)
	}
	return func() {
		_ = f.Truncate(0)
		f.Close()
	}, nil
}

func writePID(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return err
}

// holder reads the PID a lock file names (0 if none).
func holder(f *os.File) int {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil {
		return 0
	}
	return pid
}
