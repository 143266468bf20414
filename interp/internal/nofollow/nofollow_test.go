package nofollow

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// link makes dir/name a symbolic link to a file of the user's holding
// "mine", and returns that file.
func link(t *testing.T, dir, name string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on windows")
	}
	target := filepath.Join(t.TempDir(), "user-file")
	if err := os.WriteFile(target, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
	return target
}

// TestLinkRefused: creating, appending to or writing a file that is a
// link fails with a *LinkError naming it, and the link's target keeps
// its content.
func TestLinkRefused(t *testing.T) {
	open := map[string]func(string) error{
		"Create":    func(p string) error { _, err := Create(p); return err },
		"Append":    func(p string) error { _, err := Append(p); return err },
		"WriteFile": func(p string) error { return WriteFile(p, []byte("sieve")) },
	}
	for name, f := range open {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			target := link(t, dir, "client.log")
			err := f(filepath.Join(dir, "client.log"))
			var le *LinkError
			if !errors.As(err, &le) || le.Path != filepath.Join(dir, "client.log") {
				t.Fatalf("got %v, want a LinkError naming the link", err)
			}
			if b, _ := os.ReadFile(target); string(b) != "mine" {
				t.Errorf("the link's target holds %q, want %q", b, "mine")
			}
		})
	}
}

// TestMkdirAllLink: a link to a folder below the root is refused, and
// nothing is made in its target; the root itself may be a link.
func TestMkdirAllLink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on windows")
	}
	base := t.TempDir()
	root, elsewhere := filepath.Join(base, "res"), filepath.Join(base, "elsewhere")
	for _, d := range []string{root, elsewhere} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(elsewhere, filepath.Join(root, "plans")); err != nil {
		t.Fatal(err)
	}
	var le *LinkError
	if err := MkdirAll(root, filepath.Join(root, "plans", "p")); !errors.As(err, &le) {
		t.Fatalf("got %v, want a LinkError", err)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) > 0 {
		t.Errorf("made %s in the link's target", entries[0].Name())
	}
	linked := filepath.Join(base, "linked-root")
	if err := os.Symlink(root, linked); err != nil {
		t.Fatal(err)
	}
	if err := MkdirAll(linked, filepath.Join(linked, "reference", "run-1")); err != nil {
		t.Errorf("below a root that is a link: %v", err)
	}
}

// TestModes: what sieve makes is its owner's only.
func TestModes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no unix modes")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "plans", "p")
	if err := MkdirAll(root, dir); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "trace.jsonl")
	if err := WriteFile(file, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: DirMode, filepath.Dir(dir): DirMode, file: FileMode} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %o, want %o", p, got, want)
		}
	}
}
