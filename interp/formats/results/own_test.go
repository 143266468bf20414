//go:build unix

package results

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sievetool/sieve/interp/formats/planfile"
)

// userDir makes a directory as a user might have it: notes.txt, a folder
// mine/, and files where sieve's layout has names (plans/keep.txt,
// summary.json).
func userDir(t *testing.T) Layout {
	t.Helper()
	l := Layout{Root: filepath.Join(t.TempDir(), "res")}
	for _, f := range []string{"notes.txt", "mine/a.txt", "plans/keep.txt", SummaryFile} {
		write(t, filepath.Join(l.Root, f), "mine")
	}
	return l
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mustHold fails unless each of files under root holds "mine".
func mustHold(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		if b, err := os.ReadFile(filepath.Join(root, f)); string(b) != "mine" {
			t.Errorf("%s: %q, %v (want the user's content)", f, b, err)
		}
	}
}

func mustBeGone(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(root, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: still there (%v)", f, err)
		}
	}
}

// TestTakeRefusesUserDir: a non-empty directory without the marker is
// not taken, and nothing in it changes, not even a marker added.
func TestTakeRefusesUserDir(t *testing.T) {
	l := userDir(t)
	err := l.Take(false)
	var notOurs *NotOursError
	if !errors.As(err, &notOurs) || notOurs.Dir != l.Root {
		t.Fatalf("Take: %v, want a NotOursError naming %s", err, l.Root)
	}
	mustHold(t, l.Root, "notes.txt", "mine/a.txt", "plans/keep.txt", SummaryFile)
	mustBeGone(t, l.Root, MarkerFile)
}

// TestClearNeedsMarker: Clear removes nothing in a directory sieve did
// not take (a user's own plans/ survives), even called without Take.
func TestClearNeedsMarker(t *testing.T) {
	l := userDir(t)
	var notOurs *NotOursError
	if err := l.Clear(); !errors.As(err, &notOurs) {
		t.Fatalf("Clear: %v, want a NotOursError", err)
	}
	mustHold(t, l.Root, "notes.txt", "plans/keep.txt", SummaryFile)
	if err := l.ClearShard(1); err != nil {
		t.Fatalf("ClearShard of no shard: %v", err)
	}
	write(t, l.ShardDir(1)+"/x", "mine")
	if err := l.ClearShard(1); !errors.As(err, &notOurs) {
		t.Fatalf("ClearShard: %v, want a NotOursError", err)
	}
	mustHold(t, l.ShardDir(1), "x")
}

// TestForceClearsOnlyLayout: a directory taken with force loses only
// what the layout names (summary.json, plans/, shard-1/) at the next
// Clear; the user's notes.txt and mine/ (and shard-x/, no shard) stay.
func TestForceClearsOnlyLayout(t *testing.T) {
	l := userDir(t)
	write(t, filepath.Join(l.ShardDir(1), SummaryFile), "mine")
	write(t, filepath.Join(l.Root, "shard-x", "a"), "mine")
	if err := l.Take(true); err != nil {
		t.Fatal(err)
	}
	if err := l.Clear(); err != nil {
		t.Fatal(err)
	}
	mustHold(t, l.Root, "notes.txt", "mine/a.txt", "shard-x/a")
	mustBeGone(t, l.Root, "plans", SummaryFile, "shard-1")
	if _, err := os.Stat(l.Marker()); err != nil {
		t.Errorf("marker: %v", err)
	}
}

// TestTakeOwn: an absent or empty directory is taken (made 0700, marked),
// and one marked is taken again whatever it holds.
func TestTakeOwn(t *testing.T) {
	base := t.TempDir()
	for _, root := range []string{filepath.Join(base, "new", "res"), t.TempDir()} {
		l := Layout{Root: root}
		if err := l.Take(false); err != nil {
			t.Fatalf("%s: %v", root, err)
		}
		write(t, l.Summary(), "a run's")
		if err := l.Take(false); err != nil {
			t.Fatalf("%s, marked: %v", root, err)
		}
	}
	fi, err := os.Stat(filepath.Join(base, "new", "res"))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("new results directory: %v, %v (want mode 700)", fi.Mode(), err)
	}
}

// link makes root/name a link to a file or folder of the user's
// elsewhere and returns that.
func link(t *testing.T, root, name string, dir bool) string {
	t.Helper()
	target := filepath.Join(t.TempDir(), "target")
	if dir {
		write(t, filepath.Join(target, "keep.txt"), "mine")
	} else {
		write(t, target, "mine")
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
		t.Fatal(err)
	}
	return target
}

// TestLinksRefused: a symbolic link where sieve writes (the lock, the
// client log, plans/, reproduce/) or clears (plans/) is refused with a
// LinkError naming it, and what it points at is left as it was.
func TestLinksRefused(t *testing.T) {
	p := &planfile.Plan{Name: "p"}
	cases := map[string]struct {
		name string
		dir  bool
		do   func(Layout) error
	}{
		"lock":      {LockFile, false, func(l Layout) error { _, err := Lock(l); return err }},
		"client":    {ClientLog, false, func(l Layout) error { _, err := l.OpenClient(); return err }},
		"plan":      {plansDir, true, func(l Layout) error { _, err := l.WritePlan(p); return err }},
		"result":    {plansDir, true, func(l Layout) error { return WriteResult(l, &Result{Plan: "p"}) }},
		"clear":     {plansDir, true, func(l Layout) error { return l.Clear() }},
		"reproduce": {reproduceDir, true, func(l Layout) error { _, err := l.NewReproduceDir("p"); return err }},
		"learned":   {LearnedFile + ".tmp", false, func(l Layout) error { return WriteLearned(l, nil, nil) }},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			l := Layout{Root: filepath.Join(t.TempDir(), "res")}
			if err := l.Take(false); err != nil {
				t.Fatal(err)
			}
			target := link(t, l.Root, c.name, c.dir)
			var le *LinkError
			if err := c.do(l); !errors.As(err, &le) || le.Path != filepath.Join(l.Root, c.name) {
				t.Fatalf("got %v, want a LinkError naming %s", err, c.name)
			}
			if c.dir {
				entries, _ := os.ReadDir(target)
				if len(entries) != 1 {
					t.Errorf("the linked folder holds %d entries, want its 1", len(entries))
				}
				mustHold(t, target, "keep.txt")
			} else {
				mustHold(t, target)
			}
		})
	}
}

// TestModes: what sieve writes in a results directory, which can hold the
// cluster's data (Secrets' too), is its owner's only: files 0600,
// folders 0700.
func TestModes(t *testing.T) {
	l := Layout{Root: filepath.Join(t.TempDir(), "res")}
	if err := l.Take(false); err != nil {
		t.Fatal(err)
	}
	unlock, err := Lock(l)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	f, err := l.OpenClient()
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	dir, err := l.WritePlan(&planfile.Plan{Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{WriteRun(l, &TestRun{}), WriteResult(l, &Result{Plan: "p"}), WriteLearned(l, nil, nil), WritePruned(l, nil)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]os.FileMode{l.Root: 0o700, filepath.Dir(dir): 0o700, dir: 0o700}
	for _, f := range []string{l.Lock(), l.Client(), l.Summary(), l.Learned(), l.Pruned(), l.Marker(), filepath.Join(dir, PlanFile), filepath.Join(dir, ResultFile)} {
		want[f] = 0o600
	}
	for p, mode := range want {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != mode {
			t.Errorf("%s: mode %o, want %o", p, fi.Mode().Perm(), mode)
		}
	}
}
