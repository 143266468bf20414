package gomod

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheck finds a go.mod in the directory or above it, and names the
// directory as written when there is none.
func TestCheck(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "mod", "cmd", "op")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Check(deep, "./cmd/op"); err == nil || !strings.Contains(err.Error(), "build: ./cmd/op is in no Go module") {
		t.Errorf("no go.mod: %v", err)
	}
	if err := os.WriteFile(filepath.Join(root, "mod", "go.mod"), []byte("module m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Check(deep, "./cmd/op"); err != nil {
		t.Errorf("go.mod two levels up: %v", err)
	}
}
