//go:build unix && !linux

package controller

import (
	"errors"
	"syscall"
)

// sysProcAttr puts the controller in its own process group. Without Linux
// there is no parent-death signal and no mount namespace.
func sysProcAttr(inCluster bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(pid int) error {
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// stopGroup stops (SIGSTOP) or continues (SIGCONT) the process group the
// controller leads.
func stopGroup(pid int, stop bool) error {
	sig := syscall.SIGCONT
	if stop {
		sig = syscall.SIGSTOP
	}
	if err := syscall.Kill(-pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

func helperExec(m Mounts, argv []string) error {
	return errors.New("incluster: in-cluster emulation needs Linux mount namespaces (use a kubeconfig instead)")
}
