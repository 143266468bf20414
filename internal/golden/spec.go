package golden

import (
	"bytes"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// Archives runs a subtest for each archive file: in a temporary
// directory that holds the archive's inputs (InputDir), produce makes
// the out/ sections, which Check compares. A test without files fails.
func Archives(t *testing.T, files []string, produce func(t *testing.T, ar *txtar.Archive) map[string][]byte) {
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			abs, err := filepath.Abs(file)
			if err != nil {
				t.Fatal(err)
			}
			ar, err := txtar.ParseFile(abs)
			if err != nil {
				t.Fatal(err)
			}
			InputDir(t, ar)
			got := produce(t, ar)
			t.Chdir(filepath.Dir(abs))
			Check(t, abs, ar, got)
		})
	}
}

// Spec is the out/ sections of a checked spec, for Check: out/ir, the IR
// dump with each source range on one line (empty when spec is nil), and
// out/diag, the rendered diagnostics. A nil spec without errors fails t.
func Spec(t *testing.T, spec *ir.Spec, ds diag.Diagnostics) map[string][]byte {
	t.Helper()
	var irOut []byte
	if spec != nil {
		var err error
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
