package celenv

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
)

// CompileParams is Compile with params declared as constants an
// expression refers to by name: an invariant's parameters. Values are in
// the IR's JSON form; a whole float64 counts as an integer, so a value
// that went through JSON keeps its type. A nil value is a parameter whose
// value is not known yet (a declaration checked on its own): it is
// declared as a variable of any type, which compiles but cannot be
// evaluated.
func (e *Env) CompileParams(kind Kind, expr string, params map[string]any) (*Program, error) {
	if len(params) == 0 {
		return e.Compile(kind, expr)
	}
	if kind < Invariant || kind > Where {
		return nil, fmt.Errorf("celenv: unknown kind %d", kind)
	}
	names := make([]string, 0, len(params))
	for n := range params {
		names = append(names, n)
	}
	sort.Strings(names)
	var opts []cel.EnvOption
	for _, n := range names {
		opts = append(opts, constant(n, params[n]))
	}
	env, err := e.envs[kind].Extend(opts...)
	if err != nil {
		return nil, fmt.Errorf("cel environment: %w", err)
	}
	return compileIn(env, kind, expr, e.budget)
}

// constant declares one parameter.
func constant(name string, v any) cel.EnvOption {
	switch x := v.(type) {
	case nil:
		return cel.Variable(name, cel.DynType)
	case string:
		return cel.Constant(name, cel.StringType, types.String(x))
	case bool:
		return cel.Constant(name, cel.BoolType, types.Bool(x))
	case int:
		return cel.Constant(name, cel.IntType, types.Int(x))
	case int64:
		return cel.Constant(name, cel.IntType, types.Int(x))
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return cel.Constant(name, cel.IntType, types.Int(int64(x)))
		}
		return cel.Constant(name, cel.DoubleType, types.Double(x))
	}
	return cel.Constant(name, cel.DynType, types.DefaultTypeAdapter.NativeToValue(v))
}

// Reserved are the names a parameter may not take, because an expression
// could not refer to it or it would hide a name the expression needs: the
// variable object, the world functions, CEL's type names and its reserved
// words.
func Reserved() []string {
	return []string{
		"object", "objects",
		"bool", "bytes", "double", "duration", "dyn", "int", "list", "map",
		"null_type", "string", "timestamp", "type", "uint",
		"true", "false", "null", "in", "as", "break", "const", "continue",
		"else", "for", "function", "if", "import", "let", "loop", "namespace",
		"package", "return", "var", "void", "while",
	}
}

// Name is an identifier an expression uses: a free one (a variable or
// parameter it refers to) or one a macro binds (the x of all(x, ...)).
type Name struct {
	Name         string
	Bound        bool
	Line, Column int // 1-based, in the expression
}

// Names returns the identifiers expr refers to and those its macros bind,
// in the order they appear; nil for an expression that does not parse.
func (e *Env) Names(kind Kind, expr string) []Name {
	a, iss := e.envs[kind].Parse(expr)
	if iss != nil && iss.Err() != nil {
		return nil
	}
	native := a.NativeRep()
	n := &namer{info: native.SourceInfo()}
	n.walk(native.Expr(), nil)
	return n.out
}

type namer struct {
	info *celast.SourceInfo
	out  []Name
}

func (n *namer) add(id int64, name string, bound bool) {
	loc := n.info.GetStartLocation(id)
	n.out = append(n.out, Name{Name: name, Bound: bound, Line: max(loc.Line(), 1), Column: max(loc.Column()+1, 1)})
}

// walk visits x; bound holds the macro variables in scope.
func (n *namer) walk(x celast.Expr, bound []string) {
	switch x.Kind() {
	case celast.IdentKind:
		if !slices.Contains(bound, x.AsIdent()) {
			n.add(x.ID(), x.AsIdent(), false)
		}
	case celast.ComprehensionKind:
		n.comprehension(x, bound)
	default:
		children(x, func(c celast.Expr) { n.walk(c, bound) })
	}
}

// comprehension visits a macro: its range in the outer scope, the rest
// with its variables bound.
func (n *namer) comprehension(x celast.Expr, bound []string) {
	c := x.AsComprehension()
	n.walk(c.IterRange(), bound)
	n.walk(c.AccuInit(), bound)
	inner := slices.Clip(bound)
	for _, v := range []string{c.IterVar(), c.IterVar2()} {
		if v != "" && !isInternal(v) {
			n.add(x.ID(), v, true)
			inner = append(inner, v)
		}
	}
	inner = append(inner, c.AccuVar())
	n.walk(c.LoopCondition(), inner)
	n.walk(c.LoopStep(), inner)
	n.walk(c.Result(), inner)
}

// isInternal reports whether a comprehension variable is one a macro
// makes up (its accumulator), not one the expression names.
func isInternal(v string) bool {
	return len(v) > 0 && (v[0] == '@' || (len(v) > 1 && v[:2] == "__"))
}
