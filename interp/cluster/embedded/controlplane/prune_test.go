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
// last of the same binary, and removes the rest; the builds of the default
// line and of an older one are pruned apart.
func TestPrune(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	line := Line{Version: "1.21"}.binaryName()
	for i, b := range []struct{ key, bin string }{
		{"src-new", Name()}, {"v1.0.0", Name()}, {"src-old", Name()}, {"src-older", Name()}, {"current", Name()},
		{"k8s-1.21-new", line}, {"k8s-1.21-old", line}, {"k8s-1.21-older", line}, {"k8s-1.21-oldest", line},
	} {
		bin := writeFile(t, filepath.Join(dir, b.key, b.bin), "x")
		used := now.Add(-time.Duration(i) * time.Hour)
		if err := os.Chtimes(bin, used, used); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(dir, "src-building", Name()+".tmp"), "x")
	entries := func() []string {
		var got []string
		es, _ := os.ReadDir(dir)
		for _, e := range es {
			got = append(got, e.Name())
		}
		return got
	}
	prune(dir, "current", Name(), io.Discard)
	want := []string{"current", "k8s-1.21-new", "k8s-1.21-old", "k8s-1.21-older", "k8s-1.21-oldest", "src-building", "src-new", "v1.0.0"}
	if got := entries(); !slices.Equal(got, want) {
		t.Errorf("after prune of the default builds: %v, want %v", got, want)
	}
	prune(dir, "k8s-1.21-oldest", line, io.Discard)
	want = []string{"current", "k8s-1.21-new", "k8s-1.21-old", "k8s-1.21-oldest", "src-building", "src-new", "v1.0.0"}
	if got := entries(); !slices.Equal(got, want) {
		t.Errorf("after prune of the 1.21 builds: %v, want %v", got, want)
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
