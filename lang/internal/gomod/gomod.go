// Package gomod tells whether the directory a spec builds a controller
// from (`build "./controller"`) is part of a Go module, so that both
// front ends warn of a missing go.mod at the spec's line before a run
// starts, where go build would refuse it. A warning, not an error: a run
// given the controller's binary (--controller-binary, as a campaign's
// workers are) does not build it.
package gomod

import (
	"fmt"
	"os"
	"path/filepath"
)

// Check returns an error when no go.mod in dir or a directory above it
// makes dir, an existing directory, part of a Go module. written is dir
// as the spec wrote it. A dir that is not there is another error's.
func Check(dir, written string) error {
	d, err := filepath.Abs(dir)
	if st, serr := os.Stat(d); err != nil || serr != nil || !st.IsDir() {
		return nil
	}
	for ; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return nil
		}
		if filepath.Dir(d) == d {
			return fmt.Errorf("build: %s is in no Go module (no go.mod in it or above it), so a run cannot build it (run go mod init in the controller's module root, or give the run its binary with --controller-binary)", written)
		}
	}
}
