package check_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/stdlib"
)

// TestGolden checks every testdata/*.txtar: the files are written to a
// temporary directory, in.sieve (or the "root:" file) is checked from there
// (with -I lib), and
// out/ir (the IR dump, empty on errors) and out/diag (the rendered
// diagnostics) are compared. SIEVE_UPDATE=1 rewrites them. (lang/lint's
// goldens lint the checked spec too.)
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	golden.Archives(t, files, func(t *testing.T, ar *txtar.Archive) map[string][]byte {
		return compile(t, rootFile(ar))
	})
}

// rootFile is the spec to check: in.sieve, or the file a "root: NAME" line
// of the archive's comment names.
func rootFile(ar *txtar.Archive) string {
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		if name, ok := strings.CutPrefix(line, "root: "); ok {
			return strings.TrimSpace(name)
		}
	}
	return "in.sieve"
}

// compile checks name and returns the out/ sections.
func compile(t *testing.T, name string) map[string][]byte {
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	spec, ds := check.File(name, src, check.Options{SearchPath: []string{"lib"}, Std: stdlib.FS()})
	return golden.Spec(t, spec, ds)
}
