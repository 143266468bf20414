package controlplane

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// keep is how many built binaries the cache holds after a build: the new
// one and the ones used last before it. Each is about 200 MB.
const keep = 3

// touch marks the binary at p as used now, so that prune keeps the
// binaries in use. It is best effort: a read-only cache only prunes worse.
func touch(p string) {
	now := time.Now()
	os.Chtimes(p, now, now)
}

// prune removes the builds in dir beyond the keep used last (by the
// binary's modification time, which Find and the build set), never the one
// in entry current nor one under way, and reports what it removed to
// progress. A build is an entry holding a binary named bin, so the default
// builds and each older line's are pruned apart.
func prune(dir, current, bin string, progress io.Writer) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type built struct {
		key  string
		used time.Time
	}
	var all []built
	for _, e := range entries {
		path := filepath.Join(dir, e.Name(), bin)
		fi, err := os.Stat(path)
		if !e.IsDir() || e.Name() == current || err != nil || building(path) {
			continue
		}
		all = append(all, built{e.Name(), fi.ModTime()})
	}
	slices.SortFunc(all, func(a, b built) int { return b.used.Compare(a.used) })
	for _, b := range all[min(len(all), keep-1):] {
		if err := os.RemoveAll(filepath.Join(dir, b.key)); err == nil {
			fmt.Fprintf(progress, "removed an older control-plane build from the cache: %s\n", b.key)
		}
	}
}

// building says whether a build of bin is under way (or died and left its
// temporary file, which the next build of that key replaces).
func building(bin string) bool {
	_, err := os.Stat(bin + ".tmp")
	return err == nil
}
