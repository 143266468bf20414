package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sievetool/sieve/interp/internal/nofollow"
)

// MarkerFile marks a directory as a results directory sieve made: sieve
// writes it when it first takes a directory (Take), and removes what an
// earlier run left (Clear) only where it is.
const MarkerFile = ".sieve-results"

const markerText = "This directory holds the results of sieve runs: sieve removes and rewrites\n" +
	"what its layout names here (docs/results.md). Remove this file to stop it.\n"

// NotOursError says that a directory sieve was asked to write results
// into holds something, and not sieve's marker.
type NotOursError struct {
	Dir string
}

func (e *NotOursError) Error() string {
	return fmt.Sprintf("%s is not empty and was not made by sieve (use --force to take it, or give an empty or new directory)", e.Dir)
}

// LinkError says that a symbolic link stands where sieve writes in a
// results directory: sieve refuses to write through it.
type LinkError = nofollow.LinkError

// Marker is ROOT/.sieve-results.
func (l Layout) Marker() string { return filepath.Join(l.Root, MarkerFile) }

// Take makes the root a results directory of sieve's, creating it if
// needed, and marks it: a directory that is absent, empty or marked
// already is taken; any other gives a *NotOursError, unless force (the
// user said the directory is sieve's to write in). A symbolic link where
// the layout names an entry gives a *LinkError. Taking removes nothing:
// Clear removes only what the layout names.
func (l Layout) Take(force bool) error {
	entries, err := os.ReadDir(l.Root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(l.Root, nofollow.DirMode); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	case err != nil:
		return fmt.Errorf("report: %w", err)
	case l.marked():
		return l.noLinks()
	case len(entries) > 0 && !force:
		return &NotOursError{Dir: l.Root}
	case len(entries) > 0:
		if err := l.noLinks(); err != nil {
			return err
		}
	}
	f, err := nofollow.OpenFile(l.Marker(), os.O_CREATE|os.O_EXCL|os.O_WRONLY)
	if errors.Is(err, fs.ErrExist) && l.marked() {
		return nil // another sieve marked it meanwhile
	}
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	_, err = f.WriteString(markerText)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// noLinks refuses a symbolic link where the layout names an entry of the
// root, before anything starts: Clear would refuse it later, and writing
// would go through it.
func (l Layout) noLinks() error {
	owned, err := l.owned()
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	for _, p := range append(owned, filepath.Join(l.Root, reproduceDir), l.Lock(), l.Client()) {
		if err := nofollow.NotLink(p); err != nil {
			return err
		}
	}
	return nil
}

// marked says whether the root holds sieve's marker (a regular file, not
// a link).
func (l Layout) marked() bool {
	fi, err := os.Lstat(l.Marker())
	return err == nil && fi.Mode().IsRegular()
}

// Clear removes what an earlier run wrote under the root (its summary,
// learned masks, pruned candidates, reference runs and plans, suffix
// references, a campaign's references and shards), so that the results
// read there are only those of the run about to start. Nothing else
// there is touched. It removes only in a directory that carries sieve's
// marker (Take), and refuses a symbolic link where the layout names an
// entry (it would not be sieve's).
func (l Layout) Clear() error {
	owned, err := l.owned()
	if err != nil {
		return fmt.Errorf("report: clearing an earlier run: %w", err)
	}
	if len(owned) > 0 && !l.marked() {
		return fmt.Errorf("report: clearing an earlier run: %w", &NotOursError{Dir: l.Root})
	}
	for _, p := range owned {
		if err := remove(p); err != nil {
			return fmt.Errorf("report: clearing an earlier run: %w", err)
		}
	}
	return nil
}

// ClearShard removes ROOT/shard-I, the results of a campaign's shard
// collected before, as Clear does.
func (l Layout) ClearShard(shard int) error {
	if _, err := os.Lstat(l.ShardDir(shard)); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if !l.marked() {
		return fmt.Errorf("report: clearing an earlier collect: %w", &NotOursError{Dir: l.Root})
	}
	if err := remove(l.ShardDir(shard)); err != nil {
		return fmt.Errorf("report: clearing an earlier collect: %w", err)
	}
	return nil
}

// owned are the entries of the root that the layout names and an earlier
// run may have left.
func (l Layout) owned() ([]string, error) {
	var out []string
	for _, p := range []string{l.Summary(), l.Learned(), l.Pruned(), filepath.Join(l.Root, referenceDir),
		filepath.Join(l.Root, plansDir), l.CampaignRefs(), filepath.Join(l.Root, suffixDir)} {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	entries, err := os.ReadDir(l.Root)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if n, ok := strings.CutPrefix(e.Name(), shardPrefix); ok {
			if i, err := strconv.Atoi(n); err == nil && i >= 1 && e.Name() == shardPrefix+strconv.Itoa(i) {
				out = append(out, filepath.Join(l.Root, e.Name()))
			}
		}
	}
	return out, nil
}

// remove removes what sieve wrote at p, refusing a link there.
func remove(p string) error {
	if err := nofollow.NotLink(p); err != nil {
		return err
	}
	return os.RemoveAll(p)
}
