package image

import (
	"archive/tar"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
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
// already points out of it: it must never panic, write nothing outside the
// directory (by a name with "..", an absolute one, or through the link),
// and fail with a clear error. Seeds: results directories as sieve pushes
// them, and names that try to leave.
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
		hostile.Within(t, hostile.MaxTime, func() { err = extractTar(bytes.NewReader(b), dir) })
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
