//go:build unix && !linux

package controller

import (
	"errors"
	"syscall"

	"github.com/sievetool/sieve/interp/internal/proctree"
)

// sysProcAttr starts the controller as the root of a process tree
// (proctree: its own process group). Without Linux there is no mount
// namespace.
func sysProcAttr(inCluster bool) *syscall.SysProcAttr { return proctree.Attr() }

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
