// Command sieve-controlplane runs one component of sieve's embedded control
// plane: `sieve-controlplane NAME [ARGS...]`, where NAME is etcd,
// kube-apiserver, kube-controller-manager, kube-scheduler or nodesim. The
// embedded backend of sieve starts one such process per component; it is
// not a user interface and its arguments may change.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/sievetool/sieve/controlplane/component"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintf(os.Stderr, "usage: sieve-controlplane NAME [ARGS...] (NAME is one of %s)\n", strings.Join(component.Names(), ", "))
		os.Exit(2)
	}
	if err := component.Run(os.Args[1], os.Args[2:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "sieve-controlplane: %v\n", err)
		os.Exit(1)
	}
}
