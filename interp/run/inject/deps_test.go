package inject

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// module is the import path prefix of sieve's own packages.
const module = "github.com/sievetool/sieve/"

// TestNoGeneratorDependency holds the injector and the trigger engine off
// the plan generator: they read plans (interp/formats/planfile) and observe
// (interp/analysis/observe), and must build without interp/analysis/plan.
func TestNoGeneratorDependency(t *testing.T) {
	const generator = module + "interp/analysis/plan"
	for _, root := range []string{module + "interp/run/inject", module + "interp/analysis/trigger"} {
		deps, err := sieveDeps(root)
		if err != nil {
			t.Fatal(err)
		}
		if via, ok := deps[generator]; ok {
			t.Errorf("%s depends on the plan generator %s (imported by %s); use interp/formats/planfile or interp/analysis/observe", root, generator, via)
		}
		if _, ok := deps[module+"interp/analysis/observe"]; !ok {
			t.Errorf("%s: interp/analysis/observe not among its dependencies: the walk found nothing", root)
		}
	}
}

// sieveDeps returns the sieve packages root imports, directly or not
// (test files left out), each with a package that imports it. It asks go
// list, which needs no GOROOT recorded in the test binary (a -trimpath
// build records none, and go/build then finds no package).
func sieveDeps(root string) (map[string]string, error) {
	out, err := exec.Command("go", "list", "-deps", "-json=ImportPath,Imports", root).Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %w", root, err)
	}
	deps := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module) {
				deps[imp] = p.ImportPath
			}
		}
	}
	return deps, nil
}
