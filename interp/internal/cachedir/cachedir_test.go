package cachedir

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTrim keeps what was used within MaxAge, removes the rest, and past
// MaxEntries removes the least recently used but those used within
// useGrain.
func TestTrim(t *testing.T) {
	root := t.TempDir()
	entry := func(name string, age time.Duration) string {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "bin"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		mtime := time.Now().Add(-age)
		if err := os.Chtimes(dir, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	exists := func(dir string) bool {
		_, err := os.Stat(dir)
		return err == nil
	}
	stale := entry("stale", MaxAge+time.Hour)
	fresh := entry("fresh", 2*time.Hour)
	used := entry("used", MaxAge+time.Hour)
	Use(used)
	if err := Trim(root); err != nil {
		t.Fatal(err)
	}
	if exists(stale) || !exists(fresh) || !exists(used) {
		t.Errorf("after trim: stale %v, fresh %v, used %v (want false, true, true)", exists(stale), exists(fresh), exists(used))
	}

	var recent []string
	for i := range MaxEntries + 2 { // all used within useGrain, more recently than fresh
		recent = append(recent, entry(fmt.Sprint("recent", i), time.Duration(i)*time.Second))
	}
	if err := Trim(root); err != nil {
		t.Fatal(err)
	}
	for _, dir := range append(recent, used) {
		if !exists(dir) {
			t.Errorf("%s, used within %s, was removed: it may be in use", filepath.Base(dir), useGrain)
		}
	}
	if exists(fresh) {
		t.Errorf("past %d entries, the least recently used was kept", MaxEntries)
	}
}

// TestTrimMissingRoot is an error, not a panic: nothing was ever cached.
func TestTrimMissingRoot(t *testing.T) {
	if err := Trim(filepath.Join(t.TempDir(), "none")); !os.IsNotExist(err) {
		t.Errorf("trim of a missing root: %v, want not exist", err)
	}
}
