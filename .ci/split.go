//go:build ignore

// Split moves some files of a package, and test data, into a new package
// (the results directory's format out of interp/report into
// interp/formats/results; the spec lints out of lang/check into lang/lint)
// and rewrites what names what moved: the package clause of the moved
// files, the names the staying files use from them (Layout becomes
// results.Layout), the selectors of every other Go file in the checkout
// (report.Layout becomes results.Layout) with its imports, old.Name in Go
// comments, Go strings and Markdown, and the relative paths in the moved
// files' string literals ("../analysis/plan/testdata/x",
// filepath.Join("..", "..")). Run it at the root of a checkout with a
// clean tree:
//
//	go run .ci/split.go
//
// It is a sibling of .ci/regroup.go, which moves whole packages. Splits
// run in order; one fails, changing nothing (the splits before it stay
// done), when a file it moves is missing, its destination exists, or it
// needs a hand first: a moved file that uses a name that stays (the new
// package would import the old one), a staying file that uses an
// unexported name that moves, a method on a type of the other side, or a
// declaration of the new package's name in the scope of a use.
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// split moves files (base names) of the package in directory from to the
// new package in directory to, named after to's last element, and the
// test data that testdata's globs match in from/testdata to to/testdata.
type split struct {
	from, to string
	files    []string
	testdata []string
}

var splits = []split{
	{from: "interp/report", to: "interp/formats/results", files: []string{
		"layout.go", "lock.go", "lock_other.go", "lock_test.go",
		"lock_unix.go", "own.go", "own_fuzz_test.go", "own_test.go",
		"owner_test.go", "phases.go", "phases_test.go", "planrun.go",
		"plans.go", "plans_test.go", "result.go", "results_test.go",
	}},
	{from: "lang/check", to: "lang/lint", files: []string{
		"kinds.go", "lines.go", "lint.go", "lint_test.go", "lintfields.go",
		"lintsets.go", "schema.go", "schema_fuzz_test.go",
	}, testdata: []string{"lint_*.txtar"}},
}

const (
	module = "github.com/sievetool/sieve/"
	self   = ".ci/split.go"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "split:", err)
		os.Exit(1)
	}
}

func run() error {
	mod, err := os.ReadFile("go.mod")
	if err != nil || !bytes.HasPrefix(mod, []byte("module "+strings.TrimSuffix(module, "/")+"\n")) {
		return fmt.Errorf("not at the root of the sieve repository (run it where go.mod is)")
	}
	for _, s := range splits {
		files, err := tracked()
		if err != nil {
			return err
		}
		if err := s.do(files); err != nil {
			return fmt.Errorf("%s -> %s: %w", s.from, s.to, err)
		}
	}
	return nil
}

// do runs one split: it plans every edit, fails if any is impossible,
// then writes, moves and formats.
func (s split) do(files []string) error {
	if _, err := os.Stat(s.to); err == nil {
		return fmt.Errorf("%s: exists already", s.to)
	}
	e := &editor{fset: token.NewFileSet(), src: map[string][]byte{}, files: map[string]*ast.File{}, edits: map[string][]edit{}}
	pkg, err := e.parseDir(s.from)
	if err != nil {
		return err
	}
	moving, err := s.moving(pkg)
	if err != nil {
		return err
	}
	moved, problems, err := e.plan(s, pkg, moving, files)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("needs a hand first:\n\t%s", strings.Join(problems, "\n\t"))
	}
	e.comments(files, path.Base(s.from), path.Base(s.to), moved)
	return e.write(s, moving)
}

// moving is the set of files that move, by path; it fails when one of
// them, or the test data, is missing.
func (s split) moving(pkg map[string]*ast.File) (map[string]bool, error) {
	moving := map[string]bool{}
	for _, f := range s.files {
		p := s.from + "/" + f
		if pkg[p] == nil {
			return nil, fmt.Errorf("%s: missing (was it moved or renamed? update splits)", p)
		}
		moving[p] = true
	}
	_, err := s.data()
	return moving, err
}

// plan plans the edits of the package's files (pkg) and of every other
// Go file of the checkout, and returns the names that move and what
// stops the split.
func (e *editor) plan(s split, pkg map[string]*ast.File, moving map[string]bool, files []string) (moved map[string]bool, problems []string, err error) {
	oldName, newName := path.Base(s.from), path.Base(s.to)
	moved, stays := map[string]bool{}, map[string]bool{}
	for p, f := range pkg {
		switch {
		case f.Name.Name != oldName:
		case moving[p]:
			declare(f, moved)
		default:
			declare(f, stays)
		}
	}
	for _, p := range sortedKeys(pkg) {
		f := pkg[p]
		switch {
		case moving[p] && f.Name.Name == oldName+"_test":
			e.add(p, f.Name.Pos(), f.Name.End(), newName+"_test")
			e.relative(p, f, s)
		case f.Name.Name != oldName:
			// an external test: an importer like any other
		case moving[p]:
			problems = append(problems, e.moveFile(p, f, newName, stays, moved, s)...)
		default:
			problems = append(problems, e.stayFile(p, f, newName, moved, s)...)
		}
	}
	for _, p := range files {
		f := pkg[p]
		if !strings.HasSuffix(p, ".go") || (f != nil && f.Name.Name == oldName) {
			continue
		}
		if f == nil {
			if f, err = e.parse(p); err != nil {
				return nil, nil, err
			}
		}
		problems = append(problems, e.importer(p, f, oldName, newName, moved, s)...)
	}
	return moved, problems, nil
}

// data is the test data that moves.
func (s split) data() ([]string, error) {
	var out []string
	for _, g := range s.testdata {
		m, err := filepath.Glob(s.from + "/testdata/" + g)
		if err != nil || len(m) == 0 {
			return nil, fmt.Errorf("%s/testdata/%s: matches nothing (update splits)", s.from, g)
		}
		out = append(out, m...)
	}
	return out, nil
}

type edit struct {
	at, end int
	text    string
}

// editor plans edits as byte ranges of files, by path.
type editor struct {
	fset  *token.FileSet
	src   map[string][]byte
	files map[string]*ast.File
	edits map[string][]edit
}

func (e *editor) parse(p string) (*ast.File, error) {
	src, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	e.src[p] = src
	f, err := parser.ParseFile(e.fset, p, src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	e.files[p] = f
	return f, nil
}

func (e *editor) parseDir(dir string) (map[string]*ast.File, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]*ast.File{}
	for _, d := range ents {
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".go") {
			p := dir + "/" + d.Name()
			if out[p], err = e.parse(p); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func (e *editor) off(p token.Pos) int { return e.fset.Position(p).Offset }

func (e *editor) add(file string, from, to token.Pos, text string) {
	e.edits[file] = append(e.edits[file], edit{e.off(from), e.off(to), text})
}

func (e *editor) where(p token.Pos) string { return e.fset.Position(p).String() }

// declare adds the package-level names that f declares to names.
func declare(f *ast.File, names map[string]bool) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					names[sp.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						names[n.Name] = true
					}
				}
			}
		}
	}
	delete(names, "_")
}

// methodsOn reports methods of f whose receiver type is in names.
func (e *editor) methodsOn(f *ast.File, names map[string]bool) []string {
	var out []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
			t := fd.Recv.List[0].Type
			if st, ok := t.(*ast.StarExpr); ok {
				t = st.X
			}
			if id, ok := t.(*ast.Ident); ok && names[id.Name] {
				out = append(out, fmt.Sprintf("%s: method %s on %s, which is on the other side", e.where(fd.Pos()), fd.Name.Name, id.Name))
			}
		}
	}
	return out
}

// unresolved is every identifier of f that names something declared in
// another file of its package: the parser's unresolved identifiers, and
// the keys of map literals, which it leaves alone.
func unresolved(f *ast.File) []*ast.Ident {
	out := append([]*ast.Ident(nil), f.Unresolved...)
	ast.Inspect(f, func(n ast.Node) bool {
		if cl, ok := n.(*ast.CompositeLit); ok {
			if _, isMap := cl.Type.(*ast.MapType); isMap {
				for _, el := range cl.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok && id.Obj == nil {
							out = append(out, id)
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// moveFile renames f's package and its climbing relative paths; the
// names it uses must all move with it.
func (e *editor) moveFile(p string, f *ast.File, newName string, stays, moved map[string]bool, s split) []string {
	problems := e.methodsOn(f, stays)
	for _, id := range unresolved(f) {
		if stays[id.Name] && !moved[id.Name] {
			problems = append(problems, fmt.Sprintf("%s: %s stays in %s (move it too, or pass it in)", e.where(id.Pos()), id.Name, s.from))
		}
	}
	e.add(p, f.Name.Pos(), f.Name.End(), newName)
	e.relative(p, f, s)
	return problems
}

// stayFile qualifies the moved names that f uses.
func (e *editor) stayFile(p string, f *ast.File, newName string, moved map[string]bool, s split) []string {
	problems := e.methodsOn(f, moved)
	var uses []token.Pos
	for _, id := range unresolved(f) {
		if !moved[id.Name] {
			continue
		}
		if !ast.IsExported(id.Name) {
			problems = append(problems, fmt.Sprintf("%s: %s moves to %s unexported (export it, or keep it here)", e.where(id.Pos()), id.Name, s.to))
			continue
		}
		e.add(p, id.Pos(), id.Pos(), newName+".")
		uses = append(uses, id.Pos())
	}
	if len(uses) > 0 {
		problems = append(problems, e.conflict(f, newName, uses)...)
		e.addImport(p, f, module+s.to)
	}
	return problems
}

// importer rewrites old.Name to new.Name in a file that imports the old
// package, for the names that moved, and its imports to match.
func (e *editor) importer(p string, f *ast.File, oldName, newName string, moved map[string]bool, s split) []string {
	var imp *ast.ImportSpec
	for _, is := range f.Imports {
		if v, _ := strconv.Unquote(is.Path.Value); v == module+s.from {
			imp = is
		}
	}
	if imp == nil {
		return nil
	}
	local := oldName
	if imp.Name != nil {
		local = imp.Name.Name
	}
	var movedUses []token.Pos
	stayingUses := 0
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == local && x.Obj == nil {
			if moved[sel.Sel.Name] {
				e.add(p, x.Pos(), x.End(), newName)
				movedUses = append(movedUses, x.Pos())
			} else {
				stayingUses++
			}
		}
		return true
	})
	if len(movedUses) == 0 {
		return nil
	}
	problems := e.conflict(f, newName, movedUses)
	if stayingUses == 0 {
		start := imp.Pos()
		if imp.Name != nil && imp.Name.Name != "_" {
			start = imp.Name.Pos()
		}
		e.add(p, start, imp.End(), strconv.Quote(module+s.to))
	} else {
		e.addImport(p, f, module+s.to)
	}
	return problems
}

// conflict reports where a name that f declares would hide the new
// package from a use that now names it (at, the uses' positions), and an
// import of that name.
func (e *editor) conflict(f *ast.File, name string, at []token.Pos) []string {
	var out []string
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, ok := n.(*ast.Ident)
		if ok && id.Name == name && id.Obj != nil && id.Obj.Pos() == id.Pos() {
			from, to := scope(stack)
			for _, p := range at {
				if from <= p && p < to {
					out = append(out, fmt.Sprintf("%s: declares %s, the new package's name, where %s uses it (rename it)", e.where(id.Pos()), name, e.where(p)))
					break
				}
			}
		}
		return true
	})
	for _, is := range f.Imports {
		v, _ := strconv.Unquote(is.Path.Value)
		if (is.Name != nil && is.Name.Name == name) || (is.Name == nil && path.Base(v) == name) {
			out = append(out, fmt.Sprintf("%s: imports %s already (rename it)", e.where(is.Pos()), name))
		}
	}
	return out
}

// scope is the stretch of source where the identifier at the end of path
// (from the file down) is in scope, by Go's rules: from the end of its
// declaring spec or statement to the end of the innermost block (a
// function's body for its parameters); the whole file at the top level.
func scope(path []ast.Node) (from, to token.Pos) {
	id := path[len(path)-1]
	from = id.End()
	for i := len(path) - 2; i >= 0; i-- {
		switch n := path[i].(type) {
		case *ast.ValueSpec, *ast.AssignStmt:
			if from == id.End() {
				from = n.End()
			}
		case *ast.FuncType:
			if i > 0 {
				switch fn := path[i-1].(type) {
				case *ast.FuncDecl:
					return fn.Body.Pos(), fn.Body.End()
				case *ast.FuncLit:
					return fn.Body.Pos(), fn.Body.End()
				}
			}
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.IfStmt, *ast.ForStmt,
			*ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
			return from, n.End()
		case *ast.File:
			return n.Pos(), n.End()
		}
	}
	return from, from
}

// addImport adds imp to f's imports, beside the module's own when it has
// some (gofmt sorts them), else as a group of its own.
func (e *editor) addImport(p string, f *ast.File, imp string) {
	q := strconv.Quote(imp)
	var last, lastOwn *ast.ImportSpec
	for _, is := range f.Imports {
		last = is
		if strings.HasPrefix(is.Path.Value, `"`+module) {
			lastOwn = is
		}
	}
	switch {
	case lastOwn != nil:
		e.add(p, lastOwn.End(), lastOwn.End(), "\n\t"+q)
	case last != nil && hasParens(f):
		e.add(p, last.End(), last.End(), "\n\n\t"+q)
	case last != nil:
		gd := f.Decls[0].(*ast.GenDecl)
		e.add(p, gd.Pos(), gd.End(), "import (\n\t"+string(e.src[p][e.off(last.Pos()):e.off(last.End())])+"\n\n\t"+q+"\n)")
	default:
		e.add(p, f.Name.End(), f.Name.End(), "\n\nimport "+q)
	}
}

func hasParens(f *ast.File) bool {
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			return gd.Lparen.IsValid()
		}
	}
	return false
}

// relative rewrites, in a moved file, the string literals that climb out
// of its directory ("../x", filepath.Join("..", "x")) to name the same
// place from the new directory.
func (e *editor) relative(p string, f *ast.File, s split) {
	done := map[*ast.BasicLit]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isJoin(call) || len(call.Args) == 0 {
			return true
		}
		var elems []string
		for _, a := range call.Args {
			lit, ok := a.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				break
			}
			v, _ := strconv.Unquote(lit.Value)
			elems = append(elems, v)
			done[lit] = true
		}
		if len(elems) == 0 || elems[0] != ".." {
			return true
		}
		if rel, ok := remap(s, path.Join(elems...)); ok {
			var quoted []string
			for _, el := range strings.Split(rel, "/") {
				quoted = append(quoted, strconv.Quote(el))
			}
			e.add(p, call.Args[0].Pos(), call.Args[len(elems)-1].End(), strings.Join(quoted, ", "))
		}
		return true
	})
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING || done[lit] {
			return true
		}
		if v, _ := strconv.Unquote(lit.Value); strings.HasPrefix(v, "../") {
			if rel, ok := remap(s, v); ok {
				e.add(p, lit.Pos(), lit.End(), strconv.Quote(rel))
			}
		}
		return true
	})
}

func isJoin(c *ast.CallExpr) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Join" {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && (x.Name == "filepath" || x.Name == "path")
}

// remap returns rel, relative to s.from, relative to s.to instead, when
// it names something that exists.
func remap(s split, rel string) (string, bool) {
	target := path.Join(s.from, rel)
	if strings.HasPrefix(target, "..") {
		target = path.Clean(target)
	}
	if _, err := os.Stat(target); err != nil && target != "." {
		return "", false
	}
	return relPath(s.to, target), true
}

// relPath is the slash path from directory from to to.
func relPath(from, to string) string {
	f, t := splitPath(from), splitPath(to)
	i := 0
	for i < len(f) && i < len(t) && f[i] == t[i] {
		i++
	}
	var parts []string
	for range f[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, t[i:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

func splitPath(p string) []string {
	if p == "." || p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// comments rewrites old.Name to new.Name, for the exported names that
// moved, in the comments and string literals of the parsed Go files (the
// package's own files, and those that import it) and in Markdown files.
func (e *editor) comments(files []string, oldName, newName string, moved map[string]bool) {
	var names []string
	for n := range moved {
		if ast.IsExported(n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return
	}
	re := regexp.MustCompile(`\b` + oldName + `\.(` + strings.Join(names, "|") + `)\b`)
	for _, p := range files {
		if strings.HasSuffix(p, ".md") {
			e.src[p], _ = os.ReadFile(p)
			for _, m := range re.FindAllIndex(e.src[p], -1) {
				e.edits[p] = append(e.edits[p], edit{m[0], m[0] + len(oldName), newName})
			}
		}
	}
	for p, f := range e.files {
		rewrite := func(pos token.Pos, text string) {
			at := e.off(pos)
			for _, m := range re.FindAllStringIndex(text, -1) {
				e.edits[p] = append(e.edits[p], edit{at + m[0], at + m[0] + len(oldName), newName})
			}
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				rewrite(c.Pos(), c.Text)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				rewrite(lit.Pos(), lit.Value)
			}
			return true
		})
	}
}

// write applies the edits, moves the moved files and formats what changed.
func (e *editor) write(s split, moving map[string]bool) error {
	var changed []string
	for _, p := range sortedKeys(e.edits) {
		out, err := apply(e.src[p], e.edits[p])
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if err := os.WriteFile(p, out, 0o644); err != nil {
			return err
		}
		if moving[p] {
			p = s.to + "/" + path.Base(p)
		}
		if strings.HasSuffix(p, ".go") {
			changed = append(changed, p)
		}
	}
	if err := os.MkdirAll(s.to, 0o755); err != nil {
		return err
	}
	data, err := s.data()
	if err != nil {
		return err
	}
	if len(data) > 0 {
		if err := os.MkdirAll(s.to+"/testdata", 0o755); err != nil {
			return err
		}
	}
	for _, p := range append(sortedKeys(moving), data...) {
		if err := git("mv", p, strings.Replace(p, s.from+"/", s.to+"/", 1)); err != nil {
			return err
		}
	}
	// Import blocks are sorted by path, which changed.
	cmd := exec.Command("gofmt", append([]string{"-w"}, changed...)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("gofmt: %w", err)
	}
	fmt.Printf("split: moved %d files from %s to %s, rewrote %d files\n", len(moving), s.from, s.to, len(e.edits))
	return nil
}

// apply makes the edits to src, last first.
func apply(src []byte, edits []edit) ([]byte, error) {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].at > edits[j].at })
	out := append([]byte(nil), src...)
	end := len(src)
	for _, ed := range edits {
		if ed.end > end {
			return nil, fmt.Errorf("overlapping edits at byte %d", ed.at)
		}
		out = append(out[:ed.at], append([]byte(ed.text), out[ed.end:]...)...)
		end = ed.at
	}
	return out, nil
}

func tracked() ([]string, error) {
	out, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w", err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" && f != self {
			if st, err := os.Lstat(f); err == nil && st.Mode().IsRegular() {
				files = append(files, f)
			}
		}
	}
	return files, nil
}

func git(args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
