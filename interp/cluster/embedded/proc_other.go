//go:build unix && !linux

package embedded

import (
	"errors"
	"os"
	"syscall"
)

// sysProcAttr puts a child in its own process group; without Pdeathsig
// the lifeline pipe alone ends children when sieve dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the process group of p.
func killGroup(p *os.Process) {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil {
		_ = p.Kill()
	}
}

// processStart says whether process pid runs; its start time is unknown
// here (0), so a process that took over a dead owner's PID keeps its
// directory until that process ends too.
func processStart(pid int) (start uint64, runs bool) {
	err := syscall.Kill(pid, 0)
	return 0, err == nil || errors.Is(err, syscall.EPERM)
}
