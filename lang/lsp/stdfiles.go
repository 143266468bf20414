package lsp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/sievetool/sieve/stdlib"
)

// stdFiles is the editor's copy of the standard library: its files,
// written read-only under a directory named by their hash, so that go to
// definition into std/... has a file: URI to give, which every editor
// opens as it opens any file (a custom URI scheme needs an extension's
// help in VS Code and an autocommand in Neovim).
type stdFiles struct {
	root string // Options.StdDir, or its default

	once sync.Once
	dir  string // root/HASH, once written; "" when it could not be
	err  error
}

// defaultStdDir is Options.StdDir's default: sieve/lsp-std in the user's
// cache directory (the temporary directory's without one).
func defaultStdDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		d = os.TempDir()
	}
	return filepath.Join(d, "sieve", "lsp-std")
}

// path returns the file that stands for the standard library's file name
// (std/NAME.sieve), writing the library on first use.
func (s *stdFiles) path(name string) (string, error) {
	s.once.Do(func() { s.dir, s.err = writeStd(s.root) })
	if s.err != nil {
		return "", s.err
	}
	return filepath.Join(s.dir, filepath.FromSlash(name)), nil
}

// writeStd writes the standard library under root/HASH, HASH naming its
// text, unless a server wrote it there before; it returns root/HASH.
func writeStd(root string) (string, error) {
	fsys := stdlib.FS()
	names, err := fs.Glob(fsys, "std/*.sieve")
	if err != nil {
		return "", fmt.Errorf("standard library: %w", err)
	}
	srcs := make([][]byte, len(names))
	h := sha256.New()
	for i, n := range names {
		if srcs[i], err = fs.ReadFile(fsys, n); err != nil {
			return "", fmt.Errorf("standard library: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n%s", n, len(srcs[i]), srcs[i])
	}
	dir := filepath.Join(root, hex.EncodeToString(h.Sum(nil))[:16])
	for i, n := range names {
		if err := writeReadOnly(filepath.Join(dir, filepath.FromSlash(n)), srcs[i]); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// writeReadOnly writes src to path, mode 0444, unless the file is there:
// a file under a directory named by its hash never changes. It writes a
// temporary file and renames it, so a server that reads it meanwhile sees
// all of it or nothing.
func writeReadOnly(path string, src []byte) error {
	if fileExists(path) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("standard library: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("standard library: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(src)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o444)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("standard library: %w", err)
	}
	return nil
}
