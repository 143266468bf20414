package format

import (
	"strings"

	"github.com/sievetool/sieve/lang/syntax"
)

func (p *printer) declItem(d syntax.Decl) item {
	switch d := d.(type) {
	case *syntax.Import:
		return item{node: d, isImport: true, rest: func() {
			p.write("import ")
			if d.Alias != nil {
				p.write(d.Alias.Name, " ")
			}
			p.write(d.Path.Text)
		}}
	case *syntax.Controller:
		return item{node: d, rest: func() { p.write("controller ", d.Name.Name, " "); p.body(d.Body) }}
	case *syntax.Policy:
		return item{node: d, rest: func() { p.write("policy ", d.Name.Name, " "); p.body(d.Body) }}
	case *syntax.Test:
		return item{node: d, rest: func() { p.test(d) }}
	case *syntax.Workload:
		return item{node: d, rest: func() { p.workload(d) }}
	case *syntax.Mask:
		return item{node: d, rest: func() { p.mask(d) }}
	case *syntax.Invariant:
		return item{node: d, rest: func() { p.invariant(d) }}
	case *syntax.Plan:
		return item{node: d, rest: func() { p.plan(d) }}
	}
	return item{node: d, rest: func() {}}
}

func (p *printer) test(t *syntax.Test) {
	p.write("test ", t.Name.Name, " ")
	if t.Base != nil {
		p.write(": ", t.Base.String(), " ")
	}
	p.body(t.Body)
}

func (p *printer) body(b *syntax.Body) {
	items := make([]item, len(b.Attrs))
	for i, a := range b.Attrs {
		items[i] = item{node: a, head: a.Name.Name, rest: func() {
			if a.Append {
				p.write("+= ")
			}
			p.expr(a.Value)
		}}
	}
	p.braces(items, b.Range())
}

func (p *printer) workload(w *syntax.Workload) {
	p.write("workload ", w.Name.Name)
	p.params(w.Params)
	p.write(" ")
	items := make([]item, len(w.Steps))
	for i, s := range w.Steps {
		items[i] = p.stepItem(s)
	}
	p.braces(items, w.Range())
}

func (p *printer) stepItem(s syntax.Step) item {
	switch s := s.(type) {
	case *syntax.Apply:
		return item{node: s, head: "apply", rest: func() {
			p.expr(s.Source)
			if s.Set != nil {
				p.write(" set ")
				p.object(s.Set)
			}
		}}
	case *syntax.Patch:
		return item{node: s, head: "patch", rest: func() {
			p.expr(s.Target)
			if s.Type != "" {
				p.write(" ", s.Type)
			}
			p.write(" ")
			p.expr(s.Patch)
		}}
	case *syntax.Delete:
		return item{node: s, head: "delete", rest: func() { p.expr(s.Target) }}
	case *syntax.Scale:
		return item{node: s, head: "scale", rest: func() { p.expr(s.Target); p.write(" to "); p.expr(s.Replicas) }}
	case *syntax.Wait:
		return item{node: s, head: "wait", rest: func() { p.wait(s) }}
	case *syntax.Settle:
		return item{node: s, head: "settle", rest: func() {
			if s.Quiet != nil {
				p.write(s.Quiet.Text)
			}
			if s.Param != nil {
				p.write(s.Param.Name)
			}
		}}
	case *syntax.Sleep:
		return item{node: s, head: "sleep", rest: func() { p.expr(s.Duration) }}
	case *syntax.Explore:
		return item{node: s, head: "explore", rest: func() {
			p.expr(s.Seed)
			for _, c := range s.Clauses {
				p.write(" ", c.Word, " ")
				p.expr(c.Value)
			}
		}}
	}
	return item{node: s, rest: func() {}}
}

func (p *printer) wait(w *syntax.Wait) {
	if w.Until != nil {
		p.write("until ")
		p.expr(w.Until)
	} else {
		p.expr(w.Target)
		p.write(" ")
		p.waitCond(w.Cond)
	}
	if w.Within != nil {
		p.write(" within ")
		p.expr(w.Within)
	}
	if w.Else != nil {
		p.write(" else continue")
	}
}

func (p *printer) waitCond(c *syntax.WaitCond) {
	switch {
	case c.State != "":
		p.write(c.State)
	case c.Where != nil:
		p.write("where ")
		p.cond(c.Where)
	case c.Count != nil:
		p.expr(c.Count)
		p.write(" ready")
	}
}

func (p *printer) cond(c *syntax.Cond) {
	switch {
	case c.CEL != nil:
		p.write(c.CEL.Text)
	case c.Equals != nil:
		p.path(c.Path)
		p.write(" == ")
		p.expr(c.Equals)
	default:
		p.path(c.Path)
		p.write(" exists")
	}
}

func (p *printer) path(x *syntax.Path) {
	p.write(x.Head)
	for _, e := range x.Elems {
		if e.Index != "" {
			p.write("[", e.Index, "]")
		} else {
			p.write(".", e.Field)
		}
	}
}

func (p *printer) mask(m *syntax.Mask) {
	p.write("mask ", m.Name.Name, " ")
	items := make([]item, len(m.Rules))
	for i, r := range m.Rules {
		items[i] = item{node: r, rest: func() { p.maskRule(r) }}
	}
	p.braces(items, m.Range())
}

func (p *printer) maskRule(r *syntax.MaskRule) {
	if r.Target != nil {
		p.write(r.Target.Text, " ")
	}
	switch {
	case r.Key != "":
		p.write("key ", r.Key)
	case r.Path != nil:
		p.write("path ")
		p.path(r.Path)
	case r.Value != "":
		p.write("value ", r.Value)
	default:
		p.write("whole")
	}
	if r.Oracle != "" {
		p.write(" in ", r.Oracle)
	}
}

// params prints a workload's or an invariant's parameter list, if any.
func (p *printer) params(ps []*syntax.Param) {
	if len(ps) == 0 {
		return
	}
	p.write("(")
	for i, prm := range ps {
		if i > 0 {
			p.write(", ")
		}
		p.write(prm.Name.Name)
		if prm.Default != nil {
			p.write(" = ")
			p.expr(prm.Default)
		}
	}
	p.write(")")
}

func (p *printer) invariant(v *syntax.Invariant) {
	p.write("invariant ", v.Name.Name)
	p.params(v.Params)
	p.write(" ")
	if v.When != "" {
		p.write(v.When, " ")
	}
	if w := v.Between; w != nil {
		p.write("between ", stepRef(w.From), " and ", stepRef(w.To), " ")
	}
	p.write(v.CEL.Text)
}

// stepRef is a step reference as written: resize[2].
func stepRef(r *syntax.StepRef) string {
	return r.Workload.Name + "[" + r.Step.Text + "]"
}

func (p *printer) plan(pl *syntax.Plan) {
	p.write("plan ", pl.Name.Name, " ")
	items := make([]item, len(pl.Steps))
	for i, s := range pl.Steps {
		items[i] = item{node: s, rest: func() {
			if s.Trigger != nil {
				p.trigger(s.Trigger)
				p.write(": ")
			}
			p.action(s.Action)
		}}
	}
	p.braces(items, pl.Range())
}

func (p *printer) action(a syntax.Action) {
	switch a := a.(type) {
	case *syntax.Crash:
		p.write("crash")
	case *syntax.Restart:
		p.write("restart")
	case *syntax.Stale:
		p.write("stale ", a.Switch, " ")
		p.expr(a.Scope)
		if a.At != nil && a.At.Event != nil {
			p.write(" at ")
			p.triggerAtom(a.At.Event)
		}
	case *syntax.Hold:
		p.write("hold ")
		p.expr(a.Scope)
		if a.For != nil {
			p.write(" for ")
			p.expr(a.For.Duration)
		}
	case *syntax.Release:
		p.write("release ")
		p.expr(a.Scope)
	case *syntax.Pause:
		p.write("wait ")
		p.expr(a.Duration)
	case *syntax.PauseController:
		p.write("pause")
		if a.For != nil {
			p.write(" for ")
			p.expr(a.For.Duration)
		}
	case *syntax.ResumeController:
		p.write("resume")
	case *syntax.APIError:
		p.write("error ", a.Name.Name)
	case *syntax.AppFault:
		p.write("appfault ", a.Name.Name)
	}
}

func (p *printer) trigger(t *syntax.Trigger) {
	for i, e := range t.Seq {
		if i > 0 {
			p.write(" ; ")
		}
		for j, b := range e.Alts {
			if j > 0 {
				p.write(" | ")
			}
			for k, a := range b.All {
				if k > 0 {
					p.write(" & ")
				}
				p.triggerAtom(a)
			}
		}
	}
}

func (p *printer) triggerAtom(a syntax.TriggerAtom) {
	switch a := a.(type) {
	case *syntax.Group:
		p.write("(")
		p.trigger(a.Trigger)
		p.write(")")
	case *syntax.Event:
		p.write("on ", a.Verb, " ")
		p.leaf(a.Target, a.Opts, a.Where, a.Count)
	case *syntax.Write:
		p.write("after ")
		if a.Failed {
			p.write("failed ")
		}
		if a.Sent {
			p.write("sending ")
		}
		p.write("write ", a.Verb, " ")
		p.leaf(a.Target, a.Opts, a.Where, a.Count)
	case *syntax.CallLeaf:
		p.callLeaf(a)
	case *syntax.ReadLeaf:
		p.write("on read ", a.Verb, " ")
		p.leaf(a.Target, nil, nil, a.Count)
	case *syntax.Quiet:
		p.write("quiet for ")
		p.expr(a.Duration)
		p.write(" after reading ")
		p.expr(a.Target)
	case *syntax.Timeout:
		p.write("after ")
		p.expr(a.Duration)
	}
}

// callLeaf prints "on call" and what of the call the leaf names.
func (p *printer) callLeaf(a *syntax.CallLeaf) {
	p.write("on call")
	if a.Exec {
		p.write(" exec")
	}
	if a.Command != nil {
		p.write(" ")
		p.list(a.Command)
	}
	if a.Method != "" {
		p.write(" ", a.Method)
	}
	if a.Path != nil {
		p.write(" ", a.Path.Text)
	}
	if a.Standin != nil {
		p.write(" to ", a.Standin.Text)
	}
	if a.Pod != nil {
		p.write(" in ")
		p.expr(a.Pod)
	}
	if a.Changed {
		p.write(" changed")
	}
	if a.Count != nil {
		p.write(" #", a.Count.Text)
	}
}

func (p *printer) leaf(target *syntax.Expr, opts []*syntax.LeafOpt, where *syntax.Cond, count *syntax.NumberLit) {
	p.expr(target)
	for _, o := range opts {
		p.leafOpt(o)
	}
	if where != nil {
		p.write(" where ")
		p.cond(where)
	}
	if count != nil {
		p.write(" #", count.Text)
	}
}

func (p *printer) expr(e *syntax.Expr) {
	p.term(e.Left)
	for _, op := range e.Rest {
		p.write(" ", op.Op, " ")
		p.term(op.Right)
	}
}

func (p *printer) term(t *syntax.Term) {
	p.unary(t.Left)
	for _, op := range t.Rest {
		p.write(" ", op.Op, " ")
		p.unary(op.Right)
	}
}

func (p *printer) unary(u *syntax.Unary) {
	if u.Neg {
		p.write("-")
	}
	p.primary(u.Primary)
}

func (p *printer) primary(x syntax.Primary) {
	switch x := x.(type) {
	case *syntax.KeyLit:
		p.write(x.Text)
	case *syntax.DurationLit:
		p.write(x.Text)
	case *syntax.NumberLit:
		p.write(x.Text)
	case *syntax.StringLit:
		p.write(x.Text)
	case *syntax.BoolLit:
		p.write(x.Text)
	case *syntax.NullLit:
		p.write("null")
	case *syntax.List:
		p.list(x)
	case *syntax.Object:
		p.object(x)
	case *syntax.Call:
		p.call(x)
	case *syntax.Paren:
		p.write("(")
		p.expr(x.X)
		p.write(")")
	}
}

func (p *printer) call(c *syntax.Call) {
	p.write(c.Name.String())
	if !c.Parens {
		return
	}
	p.write("(")
	for i, a := range c.Args {
		if i > 0 {
			p.write(", ")
		}
		if a.Name != nil {
			p.write(a.Name.Name, " = ")
		}
		p.expr(a.Value)
	}
	p.write(")")
}

// multiline reports whether a list or object is printed one element per
// line: it spanned several lines in the source or holds a comment.
func (p *printer) multiline(n syntax.Node) bool {
	r := n.Range()
	return r.Start.Line != r.End.Line || p.pendingBefore(r.End.Offset)
}

func (p *printer) list(l *syntax.List) {
	if !p.multiline(l) {
		p.write("[")
		for i, e := range l.Elems {
			if i > 0 {
				p.write(", ")
			}
			p.expr(e)
		}
		p.write("]")
		return
	}
	items := make([]item, len(l.Elems))
	for i, e := range l.Elems {
		items[i] = item{node: e, suffix: ",", rest: func() { p.expr(e) }}
	}
	p.write("[\n")
	p.nested(items, l.Range().End)
	p.write(strings.Repeat("  ", p.indent), "]")
}

func (p *printer) object(o *syntax.Object) {
	if len(o.Fields) == 0 && !p.pendingBefore(o.EndPos.Offset) {
		p.write("{}")
		return
	}
	if !p.multiline(o) {
		p.write("{ ")
		for i, f := range o.Fields {
			if i > 0 {
				p.write(", ")
			}
			p.field(f)
		}
		p.write(" }")
		return
	}
	items := make([]item, len(o.Fields))
	for i, f := range o.Fields {
		items[i] = item{node: f, rest: func() { p.field(f) }}
	}
	p.write("{\n")
	p.nested(items, o.Range().End)
	p.write(strings.Repeat("  ", p.indent), "}")
}

func (p *printer) field(f *syntax.Field) {
	p.path(f.Key)
	p.write(": ")
	p.expr(f.Value)
}

func (p *printer) leafOpt(o *syntax.LeafOpt) {
	switch {
	case o.Subresource != nil:
		p.write(" subresource ", o.Subresource.Name)
	case o.Cluster:
		p.write(" in cluster")
	case o.Prev != nil:
		p.write(" changing ")
		p.object(o.Prev)
		p.write(" to ")
		if o.Cur != nil {
			p.object(o.Cur)
		}
	case o.Without != nil:
		p.write(" without ")
		p.object(o.Without)
	}
}
