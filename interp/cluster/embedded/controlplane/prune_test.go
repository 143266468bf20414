package controlplane

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestPrune keeps the current build, one under way and the keep-1 used
// last, and removes the rest.
func TestPrune(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	for i, key := range []string{"src-new", "v1.0.0", "src-old", "src-older", "current"} {
		bin := writeFile(t, filepath.Join(dir, key, Name()), "x")
		used := now.Add(-time.Duration(i) * time.Hour)
		if err := os.Chtimes(bin, used, used); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(dir, "src-building", Name()+".tmp"), "x")
	prune(dir, "current", io.Discard)
	var got []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := []string{"current", "src-building", "src-new", "v1.0.0"}
	if !slices.Equal(got, want) {
		t.Errorf("after prune: %v, want %v", got, want)
	}
}

// TestFindTouches: a binary Find returns counts as used now.
func TestFindTouches(t *testing.T) {
	t.Setenv(Env, "")
	t.Setenv("PATH", "")
	opts := Options{CacheDir: t.TempDir()}
	src, err := locateSource()
	if err != nil {
		t.Fatal(err)
	}
	bin := writeFile(t, filepath.Join(opts.CacheDir, src.key, Name()), "x")
	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(bin, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(opts); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(bin); err != nil || !fi.ModTime().After(old.Add(time.Hour)) {
		t.Errorf("Find did not mark the binary as used: %v, %v", fi.ModTime(), err)
	}
}
