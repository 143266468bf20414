package check

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/input"
	"github.com/sievetool/sieve/lang/syntax"
)

// A unit is what one import brings in: one file, or every .sieve file of a
// directory. Its declarations share one namespace; tests have their own.
type unit struct {
	key     string // location key: "std:" or "disk:" and the path
	display string // for messages: the file or directory name
	files   []*file
	decls   map[string]*decl
	tests   map[string]*decl
	order   []*decl // declarations in source order, tests included
	loading bool
	// qualifier is the alias of the first import that loaded the unit; see
	// irName.
	qualifier string
}

// file is one parsed file of a unit.
type file struct {
	name    string // as used in positions
	std     bool   // in the embedded standard library
	dir     string // directory of name (slash-separated for std)
	ast     *syntax.File
	unit    *unit
	imports map[string]*imp
}

// osPath is path p, as written in f, on disk: relative to f's directory
// unless absolute.
func (f *file) osPath(p string) string {
	o := filepath.FromSlash(p)
	if !filepath.IsAbs(o) {
		o = filepath.Join(f.dir, o)
	}
	return o
}

// imp is one import statement of a file.
type imp struct {
	alias string
	node  *syntax.Import
	unit  *unit // nil when it could not be loaded
	used  bool
}

// loadRoot parses the root file and loads everything it imports.
func (c *checker) loadRoot(filename string, src []byte) *unit {
	key := "disk:" + absPath(filename)
	u := &unit{key: key, display: filename, loading: true}
	c.byKey[key] = u
	c.units = append(c.units, u)
	f := c.parse(u, filename, false, src)
	if len(f.ast.Decls) == 0 && !c.diags.HasErrors() {
		c.errorf(f.ast.Range(), "empty", "empty spec: %s has no declarations", filename)
	}
	c.finishUnit(u, []*unit{u})
	return u
}

// parse parses one file into u and declares its names.
func (c *checker) parse(u *unit, name string, std bool, src []byte) *file {
	if len(src) > input.SpecLimit {
		at := diag.Position{Filename: name, Line: 1, Column: 1}
		c.errorf(diag.Range{Start: at, End: at}, "size", "file too large: more than %s (the limit for spec files)", input.Size(input.SpecLimit))
		src = nil
	}
	ast, ds := syntax.Parse(name, src)
	c.diags = append(c.diags, ds...)
	dir := filepath.Dir(name)
	if std {
		dir = path.Dir(name)
	}
	f := &file{name: name, std: std, dir: dir, ast: ast, unit: u, imports: map[string]*imp{}}
	u.files = append(u.files, f)
	return f
}

// finishUnit declares the unit's names and loads its imports, depth first;
// stack is the chain of units being loaded, for cycle messages.
func (c *checker) finishUnit(u *unit, stack []*unit) {
	c.declare(u)
	for _, f := range u.files {
		for _, d := range f.ast.Decls {
			if im, ok := d.(*syntax.Import); ok {
				c.importDecl(f, im, stack)
			}
		}
	}
	u.loading = false
}

// importDecl resolves one import statement and records its alias.
func (c *checker) importDecl(f *file, im *syntax.Import, stack []*unit) {
	p, ok := c.stringLit(im.Path)
	if !ok {
		return
	}
	alias := importAlias(p)
	at := im.Path.Range()
	if im.Alias != nil {
		alias, at = im.Alias.Name, im.Alias.Range()
	}
	if prev, dup := f.imports[alias]; dup {
		d := c.errorf(at, "duplicate", "duplicate import name %q", alias)
		related(d, "first imported here", prev.node.Range())
		return
	}
	if d, ok := f.unit.decls[alias]; ok {
		e := c.errorf(at, "duplicate", "import name %q is also declared in this file", alias)
		related(e, alias+" is declared here", d.nameRange)
	}
	it := &imp{alias: alias, node: im}
	f.imports[alias] = it
	it.unit = c.loadImport(f, im, p, stack)
	if it.unit != nil && it.unit.qualifier == "" {
		it.unit.qualifier = alias
	}
}

// importAlias is the default import name: the last path element without
// its extension.
func importAlias(p string) string {
	base := path.Base(strings.TrimSuffix(p, "/"))
	return strings.TrimSuffix(base, path.Ext(base))
}

// loadImport finds, parses and loads the unit an import names.
func (c *checker) loadImport(f *file, im *syntax.Import, p string, stack []*unit) *unit {
	loc, ok := c.resolve(f, p)
	if !ok {
		if cue := c.findCUE(f, p); cue != "" {
			d := c.errorf(im.Path.Range(), "import", "cannot import %q: %s is CUE, and a .sieve spec imports only .sieve files", p, cue)
			hint(d, "a CUE library is for CUE specs: write this spec in CUE (sieve.dev/std has the standard library there), or the library in .sieve")
			return nil
		}
		d := c.errorf(im.Path.Range(), "import", "cannot find import %q", p)
		hint(d, c.importHint(f, p))
		return nil
	}
	if u, seen := c.byKey[loc.key]; seen {
		if u.loading {
			c.cycleError(im, u, stack)
			return nil
		}
		return u
	}
	u := &unit{key: loc.key, display: loc.display, loading: true}
	c.byKey[loc.key] = u
	c.units = append(c.units, u)
	for _, name := range loc.files {
		src, err := c.readFile(loc.std, name)
		if err != nil {
			c.errorf(im.Path.Range(), "import", "cannot read import %q: %v", p, err)
			continue
		}
		c.parse(u, name, loc.std, src)
	}
	c.finishUnit(u, append(stack, u))
	return u
}

func (c *checker) cycleError(im *syntax.Import, u *unit, stack []*unit) {
	var names []string
	start := 0
	for i, s := range stack {
		if s == u {
			start = i
		}
	}
	for _, s := range stack[start:] {
		names = append(names, s.display)
	}
	names = append(names, u.display)
	c.errorf(im.Path.Range(), "cycle", "import cycle: %s", strings.Join(names, " -> "))
}

// location is a resolved import: the files of one unit.
type location struct {
	key     string
	display string
	std     bool
	files   []string
}

// resolve finds what import path p of file f names.
func (c *checker) resolve(f *file, p string) (location, bool) {
	switch {
	case strings.HasPrefix(p, "std/"):
		return c.resolveStd(p)
	case f.std && isRelative(p):
		return c.resolveStd(path.Join(f.dir, p))
	case filepath.IsAbs(p):
		return resolveDisk(p)
	case isRelative(p):
		return resolveDisk(filepath.Join(f.dir, filepath.FromSlash(p)))
	}
	for _, dir := range c.opts.SearchPath {
		if loc, ok := resolveDisk(filepath.Join(dir, filepath.FromSlash(p))); ok {
			return loc, true
		}
	}
	return location{}, false
}

// findCUE returns the CUE file or package directory that import path p
// of file f would name if .sieve imported CUE, looked up where resolve
// looks; "" when there is none.
func (c *checker) findCUE(f *file, p string) string {
	var cands []string
	switch {
	case f.std || strings.HasPrefix(p, "std/"):
		return ""
	case filepath.IsAbs(p):
		cands = []string{p}
	case isRelative(p) || strings.HasSuffix(p, ".cue"):
		cands = []string{filepath.Join(f.dir, filepath.FromSlash(p))}
	default:
		for _, dir := range c.opts.SearchPath {
			cands = append(cands, filepath.Join(dir, filepath.FromSlash(p)))
		}
	}
	for _, cand := range cands {
		if st, err := os.Stat(cand); err == nil && !st.IsDir() && strings.HasSuffix(cand, ".cue") {
			return cand
		}
		if m, _ := filepath.Glob(filepath.Join(cand, "*.cue")); len(m) > 0 {
			return cand
		}
	}
	return ""
}

// isRelative reports whether an import path names a file relative to the
// importing file.
func isRelative(p string) bool {
	return strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || strings.HasSuffix(p, ".sieve")
}

// resolveStd finds p in the standard library: p.sieve, p itself, or the
// directory p.
func (c *checker) resolveStd(p string) (location, bool) {
	if c.opts.Std == nil {
		return location{}, false
	}
	p = path.Clean(p)
	for _, cand := range []string{p + ".sieve", p} {
		if st, err := fs.Stat(c.opts.Std, cand); err == nil && !st.IsDir() && strings.HasSuffix(cand, ".sieve") {
			return location{key: "std:" + cand, display: cand, std: true, files: []string{cand}}, true
		}
	}
	matches, _ := fs.Glob(c.opts.Std, path.Join(p, "*.sieve"))
	if len(matches) == 0 {
		return location{}, false
	}
	return location{key: "std:" + p, display: p, std: true, files: matches}, true
}

// resolveDisk finds p on disk: p.sieve, p itself, or the directory p.
func resolveDisk(p string) (location, bool) {
	for _, cand := range []string{p + ".sieve", p} {
		if st, err := os.Stat(cand); err == nil && !st.IsDir() && strings.HasSuffix(cand, ".sieve") {
			return location{key: "disk:" + absPath(cand), display: cand, files: []string{cand}}, true
		}
	}
	matches, _ := filepath.Glob(filepath.Join(p, "*.sieve"))
	if len(matches) == 0 {
		return location{}, false
	}
	sort.Strings(matches)
	return location{key: "disk:" + absPath(p), display: p, files: matches}, true
}

func (c *checker) readFile(std bool, name string) ([]byte, error) {
	if std {
		return fs.ReadFile(c.opts.Std, name)
	}
	return input.ReadFile(name, input.SpecLimit)
}

// importHint suggests the nearest standard library name for a misspelt
// std/ import, or explains where other imports are looked for.
func (c *checker) importHint(f *file, p string) string {
	if strings.HasPrefix(p, "std/") && c.opts.Std != nil {
		names, _ := fs.Glob(c.opts.Std, "std/*.sieve")
		for i, n := range names {
			names[i] = strings.TrimSuffix(n, ".sieve")
		}
		return spellHint(p, names)
	}
	if isRelative(p) || filepath.IsAbs(p) || f.std {
		return "relative imports are looked up next to the importing file"
	}
	return "looked up on the search path (-I DIR, SIEVE_PATH): " + strconv.Quote(strings.Join(c.opts.SearchPath, string(filepath.ListSeparator)))
}

func absPath(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	return a
}

// declare fills the unit's namespaces from its files, reporting duplicates.
func (c *checker) declare(u *unit) {
	u.decls, u.tests = map[string]*decl{}, map[string]*decl{}
	for _, f := range u.files {
		for _, n := range f.ast.Decls {
			d := newDecl(f, n)
			if d == nil {
				continue
			}
			table := u.decls
			if d.kind == dTest {
				table = u.tests
			}
			if prev, dup := table[d.name]; dup {
				e := c.errorf(d.nameRange, "duplicate", "duplicate %s %q", d.kind, d.name)
				related(e, "first declared here as a "+prev.kind.String(), prev.nameRange)
				continue
			}
			table[d.name] = d
			u.order = append(u.order, d)
		}
	}
}
