package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/rogpeppe/go-internal/txtar"
)

// Files indexes an archive's files by name.
func Files(ar *txtar.Archive) map[string][]byte {
	m := map[string][]byte{}
	for _, f := range ar.Files {
		m[f.Name] = f.Data
	}
	return m
}

// InputDir writes the sections of an archive but its out/ ones into a
// new temporary directory, a slash in a name making a directory. It makes
// it the test's working directory (t.Chdir: until the test ends), for a
// test that reads its inputs from disk.
func InputDir(t testing.TB, ar *txtar.Archive) {
	t.Helper()
	dir := t.TempDir()
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "out/") {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
}

// Update reports whether a test run asks to rewrite golden files
// (SIEVE_UPDATE set). It is the one reader of that variable.
func Update() bool { return os.Getenv("SIEVE_UPDATE") != "" }

// File compares got with the golden file at path, or writes it (and its
// directory) when Update says so. A difference is shown as a diff, so a
// golden that is a whole document (grammar.md) shows only what changed.
func File(t testing.TB, path string, got []byte) {
	t.Helper()
	if Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (SIEVE_UPDATE=1 creates it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs (SIEVE_UPDATE=1 to accept):\n%s", path, diff.Diff(path, want, "got", got))
	}
}

// Check compares the outputs of an archive with got, or rewrites them
// when Update says so. The outputs are the out/ sections and any other
// section that got names ("out", "upstream"), so an archive laid out
// before the out/ convention keeps its names. An empty output is no
// output: it matches a missing section, and an update adds no empty
// section (one the archive has stays, empty).
func Check(t testing.TB, file string, ar *txtar.Archive, got map[string][]byte) {
	t.Helper()
	if Update() {
		ar.Files = updated(ar.Files, got)
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := outputs(ar, got)
	for _, name := range sortedKeys(got) {
		w, ok := want[name]
		switch {
		case !ok && len(got[name]) > 0:
			t.Errorf("%s: unexpected output (SIEVE_UPDATE=1 to accept):\n%s", name, got[name])
		case ok && !bytes.Equal(w, got[name]):
			t.Errorf("%s differs (SIEVE_UPDATE=1 to accept):\ngot:\n%s\nwant:\n%s", name, got[name], w)
		}
	}
	for _, name := range sortedKeys(want) {
		if _, ok := got[name]; !ok {
			t.Errorf("%s: expected output not produced", name)
		}
	}
}

// outputs are the sections of ar that Check compares with got: the out/
// ones and those got names.
func outputs(ar *txtar.Archive, got map[string][]byte) map[string][]byte {
	want := map[string][]byte{}
	for name, data := range Files(ar) {
		if _, named := got[name]; named || strings.HasPrefix(name, "out/") {
			want[name] = data
		}
	}
	return want
}

// updated returns files with the outputs of got: each in its place if the
// archive has it, the new non-empty ones last in sorted order, and the
// out/ sections got lacks dropped.
func updated(files []txtar.File, got map[string][]byte) []txtar.File {
	var out []txtar.File
	seen := map[string]bool{}
	for _, f := range files {
		if data, ok := got[f.Name]; ok {
			f.Data, seen[f.Name] = data, true
		} else if strings.HasPrefix(f.Name, "out/") {
			continue
		}
		out = append(out, f)
	}
	for _, name := range sortedKeys(got) {
		if !seen[name] && len(got[name]) > 0 {
			out = append(out, txtar.File{Name: name, Data: got[name]})
		}
	}
	return out
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string][]byte) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
