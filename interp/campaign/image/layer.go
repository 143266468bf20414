package image

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// Epoch is the time of every entry and of the image: fixed, so that the
// same inputs give the same digest (SOURCE_DATE_EPOCH's convention, 0).
var Epoch = time.Unix(0, 0).UTC()

// Entry is a file or directory of a layer.
type Entry struct {
	// Name is the path in the image, without a leading slash
	// ("sieve/bin/sieve").
	Name string
	// Source is the file on this machine to copy; if empty, Data is the
	// content. Ignored for directories.
	Source string
	// Data is the content when Source is empty.
	Data []byte
	// Mode is the permission bits (0o755 for an executable; default 0o644
	// for a file, 0o755 for a directory).
	Mode fs.FileMode
	// Dir says the entry is a directory.
	Dir bool
}

// Layer makes a layer of the entries. The directories above each entry
// are added, entries are written in name order, owned by root, with the
// time Epoch; the layer reads Source files each time it is read.
func Layer(entries []Entry) (v1.Layer, error) {
	es, err := normalize(entries)
	if err != nil {
		return nil, err
	}
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(writeTar(pw, es)) }()
		return pr, nil
	})
}

// normalize cleans the names, adds the parent directories, refuses
// duplicates and sorts the entries.
func normalize(entries []Entry) ([]Entry, error) {
	seen := map[string]bool{}
	var out []Entry
	add := func(e Entry) error {
		if seen[e.Name] {
			if e.Dir {
				return nil
			}
			return fmt.Errorf("image: %s: two entries of the same name", e.Name)
		}
		seen[e.Name] = true
		out = append(out, e)
		return nil
	}
	for _, e := range entries {
		e.Name = strings.TrimPrefix(path.Clean("/"+filepath.ToSlash(e.Name)), "/")
		if e.Name == "" {
			return nil, fmt.Errorf("image: an entry with no name")
		}
		for d := path.Dir(e.Name); d != "."; d = path.Dir(d) {
			_ = add(Entry{Name: d, Dir: true})
		}
		if err := add(e); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// writeTar writes the entries as a tar stream.
func writeTar(w io.Writer, entries []Entry) error {
	tw := tar.NewWriter(w)
	for _, e := range entries {
		if err := writeEntry(tw, e); err != nil {
			return err
		}
	}
	return tw.Close()
}

func writeEntry(tw *tar.Writer, e Entry) error {
	h := &tar.Header{Name: e.Name, ModTime: Epoch, Mode: int64(e.Mode.Perm()), Format: tar.FormatPAX}
	if e.Mode&fs.ModeSticky != 0 {
		h.Mode |= 0o1000
	}
	if e.Dir {
		h.Typeflag, h.Name = tar.TypeDir, e.Name+"/"
		if h.Mode == 0 {
			h.Mode = 0o755
		}
		return tw.WriteHeader(h)
	}
	if h.Mode == 0 {
		h.Mode = 0o644
	}
	h.Typeflag = tar.TypeReg
	r, size, err := open(e)
	if err != nil {
		return err
	}
	defer r.Close()
	h.Size = size
	if err := tw.WriteHeader(h); err != nil {
		return err
	}
	if n, err := io.Copy(tw, r); err != nil || n != size {
		return fmt.Errorf("image: %s: copied %d of %d bytes: %v (did it change while the image was written?)", e.Name, n, size, err)
	}
	return nil
}

// open opens an entry's content.
func open(e Entry) (io.ReadCloser, int64, error) {
	if e.Source == "" {
		return io.NopCloser(bytes.NewReader(e.Data)), int64(len(e.Data)), nil
	}
	f, err := os.Open(e.Source)
	if err != nil {
		return nil, 0, fmt.Errorf("image: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("image: %w", err)
	}
	return f, st.Size(), nil
}

// DirEntries lists the regular files below dir (recursively) as entries
// under the image path prefix, keeping their executable bit. Files and
// directories whose base name skip returns true for are left out (nil:
// none).
func DirEntries(dir, prefix string, skip func(name string) bool) ([]Entry, error) {
	var out []Entry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir && skip != nil && skip(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		mode := fs.FileMode(0o644)
		if info.Mode()&0o111 != 0 {
			mode = 0o755
		}
		out = append(out, Entry{Name: path.Join(prefix, filepath.ToSlash(rel)), Source: p, Mode: mode})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("image: %w", err)
	}
	return out, nil
}
