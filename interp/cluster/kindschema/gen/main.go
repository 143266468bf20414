// Command gen writes the table of built-in kinds (kindschema.Generate) and
// the descriptions of their fields (kindschema.GenerateDocs) to the files
// its two arguments name; go generate ./lang/kinds runs it.
package main

import (
	"fmt"
	"os"

	"github.com/sievetool/sieve/interp/cluster/kindschema"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen TABLE DOCS")
		os.Exit(2)
	}
	b, err := kindschema.Generate()
	if err == nil {
		err = os.WriteFile(os.Args[1], b, 0o644)
	}
	if err == nil {
		b, err = kindschema.GenerateDocs()
	}
	if err == nil {
		err = os.WriteFile(os.Args[2], b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "kindschema:", err)
		os.Exit(1)
	}
}
