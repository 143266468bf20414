package standin

import (
	"os/exec"
	"syscall"
)

// sysProcAttr puts a stand-in in its own process group and kills it when
// sieve dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// kill sends SIGKILL to the stand-in's process group.
func kill(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
