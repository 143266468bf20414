package syntax_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/lang/format"
	"github.com/sievetool/sieve/lang/syntax"
)

// FuzzParse checks, for any input, that Parse does not panic, that every
// range lies within the file, and that every diagnostic has a position. A
// file without errors must format to text that parses to the same tree
// and is already formatted. Seeds: one sample per construct (testdata and
// the examples of grammar.md).
func FuzzParse(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, ds := syntax.Parse("fuzz.sieve", src)
		for _, d := range ds {
			if d.Subject == nil || !d.Subject.Start.IsValid() {
				t.Fatalf("diagnostic without position: %v", d)
			}
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			r := n.Range()
			if r.Start.Offset < 0 || r.Start.Offset > r.End.Offset || r.End.Offset > len(src) {
				t.Fatalf("%T: bad range %d..%d in %d bytes", n, r.Start.Offset, r.End.Offset, len(src))
			}
			return true
		})
		if len(ds) > 0 {
			return
		}
		out := format.File(file)
		again, ds := syntax.Parse("fuzz.sieve", out)
		if len(ds) > 0 {
			t.Fatalf("formatted output does not parse: %v\n%s", ds, out)
		}
		if syntax.Dump(again) != syntax.Dump(file) {
			t.Fatalf("formatting changed the tree:\n%s", out)
		}
		if out2 := format.File(again); !bytes.Equal(out, out2) {
			t.Fatalf("formatting is not idempotent:\n%s\n---\n%s", out, out2)
		}
		if len(again.Comments) != len(file.Comments) {
			t.Fatalf("formatting lost comments: %d -> %d\n%s", len(file.Comments), len(again.Comments), out)
		}
	})
}

func seeds(f *testing.F) [][]byte {
	var out [][]byte
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, file := range files {
		a, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, s := range a.Files {
			if s.Name == "in.sieve" {
				out = append(out, s.Data)
			}
		}
	}
	md, err := os.ReadFile("../../grammar.md")
	if err != nil {
		f.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?s)```sieve\n(.*?)```").FindAllSubmatch(md, -1) {
		out = append(out, m[1])
	}
	return out
}
