package planfile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sievetool/sieve/lang/format"
	"github.com/sievetool/sieve/lang/ir"
)

// Sieve writes the plan as a .sieve plan declaration named name, which
// compiles back to the same actions (a test holds every generated plan
// to that). It fails for what the language cannot say: a reference-run
// revision (plans made before stale-on took at), a leaf on any verb or on
// objects without a name (lists, collections). lang/format lays it out.
func (p *Plan) Sieve(name string) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "plan %s {\n", name)
	for i, a := range p.Actions {
		line, err := a.sieve()
		if err != nil {
			return "", fmt.Errorf("plan %s: action %d (%s): %w", p.Name, i+1, a.Kind, err)
		}
		if a.Trigger != nil {
			t, err := a.Trigger.sieve()
			if err != nil {
				return "", fmt.Errorf("plan %s: action %d (%s): trigger: %w", p.Name, i+1, a.Kind, err)
			}
			line = t + ": " + line
		}
		b.WriteString("  " + line + "\n")
	}
	b.WriteString("}\n")
	out, ds := format.Source(name+".sieve", []byte(b.String()))
	if ds.HasErrors() {
		return "", fmt.Errorf("plan %s: %w", p.Name, ds.Err())
	}
	return string(out), nil
}

// sieve writes an action without its trigger.
func (a *Action) sieve() (string, error) {
	if a.Revision != "" {
		return "", fmt.Errorf("revision %s: a reference run's revision has no .sieve form (stale on KEY at EVENT)", a.Revision)
	}
	switch a.Kind {
	case ir.ActCrash, ir.ActRestart, ir.ActResume:
		return string(a.Kind), nil
	case ir.ActWait:
		return "wait " + a.Duration.String(), nil
	case ir.ActPause:
		if a.Duration > 0 {
			return "pause for " + a.Duration.String(), nil
		}
		return "pause", nil
	}
	scope, err := sieveKey(a.Scope)
	if err != nil {
		return "", err
	}
	switch a.Kind {
	case ir.ActStaleOn:
		if a.At == nil {
			return "stale on " + scope, nil
		}
		if a.At.Op != ir.TrigEvent {
			return "", fmt.Errorf("at: a %s trigger (want an event)", a.At.Op)
		}
		at, err := a.At.sieve()
		return "stale on " + scope + " at " + at, err
	case ir.ActStaleOff:
		return "stale off " + scope, nil
	case ir.ActHold:
		if d := a.HoldBound(); d > 0 {
			return "hold " + scope + " for " + d.String(), nil // a learned bound as the spec would say it
		}
		return "hold " + scope, nil
	case ir.ActRelease:
		return "release " + scope, nil
	}
	return "", fmt.Errorf("unknown action %q", a.Kind)
}

// sieve writes a trigger; a combinator's arguments that are combinators
// themselves are parenthesised, so the tree compiles back as it is.
func (t *Trigger) sieve() (string, error) {
	switch t.Op {
	case ir.TrigEvent, ir.TrigWrite:
		return t.sieveLeaf()
	case ir.TrigTimeout:
		return "after " + t.Duration.String(), nil
	case ir.TrigQuiet:
		k, err := sieveKey(t.Target)
		return "quiet for " + t.Duration.String() + " after reading " + k, err
	}
	sep, ok := map[ir.TriggerOp]string{ir.TrigSeq: " ; ", ir.TrigAll: " & ", ir.TrigAny: " | "}[t.Op]
	if !ok || len(t.Args) < 2 {
		return "", fmt.Errorf("trigger %s with %d arguments", t.Op, len(t.Args))
	}
	args := make([]string, len(t.Args))
	for i, a := range t.Args {
		s, err := a.sieve()
		if err != nil {
			return "", err
		}
		if len(a.Args) > 0 {
			s = "(" + s + ")"
		}
		args[i] = s
	}
	return strings.Join(args, sep), nil
}

// sieveLeaf writes an event or write leaf.
func (t *Trigger) sieveLeaf() (string, error) {
	if t.On == "" {
		return "", fmt.Errorf("%s leaf on any verb", t.Op)
	}
	k, err := sieveKey(t.Target)
	if err != nil {
		return "", err
	}
	s := "on " + t.On + " " + k
	if t.Op == ir.TrigWrite {
		s = "after write " + t.On + " " + k
		if t.Failed {
			s = "after failed write " + t.On + " " + k
		}
	}
	if t.Subresource != "" {
		s += " subresource " + t.Subresource
	}
	if t.Seen == SeenCluster {
		s += " in cluster"
	}
	if t.Diff != nil {
		s += " changing " + Canonical(nonNil(t.Diff.Prev)) + " to " + Canonical(nonNil(t.Diff.Cur))
	}
	if t.NoLonger != nil {
		s += " without " + Canonical(t.NoLonger)
	}
	if t.Where != nil {
		s += " where " + sieveCond(t.Where)
	}
	if t.Count > 1 {
		s += " #" + strconv.Itoa(t.Count)
	}
	return s, nil
}

// nonNil writes an absent side of a diff as an empty object, which is
// what the slim diff holds for it.
func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func sieveCond(c *ir.Cond) string {
	switch {
	case c.Expr != "":
		return strconv.Quote(c.Expr)
	case c.Exists:
		return c.Path + " exists"
	}
	return c.Path + " == " + Canonical(c.Value)
}

// sieveKey writes a reference as a resource key token.
func sieveKey(r *ir.Ref) (string, error) {
	if r == nil || r.Kind == "" || r.Name == "" {
		return "", fmt.Errorf("object %v: a leaf or scope without a name has no resource key", r)
	}
	return r.String(), nil
}
