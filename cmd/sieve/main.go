// Command sieve finds reliability bugs in Kubernetes controllers by injecting
// crashes, stale views and skipped watch events and comparing the outcome
// with a fault-free reference run.
package main

import (
	"os"

	"github.com/sievetool/sieve/cmd/sieve/cli"
)

func main() { os.Exit(cli.Main()) }
