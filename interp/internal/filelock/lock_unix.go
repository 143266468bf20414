//go:build unix

package filelock

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// poll is how often a waiting Lock tries the lock again.
const poll = 100 * time.Millisecond

// Lock takes an exclusive lock on path, creating the file, and waits until
// it holds it or ctx ends (the error is then ctx's). While it holds the
// lock the file names this process's ID. If another process holds it,
// waiting (when not nil) is called once, before the wait, with that
// process's ID (0 when the file does not name one); unlock releases it.
func Lock(ctx context.Context, path string, waiting func(holder int)) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	for told := false; ; {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, &os.PathError{Op: "flock", Path: path, Err: err}
		}
		if !told && waiting != nil {
			waiting(holder(path))
		}
		told = true
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(poll):
		}
	}
	if f.Truncate(0) == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { f.Close() }, nil
}

// holder is the process ID the lock file names, 0 if none.
func holder(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}
