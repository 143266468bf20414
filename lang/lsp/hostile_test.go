package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestHostilePositions sends every request that takes a position at
// places outside the text and inside broken text: each gets an answer,
// none ends the session.
func TestHostilePositions(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "spec.sieve")
	if err := os.WriteFile(path, []byte("test t {\n  controller \"\u00e9\U0001F600 {\n/* open\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startClient(t, Options{})
	c.open(t, path)
	doc := map[string]any{"uri": uri.File(path)}
	for _, pos := range [][2]int{{0, 0}, {1, 14}, {1, 15}, {1, 99}, {2, 3}, {99, 0}, {0, 1 << 30}} {
		p := map[string]any{"line": pos[0], "character": pos[1]}
		r := map[string]any{"start": p, "end": map[string]any{"line": 0, "character": 0}}
		for method, params := range map[string]any{
			protocol.MethodTextDocumentHover:      map[string]any{"textDocument": doc, "position": p},
			protocol.MethodTextDocumentCompletion: map[string]any{"textDocument": doc, "position": p},
			protocol.MethodTextDocumentDefinition: map[string]any{"textDocument": doc, "position": p},
			protocol.MethodTextDocumentCodeAction: map[string]any{"textDocument": doc, "range": r, "context": map[string]any{"diagnostics": []any{}}},
		} {
			if _, err := c.call(method, params); err != nil {
				t.Errorf("%s at %v: %v", method, pos, err)
			}
		}
	}
	// A buffer that is not a file is not checked, and ends nothing.
	untitled := protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: "untitled:Untitled-1", LanguageID: "sieve", Version: 1, Text: "test {"}}
	if err := c.conn.Notify(t.Context(), protocol.MethodTextDocumentDidOpen, untitled); err != nil {
		t.Fatal(err)
	}
	if _, err := c.call(protocol.MethodTextDocumentHover, map[string]any{"textDocument": map[string]any{"uri": "untitled:Untitled-1"}, "position": map[string]any{"line": 0, "character": 0}}); err == nil || !strings.Contains(err.Error(), "not open") {
		t.Errorf("hover in an untitled buffer: %v, want not open", err)
	}
	if _, err := c.call(protocol.MethodTextDocumentFormatting, map[string]any{"textDocument": doc}); err == nil {
		t.Error("formatting a file that does not parse: no error")
	}
	if _, err := c.call(protocol.MethodTextDocumentHover, map[string]any{"textDocument": map[string]any{"uri": "file:///not/open.sieve"}}); err == nil {
		t.Error("hover in a document that is not open: no error")
	}
}
