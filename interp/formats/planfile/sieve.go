package planfile

import (
	"errors"
	"fmt"
	"time"

	"github.com/sievetool/sieve/lang/format"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
)

// Sieve writes the plan as a .sieve plan declaration named name, after
// the comment lines in comment (without "//"); it compiles back to the
// same actions (a test holds every generated plan to that). It fails for
// what the language cannot say: a reference-run revision (plans made
// before stale-on took at), a leaf on any verb or on objects without a
// name (lists, collections), a call's method that is not an identifier.
// A stale answer is written as "appfault stale": a spec's plan takes its
// answer from the reference run when it is compiled for running
// (interp/analysis/plan), which gives a generated stale plan's call, on
// the same reference, the answer its plan file carries.
// lang/format prints it.
func (p *Plan) Sieve(name string, comment ...string) (string, error) {
	if p.Checkpoint != nil {
		return "", fmt.Errorf("plan %s: it runs from the checkpoint after explored operation %d, which a spec's plan cannot say (its triggers count from there)", p.Name, p.Checkpoint.After)
	}
	id, err := syntax.NewIdent(name)
	if err != nil {
		return "", fmt.Errorf("plan %s: %w", p.Name, err)
	}
	pl := &syntax.Plan{Name: id, Steps: make([]*syntax.PlanStep, len(p.Actions))}
	for i, a := range p.Actions {
		step := &syntax.PlanStep{}
		if step.Action, err = a.sieve(); err != nil {
			return "", fmt.Errorf("plan %s: action %d (%s): %w", p.Name, i+1, a.Kind, err)
		}
		if a.Trigger != nil {
			if step.Trigger, err = a.Trigger.sieve(); err != nil {
				return "", fmt.Errorf("plan %s: action %d (%s): trigger: %w", p.Name, i+1, a.Kind, err)
			}
		}
		pl.Steps[i] = step
	}
	return string(format.Decl(pl, comment...)), nil
}

// sieve builds an action without its trigger.
func (a *Action) sieve() (syntax.Action, error) {
	if a.Revision != "" {
		return nil, fmt.Errorf("revision %s: a reference run's revision has no .sieve form (stale on KEY at EVENT)", a.Revision)
	}
	switch a.Kind {
	case ir.ActCrash:
		return &syntax.Crash{Crash: true}, nil
	case ir.ActRestart:
		return &syntax.Restart{Restart: true}, nil
	case ir.ActResume:
		return &syntax.ResumeController{Resume: true}, nil
	case ir.ActWait:
		d, err := duration(a.Duration.D())
		return &syntax.Pause{Duration: d}, err
	case ir.ActError:
		id, err := syntax.NewIdent(string(a.Error))
		return &syntax.APIError{Name: id}, err
	case ir.ActAppFault:
		id, err := syntax.NewIdent(string(a.AppFault))
		return &syntax.AppFault{Name: id}, err
	case ir.ActPause:
		f, err := holdFor(a.Duration.D())
		return &syntax.PauseController{Pause: true, For: f}, err
	}
	scope, err := sieveKey(a.Scope)
	if err != nil {
		return nil, err
	}
	return a.scoped(scope)
}

// scoped builds an action on the objects of scope.
func (a *Action) scoped(scope *syntax.Expr) (syntax.Action, error) {
	switch a.Kind {
	case ir.ActStaleOn:
		return a.staleOn(scope)
	case ir.ActStaleOff:
		return &syntax.Stale{Switch: "off", Scope: scope}, nil
	case ir.ActHold:
		f, err := holdFor(a.HoldBound().D()) // a learned bound as the spec would say it
		return &syntax.Hold{Scope: scope, For: f}, err
	case ir.ActRelease:
		return &syntax.Release{Scope: scope}, nil
	}
	return nil, fmt.Errorf("unknown action %q", a.Kind)
}

// staleOn builds "stale on SCOPE", at an earlier event if the action has
// one.
func (a *Action) staleOn(scope *syntax.Expr) (syntax.Action, error) {
	s := &syntax.Stale{Switch: "on", Scope: scope}
	if a.At == nil {
		return s, nil
	}
	if a.At.Op != ir.TrigEvent {
		return nil, fmt.Errorf("at: a %s trigger (want an event)", a.At.Op)
	}
	leaf, err := a.At.sieveLeaf()
	if err != nil {
		return nil, err
	}
	s.At = &syntax.StaleAt{Event: leaf.(*syntax.Event)}
	return s, nil
}

// sieve builds a trigger; a combinator's arguments that are combinators
// themselves are parenthesised, so the tree compiles back as it is.
func (t *Trigger) sieve() (*syntax.Trigger, error) {
	switch t.Op {
	case ir.TrigEvent, ir.TrigWrite, ir.TrigTimeout, ir.TrigQuiet, ir.TrigCall, ir.TrigRead:
		a, err := t.atom()
		if err != nil {
			return nil, err
		}
		return combine(ir.TrigSeq, []syntax.TriggerAtom{a}), nil
	case ir.TrigSeq, ir.TrigAll, ir.TrigAny:
		if len(t.Args) >= 2 {
			return t.combinator()
		}
	}
	return nil, fmt.Errorf("trigger %s with %d arguments", t.Op, len(t.Args))
}

// combinator builds A ; B, A & B or A | B from the trigger's arguments.
func (t *Trigger) combinator() (*syntax.Trigger, error) {
	args := make([]syntax.TriggerAtom, len(t.Args))
	for i, a := range t.Args {
		var err error
		if args[i], err = a.atom(); err != nil {
			return nil, err
		}
	}
	return combine(t.Op, args), nil
}

// atom builds a trigger as one operand: a leaf, or a combinator in
// parentheses.
func (t *Trigger) atom() (syntax.TriggerAtom, error) {
	switch t.Op {
	case ir.TrigEvent, ir.TrigWrite:
		return t.sieveLeaf()
	case ir.TrigTimeout:
		d, err := duration(t.Duration.D())
		return &syntax.Timeout{Duration: d}, err
	case ir.TrigQuiet:
		return t.quiet()
	case ir.TrigCall:
		return t.sieveCall()
	case ir.TrigRead:
		return t.sieveRead()
	}
	g, err := t.sieve()
	if err != nil {
		return nil, err
	}
	return &syntax.Group{Trigger: g}, nil
}

// combine joins atoms with the combinator op: A ; B, A & B or A | B (one
// atom alone with TrigSeq).
func combine(op ir.TriggerOp, atoms []syntax.TriggerAtom) *syntax.Trigger {
	both := func(as ...syntax.TriggerAtom) *syntax.Both { return &syntax.Both{All: as} }
	t := &syntax.Trigger{}
	switch op {
	case ir.TrigAll:
		t.Seq = []*syntax.Either{{Alts: []*syntax.Both{both(atoms...)}}}
	case ir.TrigAny:
		e := &syntax.Either{}
		for _, a := range atoms {
			e.Alts = append(e.Alts, both(a))
		}
		t.Seq = []*syntax.Either{e}
	default:
		for _, a := range atoms {
			t.Seq = append(t.Seq, &syntax.Either{Alts: []*syntax.Both{both(a)}})
		}
	}
	return t
}

// quiet builds "quiet for D after reading KEY".
func (t *Trigger) quiet() (syntax.TriggerAtom, error) {
	d, err := duration(t.Duration.D())
	if err != nil {
		return nil, err
	}
	k, err := sieveKey(t.Target)
	if err != nil {
		return nil, err
	}
	return &syntax.Quiet{Duration: d, Target: k}, nil
}

// sieveLeaf builds an event or write leaf.
func (t *Trigger) sieveLeaf() (syntax.TriggerAtom, error) {
	if t.On == "" {
		return nil, fmt.Errorf("%s leaf on any verb", t.Op)
	}
	k, err := sieveKey(t.Target)
	if err != nil {
		return nil, err
	}
	opts, err := t.leafOpts()
	if err != nil {
		return nil, err
	}
	where, err := t.where()
	if err != nil {
		return nil, err
	}
	var count *syntax.NumberLit
	if t.Count > 1 {
		count = syntax.NewCount(uint(t.Count))
	}
	if t.Op == ir.TrigWrite {
		w, err := syntax.NewWrite(t.Failed, t.Sent, t.On, k)
		if err != nil {
			return nil, err
		}
		w.Opts, w.Where, w.Count = opts, where, count
		return w, nil
	}
	e, err := syntax.NewEvent(t.On, k)
	if err != nil {
		return nil, err
	}
	e.Opts, e.Where, e.Count = opts, where, count
	return e, nil
}

// sieveCall builds a call leaf: "on call exec [...] in POD #N", "on call
// GET "/path" to "standin" changed #N".
func (t *Trigger) sieveCall() (syntax.TriggerAtom, error) {
	c, err := syntax.NewCallLeaf(t.On, t.Command, t.Method, t.Path, t.Standin)
	if err != nil {
		return nil, err
	}
	if t.Target != nil {
		if c.Pod, err = sieveKey(t.Target); err != nil {
			return nil, err
		}
	}
	c.Changed = t.Changed
	if t.Count > 1 {
		c.Count = syntax.NewCount(uint(t.Count))
	}
	return c, nil
}

// sieveRead builds a read leaf: "on read VERB KEY #N".
func (t *Trigger) sieveRead() (syntax.TriggerAtom, error) {
	k, err := sieveKey(t.Target)
	if err != nil {
		return nil, err
	}
	r, err := syntax.NewReadLeaf(t.On, k)
	if err != nil {
		return nil, err
	}
	if t.Count > 1 {
		r.Count = syntax.NewCount(uint(t.Count))
	}
	return r, nil
}

// leafOpts builds what narrows a leaf to one change: its subresource,
// in cluster, the diff it makes and a fragment it removes.
func (t *Trigger) leafOpts() ([]*syntax.LeafOpt, error) {
	var opts []*syntax.LeafOpt
	if t.Subresource != "" {
		sub, err := syntax.NewIdent(t.Subresource)
		if err != nil {
			return nil, fmt.Errorf("subresource: %w", err)
		}
		opts = append(opts, &syntax.LeafOpt{Subresource: sub})
	}
	if t.Seen == SeenCluster {
		opts = append(opts, &syntax.LeafOpt{Cluster: true})
	}
	if t.Diff != nil {
		prev, err1 := syntax.NewObject(nonNil(t.Diff.Prev))
		cur, err2 := syntax.NewObject(nonNil(t.Diff.Cur))
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("changing: %w", err)
		}
		opts = append(opts, &syntax.LeafOpt{Prev: prev, Cur: cur})
	}
	if t.NoLonger != nil {
		frag, err := syntax.NewObject(t.NoLonger)
		if err != nil {
			return nil, fmt.Errorf("without: %w", err)
		}
		opts = append(opts, &syntax.LeafOpt{Without: frag})
	}
	return opts, nil
}

// nonNil writes an absent side of a diff as an empty object, which is
// what the slim diff holds for it.
func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// where builds a leaf's where condition, if it has one.
func (t *Trigger) where() (*syntax.Cond, error) {
	c := t.Where
	switch {
	case c == nil:
		return nil, nil
	case c.Expr != "":
		return &syntax.Cond{CEL: syntax.NewString(c.Expr)}, nil
	}
	path, err := syntax.NewPath(c.Path)
	if err != nil {
		return nil, fmt.Errorf("where: %w", err)
	}
	if c.Exists {
		return &syntax.Cond{Path: path, Exists: true}, nil
	}
	v, err := syntax.NewValue(c.Value)
	if err != nil {
		return nil, fmt.Errorf("where %s: %w", c.Path, err)
	}
	return &syntax.Cond{Path: path, Equals: v}, nil
}

// sieveKey builds a reference as a resource key.
func sieveKey(r *ir.Ref) (*syntax.Expr, error) {
	if r == nil || r.Kind == "" || r.Name == "" {
		return nil, fmt.Errorf("object %v: a leaf or scope without a name has no resource key", r)
	}
	k, err := syntax.NewKey(r.String())
	if err != nil {
		return nil, err
	}
	return syntax.NewExpr(k), nil
}

// duration builds a duration literal.
func duration(d time.Duration) (*syntax.Expr, error) {
	lit, err := syntax.NewDuration(d)
	if err != nil {
		return nil, err
	}
	return syntax.NewExpr(lit), nil
}

// holdFor builds the "for D" of a hold or a pause; none for 0.
func holdFor(d time.Duration) (*syntax.HoldFor, error) {
	if d <= 0 {
		return nil, nil
	}
	e, err := duration(d)
	return &syntax.HoldFor{Duration: e}, err
}
