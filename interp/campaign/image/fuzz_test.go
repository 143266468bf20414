package image

import (
	"archive/tar"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/lang/input"
)

// tarOf is a tar stream of the given entries: a name ending in "/" is a
// folder, one with "->" a symbolic link, any other a file holding "x".
func tarOf(names ...string) []byte {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, n := range names {
		h := &tar.Header{Name: n, Mode: 0o644, Typeflag: tar.TypeReg, Size: 1}
		switch {
		case strings.HasSuffix(n, "/"):
			h.Typeflag, h.Size = tar.TypeDir, 0
		case strings.Contains(n, "->"):
			name, target, _ := strings.Cut(n, "->")
			h = &tar.Header{Name: name, Linkname: target, Typeflag: tar.TypeSymlink}
		}
		tw.WriteHeader(h)
		if h.Size > 0 {
			tw.Write([]byte("x"))
		}
	}
	tw.Close()
	return b.Bytes()
}

// FuzzExtract extracts an arbitrary tar stream, as an artefact pulled from
// a registry (sieve collect) is, into a directory where a symbolic link
// already points out of it. It must never panic, and must fail with a
// clear error. It must write nothing outside the directory, by a name with
// "..", an absolute one, or through the link. Seeds: results directories
// as sieve pushes them, and names that try to leave.
func FuzzExtract(f *testing.F) {
	f.Add(tarOf("summary.json", "plans/", "plans/p-1/result.json", "reference/run-1/trace.jsonl"))
	f.Add(tarOf("../outside/x", "/etc/x", "a/../../outside/y"))
	f.Add(tarOf("link/x", "link/", "l2->../outside", "l2/y"))
	f.Fuzz(func(t *testing.T, b []byte) {
		top := t.TempDir()
		dir, outside := filepath.Join(top, "res"), filepath.Join(top, "outside")
		for _, d := range []string{dir, outside} {
			if err := os.Mkdir(d, 0o700); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
			t.Fatal(err)
		}
		var err error
		hostile.Within(t, hostile.MaxTime, func() { err = extractTar(bytes.NewReader(b), dir, 1<<20) })
		if err != nil {
			hostile.CheckError(t, err, b)
		}
		filepath.WalkDir(top, func(p string, d fs.DirEntry, werr error) error {
			if werr != nil {
				return nil
			}
			rel, _ := filepath.Rel(top, p)
			if rel != "." && rel != "res" && rel != "outside" && !strings.HasPrefix(rel, "res"+string(filepath.Separator)) {
				t.Errorf("extracting wrote %s, outside the directory", rel)
			}
			return nil
		})
		if entries, _ := os.ReadDir(outside); len(entries) > 0 {
			t.Errorf("extracting wrote through the link: %s holds %s", outside, entries[0].Name())
		}
		if fi, err := os.Lstat(filepath.Join(dir, "link")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the link was replaced or removed (%v)", err)
		}
	})
}

// TestExtractLimit stops an artefact whose files together pass the limit,
// at the file that passes it, saying which limit: a hostile registry
// cannot fill the disk.
func TestExtractLimit(t *testing.T) {
	dir := t.TempDir()
	err := extractTar(bytes.NewReader(tarOf("a", "b", "c")), dir, 2)
	if !errors.Is(err, input.ErrTooLarge) || !strings.Contains(err.Error(), "(at c)") {
		t.Fatalf("three 1-byte files with a 2-byte limit: got %v, want too large at c", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "c")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("c was written past the limit (%v)", err)
	}
	if err := extractTar(bytes.NewReader(tarOf("a", "b")), t.TempDir(), 2); err != nil {
		t.Errorf("two 1-byte files with a 2-byte limit: %v", err)
	}
}
