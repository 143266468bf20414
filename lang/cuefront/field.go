package cuefront

import (
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/parser"
)

// SchemaField is a field of a CUE spec as the schema (#Spec) knows it.
type SchemaField struct {
	// Path is the field's labels from the top of the file, with "[]" for
	// an element of a list: workload, up, steps, [], settle.
	Path []string
	// Start and End are the byte offsets of the field's label.
	Start, End int
	// Doc is the schema's doc comment of the field: "" when it has none.
	Doc string
}

// FieldAt returns the field of the CUE spec src (the text of filename)
// whose label holds the byte offset off. ok is false where there is no
// label, and for a label #Spec does not know (a hidden field, a
// definition, a workload's parameter, a misspelt attribute). src need not
// parse: what precedes a syntax error is searched.
func FieldAt(filename string, src []byte, off int) (f SchemaField, ok bool) {
	defer func() {
		if recover() != nil { // the CUE evaluator is not ours (see loadSpec)
			f, ok = SchemaField{}, false
		}
	}()
	file, _ := parser.ParseFile(filename, src, parser.ParseComments)
	if file == nil {
		return SchemaField{}, false
	}
	f, ok = labelAt(file.Decls, off, nil)
	if !ok {
		return SchemaField{}, false
	}
	v, ok := schemaAt(f.Path)
	if !ok {
		return SchemaField{}, false
	}
	var docs []string
	for _, g := range v.Doc() {
		docs = append(docs, strings.TrimSpace(g.Text()))
	}
	f.Doc = strings.Join(docs, "\n\n")
	return f, true
}

// labelAt finds the field whose label holds off among decls, the
// declarations of a struct at path.
func labelAt(decls []ast.Decl, off int, path []string) (SchemaField, bool) {
	for _, d := range decls {
		switch d := d.(type) {
		case *ast.Field:
			name, ok := labelName(d.Label)
			if !ok {
				continue
			}
			p := append(append([]string(nil), path...), name)
			if start, end := d.Label.Pos().Offset(), d.Label.End().Offset(); start <= off && off < end {
				return SchemaField{Path: p, Start: start, End: end}, true
			}
			if f, ok := exprLabelAt(d.Value, off, p); ok {
				return f, true
			}
		case *ast.EmbedDecl:
			if f, ok := exprLabelAt(d.Expr, off, path); ok {
				return f, true
			}
		}
	}
	return SchemaField{}, false
}

// exprLabelAt finds the field whose label holds off in x, the value at
// path: in a struct, a list's elements, and the operands of & and |.
func exprLabelAt(x ast.Expr, off int, path []string) (SchemaField, bool) {
	if x == nil || x.Pos().IsValid() && off < x.Pos().Offset() || x.End().IsValid() && off >= x.End().Offset() {
		return SchemaField{}, false
	}
	switch x := x.(type) {
	case *ast.StructLit:
		return labelAt(x.Elts, off, path)
	case *ast.ListLit:
		for _, e := range x.Elts {
			if f, ok := exprLabelAt(e, off, append(slices.Clip(path), "[]")); ok {
				return f, true
			}
		}
	case *ast.BinaryExpr:
		if f, ok := exprLabelAt(x.X, off, path); ok {
			return f, true
		}
		return exprLabelAt(x.Y, off, path)
	case *ast.ParenExpr:
		return exprLabelAt(x.X, off, path)
	}
	return SchemaField{}, false
}

// labelName is the name of a regular field's label: ok is false for a
// hidden field, a definition and a pattern.
func labelName(l ast.Label) (string, bool) {
	switch l := l.(type) {
	case *ast.Ident:
		return l.Name, !strings.HasPrefix(l.Name, "_") && !strings.HasPrefix(l.Name, "#")
	case *ast.BasicLit:
		s, err := strconv.Unquote(l.Value)
		return s, err == nil
	}
	return "", false
}

// schemaAt is the value of #Spec at path: a field by its name, else an
// optional field or its struct's pattern ([Name=string]: T), unless that
// is any value (_); a list's element for "[]".
func schemaAt(path []string) (cue.Value, bool) {
	v := cuecontext.New().CompileString(SchemaText(), cue.Filename(schemaFile)).LookupPath(cue.MakePath(cue.Def("Spec")))
	for _, name := range path {
		sels := []cue.Selector{cue.Str(name), cue.Str(name).Optional(), cue.AnyString}
		if name == "[]" {
			sels = []cue.Selector{cue.AnyIndex}
		}
		found := false
		for i, s := range sels {
			// An open struct ({...}: parameters, a patch's body) answers
			// any optional field and its pattern with _: no field of the
			// schema's.
			if w := v.LookupPath(cue.MakePath(s)); w.Exists() && (i == 0 || w.IncompleteKind() != cue.TopKind) {
				v, found = w, true
				break
			}
		}
		if !found {
			return cue.Value{}, false
		}
	}
	return v, true
}
