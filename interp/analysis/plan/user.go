package plan

import (
	"fmt"
	"slices"

	"github.com/sievetool/sieve/interp/analysis/trigger"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// userPlans translates the test's own plans into the plan format, gives
// their stale app-fault actions the answer they give (staleAnswers), and
// adds them to the set with a count row each (baseline = final: user
// plans are not pruned).
func (g *generator) userPlans(set *Set) error {
	for _, up := range g.test.Plans {
		p, err := FromIR(g.test.Name, up)
		if err != nil {
			return err
		}
		if err := g.staleAnswers(p); err != nil {
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
		Command: t.Command, Standin: t.Standin, Method: t.Method, Path: t.Path, Changed: t.Changed}
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

// staleAnswers gives each stale app-fault action of user plan p the
// answer it gives: the call its trigger completes on when the reference
// run is replayed (trigger.Replay) gets the answer of the latest earlier
// occurrence of the same call that a generated stale plan could give it
// (appCall.staleFrom), and the plan's why names both calls. An action
// with no such answer gets NoAnswer, which says why: it misses when its
// trigger fires, and the plan is not-injected. The plan's name, made
// before, does not depend on the reference.
func (g *generator) staleAnswers(p *planfile.Plan) error {
	stale := func(a *planfile.Action) bool { return a.Kind == ir.ActAppFault && a.AppFault == ir.FaultStale }
	if !slices.ContainsFunc(p.Actions, stale) {
		return nil
	}
	fired, err := trigger.Replay(p, g.tr, g.masks)
	if err != nil {
		return fmt.Errorf("plan %s: %w", p.Policy, err)
	}
	calls := g.appCalls()
	for i, a := range p.Actions {
		if !stale(a) {
			continue
		}
		c := firedCall(fired, i, calls)
		src, why := staleSource(c)
		if src == nil {
			a.NoAnswer = why
			continue
		}
		key := g.callKey(c)
		a.Answer = src.answer
		p.Why = append(p.Why, c.why("call", key), src.why("earlier", key))
	}
	return nil
}

// firedCall is the call of calls on which action i fired in a replay, or
// nil when it did not fire on a call.
func firedCall(fired []trigger.Fired, i int, calls []*appCall) *appCall {
	for _, f := range fired {
		if f.Action != i {
			continue
		}
		for _, c := range calls {
			if c.entry.Seq == f.Seq {
				return c
			}
		}
	}
	return nil
}

// staleSource is the latest earlier occurrence of call c whose answer a
// stale answer to c can give, or nil and why there is none.
func staleSource(c *appCall) (*appCall, string) {
	if c == nil {
		return nil, "the reference run never met its trigger, so it has no call whose earlier answer to give"
	}
	if c.prev == nil {
		return nil, fmt.Sprintf("in the reference run, %s is the first of its kind, with no earlier answer to give", c.desc())
	}
	n, same := 0, 0
	for e := c.prev; e != nil; e = e.prev {
		if c.staleFrom(e) {
			return e, ""
		}
		n++
		if e.answer != nil {
			same++
		}
	}
	return nil, fmt.Sprintf("in the reference run, no earlier occurrence of %s was answered otherwise (%d earlier: %d with the same answer, %d whose answer was not recorded whole: past %d bytes, or an exec a real pod answered)",
		c.desc(), n, same, n-same, trace.AnswerLimit)
}
