package proctree

import (
	"errors"
	"fmt"

	"github.com/sievetool/sieve/interp/internal/owndir"
)

// ErrUnsupported is wrapped by Check's error where PID namespaces are not
// available (not Linux, not root).
var ErrUnsupported = errors.ErrUnsupported

// TempDir makes a directory for a tree to have as its TMPDIR, for the
// caller to remove once the tree's root is reaped: what the tree leaves
// in its TMPDIR goes with it. (A go run stopped by a signal, as a stand-in
// is at the end of a run, leaves its work directory there.) Those of a
// sieve killed with SIGKILL go at the next one's first start.
func TempDir() (string, error) {
	dir, err := owndir.MkdirTemp("", "sieve-tree-")
	if err != nil {
		return "", fmt.Errorf("a TMPDIR of its own: %w", err)
	}
	return dir, nil
}
