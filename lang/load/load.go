package load

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/cuefront"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/input"
	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/lint"
	"github.com/sievetool/sieve/stdlib"
)

// Options says how to load a spec. The zero value searches imports only
// next to the importing file and in the standard library.
type Options struct {
	// SearchPath lists directories searched, in order, for imports that are
	// neither std/... nor explicitly relative (see SearchPath).
	SearchPath []string
	// Includes are the directories of SearchPath named on the command line
	// (-I). A CUE spec imports through its CUE module, not the search
	// path: loading one with Includes warns that they do not apply to it.
	Includes []string
	// Kubernetes is the Kubernetes line every test runs on whatever it
	// says (the command line's --kubernetes: an older line, or
	// kinds.DefaultKubernetes), for the checks that depend on it; "" leaves
	// each test on its own.
	Kubernetes string
}

// Load reads, checks and compiles the spec file at path, or the CUE package
// in the directory path. It returns the IR (nil when there are errors) and
// every diagnostic, sorted. A directory without .cue files is an error: .sieve
// files are specs one by one.
func Load(path string, opts Options) (*ir.Spec, diag.Diagnostics) {
	spec, ds := frontEnd(path, opts)
	return withLint(path, spec, ds, opts, nil)
}

// withLint adds the checks that read beyond the spec (manifests, CRDs, the
// Kubernetes line) to what a front end found, when it found no error.
// sources are the spec files the caller holds (see lint.LintSources).
func withLint(path string, spec *ir.Spec, ds diag.Diagnostics, opts Options, sources map[string][]byte) (*ir.Spec, diag.Diagnostics) {
	if !ds.HasErrors() {
		dir := baseDir(path)
		ds = append(append(append(ds, lint.LintSources(spec, dir, sources)...), lint.UnknownKinds(spec, dir)...), lint.OlderAPIs(spec, dir, opts.Kubernetes)...).Sort()
	}
	if ds.HasErrors() {
		return nil, ds
	}
	return spec, ds
}

// baseDir is the directory that the IR's paths of the spec at path are
// relative to: the directory itself for a CUE package, else the file's.
func baseDir(path string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return path
	}
	return filepath.Dir(path)
}

// frontEnd compiles the spec at path with the front end its extension
// (or, for a directory, its .cue files) calls for.
func frontEnd(path string, opts Options) (*ir.Spec, diag.Diagnostics) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return loadDir(path, opts)
	}
	switch filepath.Ext(path) {
	case ".sieve":
		return loadSieve(path, opts)
	case ".cue":
		return loadCUE(path, opts, nil)
	}
	return nil, diag.Diagnostics{fileError(path, "unknown-file",
		"unknown spec file type: %q (want .sieve or .cue)", filepath.Ext(path))}
}

func loadSieve(path string, opts Options) (*ir.Spec, diag.Diagnostics) {
	src, err := input.ReadFile(path, input.SpecLimit)
	if err != nil {
		return nil, diag.Diagnostics{readError(path, err)}
	}
	return check.File(path, src, CheckOptions(opts))
}

// loadCUE is the CUE front end's branch. CUE has its own imports (its
// module and the embedded sieve.dev/std), so the search path does not
// apply; -I directories given for it get a warning that says so. sources
// are the spec files the caller holds, by absolute path (see
// cuefront.Options).
func loadCUE(path string, opts Options, sources map[string][]byte) (*ir.Spec, diag.Diagnostics) {
	spec, ds := cuefront.Load(path, cuefront.Options{Sources: sources})
	if len(opts.Includes) > 0 {
		w := fileError(path, "include", "-I does not apply to CUE specs: a CUE spec imports CUE packages of its module, not directories of the search path")
		w.Severity = diag.Warning
		w.Detail = "vendor a CUE library under cue.mod/pkg, or depend on it in cue.mod/module.cue; see docs/libraries.md"
		ds = append(ds, w).Sort()
	}
	return spec, ds
}

// loadDir loads the CUE package in dir through the CUE front end.
func loadDir(dir string, opts Options) (*ir.Spec, diag.Diagnostics) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, diag.Diagnostics{fileError(dir, "read", "cannot read spec directory: %s", pathErr(err))}
	}
	for _, e := range entries {
		if !e.IsDir() && filepath.Ext(e.Name()) == ".cue" {
			return loadCUE(dir, opts, nil)
		}
	}
	return nil, diag.Diagnostics{fileError(dir, "unknown-file",
		"not a CUE package: %s has no .cue files (name a .sieve file)", dir)}
}

// SearchPath builds the import search path: the -I directories in order,
// then the colon-separated directories of env (the value of SIEVE_PATH).
// Empty entries are dropped.
func SearchPath(includes []string, env string) []string {
	var out []string
	for _, d := range append(append([]string(nil), includes...), filepath.SplitList(env)...) {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

// Source returns the text of a file named in a diagnostic, from the
// embedded standard library for std/... names and from disk otherwise. It
// suits diag.RenderOptions.Source.
func Source(filename string) ([]byte, bool) {
	if strings.HasPrefix(filename, "std/") {
		if b, err := fs.ReadFile(stdlib.FS(), filename); err == nil {
			return b, true
		}
	}
	b, err := input.ReadFile(filename, input.SpecLimit)
	return b, err == nil
}

// IsSpecFile reports whether name has a spec file extension that Load
// understands (.sieve or .cue).
func IsSpecFile(name string) bool {
	ext := filepath.Ext(name)
	return ext == ".sieve" || ext == ".cue"
}

// readError is the diagnostic of a spec file that could not be read: too
// large (at 1:1, so it renders like other errors of the file) or unreadable.
func readError(path string, err error) *diag.Diagnostic {
	if errors.Is(err, input.ErrTooLarge) {
		at := diag.Position{Filename: path, Line: 1, Column: 1}
		return diag.Errorf(diag.Range{Start: at, End: at}, "size", "file too large: more than %s (the limit for spec files)", input.Size(input.SpecLimit))
	}
	return fileError(path, "read", "cannot read spec: %s", pathErr(err))
}

func fileError(path, code, format string, args ...any) *diag.Diagnostic {
	at := diag.Position{Filename: path}
	return diag.Errorf(diag.Range{Start: at, End: at}, code, format, args...)
}

// pathErr drops the path from an *fs.PathError, which the diagnostic names
// already.
func pathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// SelectTest finds the test called name in spec. When there is none it
// returns an error diagnostic naming the spec file, with the nearest test
// name as a hint, for verbs that take --test.
func SelectTest(spec *ir.Spec, name string) (*ir.Test, *diag.Diagnostic) {
	var names []string
	for _, t := range spec.Tests {
		if t.Name == name {
			return t, nil
		}
		names = append(names, t.Name)
	}
	d := fileError(spec.File, "undefined", "no test named %q in %s", name, spec.File)
	d.Detail = spell.Hint(name, names)
	if d.Detail == "" && len(names) > 0 {
		d.Detail = "tests: " + strings.Join(names, ", ")
	}
	return nil, d
}
