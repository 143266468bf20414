package controller

import (
	"errors"
	"os"
	"syscall"
)

func sysProcAttr(inCluster bool) *syscall.SysProcAttr { return nil }

// killGroup kills the controller process (Windows has no process groups
// to signal; child processes may survive).
func killGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// stopGroup cannot pause a process on Windows.
func stopGroup(pid int, stop bool) error {
	return errors.New("pause and resume need POSIX signals (SIGSTOP, SIGCONT), which Windows does not have")
}

func helperExec(m Mounts, argv []string) error {
	return errors.New("incluster: in-cluster emulation needs Linux mount namespaces (use a kubeconfig instead)")
}
