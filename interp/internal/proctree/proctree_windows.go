package proctree

import (
	"fmt"
	"os"
	"syscall"
)

// Attr is nil: Windows has no process groups to signal.
func Attr() *syscall.SysProcAttr { return nil }

// Kill kills the root only; the processes it started may survive.
func Kill(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// Check fails: PID namespaces need Linux.
func Check() error {
	return fmt.Errorf("no PID namespace per program: it needs Linux: %w", ErrUnsupported)
}
