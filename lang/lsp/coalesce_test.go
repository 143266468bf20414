package lsp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestEditsCoalesce types faster than the server checks: every change is
// sent at once, and the diagnostics that come are of versions in order,
// ending with those of the last text, never of a text already replaced.
func TestEditsCoalesce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spec.sieve")
	good := []byte("controller c {\n  builtin \"statefulset\"\n}\n")
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	c := startClient(t, Options{})
	c.open(t, path)
	const last = 40
	for v := int32(2); v <= last; v++ {
		text := good
		if v%2 == 0 {
			text = []byte("controller c {\n  biuldin \"statefulset\"\n}\n")
		}
		c.conn.Notify(context.Background(), protocol.MethodTextDocumentDidChange, protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri.File(path)}, Version: v},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: string(text)}},
		})
	}
	u := uri.File(path)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		c.mu.Lock()
		vs := slices.Clone(c.versions[u])
		c.mu.Unlock()
		if vs[len(vs)-1] == last {
			if !slices.IsSorted(vs) {
				t.Errorf("versions published out of order: %v", vs)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no diagnostics of version %d after a minute: %v", last, vs)
		}
	}
	if d := string(c.diagnostics(u)); d == "[]" {
		t.Errorf("the last text (a misspelt attribute) has no diagnostics")
	}
}

// TestSaveRechecksImporters saves a fix to an imported file: the open
// file that imports it is checked again, and its error goes.
func TestSaveRechecksImporters(t *testing.T) {
	dir := t.TempDir()
	lib, spec := filepath.Join(dir, "lib.sieve"), filepath.Join(dir, "spec.sieve")
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(lib, "controller other {\n  builtin \"statefulset\"\n}\n")
	write(spec, "import \"./lib.sieve\"\n\nworkload w {\n  settle\n}\n\ntest t {\n  controller lib.c\n  workloads  [w]\n}\n")
	c := startClient(t, Options{})
	c.open(t, spec)
	if d := string(c.diagnostics(uri.File(spec))); d == "[]" {
		t.Fatal("lib.c is undefined, but spec.sieve has no diagnostics")
	}
	write(lib, "controller c {\n  builtin \"statefulset\"\n}\n")
	c.open(t, lib)
	n := c.published(uri.File(spec))
	c.conn.Notify(context.Background(), protocol.MethodTextDocumentDidSave, protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(lib)}})
	for deadline := time.Now().Add(time.Minute); c.published(uri.File(spec)) == n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("spec.sieve not checked again after lib.sieve was saved")
		}
	}
	if d := string(c.diagnostics(uri.File(spec))); d != "[]" {
		t.Errorf("spec.sieve after the fix of lib.sieve: %s", d)
	}
}
