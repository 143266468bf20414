package cachedir

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTrim keeps what was used within MaxAge, removes the rest, and looks
// again only once trimInterval has passed.
func TestTrim(t *testing.T) {
	root := t.TempDir()
	old := time.Now().Add(-MaxAge - time.Hour)
	entry := func(name string, mtime time.Time) string {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "bin"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(dir, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	exists := func(dir string) bool {
		_, err := os.Stat(dir)
		return err == nil
	}
	stale := entry("stale", old)
	fresh := entry("fresh", time.Now().Add(-time.Hour))
	used := entry("used", old)
	Use(used)
	if err := Trim(root); err != nil {
		t.Fatal(err)
	}
	if exists(stale) || !exists(fresh) || !exists(used) {
		t.Errorf("after trim: stale %v, fresh %v, used %v (want false, true, true)", exists(stale), exists(fresh), exists(used))
	}

	late := entry("late", old)
	if err := Trim(root); err != nil {
		t.Fatal(err)
	}
	if !exists(late) {
		t.Errorf("trimmed again within %s", trimInterval)
	}
	mark := filepath.Join(root, trimMark)
	if err := os.Chtimes(mark, old, old); err != nil {
		t.Fatal(err)
	}
	if err := Trim(root); err != nil {
		t.Fatal(err)
	}
	if exists(late) || !exists(mark) {
		t.Errorf("a day later: late entry kept %v, mark kept %v (want false, true)", exists(late), exists(mark))
	}
}

// TestTrimMissingRoot is an error, not a panic: nothing was ever cached.
func TestTrimMissingRoot(t *testing.T) {
	if err := Trim(filepath.Join(t.TempDir(), "none")); !os.IsNotExist(err) {
		t.Errorf("trim of a missing root: %v, want not exist", err)
	}
}
