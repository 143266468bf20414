//go:build unix

package proctree

import (
	"errors"
	"syscall"
)

// Kill sends SIGKILL to the tree whose root is pid: to the root's process
// group, and to the root should it have left it. In a PID namespace, the
// root's death ends the rest. A tree already gone is no error.
func Kill(pid int) error {
	errGroup := syscall.Kill(-pid, syscall.SIGKILL)
	errRoot := syscall.Kill(pid, syscall.SIGKILL)
	for _, err := range []error{errGroup, errRoot} {
		if err == nil || errors.Is(err, syscall.ESRCH) {
			return nil
		}
	}
	return errGroup
}
