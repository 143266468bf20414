package controller

import (
	"errors"
	"syscall"

	"github.com/sievetool/sieve/interp/internal/proctree"
)

func sysProcAttr(inCluster bool) *syscall.SysProcAttr { return proctree.Attr() }

// stopGroup cannot pause a process on Windows.
func stopGroup(pid int, stop bool) error {
	return errors.New("pause and resume need POSIX signals (SIGSTOP, SIGCONT), which Windows does not have")
}

func helperExec(m Mounts, argv []string) error {
	return errors.New("incluster: in-cluster emulation needs Linux mount namespaces (use a kubeconfig instead)")
}
