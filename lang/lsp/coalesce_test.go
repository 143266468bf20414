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
