package plan

import (
	"slices"
	"time"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/lang/ir"
)

// intermediate makes one candidate per controller write: crash the
// controller right after the API server committed it, before the response
// reaches the controller, then start it again.
func (g *generator) intermediate(pol *ir.Policy) ([]*candidate, []pass) {
	cands := make([]*candidate, 0, len(g.ix.writes))
	for _, w := range g.ix.writes {
		cands = append(cands, g.crashAfter(w))
	}
	return cands, g.writePasses(pol)
}

// writePasses are the pruning passes of the patterns made of one write
// each (intermediate, apierror).
func (g *generator) writePasses(pol *ir.Policy) []pass {
	pr := pol.Prune
	return []pass{
		filterPass(pol),
		{PassFailed, pr.Failed, func(c *candidate) bool { return c.write.OK() }, writeWhy(failedWhy)},
		{PassNoOp, pr.NoOp, func(c *candidate) bool { return !isNoOp(c.write) }, writeWhy(noOpWhy)},
		{PassNondeterministic, pr.Nondeterministic, func(c *candidate) bool { return !g.nondeterministic(c.write) }, writeWhy(g.nondeterministicWhy)},
		{PassCausality, pr.Causality, func(c *candidate) bool { return g.caused(c.write) }, writeWhy(g.uncausedWhy)},
		{PassDuplicates, pr.Duplicates, func(c *candidate) bool { return !g.duplicate(c.write) }, writeWhy(g.duplicateWhy)},
	}
}

// apiError makes one candidate per controller write and API error of the
// policy (ir.DefaultAPIErrors when it names none) that the API server
// could give that write (conditional): answer the write, as
// the controller sends it, with that error in the API server's place
// (for timeout_applied: once the server has applied it). The candidates
// are pruned as intermediate's are: a write that failed, changed nothing,
// names a generated object, followed from no event, or repeats, makes no
// plan. With gone among the errors, it also makes one candidate per
// delivered event, which ends that watch after it (goneAfter, pruned by
// watchPasses). With read verbs in the policy's api_reads, it also
// makes one candidate per read of the controller's own of those verbs
// and error that answers a read (readCandidates, pruned by readPasses).
func (g *generator) apiError(pol *ir.Policy) ([]*candidate, []pass) {
	kinds := pol.APIErrors
	if len(kinds) == 0 {
		kinds = ir.DefaultAPIErrors()
	}
	cands := make([]*candidate, 0, len(g.ix.writes)*len(kinds))
	for _, w := range g.ix.writes {
		for _, k := range kinds {
			if k != ir.ErrGone && (k != ir.ErrConflict || conditional(w)) {
				cands = append(cands, g.answerWith(w, k))
			}
		}
	}
	lists := []passList{{func(c *candidate) bool { return c.write != nil }, g.writePasses(pol)}}
	if slices.Contains(kinds, ir.ErrGone) {
		cands = append(cands, g.goneCandidates()...)
		lists = append(lists, passList{func(c *candidate) bool { return c.event != nil }, g.watchPasses(pol)})
	}
	if len(pol.APIReads) > 0 {
		cands = append(cands, g.readCandidates(pol, kinds)...)
		lists = append(lists, passList{func(c *candidate) bool { return c.read != nil }, g.readPasses(pol)})
	}
	return cands, mergePasses(lists)
}

// conditional reports whether the API server could refuse write w with
// a 409 Conflict: an update or patch that carries the resourceVersion it
// was made from (optimistic concurrency). A create of an object that
// exists is refused as AlreadyExists, not Conflict, and a delete only
// when its precondition fails, which tells the controller the object was
// replaced: a conflict there would be a lie a correct controller believes.
func conditional(w *item) bool {
	if w.Verb != "update" && w.Verb != "patch" {
		return false
	}
	return bodyVersion(w.Entry) != ""
}

// answerWith is the apierror candidate that answers write w with error k.
func (g *generator) answerWith(w *item, k ir.APIErrorKind) *candidate {
	c := &candidate{write: w, apiError: k, slug: string(k) + "-" + w.Key.String() + "-" + w.Verb + "-" + w.Subresource}
	c.build = func() *planfile.Plan {
		return &planfile.Plan{
			Workload: w.workload,
			Actions:  []*planfile.Action{{Kind: ir.ActError, Error: k, Trigger: sentLeaf(w)}},
			Why:      []planfile.Why{why("write", w)},
		}
	}
	return c
}

// crashAfter is the intermediate-state candidate for write w.
func (g *generator) crashAfter(w *item) *candidate {
	c := &candidate{write: w, slug: w.Key.String() + "-" + w.Verb + "-" + w.Subresource}
	c.build = func() *planfile.Plan {
		return &planfile.Plan{
			Workload: w.workload,
			Actions:  []*planfile.Action{{Kind: ir.ActCrash, Trigger: leaf(w)}},
			Why:      []planfile.Why{why("write", w)},
		}
	}
	return c
}

// caused reports whether some delivered event may have caused write w.
func (g *generator) caused(w *item) bool {
	for _, n := range between(g.ix.deliveries, w.lo, w.at()) {
		if g.ix.related(n, w) {
			return true
		}
	}
	return false
}

// stale makes one candidate per pair (event N delivered, later delete U).
// When U's object comes back (or the controller sees newer state of N's
// object), the candidate restarts the controller into a view of N's
// object frozen at N's revision (the one shown when N was delivered). It
// lifts the freeze once the controller has read it and gone quiet, or
// after the policy's StaleFor at the latest.
func (g *generator) stale(pol *ir.Policy) ([]*candidate, []pass) {
	cands := make([]*candidate, 0, g.stalePairs())
	for _, u := range g.ix.writes {
		if isDelete(u) {
			for _, n := range between(g.ix.deliveries, time.Time{}, u.at()) {
				cands = append(cands, &candidate{event: n, write: u})
			}
		}
	}
	pr := pol.Prune
	return cands, []pass{
		filterPass(pol),
		{PassFailed, pr.Failed, func(c *candidate) bool { return c.write.OK() }, writeWhy(failedWhy)},
		{PassNoOp, pr.NoOp, func(c *candidate) bool { return !isNoOp(c.event) }, eventWhy(noOpWhy)},
		{PassNondeterministic, pr.Nondeterministic, func(c *candidate) bool {
			return !g.nondeterministic(c.event) && !g.nondeterministic(c.write)
		}, eitherWhy(g.nondeterministic, g.nondeterministicWhy)},
		{PassCausality, pr.Causality, func(c *candidate) bool {
			return g.ix.plausible(c.event, c.write) && g.refuted(c.event, c.write) == nil
		}, g.staleCausalityWhy},
		{PassEffect, true, func(c *candidate) bool { return g.staleBack(pol, c) }, noEffectWhy},
		{PassDuplicates, pr.Duplicates, func(c *candidate) bool {
			return !g.duplicate(c.event) && !g.duplicate(c.write)
		}, eitherWhy(g.duplicate, g.duplicateWhy)},
	}
}

// stalePairs counts the stale pattern's candidates without making them:
// the events delivered before each delete, found by binary search.
func (g *generator) stalePairs() int {
	n := 0
	for _, u := range g.ix.writes {
		if isDelete(u) {
			n += len(between(g.ix.deliveries, time.Time{}, u.at()))
		}
	}
	return n
}

// isDelete reports whether write w deletes.
func isDelete(w *item) bool { return w.Verb == "delete" || w.Verb == "deletecollection" }

// refutation is another reference run's evidence against a stale pair:
// there, the same delete was sent when no delivery of the same state may
// have led to it.
type refutation struct {
	ix    *index
	write *item   // the delete, in that run
	state []*item // the deliveries of the state before it, in that run
	own   bool    // the state was compared without its status
}

// refuted returns the evidence of another reference run (Options.Others)
// that delivered event n did not lead to delete w. That run made the same
// delete after delivering n's state (see input: the same masked object,
// its status aside when the controller writes it). By its own trace, no
// delivery of that state may have led to it (see index.plausible). The
// runs drive one controller through one workload: they make the same
// decisions, at different paces. One run's timing may not tell which
// state a delete was made from: a controller may send requests without
// pause for seconds, or delete a few milliseconds after the state that
// warrants it arrived. Another run's timing often can. A view frozen at a
// state the controller had moved past tests a decision it never made. It
// is nil when no other run delivered that state before that delete.
func (g *generator) refuted(n, w *item) *refutation {
	for _, o := range g.others {
		own := g.ix.ownStatus[n.Key] || o.ownStatus[n.Key]
		w2, ns := o.repeat(n, w, own)
		if w2 == nil || slices.ContainsFunc(ns, func(n2 *item) bool { return o.plausible(n2, w2) }) {
			continue
		}
		return &refutation{ix: o, write: w2, state: ns, own: own}
	}
	return nil
}

// staleBack finds what fires the stale view of candidate c and completes
// it. That is the first time after the delete that the deleted object
// comes back: delivered to the controller, seen in the cluster, or created
// by the controller. Else it is the first newer state of N's object that
// the controller acted on. It reports false when there is none.
func (g *generator) staleBack(pol *ir.Policy, c *candidate) bool {
	ix, n, u := g.ix, c.event, c.write
	isBack := func(it *item) bool { return it.Verb == "create" && it.OK() }
	back := after(ix.delivByKey[u.Key], u.seq(), isBack)
	if back == nil {
		back = after(ix.histByKey[u.Key], u.seq(), isBack)
	}
	if back == nil {
		back = after(ix.writeByKey[u.Key], u.seq(), isBack)
	}
	if back == nil {
		back = after(ix.delivByKey[n.Key], u.seq(), func(it *item) bool { return g.actedOn(it) })
	}
	if back == nil {
		return false
	}
	c.back = back
	c.slug = n.Key.String() + "-" + n.Verb
	staleFor := pol.StaleFor.D()
	if staleFor <= 0 {
		staleFor = g.opts.StaleFor
	}
	quiet := pol.StaleQuiet.D()
	if quiet <= 0 {
		quiet = g.opts.StaleQuiet
	}
	quiet = min(quiet, staleFor)
	c.build = func() *planfile.Plan { return stalePlan(c, ir.Duration(quiet), ir.Duration(staleFor)) }
	return true
}

// stalePlan builds the stale-state plan of a completed candidate: the
// view is lifted once the restarted controller has read the frozen object
// and been quiet for quiet, or staleFor after its first request.
func stalePlan(c *candidate, quiet, staleFor ir.Duration) *planfile.Plan {
	n, u, back := c.event, c.write, c.back
	off := &planfile.Trigger{Op: ir.TrigAny, Args: []*planfile.Trigger{
		{Op: ir.TrigQuiet, Target: ref(n.Key), Duration: quiet},
		{Op: ir.TrigTimeout, Duration: staleFor},
	}}
	return &planfile.Plan{
		Workload: n.workload,
		Actions: []*planfile.Action{
			{Kind: ir.ActStaleOn, Scope: ref(n.Key), At: leaf(n), Trigger: leaf(back)},
			{Kind: ir.ActRestart},
			{Kind: ir.ActStaleOff, Scope: ref(n.Key), Trigger: off},
		},
		Why: []planfile.Why{why("event", n), why("delete", u), why("back", back)},
	}
}

// actedOn reports whether the controller made a write that changed
// something (2xx, not a no-op) and that delivered event n may have caused.
// The answers for all events are computed once, from the writes' side:
// each write marks the events of its window that are related to it.
func (g *generator) actedOn(n *item) bool {
	if g.acted == nil {
		g.acted = map[*item]bool{}
		for _, w := range g.ix.writes {
			if !w.OK() || isNoOp(w) {
				continue
			}
			for _, d := range between(g.ix.deliveries, w.lo, w.at()) {
				if !g.acted[d] && g.ix.related(d, w) {
					g.acted[d] = true
				}
			}
		}
	}
	return g.acted[n]
}

// unobserved makes one candidate per delivered event N that a later event
// N′ on the same object cancels: hold N (and what follows it) until N′
// arrives, then deliver only the newest state, so the controller never
// sees N.
func (g *generator) unobserved(pol *ir.Policy) ([]*candidate, []pass) {
	cands := make([]*candidate, 0, len(g.ix.deliveries))
	for _, n := range g.ix.deliveries {
		cands = append(cands, &candidate{event: n})
	}
	pr := pol.Prune
	return cands, []pass{
		{PassCancelled, true, func(c *candidate) bool { return g.cancelled(pol, c) }, eventWhy(notCancelledWhy)},
		filterPass(pol),
		{PassNoOp, pr.NoOp, func(c *candidate) bool { return !isNoOp(c.event) }, eventWhy(noOpWhy)},
		{PassNondeterministic, pr.Nondeterministic, func(c *candidate) bool { return !g.nondeterministic(c.event) }, eventWhy(g.nondeterministicWhy)},
		{PassCausality, pr.Causality, func(c *candidate) bool { return g.actedOn(c.event) }, eventWhy(notActedOnWhy)},
		{PassDuplicates, pr.Duplicates, func(c *candidate) bool { return !g.duplicate(c.event) }, eventWhy(g.duplicateWhy)},
	}
}

// cancelled finds the closest later delivery that cancels candidate c's
// event and completes the candidate, whose hold lasts the policy's HoldFor
// at most, or else the bound learned from the reference runs (holdBound);
// it reports false when there is none.
func (g *generator) cancelled(pol *ir.Policy, c *candidate) bool {
	n := c.event
	back := after(g.ix.delivByKey[n.Key], n.seq(), func(it *item) bool { return cancels(n, it) })
	if back == nil {
		return false
	}
	c.back = back
	c.slug = n.Key.String() + "-" + n.Verb
	holdFor, bound := pol.HoldFor, ir.Duration(0)
	if holdFor <= 0 {
		l := g.holdBound(n, back)
		bound, c.bound = l.bound, l.String()
	}
	c.build = func() *planfile.Plan { return unobservedPlan(c, holdFor, bound) }
	return true
}

// cancels reports whether event m cancels the earlier event n on the same
// object. It does when one is a delete and the other is not, when n is a
// creation (any later change hides it), or when m's object no longer
// holds what n changed.
func cancels(n, m *item) bool {
	if n.Verb == "delete" || m.Verb == "delete" {
		return n.Verb != m.Verb
	}
	if n.Verb == "create" || n.Diff.Empty() {
		return true
	}
	return !observe.Contains(m.Object, n.Diff.Cur)
}

// unobservedPlan builds the unobserved-state plan of a completed
// candidate; holdFor (the policy's) or else bound (learned) bounds its
// hold.
func unobservedPlan(c *candidate, holdFor, bound ir.Duration) *planfile.Plan {
	n := c.event
	return &planfile.Plan{
		Workload: n.workload,
		Actions: []*planfile.Action{
			{Kind: ir.ActHold, Scope: ref(n.Key), Duration: holdFor, Bound: bound, Trigger: leaf(n)},
			{Kind: ir.ActRelease, Scope: ref(n.Key), Trigger: releaseTrigger(n)},
		},
		Why: []planfile.Why{why("event", n), why("cancel", c.back)},
	}
}

// releaseTrigger is what ends the hold of event n: the kinds of later
// event that cancel it, on the same object.
func releaseTrigger(n *item) *planfile.Trigger {
	ev := func(on string) *planfile.Trigger {
		return &planfile.Trigger{Op: ir.TrigEvent, On: on, Target: ref(n.Key), Count: 1}
	}
	switch n.Verb {
	case "create":
		return &planfile.Trigger{Op: ir.TrigAny, Args: []*planfile.Trigger{ev("update"), ev("delete")}}
	case "delete":
		return &planfile.Trigger{Op: ir.TrigAny, Args: []*planfile.Trigger{ev("create"), ev("update")}}
	}
	if n.Diff == nil || len(n.Diff.Cur) == 0 {
		return ev("delete") // only fields went away: only a delete cancels it
	}
	upd := ev("update")
	upd.NoLonger = n.Diff.Cur
	return &planfile.Trigger{Op: ir.TrigAny, Args: []*planfile.Trigger{upd, ev("delete")}}
}
