package cachedir

import (
	"cmp"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// MaxAge is how long an entry is kept after its last use.
const MaxAge = 5 * 24 * time.Hour

// MaxEntries is how many entries a root keeps: past it, the least
// recently used go, but for those used within useGrain, which may be in
// use now. A day of edits to a controller builds hundreds of binaries.
const MaxEntries = 64

const useGrain = time.Hour // a use is recorded at most this often

// Root is the default cache directory named name: the user cache
// directory's sieve/name (the temporary directory's without one).
func Root(name string) string {
	d, err := os.UserCacheDir()
	if err != nil {
		d = os.TempDir()
	}
	return filepath.Join(d, "sieve", name)
}

// Use marks the entry dir as used now (its modification time), so that
// Trim keeps it for MaxAge more. Failing to mark is harmless: the entry is
// at worst built or recorded again.
func Use(dir string) {
	fi, err := os.Stat(dir)
	if err != nil || time.Since(fi.ModTime()) < useGrain {
		return
	}
	now := time.Now()
	_ = os.Chtimes(dir, now, now)
}

// Trim removes the entries of root not used for MaxAge, and the least
// recently used past the MaxEntries most recent. Entries in use are never
// removed: Use marks them.
func Trim(root string) error {
	entries, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	type entry struct {
		name string
		age  time.Duration
	}
	var byUse []entry
	for _, e := range entries {
		if fi, err := e.Info(); err == nil { // else removed meanwhile
			byUse = append(byUse, entry{e.Name(), time.Since(fi.ModTime())})
		}
	}
	slices.SortFunc(byUse, func(a, b entry) int { return cmp.Compare(a.age, b.age) })
	var errs []error
	for i, e := range byUse {
		if e.age > MaxAge || i >= MaxEntries && e.age > useGrain {
			errs = append(errs, os.RemoveAll(filepath.Join(root, e.name)))
		}
	}
	return errors.Join(errs...)
}
