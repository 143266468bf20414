package cuefront

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// update says whether to rewrite golden files (SIEVE_UPDATE=1).
var update = golden.Update()

// TestGolden loads spec.cue from each archive under testdata/lower and
// testdata/errors and compares the IR (out/ir) and the diagnostics as text
// (out/diag) with the archive's golden sections.
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
	dir := t.TempDir()
	golden.WriteInputs(t, dir, ar)
	t.Chdir(dir)
	spec, ds := Load("spec.cue", Options{})
	got := map[string][]byte{"out/diag": renderDiags(t, ds)}
	if spec != nil {
		b, err := ir.Dump(spec)
		if err != nil {
			t.Fatal(err)
		}
		got["out/ir"] = b
	}
	compareGolden(t, abs, ar, got)
}

func renderDiags(t *testing.T, ds diag.Diagnostics) []byte {
	var buf bytes.Buffer
	if err := diag.WriteText(&buf, ds, diag.RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// goldenSections are the output sections of an archive, in order.
var goldenSections = []string{"out/ir", "out/diag"}

// compareGolden checks the archive's output sections against got (an
// empty output means the section is absent), or rewrites them when
// updating.
func compareGolden(t *testing.T, file string, ar *txtar.Archive, got map[string][]byte) {
	want := map[string][]byte{}
	var inputs []txtar.File
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "out/") {
			want[f.Name] = f.Data
		} else {
			inputs = append(inputs, f)
		}
	}
	if update {
		ar.Files = inputs
		for _, name := range goldenSections {
			if len(got[name]) > 0 {
				ar.Files = append(ar.Files, txtar.File{Name: name, Data: got[name]})
			}
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, name := range goldenSections {
		if !bytes.Equal(want[name], got[name]) {
			t.Errorf("%s differs (SIEVE_UPDATE=1 refreshes):\n--- got ---\n%s--- want ---\n%s", name, got[name], want[name])
		}
	}
}
