package cachedir

import (
	"errors"
	"os"
	"path/filepath"
	"time"
)

// MaxAge is how long an entry is kept after its last use.
const MaxAge = 5 * 24 * time.Hour

const (
	useGrain     = time.Hour      // a use is recorded at most this often
	trimInterval = 24 * time.Hour // a root is trimmed at most this often
	trimMark     = "trim.txt"     // in the root: when it was last trimmed
)

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

// Trim removes the entries of root not used for MaxAge, at most once per
// trimInterval (root/trim.txt says when it last did). Entries in use are
// never that old: Use marks them.
func Trim(root string) error {
	mark := filepath.Join(root, trimMark)
	if fi, err := os.Stat(mark); err == nil && time.Since(fi.ModTime()) < trimInterval {
		return nil
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if e.Name() == trimMark {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		if time.Since(fi.ModTime()) > MaxAge {
			errs = append(errs, os.RemoveAll(filepath.Join(root, e.Name())))
		}
	}
	errs = append(errs, os.WriteFile(mark, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644))
	return errors.Join(errs...)
}
