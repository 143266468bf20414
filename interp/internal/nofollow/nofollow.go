package nofollow

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The modes of what sieve makes in a results directory: its owner's only.
const (
	FileMode fs.FileMode = 0o600
	DirMode  fs.FileMode = 0o700
)

// LinkError says that a symbolic link stands where sieve writes a file or
// folder.
type LinkError struct {
	Path string
}

func (e *LinkError) Error() string {
	return e.Path + ": is a symbolic link (sieve does not write through links in a results directory; remove it or choose another directory)"
}

// Create creates or truncates the file path for writing, as os.Create
// does, but refuses a link there and makes a new file FileMode.
func Create(path string) (*os.File, error) {
	return OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC)
}

// Append opens the file path for appending, creating it FileMode, and
// refuses a link there.
func Append(path string) (*os.File, error) {
	return OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND)
}

// OpenFile is os.OpenFile with a new file FileMode, refusing a link at
// path (O_NOFOLLOW where the system has it, a look first everywhere).
func OpenFile(path string, flag int) (*os.File, error) {
	if err := NotLink(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, flag|noFollow, FileMode)
	if err != nil && NotLink(path) != nil {
		return nil, &LinkError{Path: path} // made between the look and the open
	}
	return f, err
}

// WriteFile writes data to the file path, as os.WriteFile does, refusing
// a link there.
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// NotLink returns a *LinkError if path is a symbolic link, nil if it is
// anything else or nothing.
func NotLink(path string) error {
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return &LinkError{Path: path}
	}
	return nil
}

// MkdirAll creates the folder dir below root and its missing parents
// below root, DirMode, refusing a link on the way: root itself, the
// directory the user named, may be one. It creates root as os.MkdirAll
// does if needed.
func MkdirAll(root, dir string) error {
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s: not below %s", dir, root)
	}
	if err := os.MkdirAll(root, DirMode); err != nil {
		return err
	}
	p := root
	for _, name := range strings.Split(rel, string(filepath.Separator)) {
		if name == "." {
			continue
		}
		p = filepath.Join(p, name)
		if err := mkdir(p); err != nil {
			return err
		}
	}
	return nil
}

// mkdir makes the folder p unless it is one already.
func mkdir(p string) error {
	err := os.Mkdir(p, DirMode)
	if err == nil || !errors.Is(err, fs.ErrExist) {
		return err
	}
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return &LinkError{Path: p}
	case !fi.IsDir():
		return fmt.Errorf("%s: not a directory", p)
	}
	return nil
}
