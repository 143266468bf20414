//go:build unix

package results

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// FuzzOwnership makes a directory of arbitrary entries, with sieve's
// marker absent, a file, a link or a folder, and takes it for results
// (with --force or not) and clears it as a run does: taking without
// --force must refuse (a *NotOursError) a directory that holds anything
// and no marker file, and a run may then remove only the entries the
// layout names, never write through a link, and never touch what lies
// outside the directory.
func FuzzOwnership(f *testing.F) {
	f.Add("notes.txt/plans/summary.json", uint8(0))
	f.Add("plans/reference/shard-2/shard-02/mine", uint8(1))
	f.Add("summary.json/learned.sieve", uint8(2))
	f.Add("", uint8(3))
	f.Add("plans", uint8(5))
	f.Add("shard--1/shard-0/shard-3", uint8(1))  // no shard of the layout, but shard-3
	f.Add("notes.txt/plans/reference", uint8(8)) // --force
	f.Fuzz(func(t *testing.T, names string, mode uint8) {
		top := t.TempDir()
		outside := filepath.Join(top, "outside")
		write(t, outside, "mine")
		l := Layout{Root: filepath.Join(top, "res")}
		if err := os.Mkdir(l.Root, 0o755); err != nil {
			t.Fatal(err)
		}
		var entries []string
		for i, n := range strings.Split(names, "/") {
			if i == 8 || n == "" || n == "." || n == ".." || n == MarkerFile || strings.ContainsRune(n, 0) || len(n) > 64 {
				continue
			}
			p := filepath.Join(l.Root, n)
			if mode&4 != 0 && i == 0 {
				if err := os.Symlink(outside, p); err != nil {
					continue
				}
			} else if os.WriteFile(p, []byte("mine"), 0o644) != nil {
				continue
			}
			entries = append(entries, n)
		}
		switch mode % 4 {
		case 1:
			write(t, l.Marker(), "")
		case 2:
			if err := os.Symlink(outside, l.Marker()); err != nil {
				t.Fatal(err)
			}
		case 3:
			if err := os.Mkdir(l.Marker(), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		force := mode&8 != 0
		err := l.Take(force)
		var notOurs *NotOursError
		var link *LinkError
		switch {
		case force: // the user's word: any directory, but still no link
		case mode%4 != 1 && (len(entries) > 0 || mode%4 != 0):
			if !errors.As(err, &notOurs) {
				t.Fatalf("took a directory of %q without a marker file (marker mode %d): %v", entries, mode%4, err)
			}
		case errors.As(err, &link):
		case err != nil:
			t.Fatalf("take: %v", err)
		}
		if err == nil {
			if err := l.Clear(); err != nil && !errors.As(err, &link) {
				t.Fatalf("clear: %v", err)
			}
		}
		for _, n := range entries {
			_, statErr := os.Lstat(filepath.Join(l.Root, n))
			if !removable(n) && statErr != nil {
				t.Fatalf("%s, not named by the layout, is gone: %v", n, statErr)
			}
		}
		mustHold(t, top, "outside")
	})
}

var shardName = regexp.MustCompile(`^shard-[1-9][0-9]*$`)

// removable reports whether a run may remove the root's entry n.
func removable(n string) bool {
	switch n {
	case SummaryFile, LearnedFile, PrunedFile, referenceDir, plansDir, referencesDir:
		return true
	}
	return shardName.MatchString(n)
}
