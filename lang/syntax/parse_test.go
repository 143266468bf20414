package syntax

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
)

// TestGolden parses in.sieve of every testdata/*.txtar archive and compares
// the tree (out/ast) and the diagnostics (out/diag) with the archive; a
// missing section expects nothing. SIEVE_UPDATE=1 rewrites the archives.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.txtar (%v)", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			checkGolden(t, file)
		})
	}
}

func checkGolden(t *testing.T, file string) {
	a, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	in := golden.Files(a)["in.sieve"]
	if in == nil {
		t.Fatalf("%s: no in.sieve section", file)
	}
	f, ds := Parse("in.sieve", in)
	checkRanges(t, f, in)
	got := map[string][]byte{"out/ast": []byte(Dump(f)), "out/diag": []byte(diagText(ds))}
	if len(f.Decls) == 0 {
		got["out/ast"] = nil
	}
	golden.Check(t, file, a, got)
}

func diagText(ds interface{ Error() string }) string {
	s := ds.Error()
	if s == "" {
		return ""
	}
	return s + "\n"
}

// checkRanges fails if any node's range is inverted or outside src.
func checkRanges(t testing.TB, f *File, src []byte) {
	t.Helper()
	Walk(f, func(n Node) bool {
		r := n.Range()
		if r.Start.Offset > r.End.Offset || r.End.Offset > len(src) || r.Start.Offset < 0 {
			t.Fatalf("%T: bad range %d..%d (file has %d bytes)", n, r.Start.Offset, r.End.Offset, len(src))
		}
		if r.Start.Line < 1 || r.Start.Column < 1 {
			t.Fatalf("%T: bad start %v", n, r.Start)
		}
		return true
	})
}

// TestParseBOM accepts a UTF-8 byte order mark at the start of a file,
// as whitespace that takes no column.
func TestParseBOM(t *testing.T) {
	f, ds := Parse("bom.sieve", []byte("\uFEFFcontroller c {\n  builtin \"job\"\n}\n"))
	if len(ds) > 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	if len(f.Decls) != 1 {
		t.Fatalf("got %d declarations, want 1", len(f.Decls))
	}
	if p := f.Decls[0].Range().Start; p.Line != 1 || p.Column != 1 || p.Offset != 3 {
		t.Errorf("declaration at %d:%d (offset %d), want 1:1 (offset 3)", p.Line, p.Column, p.Offset)
	}
}
