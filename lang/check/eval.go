package check

import (
	"strconv"
	"strings"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
)

// scope is where an expression is evaluated: its file and, inside a
// workload, the parameter values.
type scope struct {
	file     *file
	workload *decl             // nil outside a workload body
	params   map[string]*value // parameter values inside a workload body
}

// eval evaluates an expression. It never returns nil: problems are
// reported and yield a value of kind kUnknown, which later checks skip.
func (c *checker) eval(e *syntax.Expr, sc *scope) *value {
	if e == nil || e.Left == nil {
		return &value{kind: kUnknown, file: sc.file}
	}
	v := c.evalTerm(e.Left, sc)
	for _, op := range e.Rest {
		if op.Right == nil {
			continue
		}
		v = c.arith(op.Op, v, c.evalTerm(op.Right, sc), e.Range())
	}
	return v
}

func (c *checker) evalTerm(t *syntax.Term, sc *scope) *value {
	v := c.evalUnary(t.Left, sc)
	for _, op := range t.Rest {
		if op.Right == nil {
			continue
		}
		v = c.arith(op.Op, v, c.evalUnary(op.Right, sc), t.Range())
	}
	return v
}

func (c *checker) evalUnary(u *syntax.Unary, sc *scope) *value {
	if u == nil || u.Primary == nil {
		return &value{kind: kUnknown, file: sc.file}
	}
	v := c.evalPrimary(u.Primary, sc)
	if !u.Neg {
		return v
	}
	out := *v
	out.rng = u.Range()
	ok := true
	switch v.kind {
	case kInt:
		out.i, ok = negInt(v.i)
	case kFloat:
		out.f = -v.f
	case kDuration:
		var d int64
		d, ok = negInt(int64(v.d))
		out.d = timeDuration(d)
	case kUnknown:
	default:
		c.errorf(u.Range(), "type", "cannot negate %s", v.describe())
		out.kind = kUnknown
	}
	if !ok {
		c.errorf(u.Range(), "overflow", "%s overflow: -%s is out of range (%s)", v.kind, v.describe(), limitOf(v.kind))
		out.kind = kUnknown
	}
	return &out
}

func (c *checker) evalPrimary(p syntax.Primary, sc *scope) *value {
	v := &value{rng: p.Range(), file: sc.file}
	switch p := p.(type) {
	case *syntax.KeyLit:
		v.kind = kKey
		v.s = c.substituteKey(p.Text, p.Range(), sc.lookupParam(c, p.Range()))
	case *syntax.DurationLit:
		d, ok := c.parseDuration(p.Text, p.Range())
		v.kind, v.d = kDuration, d
		if !ok {
			v.kind = kUnknown
		}
	case *syntax.NumberLit:
		c.number(v, p.Text)
	case *syntax.StringLit:
		s, ok := c.stringLit(p)
		v.kind, v.s, v.raw, v.lit = kString, s, strings.HasPrefix(p.Text, "`"), p
		if !ok {
			v.kind = kUnknown
		}
	case *syntax.BoolLit:
		v.kind, v.b = kBool, p.Text == "true"
	case *syntax.NullLit:
		v.kind = kNull
	case *syntax.List:
		v.kind = kList
		for _, e := range p.Elems {
			v.list = append(v.list, c.eval(e, sc))
		}
	case *syntax.Object:
		v.kind = kObject
		v.fields = c.evalFields(p, sc)
	case *syntax.Call:
		return c.evalCall(p, sc)
	case *syntax.Paren:
		return c.eval(p.X, sc)
	default:
		v.kind = kUnknown
	}
	return v
}

func (c *checker) number(v *value, text string) {
	if strings.ContainsAny(text, ".eE") {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			c.errorf(v.rng, "number", "bad number %s", text)
		}
		v.kind, v.f = kFloat, f
		return
	}
	i, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		c.errorf(v.rng, "number", "number %s is out of range", text)
		v.kind = kUnknown // reported: no second error at its use
		return
	}
	v.kind, v.i = kInt, i
}

// stringLit returns the contents of a string or raw string literal.
func (c *checker) stringLit(s *syntax.StringLit) (string, bool) {
	if s == nil || s.Text == "" {
		return "", false
	}
	if strings.HasPrefix(s.Text, "`") {
		return strings.TrimSuffix(strings.TrimPrefix(s.Text, "`"), "`"), true
	}
	out, err := strconv.Unquote(s.Text)
	if err != nil {
		c.errorf(s.Range(), "string", "bad string literal %s", s.Text)
		return "", false
	}
	return out, true
}

func (c *checker) evalFields(o *syntax.Object, sc *scope) []*field {
	var out []*field
	seen := map[string]*field{}
	for _, f := range o.Fields {
		path := c.path(f.Key)
		if path == nil {
			continue
		}
		fl := &field{path: path, rng: f.Key.Range(), val: c.eval(f.Value, sc)}
		key := joinKey(path)
		if prev, dup := seen[key]; dup {
			d := c.errorf(fl.rng, "duplicate", "duplicate field %q", path)
			related(d, "first set here", prev.rng)
			continue
		}
		seen[key] = fl
		out = append(out, fl)
	}
	return out
}

// path lowers a field path from its tokens (grammar.md, "Field paths"),
// or reports a bad element and returns nil.
func (c *checker) path(p *syntax.Path) ir.Path {
	if p == nil {
		return nil
	}
	head, ok := c.fieldElem(p.Head, p.Range())
	if !ok {
		return nil
	}
	out := ir.Path{head}
	for _, e := range p.Elems {
		var el ir.PathElem
		if e.Index != "" {
			el, ok = c.indexElem(e.Index, e.Range())
		} else {
			el, ok = c.fieldElem(e.Field, e.Range())
		}
		if !ok {
			return nil
		}
		out = append(out, el)
	}
	return out
}

// fieldElem lowers a name, a quoted name or "*".
func (c *checker) fieldElem(text string, rng diag.Range) (ir.PathElem, bool) {
	if text == "*" {
		return ir.AnyElem(), true
	}
	s, ok := c.pathElem(text, rng)
	return ir.FieldElem(s), ok
}

// indexElem lowers the N or * of [N] or [*].
func (c *checker) indexElem(text string, rng diag.Range) (ir.PathElem, bool) {
	if text == "*" {
		return ir.AnyElem(), true
	}
	i, err := strconv.Atoi(text)
	if err != nil || i < 0 {
		c.errorf(rng, "path", "bad list index %s (want a whole number from 0)", text)
		return ir.PathElem{}, false
	}
	return ir.IndexElem(i), true
}

func (c *checker) pathElem(text string, rng diag.Range) (string, bool) {
	if !strings.HasPrefix(text, `"`) {
		return text, true
	}
	s, err := strconv.Unquote(text)
	if err != nil || s == "" {
		c.errorf(rng, "path", "bad path element %s", text)
		return "", false
	}
	return s, true
}

// evalCall evaluates a name or call: a parameter, a declaration (called
// with arguments or not), or a bare word left for the consumer to judge.
func (c *checker) evalCall(p *syntax.Call, sc *scope) *value {
	name := p.Name.String()
	v := &value{rng: p.Range(), file: sc.file, s: name}
	if pv, ok := sc.params[name]; ok {
		if p.Parens {
			c.errorf(p.Range(), "type", "%s is a parameter, not a workload", name)
		}
		return sc.useParam(pv, p.Range())
	}
	d := c.lookup(sc.file, name, false)
	if d == nil {
		v.kind = kWord
		if p.Parens {
			v.call = true
			v.args = c.evalArgs(p.Args, sc)
		}
		return v
	}
	v.kind, v.ref, v.call = kRef, d, p.Parens
	v.args = c.evalArgs(p.Args, sc)
	return v
}

func (c *checker) evalArgs(args []*syntax.Arg, sc *scope) []*arg {
	var out []*arg
	for _, a := range args {
		x := &arg{rng: a.Range(), val: c.eval(a.Value, sc)}
		if a.Name != nil {
			x.name = a.Name.Name
		}
		out = append(out, x)
	}
	return out
}

// useParam returns a parameter's value as used at rng. A parameter without
// a value (the body checked on its own) becomes an unknown that remembers
// which parameter it is, so its uses can give it a type.
func (sc *scope) useParam(pv *value, rng diag.Range) *value {
	if pv.kind != kUnknown && !pv.fromDefault {
		return pv
	}
	out := *pv
	out.rng = rng
	return &out
}

// lookupParam returns the parameter lookup used by ${name} in keys.
func (sc *scope) lookupParam(c *checker, rng diag.Range) func(string) (*value, bool) {
	return func(name string) (*value, bool) {
		if sc.workload == nil {
			return nil, false
		}
		if v, ok := sc.params[name]; ok {
			v.use(kString)
			return v, true
		}
		d := c.errorf(rng, "undefined", "undefined parameter ${%s} in workload %s", name, sc.workload.name)
		hint(d, spell.Hint(name, sc.paramNames()))
		return nil, true
	}
}

func (sc *scope) paramNames() []string {
	var out []string
	for n := range sc.params {
		out = append(out, n)
	}
	return out
}
