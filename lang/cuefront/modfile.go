package cuefront

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"cuelang.org/go/cue/ast"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
	"cuelang.org/go/mod/modfile"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/input"
	"github.com/sievetool/sieve/lang/internal/spell"
)

// languageVersion is the CUE language version of the module sieve makes up
// for a spec outside any CUE module, and the one its hints suggest.
const languageVersion = "v0.17.0"

// modFile reads and checks the spec's cue.mod/module.cue, when it has one.
// cue/load reports a bad module file without a position; these
// diagnostics point at the field at fault and say how to mend it. It
// records the module path in s.module and returns the module's
// dependencies by module path ("sieve.dev/schema@v0").
func (s *source) modFile() (deps map[string]bool, _ diag.Diagnostics) {
	file := filepath.Join(s.modRoot, "cue.mod", "module.cue")
	src, err := input.ReadFile(file, input.SpecLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // sieve supplies one (see overlay)
	}
	if err != nil {
		return nil, fileDiags(s.displayName(file), "cue.mod", "cannot read the CUE module file: %s", pathErr(err))
	}
	s.files[file] = src
	mf, err := modfile.ParseNonStrict(src, file) // as cue/load reads the main module
	if err == nil {
		s.module, _, _ = strings.Cut(mf.Module, "@")
		deps = map[string]bool{}
		for m := range mf.Deps {
			deps[m] = true
		}
		return deps, nil
	}
	f, perr := parser.ParseFile(file, src)
	if perr != nil {
		return nil, s.errDiags(perr) // a syntax error has its position
	}
	var ds diag.Diagnostics
	for _, e := range cueerrors.Errors(err) {
		ds = append(ds, s.modFileDiag(f, e))
	}
	return nil, ds
}

// modFileDiag turns one module file error into a diagnostic at the field
// it is about, with a hint.
func (s *source) modFileDiag(f *ast.File, e cueerrors.Error) *diag.Diagnostic {
	msg := e.Error()
	msg = strings.TrimPrefix(msg, "invalid module file "+f.Filename+": ")
	at, hint := s.modFileCulprit(f, msg)
	r := s.rangeAt(at, at)
	if !at.IsValid() {
		r = diag.Range{Start: diag.Position{Filename: s.displayName(f.Filename), Line: 1, Column: 1}}
		r.End = r.Start
	}
	d := diag.Errorf(r, "cue.mod", "CUE module file: %s", msg)
	d.Detail = hint
	return d
}

// modFields are the top-level fields of a CUE module file.
var modFields = []string{"module", "language", "source", "deps", "custom"}

// modFileCulprit finds the field a module file error is about and the
// hint for it.
func (s *source) modFileCulprit(f *ast.File, msg string) (token.Pos, string) {
	switch {
	case strings.Contains(msg, "no language version"):
		return fieldPos(f, "module"), `add: language: version: "` + languageVersion + `"`
	case strings.Contains(msg, "not canonical") && strings.HasPrefix(msg, "language version"):
		return fieldPos(f, "language", "version"), `write a full version: "` + languageVersion + `"`
	case strings.Contains(msg, "language version"):
		return fieldPos(f, "language", "version"), `use a version the CUE in this sieve knows: "` + languageVersion + `"`
	case strings.Contains(msg, "empty module path"):
		return f.Pos(), `add: module: "example.com/NAME" (the module's path)`
	case strings.HasPrefix(msg, "cannot make version from module"):
		name := strings.SplitN(msg, `"`, 3)
		if len(name) == 3 {
			return fieldPos(f, "deps", name[1]), `a dependency is "path@vN": v: "vX.Y.Z" (as cue mod get writes it)`
		}
	}
	if field, _, ok := strings.Cut(msg, ": "); ok && !strings.Contains(field, " ") {
		if h := spell.Hint(field, modFields); h != "" {
			return fieldPos(f, field), h
		}
		return fieldPos(f, field), "the fields of a module file: https://cuelang.org/docs/reference/modules/#cue-mod-file"
	}
	return token.NoPos, "see https://cuelang.org/docs/reference/modules/#cue-mod-file"
}

// fieldPos is the position of the value of the field at path in f, or of
// the deepest field of the path that is there; NoPos when none is.
func fieldPos(f *ast.File, path ...string) token.Pos {
	pos := token.NoPos
	decls := f.Decls
	for _, name := range path {
		v := modField(decls, name)
		if v == nil {
			break
		}
		pos = v.Pos()
		decls = nil
		if st, ok := v.(*ast.StructLit); ok {
			decls = st.Elts
		}
	}
	return pos
}

// modField finds the field called name among decls and returns its
// value (a: b: c is a field whose value is a struct holding b).
func modField(decls []ast.Decl, name string) ast.Expr {
	for _, d := range decls {
		fd, ok := d.(*ast.Field)
		if !ok {
			continue
		}
		label, _, _ := ast.LabelName(fd.Label)
		if label == name {
			return fd.Value
		}
	}
	return nil
}

// sieveImports explains the imports CUE found no package for that name a
// directory of .sieve files: a CUE spec cannot import a .sieve library.
func (s *source) sieveImports(ds diag.Diagnostics) diag.Diagnostics {
	for _, d := range ds {
		_, rest, ok := strings.Cut(d.Summary, `cannot find package "`)
		if !ok {
			continue
		}
		pkg, _, _ := strings.Cut(rest, `"`)
		if dir := s.sieveLibrary(pkg); dir != "" {
			d.Summary = fmt.Sprintf("cannot import %q: %s holds .sieve files, and a CUE spec imports only CUE packages", pkg, dir)
			d.Detail = "a .sieve library is for .sieve specs: write this spec in .sieve, or the library in CUE (see docs/libraries.md)"
		}
	}
	return ds
}

// sieveLibrary is the directory of .sieve files that import path pkg
// would name, vendored or in the spec's module; "" when there is none.
func (s *source) sieveLibrary(pkg string) string {
	cands := []string{filepath.Join(s.modRoot, "cue.mod", "pkg", filepath.FromSlash(pkg))}
	if rest, ok := strings.CutPrefix(pkg, s.module+"/"); ok && s.module != "" {
		cands = append(cands, filepath.Join(s.modRoot, filepath.FromSlash(rest)))
	}
	for _, dir := range cands {
		if m, _ := filepath.Glob(filepath.Join(dir, "*.sieve")); len(m) > 0 {
			return s.displayName(dir)
		}
	}
	return ""
}
