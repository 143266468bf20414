package results

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layoutFiles and layoutDirs are the names of the results directory that
// only this package may spell out: everyone else goes through Layout.
var (
	layoutFiles = []string{SummaryFile, ResultFile, PlanFile, PrunedFile, TraceFile, LearnedFile}
	layoutDirs  = []string{plansDir, referenceDir, reproduceDir, referencesDir}
)

// TestLayoutOwner fails when Go code outside this package (tests and
// testdata aside) names a file or folder of the results directory in a
// string literal used as a path: a file name as a segment of a literal,
// a folder name as a segment of a literal with a slash, as an argument
// of filepath.Join or path.Join, or compared with filepath.Base's result.
// Prose (a literal with spaces: help text, messages) may name them.
func TestLayoutOwner(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor" || strings.HasPrefix(d.Name(), ".")) && file != root {
			return filepath.SkipDir
		}
		if abs, _ := filepath.Abs(file); d.IsDir() && abs == here {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(file, ".go") || strings.HasSuffix(file, "_test.go") || filepath.Dir(file) == "." {
			return nil
		}
		for _, hit := range layoutNames(t, file) {
			t.Errorf("%s: names the results directory's %s (use results.Layout)", hit.pos, hit.name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

type layoutHit struct {
	pos  token.Position
	name string
}

// layoutNames finds the layout's names in the string literals of a Go
// file.
func layoutNames(t *testing.T, file string) []layoutHit {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	pathArgs := map[*ast.BasicLit]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if isCall(n, "filepath", "Join") || isCall(n, "path", "Join") {
				markLits(n.Args, pathArgs)
			}
		case *ast.BinaryExpr:
			if c, ok := n.X.(*ast.CallExpr); ok && isCall(c, "filepath", "Base") {
				markLits([]ast.Expr{n.Y}, pathArgs)
			}
			if c, ok := n.Y.(*ast.CallExpr); ok && isCall(c, "filepath", "Base") {
				markLits([]ast.Expr{n.X}, pathArgs)
			}
		}
		return true
	})
	var hits []layoutHit
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.BasicLit:
			if n.Kind != token.STRING || isTag(f, n) {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err != nil {
				return true
			}
			if name := layoutName(s, pathArgs[n]); name != "" {
				hits = append(hits, layoutHit{fset.Position(n.Pos()), name})
			}
		}
		return true
	})
	return hits
}

// layoutName is the layout name that literal s spells as a path, or "".
// asPath says that s is used as a path element.
func layoutName(s string, asPath bool) string {
	if strings.ContainsAny(s, " \t\n") {
		return ""
	}
	segs := strings.Split(s, "/")
	for _, seg := range segs {
		if slices.Contains(layoutFiles, seg) {
			return seg
		}
		if slices.Contains(layoutDirs, seg) && (len(segs) > 1 || asPath) {
			return seg
		}
	}
	return ""
}

func isCall(c *ast.CallExpr, pkg, fn string) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && sel.Sel.Name == fn
}

func markLits(args []ast.Expr, into map[*ast.BasicLit]bool) {
	for _, a := range args {
		if lit, ok := a.(*ast.BasicLit); ok {
			into[lit] = true
		}
	}
}

// isTag reports whether lit is a struct field's tag.
func isTag(f *ast.File, lit *ast.BasicLit) bool {
	tag := false
	ast.Inspect(f, func(n ast.Node) bool {
		if fl, ok := n.(*ast.Field); ok && fl.Tag == lit {
			tag = true
		}
		return !tag
	})
	return tag
}

// TestLayoutNames holds the checker to what it must find (the places
// that named the layout before results.Layout owned it) and to what it
// must leave alone (prose, the spec language's plans block).
func TestLayoutNames(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.go")
	src := `package x

type T struct{ Plans []int ` + "`json:\"plans\"`" + ` }

func f(root, dir, p string) {
	_ = filepath.Base(filepath.Dir(dir)) != "plans"
	_ = filepath.Join(root, "reproduce", p)
	_ = path.Join(root, "plans", p)
	_ = "plans/" + p
	_ = filepath.Join(dir, "trace.jsonl")
	_ = "summary.json"
	_ = elems(root, "plans")
	_ = "want RESULTS/plans/PLAN (see summary.json)"
}
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range layoutNames(t, file) {
		got = append(got, fmt.Sprintf("%d:%s", h.pos.Line, h.name))
	}
	want := []string{"6:plans", "7:reproduce", "8:plans", "9:plans", "10:trace.jsonl", "11:summary.json"}
	if !slices.Equal(got, want) {
		t.Errorf("found %v, want %v", got, want)
	}
}
