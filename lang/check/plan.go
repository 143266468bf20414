package check

import (
	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
)

func (c *checker) lowerPlan(d *decl) *ir.Plan {
	n := d.node.(*syntax.Plan)
	p := &ir.Plan{Name: c.irName(d), Src: n.Range(), Actions: []*ir.Action{}}
	sc := &scope{file: d.file}
	for _, s := range n.Steps {
		if a := c.action(s, sc); a != nil {
			p.Actions = append(p.Actions, a)
		}
	}
	if len(n.Steps) == 0 {
		c.errorf(n.Name.Range(), "plan", "plan %s has no steps", d.name)
	}
	for _, pr := range ir.PauseProblems(p.Actions) {
		c.errorf(p.Actions[pr.Action].Src, "plan", "%s", pr.Msg)
	}
	for _, pr := range ir.StaleProblems(p.Actions) {
		c.errorf(pr.Src, "plan", "%s", pr.Msg)
	}
	return p
}

func (c *checker) action(s *syntax.PlanStep, sc *scope) *ir.Action {
	a := &ir.Action{Src: s.Range()}
	switch n := s.Action.(type) {
	case *syntax.Crash:
		a.Kind = ir.ActCrash
	case *syntax.Restart:
		a.Kind = ir.ActRestart
	case *syntax.Stale:
		a.Kind = ir.ActStaleOn
		if n.Switch == "off" {
			a.Kind = ir.ActStaleOff
		}
		a.Scope = c.toRef(c.eval(n.Scope, sc), keyGlob, "stale")
		a.At = c.staleAt(n, sc)
	case *syntax.Hold:
		a.Kind, a.Scope = ir.ActHold, c.toRef(c.eval(n.Scope, sc), keyGlob, "hold")
		if n.For != nil {
			a.Duration = c.toDuration(c.eval(n.For.Duration, sc), "hold ... for", true)
		}
	case *syntax.Release:
		a.Kind, a.Scope = ir.ActRelease, c.toRef(c.eval(n.Scope, sc), keyGlob, "release")
	case *syntax.Pause:
		a.Kind, a.Duration = ir.ActWait, c.toDuration(c.eval(n.Duration, sc), "wait", true)
	case *syntax.PauseController:
		a.Kind = ir.ActPause
		if n.For != nil {
			a.Duration = c.toDuration(c.eval(n.For.Duration, sc), "pause ... for", true)
		}
	case *syntax.ResumeController:
		a.Kind = ir.ActResume
	case *syntax.APIError:
		a.Kind, a.Error = ir.ActError, ir.APIErrorKind(c.answerName(n.Name, "api error", ir.APIErrorNames()))
	case *syntax.AppFault:
		a.Kind, a.AppFault = ir.ActAppFault, ir.AppFaultKind(c.answerName(n.Name, "app fault", ir.AppFaultNames()))
	default:
		return nil
	}
	if s.Trigger != nil {
		a.Trigger = c.trigger(s.Trigger, sc)
	}
	c.answerTrigger(a)
	return a
}

// staleAt lowers the event of "stale on KEY at EVENT"; "stale off" takes
// none.
func (c *checker) staleAt(n *syntax.Stale, sc *scope) *ir.Trigger {
	if n.At == nil || n.At.Event == nil {
		return nil
	}
	if n.Switch == "off" {
		c.errorf(n.At.Range(), "plan", "stale off: at names the revision a view is frozen at (write it on stale on)")
		return nil
	}
	return c.triggerAtom(n.At.Event, sc)
}

// trigger lowers A ; B ; ... (then), A | B (any), A & B (all); a single
// operand is the operand itself.
func (c *checker) trigger(t *syntax.Trigger, sc *scope) *ir.Trigger {
	var args []*ir.Trigger
	for _, e := range t.Seq {
		args = append(args, c.either(e, sc))
	}
	return combine(ir.TrigSeq, t.Range(), args)
}

func (c *checker) either(e *syntax.Either, sc *scope) *ir.Trigger {
	var args []*ir.Trigger
	for _, b := range e.Alts {
		args = append(args, c.both(b, sc))
	}
	return combine(ir.TrigAny, e.Range(), args)
}

func (c *checker) both(b *syntax.Both, sc *scope) *ir.Trigger {
	var args []*ir.Trigger
	for _, a := range b.All {
		args = append(args, c.triggerAtom(a, sc))
	}
	return combine(ir.TrigAll, b.Range(), args)
}

func combine(op ir.TriggerOp, rng diag.Range, args []*ir.Trigger) *ir.Trigger {
	if len(args) == 1 {
		return args[0]
	}
	return &ir.Trigger{Op: op, Src: rng, Args: args}
}

func (c *checker) triggerAtom(a syntax.TriggerAtom, sc *scope) *ir.Trigger {
	switch a := a.(type) {
	case *syntax.Group:
		return c.trigger(a.Trigger, sc)
	case *syntax.Event:
		t := c.leaf(ir.TrigEvent, a.Verb, a.Target, a.Where, a.Count, a.Range(), sc)
		c.leafOpts(t, a.Opts, sc)
		return t
	case *syntax.Write:
		t := c.leaf(ir.TrigWrite, a.Verb, a.Target, a.Where, a.Count, a.Range(), sc)
		t.Failed, t.Sent = a.Failed, a.Sent
		c.leafOpts(t, a.Opts, sc)
		return t
	case *syntax.CallLeaf:
		return c.callLeaf(a, sc)
	case *syntax.ReadLeaf:
		return c.leaf(ir.TrigRead, a.Verb, a.Target, nil, a.Count, a.Range(), sc)
	case *syntax.Quiet:
		return &ir.Trigger{Op: ir.TrigQuiet, Src: a.Range(), Target: c.toRef(c.eval(a.Target, sc), keyGlob, "quiet trigger"),
			Duration: c.toDuration(c.eval(a.Duration, sc), "quiet for", true)}
	case *syntax.Timeout:
		return &ir.Trigger{Op: ir.TrigTimeout, Src: a.Range(), Duration: c.toDuration(c.eval(a.Duration, sc), "after", true)}
	}
	return nil
}

func (c *checker) leaf(op ir.TriggerOp, verb string, target *syntax.Expr, where *syntax.Cond, count *syntax.NumberLit, rng diag.Range, sc *scope) *ir.Trigger {
	t := &ir.Trigger{Op: op, Src: rng, On: verb, Count: 1}
	t.Target = c.toRef(c.eval(target, sc), keyGlob, string(op)+" trigger")
	if where != nil {
		t.Where = c.cond(where, sc, celenv.Where)
	}
	if count != nil {
		t.Count = c.occurrence(count, sc)
	}
	return t
}

// occurrence lowers the "#N" of a leaf.
func (c *checker) occurrence(count *syntax.NumberLit, sc *scope) int {
	v := &value{rng: count.Range(), file: sc.file}
	c.number(v, count.Text)
	n, _ := c.integer(v, "occurrence #N", 1)
	return int(n)
}

// leafOpts lowers the options that narrow a leaf to one change; each may
// be given once, and "in cluster" only on an event.
func (c *checker) leafOpts(t *ir.Trigger, opts []*syntax.LeafOpt, sc *scope) {
	seen := map[string]bool{}
	for _, o := range opts {
		name := leafOptName(o)
		if seen[name] {
			c.errorf(o.Range(), "duplicate", "%s trigger: %s given twice", t.Op, name)
			continue
		}
		seen[name] = true
		switch {
		case o.Subresource != nil:
			t.Subresource = o.Subresource.Name
		case o.Cluster && t.Op != ir.TrigEvent:
			c.errorf(o.Range(), "plan", "write trigger: in cluster goes with an event (on ...): a write is the controller's own")
		case o.Cluster:
			t.Seen = ir.SeenCluster
		case o.Prev != nil:
			t.Changing = &ir.Change{Prev: c.fragment(o.Prev, sc), Cur: c.fragment(o.Cur, sc)}
		case o.Without != nil:
			t.Without = c.fragment(o.Without, sc)
		}
	}
}

func leafOptName(o *syntax.LeafOpt) string {
	switch {
	case o.Subresource != nil:
		return "subresource"
	case o.Cluster:
		return "in cluster"
	case o.Prev != nil:
		return "changing"
	}
	return "without"
}

// fragment evaluates an object written in a leaf option to the nested
// maps it stands for.
func (c *checker) fragment(o *syntax.Object, sc *scope) map[string]any {
	if o == nil {
		return map[string]any{}
	}
	return objectToAny(c.evalFields(o, sc))
}
