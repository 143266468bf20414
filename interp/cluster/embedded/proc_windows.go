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

// processStart cannot tell on Windows: every owner runs, and directories
// are only removed by the cluster that made them.
func processStart(int) (start uint64, runs bool) { return 0, true }
