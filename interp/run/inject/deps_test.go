package inject

import (
	"go/build"
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
// (test files left out), each with a package that imports it.
func sieveDeps(root string) (map[string]string, error) {
	deps := map[string]string{}
	todo := []string{root}
	for len(todo) > 0 {
		path := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		pkg, err := build.Import(path, ".", 0)
		if err != nil {
			return nil, err
		}
		for _, imp := range pkg.Imports {
			if _, seen := deps[imp]; seen || !strings.HasPrefix(imp, module) {
				continue
			}
			deps[imp] = path
			todo = append(todo, imp)
		}
	}
	return deps, nil
}
