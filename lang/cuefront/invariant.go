package cuefront

import (
	"slices"

	"cuelang.org/go/cue"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

func (l *lowerer) invariant(v cue.Value) *ir.Invariant {
	i := ir.NewInvariant(str(v, "name"), l.rng(v))
	i.Expr = str(v, "expr")
	if w := str(v, "when"); w != "" {
		i.When = ir.When(w)
	}
	e, _ := field(v, "expr")
	params, hasParams := field(v, "params")
	if hasParams {
		i.Args = l.invariantArgs(params, i.Name)
	}
	l.celParams(e, celenv.Invariant, i.Expr, i.ArgMap())
	if hasParams {
		l.paramUses(params, e, i)
	}
	if b, ok := field(v, "between"); ok {
		i.Between = l.window(b, i)
	}
	return i
}

// invariantArgs lowers an invariant's params to its arguments, in the
// order they are written, and reports a parameter named like something
// the expression needs.
func (l *lowerer) invariantArgs(params cue.Value, name string) []ir.Arg {
	out := []ir.Arg{}
	for _, f := range fields(params) {
		if slices.Contains(celenv.Reserved(), f.name) {
			l.errorf(f.v, "shadow", "parameter %q of invariant %s would hide CEL's %s (rename the parameter)", f.name, name, f.name)
		}
		out = append(out, ir.Arg{Name: f.name, Value: argValue(l.value(f.v))})
	}
	return out
}

// paramUses warns about parameters the expression never refers to and
// reports a macro variable that hides one, as the .sieve checker does.
func (l *lowerer) paramUses(params, expr cue.Value, i *ir.Invariant) {
	env, err := l.celEnv()
	if err != nil {
		return
	}
	names := i.ArgMap()
	used := map[string]bool{}
	for _, n := range env.Names(celenv.Invariant, i.Expr) {
		if !n.Bound {
			used[n.Name] = true
		} else if _, ok := names[n.Name]; ok {
			l.errorf(expr, "shadow", "invariant %s: %d:%d: the macro variable %s hides parameter %s (rename the variable)", i.Name, n.Line, n.Column, n.Name, n.Name)
		}
	}
	for _, f := range fields(params) {
		if !used[f.name] {
			l.ds = append(l.ds, &diag.Diagnostic{Severity: diag.Warning, Code: "unused",
				Summary: "parameter " + f.name + " of invariant " + i.Name + " is not used in its expression",
				Detail:  "refer to it by name in the CEL expression, or remove it", Subject: ptr(l.rng(f.v))})
		}
	}
}
