package plan

import (
	"fmt"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/lang/ir"
)

// userPlans translates the test's own plans into the plan format and adds
// them to the set with a count row each (baseline = final: user plans are
// not pruned).
func (g *generator) userPlans(set *Set) error {
	for _, up := range g.test.Plans {
		p, err := FromIR(g.test.Name, up)
		if err != nil {
			return err
		}
		set.Plans = append(set.Plans, p)
		set.Counts = append(set.Counts, Count{Policy: up.Name, Pattern: planfile.User, Baseline: 1, Final: 1})
	}
	return nil
}

// FromIR translates a spec plan of test into the plan format. Its name is
// "user-" followed by the spec plan's name and a hash of its actions.
func FromIR(test string, up *ir.Plan) (*planfile.Plan, error) {
	p := &planfile.Plan{Format: planfile.Version, Test: test, Pattern: planfile.User, Policy: up.Name, Src: srcString(up.Src)}
	for i, a := range up.Actions {
		if a == nil {
			return nil, fmt.Errorf("plan %s: action %d: missing", up.Name, i+1)
		}
		t, err := triggerFromIR(a.Trigger)
		if err != nil {
			return nil, fmt.Errorf("plan %s: action %d: %w", up.Name, i+1, err)
		}
		at, err := triggerFromIR(a.At)
		if err != nil {
			return nil, fmt.Errorf("plan %s: action %d: at: %w", up.Name, i+1, err)
		}
		p.Actions = append(p.Actions, &planfile.Action{
			Kind: a.Kind, Scope: a.Scope, At: at, Duration: a.Duration, Error: a.Error, AppFault: a.AppFault, Trigger: t, Src: srcString(a.Src),
		})
	}
	p.SetName(up.Name)
	return p, nil
}

// triggerFromIR translates a trigger tree.
func triggerFromIR(t *ir.Trigger) (*planfile.Trigger, error) {
	if t == nil {
		return nil, nil
	}
	out := &planfile.Trigger{Op: t.Op, On: t.On, Target: t.Target, Where: t.Where, Count: t.Count, Duration: t.Duration,
		Subresource: t.Subresource, Failed: t.Failed, Sent: t.Sent, Seen: t.Seen, NoLonger: t.Without,
		Command: t.Command, Standin: t.Standin, Method: t.Method, Path: t.Path}
	if t.Changing != nil {
		out.Diff = &planfile.Diff{Prev: t.Changing.Prev, Cur: t.Changing.Cur}
	}
	switch t.Op {
	case ir.TrigEvent, ir.TrigWrite, ir.TrigTimeout, ir.TrigQuiet, ir.TrigCall, ir.TrigRead:
		if len(t.Args) > 0 {
			return nil, fmt.Errorf("trigger %s: a leaf has no arguments", t.Op)
		}
	case ir.TrigSeq, ir.TrigAll, ir.TrigAny:
		if len(t.Args) == 0 {
			return nil, fmt.Errorf("trigger %s: no arguments", t.Op)
		}
	default:
		return nil, fmt.Errorf("unknown trigger %q", t.Op)
	}
	for _, a := range t.Args {
		x, err := triggerFromIR(a)
		if err != nil {
			return nil, err
		}
		out.Args = append(out.Args, x)
	}
	return out, nil
}
