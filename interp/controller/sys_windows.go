package controller

import (
	"errors"
	"syscall"

	"github.com/sievetool/sieve/interp/internal/proctree"
)

func sysProcAttr(inCluster bool) *syscall.SysProcAttr { return proctree.Attr() }

func helperExec(m Mounts, argv []string) error {
	return errors.New("incluster: in-cluster emulation needs Linux mount namespaces (use a kubeconfig instead)")
}
