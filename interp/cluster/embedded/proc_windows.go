package embedded

import (
	"os"
	"syscall"
)

// sysProcAttr has nothing to add on Windows; the lifeline pipe ends
// children when sieve dies.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup kills p.
func killGroup(p *os.Process) { _ = p.Kill() }
