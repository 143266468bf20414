package check

import (
	"errors"
	"slices"
	"strings"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
)

// lowerInvariant lowers an invariant declaration on its own: its
// parameters with a default take it, the others are of any type, so the
// expression is checked once here and again with each use's arguments.
func (c *checker) lowerInvariant(d *decl) *ir.Invariant {
	n := d.node.(*syntax.Invariant)
	inv := ir.NewInvariant(c.irName(d), n.Range())
	if n.When != "" {
		inv.When = ir.When(n.When)
	}
	if n.Between != nil {
		inv.Between = c.lowerWindow(d, n)
	}
	params := c.declParams(d, n.Params)
	c.reservedParams(d, n)
	if n.CEL == nil {
		return inv
	}
	v := c.evalPrimary(n.CEL, &scope{file: d.file})
	var ok bool
	inv.Expr, ok = c.celParams(v, celenv.Invariant, "invariant "+d.name, celArgs(params))
	d.celFailed = !ok
	if ok && len(n.Params) > 0 {
		c.paramUses(d, n, v)
	}
	return inv
}

// celArgs is the parameters' values as CEL constants; nil (any type)
// for one whose value is unknown.
func celArgs(params map[string]*value) map[string]any {
	if len(params) == 0 {
		return nil
	}
	out := make(map[string]any, len(params))
	for name, v := range params {
		out[name] = v.toAny()
	}
	return out
}

// reservedParams reports parameters named like something an expression
// needs: the expression could not refer to both.
func (c *checker) reservedParams(d *decl, n *syntax.Invariant) {
	for _, p := range n.Params {
		if p.Name != nil && slices.Contains(celenv.Reserved(), p.Name.Name) {
			e := c.errorf(p.Name.Range(), "shadow", "parameter %q of invariant %s would hide CEL's %s", p.Name.Name, d.name, p.Name.Name)
			hint(e, "rename the parameter")
		}
	}
}

// paramUses warns about parameters the expression never refers to and
// reports a macro variable that hides a parameter.
func (c *checker) paramUses(d *decl, n *syntax.Invariant, v *value) {
	env, err := c.celEnv()
	if err != nil {
		return
	}
	used := map[string]bool{}
	for _, nm := range env.Names(celenv.Invariant, v.s) {
		if !nm.Bound {
			used[nm.Name] = true
			continue
		}
		if slices.Contains(paramNames(n.Params), nm.Name) {
			e := c.errorf(celRange(v, &celenv.Error{Line: nm.Line, Column: nm.Column}), "shadow",
				"invariant %s: the macro variable %s hides parameter %s", d.name, nm.Name, nm.Name)
			hint(e, "rename the variable, e.g. "+nm.Name+"_")
		}
	}
	for _, p := range n.Params {
		if p.Name != nil && !used[p.Name.Name] {
			e := c.warnf(p.Name.Range(), "unused", "parameter %q of invariant %s is not used in its expression", p.Name.Name, d.name)
			hint(e, "refer to it by name in the CEL expression, or remove it")
		}
	}
}

// invariantUse lowers one entry of a test's invariants: a reference to an
// invariant, or a call of one with arguments for its parameters.
func (c *checker) invariantUse(e *value) *ir.Invariant {
	d := c.resolveRef(e, dInvariant, "invariants")
	if d == nil {
		return nil
	}
	c.checkDecl(d)
	n := d.node.(*syntax.Invariant)
	if len(n.Params) == 0 {
		if e.call {
			c.errorf(e.rng, "args", "invariant %s takes no arguments", e.s)
		}
		inv := *d.invariant
		return &inv
	}
	params, ok := c.bindArgs(e, n.Params)
	if !ok {
		return nil
	}
	inv := *d.invariant
	inv.Args = nil
	for _, p := range n.Params {
		if p.Name == nil || params[p.Name.Name] == nil {
			continue
		}
		if !c.invariantArg(e, p.Name.Name, params[p.Name.Name]) {
			ok = false
		}
		inv.Args = append(inv.Args, ir.Arg{Name: p.Name.Name, Value: params[p.Name.Name].toAny()})
	}
	if ok && !d.celFailed {
		c.argsFit(e, &inv)
	}
	return &inv
}

// invariantArg checks that an argument is a value an expression can
// hold: a string, number, duration (its text), bool, resource key (its
// text), list or object.
func (c *checker) invariantArg(e *value, name string, v *value) bool {
	switch v.kind {
	case kRef, kWord:
		d := c.errorf(v.rng, "type", "argument %q of invariant %s: want a value, got %s", name, e.s, v.describe())
		hint(d, `a CEL constant is a string, number, duration, bool, key, list or object; quote a name: "`+v.s+`"`)
		return false
	case kNull:
		c.errorf(v.rng, "type", "argument %q of invariant %s: want a value, got null", name, e.s)
		return false
	}
	return v.kind != kUnknown
}

// argsFit compiles the invariant's expression with the arguments as
// constants: an argument of a type the expression cannot use (a number
// where object() wants a name) fails here, reported at the use.
func (c *checker) argsFit(e *value, inv *ir.Invariant) {
	env, err := c.celEnv()
	if err != nil {
		return
	}
	_, err = env.CompileParams(celenv.Invariant, inv.Expr, inv.ArgMap())
	if err == nil {
		return
	}
	msg := err.Error()
	var es celenv.Errors
	if errors.As(err, &es) && len(es) > 0 {
		msg = strings.TrimSuffix(es[0].Msg, " (in container '')")
	}
	d := c.errorf(e.rng, "type", "invariant %s: its expression does not take these arguments: %s", e.s, msg)
	hint(d, "the arguments are "+strings.TrimPrefix(inv.Label(), inv.Name))
}
