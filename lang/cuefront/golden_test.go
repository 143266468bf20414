package cuefront

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// TestGolden loads spec.cue from each archive under testdata/lower and
// testdata/errors and compares the IR (out/ir) and the diagnostics as text
// (out/diag) with the archive's golden sections; a missing section
// expects nothing. SIEVE_UPDATE=1 rewrites them.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden archives")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runGolden(t, file)
		})
	}
}

func runGolden(t *testing.T, file string) {
	abs, _ := filepath.Abs(file)
	ar, err := txtar.ParseFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	golden.InputDir(t, ar)
	spec, ds := Load("spec.cue", Options{})
	got := map[string][]byte{"out/diag": renderDiags(t, ds)}
	if spec != nil {
		b, err := ir.Dump(spec)
		if err != nil {
			t.Fatal(err)
		}
		got["out/ir"] = b
	}
	golden.Check(t, abs, ar, got)
}

func renderDiags(t *testing.T, ds diag.Diagnostics) []byte {
	var buf bytes.Buffer
	if err := diag.WriteText(&buf, ds, diag.RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
