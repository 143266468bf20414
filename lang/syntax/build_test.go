package syntax

import (
	"math"
	"strings"
	"testing"
	"time"
)

// TestBuildersCheckTokens: a builder of a token refuses text that is not
// that token, so a built tree cannot print as something else.
func TestBuildersCheckTokens(t *testing.T) {
	errs := map[string]error{}
	_, errs["ident a-b"] = NewIdent("a-b")
	_, errs["ident 1a"] = NewIdent("1a")
	_, errs["ident with space"] = NewIdent("a ")
	_, errs["key pod"] = NewKey("pod")
	_, errs["key pod/x y"] = NewKey("pod/x y")
	_, errs["duration 1.5s"] = NewDuration(1500 * time.Millisecond)
	_, errs["duration -1s"] = NewDuration(-time.Second)
	_, errs["path a..b"] = NewPath("a..b")
	_, errs["path empty"] = NewPath("")
	_, errs["path a b"] = NewPath("a b")
	_, errs["path bad escape"] = NewPath(`a."\q"`)
	_, errs["path selector"] = NewPath("a[type=Ready]")
	_, errs["event verb patch"] = NewEvent("patch", nil)
	_, errs["write verb get"] = NewWrite(false, false, "get", nil)
	_, errs["value NaN"] = NewValue(math.NaN())
	_, errs["value func"] = NewValue(map[string]any{"f": func() {}})
	for what, err := range errs {
		if err == nil {
			t.Errorf("%s: no error", what)
		} else if msg := err.Error(); strings.HasSuffix(msg, ".") || msg != strings.ToLower(msg[:1])+msg[1:] {
			t.Errorf("%s: error %q is not lowercase without a trailing period", what, msg)
		}
	}
}

// TestBuilders: what the builders accept, they build as the parser would.
func TestBuilders(t *testing.T) {
	if id, err := NewIdent("learned_2"); err != nil || id.Name != "learned_2" {
		t.Errorf("ident: %v, %v", id, err)
	}
	if k, err := NewKey("pod/default/web-*"); err != nil || k.Text != "pod/default/web-*" {
		t.Errorf("key: %v, %v", k, err)
	}
	if d, err := NewDuration(90 * time.Second); err != nil || d.Text != "1m30s" {
		t.Errorf("duration: %v, %v", d, err)
	}
	if s := NewString("a\"b\n"); s.Text != `"a\"b\n"` {
		t.Errorf("string: %s", s.Text)
	}
	p, err := NewPath(`spec."a.b"[0].*[*]`)
	if err != nil {
		t.Fatal(err)
	}
	f, ds := Parse("p.sieve", []byte(`mask m { path spec."a.b"[0].*[*] }`))
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	if got, want := Dump(p), Dump(f.Decls[0].(*Mask).Rules[0].Path); got != want {
		t.Errorf("path:\n%s\nwant:\n%s", got, want)
	}
	if p.Pos != (Span{}).Pos || p.Elems[2].EndPos != (Span{}).EndPos {
		t.Errorf("a built path has positions: %+v", p)
	}
}
