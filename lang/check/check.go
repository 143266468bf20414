package check

import (
	"io/fs"
	"path/filepath"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/ir"
)

// Options says where imports come from. The zero value finds only files
// relative to the importing file.
type Options struct {
	// SearchPath lists directories searched, in order, for imports that
	// are neither std/... nor relative (./, ../, or ending in .sieve).
	SearchPath []string
	// Std is the standard library: std/NAME.sieve files. Nil makes every
	// std/... import an error.
	Std fs.FS
}

// File checks the .sieve file filename with contents src, and every file
// it imports, and lowers it to IR. It returns every diagnostic, sorted; the
// spec is nil when any of them is an error. filename is used as given in
// positions and in Spec.File.
func File(filename string, src []byte, opts Options) (*ir.Spec, diag.Diagnostics) {
	c := newChecker(filename, opts)
	root := c.loadRoot(filename, src)
	spec := &ir.Spec{Version: ir.Version, File: filepath.ToSlash(filename), Tests: []*ir.Test{}}
	// A file that did not parse is only partly there: checking it would
	// report names the parser never reached as undefined.
	if !c.hasSyntaxErrors() {
		c.checkUnits()
		spec.Tests = c.lowerTests(root)
	}
	ds := c.diags.Sort()
	if ds.HasErrors() {
		return nil, ds
	}
	return spec, ds
}

// checker holds the state of one File call.
type checker struct {
	opts    Options
	rootDir string // absolute directory of the root file
	diags   diag.Diagnostics

	units []*unit          // in load order
	byKey map[string]*unit // by location key

	cel      *celenv.Env
	celErr   error
	celCache map[celKey]error
	stats    map[string]statResult
	// manifests holds the check of each manifest and CRD file, by use
	// and path.
	manifests map[string]error
	seq       int // counts evaluated attributes, see attrOp.seq
	// explores holds what each placeholder explore step stands for
	// (expandExplores).
	explores map[*ir.Step]*explore.Use
}

func newChecker(filename string, opts Options) *checker {
	dir, err := filepath.Abs(filepath.Dir(filename))
	if err != nil {
		dir = filepath.Dir(filename)
	}
	return &checker{opts: opts, rootDir: dir, byKey: map[string]*unit{}, celCache: map[celKey]error{}, stats: map[string]statResult{}, manifests: map[string]error{}}
}

// errorf records an error at r.
func (c *checker) errorf(r diag.Range, code, format string, args ...any) *diag.Diagnostic {
	d := diag.Errorf(r, code, format, args...)
	c.diags = append(c.diags, d)
	return d
}

// warnf records a warning at r.
func (c *checker) warnf(r diag.Range, code, format string, args ...any) *diag.Diagnostic {
	d := c.errorf(r, code, format, args...)
	d.Severity = diag.Warning
	return d
}

// hint sets the detail of d when hint is not empty.
func hint(d *diag.Diagnostic, hint string) {
	if d != nil && hint != "" {
		d.Detail = hint
	}
}

// related adds a related position to d.
func related(d *diag.Diagnostic, msg string, r diag.Range) {
	d.Related = append(d.Related, diag.Related{Message: msg, Subject: r})
}

func (c *checker) hasSyntaxErrors() bool {
	for _, d := range c.diags {
		if d.Code == "syntax" || d.Code == "size" {
			return true
		}
	}
	return false
}
