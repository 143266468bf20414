// Command pause is the sandbox ("pause") container of the real-node
// end-to-end test: it holds a pod's namespaces until it is signalled, as
// registry.k8s.io/pause does, so that the test needs no image from outside.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGINT, syscall.SIGTERM)
	<-c
}
