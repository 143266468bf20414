package ir

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pathFuncName matches the names that field-path parsers and formatters
// have had outside this package (mask.ParsePath, mask.FormatPath,
// the old ir.SplitPath, ir.JoinPath, cuefront.parsePath, mask.quotedSegment ...).
var pathFuncName = regexp.MustCompile(`(?i)^(parse|format|split|join|quote|unquote|read|write)(field)?(path|pathelems?|segments?)$|^(path|quoted|bracket)segment$`)

// notFieldPaths are functions whose names match pathFuncName but that
// handle some other kind of path, with the reason.
var notFieldPaths = map[string]string{
	"interp/run/proxy/request.go parsePath": "an API server URL path, not a field path",
	"interp/run/proxy/request.go splitPath": "an API server URL path, not a field path",
	"interp/run/proxy/handler.go joinPath":  "an API server URL path, not a field path",
}

// TestOnlyIRDefinesFieldPaths fails if a package other than lang/ir
// defines its own field-path parser or formatter again: every Go file of
// the module is parsed and its function names are checked. Use ir.Path
// (ParsePath, ParsePattern, String, Matches, Lookup) instead.
func TestOnlyIRDefinesFieldPaths(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found from lang/ir: %v", err)
	}
	files := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == "testdata" || (strings.HasPrefix(d.Name(), ".") && rel != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasPrefix(rel, "lang/ir/") {
			return nil
		}
		files++
		for _, name := range pathFuncs(t, p) {
			if _, ok := notFieldPaths[rel+" "+name]; !ok {
				t.Errorf("%s: func %s looks like a field-path parser or formatter; use ir.Path (lang/ir/path.go) instead", rel, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read only %d Go files under %s; the walk is broken", files, root)
	}
}

// pathFuncs returns the names of the functions and methods in a Go file
// that match pathFuncName.
func pathFuncs(t *testing.T, file string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var out []string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && pathFuncName.MatchString(fn.Name.Name) {
			out = append(out, fn.Name.Name)
		}
	}
	return out
}

// TestPathFuncNamePattern holds the pattern to the names it must catch.
func TestPathFuncNamePattern(t *testing.T) {
	for _, n := range []string{"ParsePath", "FormatPath", "SplitPath", "JoinPath", "parsePath", "formatPath",
		"quotedSegment", "bracketSegment", "pathSegment", "ParseFieldPath", "splitSegments"} {
		if !pathFuncName.MatchString(n) {
			t.Errorf("pathFuncName misses %s", n)
		}
	}
	for _, n := range []string{"path", "pathElem", "OSPath", "absPath", "buildPath", "filePath"} {
		if pathFuncName.MatchString(n) {
			t.Errorf("pathFuncName matches %s, which is no field-path parser", n)
		}
	}
}
