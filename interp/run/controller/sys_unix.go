//go:build unix

package controller

import (
	"errors"
	"syscall"
)

// stopGroup stops (SIGSTOP) or continues (SIGCONT) the process group the
// controller leads.
func stopGroup(pid int, stop bool) error {
	sig := syscall.SIGCONT
	if stop {
		sig = syscall.SIGSTOP
	}
	if err := syscall.Kill(-pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}
