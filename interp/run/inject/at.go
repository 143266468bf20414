package inject

import (
	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/analysis/trigger"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// atEvent watches, from the start of the run, for the event a stale-on
// action's At names, and keeps the revision of the action's scope that
// the controller had been shown when it came.
type atEvent struct {
	eng   *trigger.Engine
	scope *ir.Ref
	fired bool
	rev   string
}

// atEvents makes an atEvent for each stale-on action of the plan that
// names one: an engine for a one-action plan fired by the At leaf.
func atEvents(p *planfile.Plan, masks *mask.Matcher) (map[*planfile.Action]*atEvent, error) {
	out := map[*planfile.Action]*atEvent{}
	for _, a := range p.Actions {
		if a.At == nil || a.Kind != ir.ActStaleOn {
			continue
		}
		one := &planfile.Plan{Format: p.Format, Name: p.Name, Actions: []*planfile.Action{{Kind: ir.ActWait, Trigger: a.At}}}
		eng, err := trigger.New(one, trigger.Options{Masks: masks})
		if err != nil {
			return nil, err
		}
		out[a] = &atEvent{eng: eng, scope: a.Scope}
	}
	return out, nil
}

// startAts arms the at events when the run starts.
func (in *Injector) startAts() {
	for _, at := range in.ats {
		at.eng.Start()
	}
}

// observeAts shows an entry of the run to the at events that have not
// come yet. One that comes now keeps the latest revision of its scope
// delivered so far: the entry's own, for a delivery in the scope
// (noteRevision has seen it).
func (in *Injector) observeAts(e *trace.Entry) {
	for _, at := range in.ats {
		if at.fired || len(at.eng.Observe(e)) == 0 {
			continue
		}
		at.fired, at.rev = true, in.latestRevision(at.scope)
	}
}

// latestRevision returns the revision of the latest delivery of the
// run in scope r ("" when none).
func (in *Injector) latestRevision(r *ir.Ref) string {
	s := in.scope(r)
	in.mu.Lock()
	defer in.mu.Unlock()
	for i := len(in.revs) - 1; i >= 0; i-- {
		if s.Covers(in.revs[i].key) {
			return in.revs[i].rev
		}
	}
	return ""
}

// atRevision returns the revision kept for a stale-on action's at event,
// if it came.
func (in *Injector) atRevision(a *planfile.Action) (string, bool) {
	at := in.ats[a]
	if at == nil || !at.fired || at.rev == "" {
		return "", false
	}
	return at.rev, true
}

// missedAt says why a stale-on action with an at event froze nothing:
// the event never came, or it came before the controller had been shown
// any state of the scope.
func (in *Injector) missedAt(a *planfile.Action) string {
	if at := in.ats[a]; at != nil && at.fired {
		return "the controller had been shown no state of " + a.Scope.String() + " when its freeze point came: " + a.At.String()
	}
	return "the test run never came to its freeze point: " + a.At.String()
}
