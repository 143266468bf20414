package celenv

import (
	"slices"
	"strings"

	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
)

// Shape is what is known of a value's fields: an object whose fields are
// all known (Fields), or a list (Elem). A nil *Shape is a value nothing is
// known of (a scalar, a map, an object whose fields are open): selecting
// a field of it is never reported.
type Shape struct {
	// Fields holds every field of an object; a field whose value is not
	// known maps to nil. Nil Fields means the value is not such an object.
	Fields map[string]*Shape
	// Elem is the shape of a list's elements.
	Elem *Shape
	// List says the value is a list (of Elem).
	List bool
}

// Roots are the shapes an expression's objects start from.
type Roots struct {
	// Object is the shape of the variable object; nil when not known.
	Object *Shape
	// Kind returns the shape of objects of a kind as objects() and
	// object() name it (a string literal), or nil when not known. Kind
	// may be nil.
	Kind func(kind string) *Shape
}

// Miss is a field an expression selects that the shape of the value it
// selects from does not have.
type Miss struct {
	Kind string   // the kind whose object holds the field; "" for the variable object
	Path []string // from the object to the field, "*" for a list element
	Text string   // the selection as written, with "[*]" for an element: p.spec.replicaz
	// Known lists, sorted, the fields the value does have.
	Known        []string
	Line, Column int // of the field in the expression, 1-based
}

// typed is a subexpression's shape, with where it comes from.
type typed struct {
	shape *Shape
	kind  string
	path  []string
	text  string
}

// walker finds the misses of one expression.
type walker struct {
	roots Roots
	info  *celast.SourceInfo
	out   []Miss
}

// UnknownFields returns the fields that expr selects (outside has()
// tests) that the shapes roots give do not have, in the order they
// appear. It follows selections on the variable object, on
// objects("kind", ns) elements through macros such as filter and all, and
// on object("kind", ns, name), through list indexes and nested fields. It
// returns nil for an expression that does not parse (Compile reports
// that).
func (e *Env) UnknownFields(kind Kind, expr string, roots Roots) []Miss {
	a, iss := e.envs[kind].Parse(expr)
	if iss != nil && iss.Err() != nil {
		return nil
	}
	native := a.NativeRep()
	w := &walker{roots: roots, info: native.SourceInfo()}
	scope := map[string]typed{}
	if kind != Invariant && roots.Object != nil {
		scope["object"] = typed{shape: roots.Object, text: "object"}
	}
	w.walk(native.Expr(), scope)
	return w.out
}

// walk visits x and returns its shape when x is a selection of a known
// object.
func (w *walker) walk(x celast.Expr, scope map[string]typed) typed {
	switch x.Kind() {
	case celast.IdentKind:
		return scope[x.AsIdent()]
	case celast.SelectKind:
		return w.selectField(x, scope)
	case celast.CallKind:
		return w.call(x.AsCall(), scope)
	case celast.ComprehensionKind:
		return w.comprehension(x.AsComprehension(), scope)
	default:
		children(x, func(c celast.Expr) { w.walk(c, scope) })
	}
	return typed{}
}

// selectField checks operand.name against the operand's shape.
func (w *walker) selectField(x celast.Expr, scope map[string]typed) typed {
	sel := x.AsSelect()
	op := w.walk(sel.Operand(), scope)
	if sel.IsTestOnly() || op.shape == nil || op.shape.Fields == nil {
		return typed{}
	}
	name := sel.FieldName()
	next := typed{kind: op.kind, path: append(slices.Clip(op.path), name), text: op.text + "." + name}
	s, ok := op.shape.Fields[name]
	if !ok {
		loc := w.info.GetStartLocation(x.ID())
		w.out = append(w.out, Miss{Kind: op.kind, Path: next.path, Text: next.text, Known: known(op.shape),
			Line: max(loc.Line(), 1), Column: max(loc.Column()+2, 1)})
		return typed{}
	}
	next.shape = s
	return next
}

// known returns the sorted field names of s.
func known(s *Shape) []string {
	out := make([]string, 0, len(s.Fields))
	for f := range s.Fields {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// call visits a call; an index into a known list, objects("kind", ...)
// and object("kind", ...) have a shape.
func (w *walker) call(c celast.CallExpr, scope map[string]typed) typed {
	if c.IsMemberFunction() {
		w.walk(c.Target(), scope)
	}
	var args []typed
	for _, a := range c.Args() {
		args = append(args, w.walk(a, scope))
	}
	switch c.FunctionName() {
	case operators.Index:
		if len(args) != 2 {
			return typed{}
		}
		if l := args[0]; l.shape != nil && l.shape.List {
			return l.elem(l.text + "[*]")
		}
	case "objects", "object":
		kind, ok := literalString(c.Args())
		if !ok || w.roots.Kind == nil || c.IsMemberFunction() {
			return typed{}
		}
		s := w.roots.Kind(kind)
		if c.FunctionName() == "objects" {
			return typed{shape: &Shape{List: true, Elem: s}, kind: kind, text: "objects(...)"}
		}
		return typed{shape: s, kind: kind, text: "object(...)"}
	}
	return typed{}
}

// elem is the element of list l, written text. The elements of
// objects(...) are objects of the kind; those of a list field are at
// "*" below it.
func (l typed) elem(text string) typed {
	e := typed{shape: l.shape.Elem, kind: l.kind, text: text}
	if l.path != nil {
		e.path = append(slices.Clip(l.path), "*")
	}
	return e
}

// literalString returns the first argument when it is a string literal.
func literalString(args []celast.Expr) (string, bool) {
	if len(args) == 0 || args[0].Kind() != celast.LiteralKind {
		return "", false
	}
	s, ok := args[0].AsLiteral().(types.String)
	return strings.Clone(string(s)), ok
}

// comprehension visits a macro (filter, all, exists, map, ...): over a
// known list, its element variable has the list's element shape, and
// filter's result is a list of the same shape.
func (w *walker) comprehension(c celast.ComprehensionExpr, scope map[string]typed) typed {
	r := w.walk(c.IterRange(), scope)
	inner := make(map[string]typed, len(scope)+2)
	for k, v := range scope {
		inner[k] = v
	}
	elemVar := c.IterVar()
	inner[elemVar] = typed{}
	if c.HasIterVar2() {
		elemVar = c.IterVar2()
		inner[elemVar] = typed{}
	}
	if r.shape != nil && r.shape.List {
		inner[elemVar] = r.elem(elemVar)
	}
	w.walk(c.AccuInit(), scope)
	inner[c.AccuVar()] = typed{}
	w.walk(c.LoopCondition(), inner)
	w.walk(c.LoopStep(), inner)
	w.walk(c.Result(), inner)
	if r.shape != nil && r.shape.List && isFilter(c) {
		return r
	}
	return typed{}
}

// isFilter reports whether c is the expansion of list.filter(v, pred):
// its step appends [v] to the result when pred holds.
func isFilter(c celast.ComprehensionExpr) bool {
	step := c.LoopStep()
	if c.HasIterVar2() || step.Kind() != celast.CallKind || step.AsCall().FunctionName() != operators.Conditional {
		return false
	}
	args := step.AsCall().Args()
	if len(args) != 3 || args[1].Kind() != celast.CallKind || args[1].AsCall().FunctionName() != operators.Add {
		return false
	}
	add := args[1].AsCall().Args()
	if len(add) != 2 || add[1].Kind() != celast.ListKind {
		return false
	}
	elems := add[1].AsList().Elements()
	return len(elems) == 1 && elems[0].Kind() == celast.IdentKind && elems[0].AsIdent() == c.IterVar()
}
