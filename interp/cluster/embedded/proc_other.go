//go:build unix && !linux

package embedded

import (
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
