//go:build unix

package controlplane

import (
	"fmt"
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on path, so that parallel sieve
// processes build the binary once.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("control plane build lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("control plane build lock: %w", err)
	}
	return func() { f.Close() }, nil
}
