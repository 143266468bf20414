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

func helperExec(m Mounts, argv []string) error {
	return errors.New("incluster: in-cluster emulation needs Linux mount namespaces (use a kubeconfig instead)")
}
