package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sievetool/sieve/lang/diag"
)

// Paths are resolved once, here at the edge: every path a user gives on
// the command line or in the environment, or gets by default, is made
// absolute against the working directory before anything else sees it.
// The controller under test runs in its spec's directory and the embedded
// control plane in its own, so a relative path handed on would mean
// another file there. What sieve prints is made relative to the working
// directory again, as diagnostics are.

// absPaths makes each non-empty path absolute against the working
// directory.
func absPaths(paths ...*string) error {
	for _, p := range paths {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return fmt.Errorf("%s: %w", *p, err)
		}
		*p = abs
	}
	return nil
}

// absList makes each path of a list absolute, as absPaths does.
func absList(paths []string) error {
	for i := range paths {
		if err := absPaths(&paths[i]); err != nil {
			return err
		}
	}
	return nil
}

// relPath is how a path is printed: relative to the working directory when
// it lies below it, as it is otherwise.
func relPath(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	return diag.RelPath(path, wd)
}

// termText is message s as printed on stderr: its paths relative
// (relText) and its control characters escaped (diag.Printable), since
// errors and progress lines quote controllers' logs and values from the
// cluster.
func termText(s string) string { return diag.Printable(relText(s)) }

// relText makes the absolute paths below the working directory that a
// message names relative to it. Run-time errors and progress lines quote
// the absolute paths sieve works with (a spec position, a controller's
// log); the user reads them as they wrote them.
func relText(s string) string {
	wd, err := os.Getwd()
	if err != nil || filepath.Dir(wd) == wd {
		return s // the root directory: every absolute path is below it
	}
	prefix := wd + string(filepath.Separator)
	var b strings.Builder
	for {
		i := strings.Index(s, prefix)
		if i < 0 {
			return b.String() + s
		}
		b.WriteString(s[:i])
		if i > 0 && inPath(s[i-1]) {
			b.WriteString(prefix) // the end of a longer path, not one below wd
		}
		s = s[i+len(prefix):]
	}
}

// inPath reports whether c can be part of a path name.
func inPath(c byte) bool {
	return c == '/' || c == '.' || c == '-' || c == '_' || c == '~' ||
		'0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
