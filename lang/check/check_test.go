package check_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/stdlib"
)

// TestGolden checks every testdata/*.txtar: the files are written to a
// temporary directory, in.sieve (or the "root:" file) is checked from there
// (with -I lib), and
// out/ir (the IR dump, empty on errors) and out/diag (the rendered
// diagnostics) are compared. SIEVE_UPDATE=1 rewrites them. The specs of
// lint_*.txtar are also linted (check.Lint, as sieve check does).
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) { runGolden(t, file) })
	}
}

func runGolden(t *testing.T, file string) {
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	golden.InputDir(t, ar)
	got := compile(t, rootFile(ar), strings.HasPrefix(filepath.Base(file), "lint_"))
	t.Chdir(filepath.Dir(abs))
	golden.Check(t, abs, ar, got)
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

// compile checks name, and lints it when lint is set, and returns the
// out/ sections.
func compile(t *testing.T, name string, lint bool) map[string][]byte {
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	spec, ds := check.File(name, src, check.Options{SearchPath: []string{"lib"}, Std: stdlib.FS()})
	if lint && spec != nil {
		ds = append(ds, check.Lint(spec, ".")...).Sort()
		if ds.HasErrors() {
			spec = nil
		}
	}
	var irOut []byte
	if spec != nil {
		if irOut, err = ir.Dump(spec); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := diag.WriteText(&buf, ds, diag.RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	if spec == nil && !ds.HasErrors() {
		t.Errorf("no spec and no errors")
	}
	return map[string][]byte{"out/ir": compactSrc(irOut), "out/diag": buf.Bytes()}
}

// srcRE matches a source range in the IR dump.
var srcRE = regexp.MustCompile(`"src": \{\s*"start": \{\s*(?:"file": "([^"]*)",\s*)?"offset": \d+,\s*"line": (\d+),\s*"column": (\d+)\s*\},\s*"end": \{\s*(?:"file": "[^"]*",\s*)?"offset": \d+,\s*"line": (\d+),\s*"column": (\d+)\s*\}\s*\}`)

// compactSrc writes each source range of the dump on one line,
// "src": "file:line:col-line:col", so goldens stay readable.
func compactSrc(dump []byte) []byte {
	return srcRE.ReplaceAll(dump, []byte(`"src": "$1:$2:$3-$4:$5"`))
}
