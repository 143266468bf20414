package lint_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/lint"
	"github.com/sievetool/sieve/stdlib"
)

// TestLintGolden checks every testdata/lint_*.txtar: the files are
// written to a temporary directory, in.sieve is checked from there (with
// -I lib) and linted as sieve check does, and out/ir (the IR dump, empty
// on errors) and out/diag (the rendered diagnostics) are compared.
// SIEVE_UPDATE=1 rewrites them.
func TestLintGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/lint_*.txtar")
	golden.Archives(t, files, func(t *testing.T, _ *txtar.Archive) map[string][]byte {
		return checkAndLint(t, "in.sieve")
	})
}

// checkAndLint checks and lints name and returns the out/ sections; a
// spec with lint errors has no IR.
func checkAndLint(t *testing.T, name string) map[string][]byte {
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	spec, ds := check.File(name, src, check.Options{SearchPath: []string{"lib"}, Std: stdlib.FS()})
	if spec != nil {
		ds = append(ds, lint.Lint(spec, ".")...).Sort()
		if ds.HasErrors() {
			spec = nil
		}
	}
	return golden.Spec(t, spec, ds)
}
