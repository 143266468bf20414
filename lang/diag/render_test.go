package diag_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/lang/diag"
)

// TestRender reads testdata/render/*.txtar: source files, a diags.json
// list, and the expected out/text, out/color and out/json renderings.
// SIEVE_UPDATE=1 rewrites the expected sections.
func TestRender(t *testing.T) {
	files, _ := filepath.Glob("testdata/render/*.txtar")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) { runRender(t, file) })
	}
}

func runRender(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src := golden.Files(ar)
	var ds diag.Diagnostics
	if err := json.Unmarshal(src["diags.json"], &ds); err != nil {
		t.Fatalf("diags.json: %v", err)
	}
	lookup := func(name string) ([]byte, bool) { b, ok := src[name]; return b, ok }
	got := map[string][]byte{}
	for name, opts := range map[string]diag.RenderOptions{
		"out/text":  {Source: lookup, WorkDir: "/work"},
		"out/color": {Source: lookup, Color: true},
	} {
		var buf bytes.Buffer
		if err := diag.WriteText(&buf, ds, opts); err != nil {
			t.Fatal(err)
		}
		got[name] = buf.Bytes()
	}
	var buf bytes.Buffer
	if err := diag.WriteJSON(&buf, ds, diag.RenderOptions{WorkDir: "/work"}); err != nil {
		t.Fatal(err)
	}
	got["out/json"] = buf.Bytes()
	golden.Check(t, file, ar, got)
}

func TestWriteJSONEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := diag.WriteJSON(&buf, nil, diag.RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "[]\n" {
		t.Errorf("WriteJSON(nil) = %q, want \"[]\\n\"", got)
	}
}

func TestRelPath(t *testing.T) {
	for _, c := range []struct{ file, dir, want string }{
		{"/work/a/b.sieve", "/work", "a/b.sieve"},
		{"/other/b.sieve", "/work", "/other/b.sieve"},
		{"rel/b.sieve", "/work", "rel/b.sieve"},
		{"/work/b.sieve", "", "/work/b.sieve"},
	} {
		if got := diag.RelPath(c.file, c.dir); got != c.want {
			t.Errorf("RelPath(%q, %q) = %q, want %q", c.file, c.dir, got, c.want)
		}
	}
}
