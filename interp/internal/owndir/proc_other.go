//go:build unix && !linux

package owndir

import (
	"errors"
	"syscall"
)

// processStart says whether process pid runs; its start time is unknown
// here (0), so a process that took over a dead owner's PID keeps its
// directory until that process ends too.
func processStart(pid int) (start uint64, runs bool) {
	err := syscall.Kill(pid, 0)
	return 0, err == nil || errors.Is(err, syscall.EPERM)
}
