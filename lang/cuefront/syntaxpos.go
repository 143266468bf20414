package cuefront

import (
	"sort"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
)

// syntaxPos is where the field at path is written in the spec's own
// files, or the longest prefix of path found there (NoPos if none). It
// places an error whose value has no position, such as a structural
// cycle, which CUE reports with a path only.
func (s *source) syntaxPos(path []string) token.Pos {
	names := make([]string, 0, len(s.files))
	for name := range s.files {
		names = append(names, name)
	}
	sort.Strings(names)
	best, bestLen := token.NoPos, 0
	for _, name := range names {
		f, err := parser.ParseFile(name, s.files[name])
		if err != nil || s.isInternal(f.Pos()) {
			continue
		}
		if n, p := findField(f.Decls, path); n > bestLen {
			best, bestLen = p, n
		}
	}
	return best
}

// findField finds path among decls and the structs they nest: how many
// of its labels it matched, and the position of the last one.
func findField(decls []ast.Decl, path []string) (int, token.Pos) {
	if len(path) == 0 {
		return 0, token.NoPos
	}
	for _, d := range decls {
		f, ok := d.(*ast.Field)
		if !ok {
			continue
		}
		if name, _, err := ast.LabelName(f.Label); err != nil || name != path[0] {
			continue
		}
		for _, st := range structs(f.Value) {
			if n, p := findField(st.Elts, path[1:]); n > 0 {
				return n + 1, p
			}
		}
		return 1, f.Pos()
	}
	return 0, token.NoPos
}

// structs are the struct literals of a field's value, within & and |.
func structs(x ast.Expr) []*ast.StructLit {
	switch x := x.(type) {
	case *ast.StructLit:
		return []*ast.StructLit{x}
	case *ast.BinaryExpr:
		return append(structs(x.X), structs(x.Y)...)
	case *ast.ParenExpr:
		return structs(x.X)
	}
	return nil
}
