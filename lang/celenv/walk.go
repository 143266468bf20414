package celenv

import celast "github.com/google/cel-go/common/ast"

// children calls f on each expression directly below x, in source order,
// for every kind but a comprehension, whose parts a walker visits in
// scopes of its own. It is the one recursion over CEL's syntax tree that
// the walkers (Names, UnknownFields) share; each handles the kinds it
// gives a meaning to and leaves the others here.
func children(x celast.Expr, f func(celast.Expr)) {
	switch x.Kind() {
	case celast.SelectKind:
		f(x.AsSelect().Operand())
	case celast.CallKind:
		c := x.AsCall()
		if c.IsMemberFunction() {
			f(c.Target())
		}
		for _, a := range c.Args() {
			f(a)
		}
	case celast.ListKind:
		for _, e := range x.AsList().Elements() {
			f(e)
		}
	case celast.MapKind:
		for _, e := range x.AsMap().Entries() {
			f(e.AsMapEntry().Key())
			f(e.AsMapEntry().Value())
		}
	case celast.StructKind:
		for _, e := range x.AsStruct().Fields() {
			f(e.AsStructField().Value())
		}
	}
}
