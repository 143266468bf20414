// Command compbin is a scratch stand-in for `sieve internal component` while
// the sieve CLI does not build. TEMPORARY: to be deleted.
package main

import (
	"fmt"
	"os"

	"github.com/sievetool/sieve/interp/cluster/embedded/component"
)

func main() {
	// argv: compbin internal component NAME ARGS...
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: compbin internal component NAME ARGS...")
		os.Exit(2)
	}
	if err := component.Run(os.Args[3], os.Args[4:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
