package embedded

import (
	"os"
	"syscall"
)

// sysProcAttr puts a child in its own process group (a terminal's Ctrl-C
// reaches only sieve, which then tears down in order) and has the kernel
// kill it when sieve dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup sends SIGKILL to the process group of p.
func killGroup(p *os.Process) {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil {
		_ = p.Kill()
	}
}
