//go:build unix && !linux

package proctree

import (
	"fmt"
	"syscall"
)

// Attr is the SysProcAttr of a tree's root: its own process group. There
// is no parent-death signal and no PID namespace here.
func Attr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// Check fails: PID namespaces need Linux.
func Check() error {
	return fmt.Errorf("no PID namespace per program: it needs Linux: %w", ErrUnsupported)
}
