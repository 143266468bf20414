package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/sievetool/sieve/lang/load"
	"github.com/sievetool/sieve/stdlib"
)

// TestStdFiles holds the editor's copy of the standard library to the
// embedded one: every file, read-only, written again without error by a
// second server, and clean when the editor opens it (what sieve check
// says of it, as the server checks an open file).
func TestStdFiles(t *testing.T) {
	root := t.TempDir()
	dir, err := writeStd(root)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := writeStd(root); err != nil || again != dir {
		t.Fatalf("second write: %q, %v; want %q", again, err, dir)
	}
	names, _ := fs.Glob(stdlib.FS(), "std/*.sieve")
	if len(names) == 0 {
		t.Fatal("no standard library files")
	}
	for _, n := range names {
		want, _ := fs.ReadFile(stdlib.FS(), n)
		path := filepath.Join(dir, filepath.FromSlash(n))
		got, err := os.ReadFile(path)
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: %v, or its text differs from the embedded one", path, err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o444 {
			t.Errorf("%s: mode %v, %v; want read-only", path, fi.Mode(), err)
		}
		if _, ds := load.LoadSource(path, got, load.Options{}); len(ds) > 0 {
			t.Errorf("%s: diagnostics when opened:\n%v", n, ds)
		}
	}
}
