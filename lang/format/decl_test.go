package format

import (
	"reflect"
	"testing"

	"github.com/sievetool/sieve/lang/syntax"
)

// TestDeclWithoutPositions prints every declaration of the samples as a
// program builds it, without positions or comments: the text parses back
// to the same declaration, after the comment.
func TestDeclWithoutPositions(t *testing.T) {
	n := 0
	for name, src := range samples(t) {
		f, ds := syntax.Parse(name, src)
		if ds.HasErrors() {
			continue // error goldens of the parser
		}
		for _, d := range f.Decls {
			want := syntax.Dump(d)
			syntax.Walk(d, func(n syntax.Node) bool {
				reflect.ValueOf(n).Elem().FieldByName("Span").Set(reflect.ValueOf(syntax.Span{}))
				return true
			})
			out := Decl(d, "built")
			g, ds := syntax.Parse(name, out)
			switch {
			case len(ds) > 0:
				t.Errorf("%s: output does not parse: %v\n%s", name, ds, out)
			case len(g.Decls) != 1 || syntax.Dump(g.Decls[0]) != want:
				t.Errorf("%s: printing changed the declaration:\n%s", name, out)
			case len(g.Comments) != 1 || g.Comments[0].Text != "// built":
				t.Errorf("%s: comments %v, want // built", name, g.Comments)
			}
			n++
		}
	}
	if n < 50 {
		t.Fatalf("only %d declarations; the test checks too little", n)
	}
}

// TestDeclComment: each line of a comment becomes a line comment, so no
// comment can end the comment and start a declaration.
func TestDeclComment(t *testing.T) {
	m := &syntax.Mask{Name: &syntax.Ident{Name: "m"}, Rules: []*syntax.MaskRule{{Whole: true}}}
	got := string(Decl(m, "one\nmask evil { whole }", "", "three\r"))
	want := "// one\n// mask evil { whole }\n// \n// three\nmask m {\n  whole\n}\n"
	if got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
}
